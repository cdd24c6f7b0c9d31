"""One name per status code, whatever Python serves the mock: RFC 9110's."""

from __future__ import annotations

import httpx
import pytest

from mock_server import BackgroundServer


@pytest.mark.parametrize(
    ("code", "name"),
    [
        (413, "Content Too Large"),
        (414, "URI Too Long"),
        (416, "Range Not Satisfiable"),
        (422, "Unprocessable Content"),
    ],
)
def test_the_status_line_and_the_problem_title_say_rfc_9110s_name(code: int, name: str) -> None:
    with BackgroundServer() as server:
        response = httpx.get(f"{server.url}/status/{code}")
    assert response.status_code == code
    assert response.reason_phrase == name
    assert response.json()["title"] == name


def test_a_422_from_a_write_says_the_same_name() -> None:
    with BackgroundServer() as server:
        response = httpx.post(
            server.url + "/customers", auth=("alice", "wonderland"), json={"name": ""}
        )
    assert (response.status_code, response.reason_phrase) == (422, "Unprocessable Content")
    assert response.json()["title"] == "Unprocessable Content"
