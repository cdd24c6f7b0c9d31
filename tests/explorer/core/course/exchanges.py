"""Exchanges made by hand for the course's tests: no server, no network."""

from __future__ import annotations

from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest

ORIGIN = "http://mock.test"


def exchange(
    method: str,
    path: str,
    status: int = 200,
    *,
    headers: tuple[tuple[str, str], ...] = (),
    body: bytes = b"",
    answer: tuple[tuple[str, str], ...] = (),
    answer_body: bytes = b"",
    version: str = "HTTP/1.1",
    hops: int = 0,
) -> Exchange:
    """An exchange of ``method`` ``path`` at :data:`ORIGIN` answered ``status``."""
    request = SentRequest(method, ORIGIN + path, headers, body)
    response = ReceivedResponse(status, "", version, answer, answer_body, ORIGIN + path)
    hop = Hop(request, ReceivedResponse(301, "", version, (), b"", ORIGIN + path))
    return Exchange(request, request, response, hops=(hop,) * hops)
