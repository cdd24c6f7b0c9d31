"""A user's project testing its own client against restwalk-mock, through the pytest plugin.

Nothing here imports restwalk: the fixtures and the marker come from the
plugin that installing restwalk registers, as in any project that uses it.
"""

from __future__ import annotations

import httpx
import pytest

EDITOR = ("alice", "wonderland")


def add_book(base_url: str, title: str, author_id: int) -> str:
    """The code under test: creates a book, returns where it lives."""
    response = httpx.post(
        f"{base_url}/books",
        json={"title": title, "authorId": author_id},
        auth=EDITOR,
        headers={"X-Request-Id": "test-1"},
    )
    response.raise_for_status()
    return response.headers["Location"]


def customer_names(base_url: str) -> list[str]:
    """More code under test: every customer's name, page by page."""
    names: list[str] = []
    url: str | None = f"{base_url}/customers?limit=5"
    while url:
        page = httpx.get(url).json()
        # A customer under legal hold is listed without its data (451 when read).
        names += [c["name"] for c in page["_embedded"]["customers"] if "name" in c]
        following = page["_links"].get("next")
        url = f"{base_url}{following['href']}" if following else None
    return names


def test_the_client_reads_every_page(restwalk_mock, journal) -> None:
    names = customer_names(restwalk_mock.url)
    assert names[0] == "Ada Lovelace"
    assert [e.url for e in journal.entries(path="/customers")] == [
        "/customers?limit=5",
        "/customers?limit=5&offset=5",
        "/customers?limit=5&offset=10",
    ]


@pytest.mark.restwalk_mock(data="db.json")
def test_the_client_sends_what_it_should(restwalk_mock, journal) -> None:
    location = add_book(restwalk_mock.url, "The Word for World Is Forest", 1)
    assert location == "/books/5"
    (sent,) = journal.entries(method="POST", path="/books")
    assert sent.json() == {"title": "The Word for World Is Forest", "authorId": 1}
    assert sent.header("content-type") == "application/json"
    assert sent.header("x-request-id") == "test-1"
    assert sent.status == 201


@pytest.mark.restwalk_mock(data="db.json")
def test_each_test_starts_from_the_file(restwalk_mock) -> None:
    assert httpx.get(f"{restwalk_mock.url}/books/5").status_code == 404
    assert httpx.get(f"{restwalk_mock.url}/books?authorId=1").json()["total"] == 2


@pytest.mark.restwalk_mock(latency=0.05, fault_rate=1.0, fault_kinds=("503",))
def test_the_client_sees_faults(restwalk_mock, journal) -> None:
    response = httpx.get(f"{restwalk_mock.url}/products")
    assert response.status_code == 503
    assert response.headers["retry-after"] == "30"
    assert journal.last().status == 503


async def test_async_clients_work_too(restwalk_mock, journal) -> None:
    async with httpx.AsyncClient(base_url=restwalk_mock.url) as client:
        assert (await client.get("/anything", params={"q": "1"})).json()["args"] == {"q": "1"}
    assert len(journal) == 1
    journal.clear()
    assert len(journal) == 0
