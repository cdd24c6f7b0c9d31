"""The facts advice reads from one response: status, headers, method, body."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cached_property

from explorer.core.knowledge import field_values as fv

#: The product token of the bundled mock server's ``Server`` header.
MOCK_SERVER = "restwalk-mock"


class ResponseFacts:
    """What the advice readers look at: one response, and the request that got it.

    Made once per advice and only read: a plain class (a dataclass's generated methods
    would go unused, and cost the TUI's start), its header lookup cached.
    """

    def __init__(
        self,
        status: int,
        headers: Sequence[tuple[str, str]],
        method: str | None,
        body: bytes | None,
        request_headers: Sequence[tuple[str, str]],
    ) -> None:
        self.status = status
        self.headers = headers
        self.method = method
        self.body = body
        self.request_headers = request_headers

    def first(self, name: str) -> str | None:
        """The first value of header ``name``, stripped, or None."""
        return self._firsts.get(name.lower())

    @cached_property
    def _firsts(self) -> dict[str, str]:
        """Each header's first value, stripped, by its name in lower case: the readers ask
        for some fifteen fields of every response, and a look through all its headers
        for each (as :func:`~.field_values.first` does) lowered each name every time."""
        firsts: dict[str, str] = {}
        for key, value in self.headers:
            firsts.setdefault(key.lower(), value.strip())
        return firsts

    @property
    def another_server(self) -> bool:
        """True when the response names a server other than restwalk-mock (``Server``), or
        has headers and names none: advice on what the bundled mock does is then beside
        the point."""
        server = self.first("Server")
        if server is None:
            # The mock names itself in every answer; headers without a Server field are
            # another's (json-server, Express); no headers at all: a status explained alone.
            return bool(self.headers)
        return not server.lower().startswith(MOCK_SERVER)

    @property
    def date(self) -> datetime | None:
        """The response's ``Date``, parsed, or None."""
        return fv.parse_http_date(self.first("Date") or "")
