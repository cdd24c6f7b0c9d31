"""--data: your own collections, served with everything the built-in ones have."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.http.versions import VERSIONED_COLLECTIONS
from mock_server.userdata import datafile
from mock_server.userdata.datafile import RESERVED, DataError, read
from mock_server.userdata.store import DataStore
from tests.mock_server.conftest import EDITOR, asgi_client, make_settings

LIBRARY = Path(__file__).with_name("data") / "library.json"
SIREN = "application/vnd.siren+json"


def library_app(tmp_path: Path, **overrides: Any) -> tuple[MockApp, Path]:
    path = tmp_path / "library.json"
    shutil.copy(LIBRARY, path)
    return create_app(make_settings(data=path, **overrides)), path


@pytest.fixture
async def library(tmp_path: Path) -> Any:
    app, _ = library_app(tmp_path, read_only_data=True)
    async with asgi_client(app) as client:
        yield client


async def test_collections_are_linked_from_the_root(library: httpx.AsyncClient) -> None:
    links = (await library.get("/")).json()["_links"]
    assert links["books"]["href"] == "/books"
    assert links["author-search"]["href"] == "/authors{?name,born,q,embed,sort,limit,offset}"
    assert "rw:customers" in links


async def test_a_page_with_links_filters_and_sort(library: httpx.AsyncClient) -> None:
    page = await library.get("/books?inPrint=true&sort=-year&limit=2")
    assert page.status_code == 200
    body = page.json()
    assert body["total"] == 3
    assert [b["title"] for b in body["_embedded"]["books"]] == ["Kindred", "The Dispossessed"]
    assert body["_links"]["next"]["href"] == "/books?inPrint=true&sort=-year&limit=2&offset=2"
    assert 'rel="next"' in page.headers["link"]
    assert page.headers["etag"]


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("authorId=1", ["The Dispossessed", "The Left Hand of Darkness"]),
        ("title=dune", ["Dune"]),
        ("year=1979", ["Kindred"]),
        ("q=DARK", ["The Left Hand of Darkness"]),
        ("q=time%20travel", ["Kindred"]),
    ],
)
async def test_filters_on_every_scalar_field_and_full_text(
    library: httpx.AsyncClient, query: str, titles: list[str]
) -> None:
    body = (await library.get(f"/books?{query}")).json()
    assert [b["title"] for b in body["_embedded"]["books"]] == titles


@pytest.mark.parametrize(
    "query",
    ["colour=red", "year=soon", "year=NaN", "year=-inf", "inPrint=maybe", "sort=colour"],
)
async def test_bad_queries_are_problems(library: httpx.AsyncClient, query: str) -> None:
    response = await library.get(f"/books?{query}")
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("_sort=year&_order=desc", "json-server's _sort: sort here is sort=FIELD, sort=-FIELD"),
        ("_page=2&_limit=10", "json-server's _page: pages are limit and offset here"),
        ("_per_page=10", "json-server's _per_page: pages are limit and offset"),
        ("_embed=reviews", "json-server's _embed: embed=NAME here"),
        ("year_gte=1970", "json-server's gte operator is not served: year=VALUE matches exactly"),
        ("year:lt=1970", "json-server's lt operator is not served"),
        ("title_like=Dune", "title=VALUE matches exactly, q=TEXT searches every text field."),
        ("id=1&id=2", "A member is read at its own URL (/books/1), not by an id filter."),
    ],
)
async def test_json_servers_parameters_say_what_to_write_instead(
    library: httpx.AsyncClient, query: str, says: str
) -> None:
    response = await library.get(f"/books?{query}")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith("Unknown query parameter ")
    assert says in detail


async def test_other_unknown_parameters_have_no_json_server_hint(
    library: httpx.AsyncClient,
) -> None:
    for query in ("colour_gte=1", "colour=red"):
        detail = (await library.get(f"/books?{query}")).json()["detail"]
        assert "json-server" not in detail
        assert detail.endswith("title, version, year.")


async def test_relations_are_links_both_ways(library: httpx.AsyncClient) -> None:
    book = (await library.get("/books/2")).json()
    assert book["_links"]["author"] == {"href": "/authors/2", "title": "Frank Herbert"}
    assert book["_links"]["reviews"]["href"] == "/reviews?bookId=2"
    author = (await library.get("/authors/1")).json()
    assert author["_links"]["books"]["href"] == "/books?authorId=1"
    books = (await library.get(author["_links"]["books"]["href"])).json()
    assert books["total"] == 2


async def test_embed_on_members_and_pages(library: httpx.AsyncClient) -> None:
    author = (await library.get("/authors/1?embed=books")).json()
    assert [b["id"] for b in author["_embedded"]["books"]] == [1, 3]
    book = (await library.get("/books/2?embed=author,reviews")).json()
    assert book["_embedded"]["author"][0]["name"] == "Frank Herbert"
    assert book["_embedded"]["reviews"][0]["stars"] == 5
    page = (await library.get("/books?embed=author&limit=1")).json()
    first = page["_embedded"]["books"][0]
    assert first["_embedded"]["author"][0]["id"] == 1
    assert page["_links"]["next"]["href"] == "/books?embed=author&limit=1&offset=1"
    bad = await library.get("/books/1?embed=publisher")
    assert bad.status_code == 400
    assert "author" in bad.json()["detail"]


async def test_every_representation(library: httpx.AsyncClient) -> None:
    siren = await library.get("/books/2", headers={"Accept": SIREN})
    assert siren.headers["content-type"].startswith(SIREN)
    assert siren.json()["properties"]["title"] == "Dune"
    jsonapi = await library.get("/books/2", headers={"Accept": "application/vnd.api+json"})
    assert jsonapi.json()["data"]["relationships"]["author"]["data"] == {
        "type": "authors",
        "id": "2",
    }
    xml = await library.get("/books/2", headers={"Accept": "application/xml"})
    assert b"<title>Dune</title>" in xml.content
    refused = await library.get("/books/2", headers={"Accept": "image/png"})
    assert refused.status_code == 406


async def test_versions_by_every_style(library: httpx.AsyncClient) -> None:
    for path, headers in (
        ("/v2/books/1", {}),
        ("/books/1?version=2", {}),
        ("/books/1", {"Custom-Header": "api-version=2"}),
    ):
        response = await library.get(path, headers=headers)
        assert response.status_code == 200, path
        assert response.headers["api-version"] == "2"
    assert (await library.get("/v2/books/1")).json()["_links"]["author"]["href"] == "/v2/authors/1"
    assert (await library.get("/v3/books/1")).status_code == 404
    assert (
        await library.get("/books/1?version=2", headers={"Custom-Header": "api-version=1"})
    ).status_code == 400


async def test_writes_statuses_and_preconditions(library: httpx.AsyncClient) -> None:
    created = await library.post(
        "/books", json={"title": "Parable of the Sower", "authorId": 3}, headers=EDITOR
    )
    assert created.status_code == 201
    assert created.headers["location"] == "/books/5"
    etag = created.headers["etag"]
    stale = await library.put(
        "/books/5", json={"title": "x"}, headers={**EDITOR, "If-Match": '"stale"'}
    )
    assert stale.status_code == 412
    changed = await library.patch(
        "/books/5",
        json={"year": 1993},
        headers={**EDITOR, "If-Match": etag, "Content-Type": "application/merge-patch+json"},
    )
    assert changed.status_code == 200
    assert changed.json()["year"] == 1993
    assert (
        await library.get("/books/5", headers={"If-None-Match": changed.headers["etag"]})
    ).status_code == 304
    assert (await library.delete("/books/5", headers=EDITOR)).status_code == 204
    assert (await library.get("/books/5")).status_code == 410
    assert (await library.get("/books/99")).status_code == 404
    put_new = await library.put("/books/50", json={"title": "New", "authorId": 2}, headers=EDITOR)
    assert put_new.status_code == 201


async def test_schema_violations_and_conflicts(library: httpx.AsyncClient) -> None:
    wrong = await library.post(
        "/books", json={"title": 7, "authorId": 99, "novel": True}, headers=EDITOR
    )
    assert wrong.status_code == 422
    assert {e["field"] for e in wrong.json()["errors"]} == {"title", "authorId"}
    conflict = await library.delete("/authors/1", headers=EDITOR)
    assert conflict.status_code == 409
    assert conflict.json()["referrers"] == {"books": [1, 3]}
    assert (
        await library.post(
            "/books", content=b"{", headers={**EDITOR, "Content-Type": "application/json"}
        )
    ).status_code == 400
    assert (await library.post("/books", json={"title": "x"})).status_code == 401


async def test_openapi_describes_the_data(library: httpx.AsyncClient) -> None:
    document = (await library.get("/openapi.json")).json()
    assert {"/books", "/books/{id}", "/v2/authors/{id}"} <= set(document["paths"])
    schema = document["components"]["schemas"]["DataBook"]["allOf"][1]
    assert schema["properties"]["title"] == {"type": "string"}
    names = {p["name"] for p in document["paths"]["/books"]["get"]["parameters"]}
    assert {"title", "authorId", "year", "inPrint", "q", "embed", "sort"} <= names


async def test_writes_are_saved_to_the_file(tmp_path: Path) -> None:
    app, path = library_app(tmp_path)
    async with asgi_client(app) as client:
        await client.post("/authors", json={"name": "N. K. Jemisin"}, headers=EDITOR)
        await client.delete("/reviews/1", headers=EDITOR)
    saved = json.loads(path.read_text())
    assert saved["authors"][-1] == {"id": 4, "name": "N. K. Jemisin"}
    assert saved["reviews"] == []
    assert saved["books"][3]["id"] == 4
    # No temporary file left; the lock beside the file keeps it to one writer.
    listed = sorted(p.name for p in tmp_path.iterdir())  # noqa: ASYNC240
    assert listed == ["library.json", "library.json-lock"]
    store = app.service.store
    assert isinstance(store, DataStore)
    store.close()  # the first server lets go of the file
    restarted = create_app(make_settings(data=path))
    async with asgi_client(restarted) as client:
        assert (await client.get("/authors/4")).json()["name"] == "N. K. Jemisin"


async def test_read_only_data_never_touches_the_file(tmp_path: Path) -> None:
    app, path = library_app(tmp_path, read_only_data=True)
    before = path.read_bytes()
    async with asgi_client(app) as client:
        created = await client.post("/authors", json={"name": "Someone"}, headers=EDITOR)
        assert created.status_code == 201
        assert (await client.get("/authors/4")).status_code == 200
    assert path.read_bytes() == before


async def test_a_failed_save_is_not_acknowledged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, path = library_app(tmp_path)
    before = path.read_bytes()

    def disk_full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(datafile, "write_atomically", disk_full)
    async with asgi_client(app) as client:
        response = await client.post("/authors", json={"name": "Lost"}, headers=EDITOR)
        assert response.status_code == 500
        assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
        assert "Traceback" not in response.text
        assert (await client.get("/authors/4")).status_code == 404
        assert (await client.delete("/reviews/1", headers=EDITOR)).status_code == 500
        assert (await client.get("/reviews/1")).status_code == 200
    assert path.read_bytes() == before


def _edit_by_hand(path: Path, change: Any) -> None:
    """What a person does in an editor while the server runs: the file rewritten."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=4) + "\n")


async def test_an_edit_made_while_the_server_runs_is_served_and_never_overwritten(
    tmp_path: Path,
) -> None:
    app, path = library_app(tmp_path)
    async with asgi_client(app) as client:
        assert (await client.get("/authors/3")).status_code == 200
        _edit_by_hand(path, lambda d: d["authors"].append({"id": 9, "name": "Edited In"}))
        # Read as it is now, and a write goes on top of the edit, not over it.
        assert (await client.get("/authors/9")).json()["name"] == "Edited In"
        created = await client.post("/authors", json={"name": "Posted"}, headers=EDITOR)
        assert created.status_code == 201
        assert created.json()["id"] == 10
    saved = json.loads(path.read_text())
    assert [a["name"] for a in saved["authors"][-2:]] == ["Edited In", "Posted"]


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        ('{"authors": [', "cannot be read now"),
        ('{"authors": [], "books": []}', "restart the server to serve them"),
    ],
)
async def test_an_edit_the_server_cannot_take_is_never_written_over(
    tmp_path: Path, broken: str, says: str
) -> None:
    app, path = library_app(tmp_path)
    async with asgi_client(app) as client:
        path.write_text(broken)  # half-saved, or collections removed (routes need a restart)
        # Reads go on from what was read last; writes wait for the file to be good.
        assert (await client.get("/authors/1")).status_code == 200
        refused = await client.post("/authors", json={"name": "Lost"}, headers=EDITOR)
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "1"
        assert str(path) in refused.json()["detail"]
        assert says in refused.json()["detail"]
        assert path.read_text() == broken
        shutil.copy(LIBRARY, path)  # the person puts it right
        assert (await client.post("/authors", json={"name": "Kept"}, headers=EDITOR)).is_success
    assert json.loads(path.read_text())["authors"][-1]["name"] == "Kept"


async def test_reset_restores_the_file_data(tmp_path: Path) -> None:
    app, path = library_app(tmp_path, allow_reset=True)
    async with asgi_client(app) as client:
        await client.delete("/reviews/1", headers=EDITOR)
        assert (await client.post("/_reset")).status_code == 204
        assert (await client.get("/reviews/1")).status_code == 200
    assert json.loads(path.read_text())["reviews"][0]["id"] == 1


def test_yaml_files_are_read_like_json(tmp_path: Path) -> None:
    path = tmp_path / "db.yaml"
    path.write_text("posts:\n  - title: Hello\n  - id: 7\n    title: World\n")
    (posts,) = read(path)
    assert posts.rows == ((8, {"title": "Hello"}), (7, {"title": "World"}))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"books": [{"id": 1} {"id": 2}]}', "db.json:1:22: Expecting ',' delimiter"),
        ('{"books": [{"_links": {}}]}', "db.json:/books/0/_links: _links is the representation's"),
        ('["books"]', "db.json:/: expected an object"),
        ('{"books": {}}', "db.json:/books: a collection must be an array"),
        (
            '{"profile": {"name": "typicode"}}',
            "db.json:/profile: a collection must be an array of objects (json-server's "
            "singular resources, an object alone, are not served)",
        ),
        (
            '{"books": [{"id": "1"}]}',
            "db.json:/books/0/id: an id must be a whole number, got '1' (json-server 1.0's "
            "string ids: write 1, without quotes, and the same in the fields naming it)",
        ),
        ('{"books": [{"id": "a1"}]}', "an id must be a whole number, got 'a1'"),
        ('{"books": [1]}', "db.json:/books/0: each member must be an object"),
        ('{"books": [{"id": 1}, {"id": 1}]}', "db.json:/books/1/id: id 1 is also"),
        ('{"books": [{"id": 0}]}', "db.json:/books/0/id: an id must be from 1"),
        ('{"customers": []}', "db.json:/customers: 'customers' is a path the mock serves"),
        ('{"v2": []}', "db.json:/v2: 'v2' cannot be a collection name"),
        ('{"a b": []}', "db.json:/a b: 'a b' cannot be a collection name"),
    ],
)
def test_a_bad_file_is_one_line_naming_the_position(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "db.json"
    path.write_text(text)
    with pytest.raises(DataError) as caught:
        read(path)
    assert str(caught.value).startswith(f"{tmp_path}/")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@settings(max_examples=40, deadline=None, derandomize=True)
@example({"a": [{"0": "\x85", "b": "ä\u2028"}]})  # NEL and LS read back as line breaks if raw
@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True).filter(
            lambda name: name not in RESERVED and not name.startswith("v")
        ),
        st.lists(
            st.dictionaries(
                st.text(min_size=1, max_size=8).filter(
                    lambda k: k not in ("id", "_links", "_embedded", "_templates")
                ),
                st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
                max_size=4,
            ),
            max_size=4,
        ),
        max_size=3,
    )
)
def test_what_is_saved_reads_back_the_same(collections: dict[str, list[dict[str, Any]]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "source.json"
        source.write_text(json.dumps(collections))
        first = {table.name: table.rows for table in read(source)}
        for name in ("db.json", "db.yaml"):
            path = Path(directory) / name
            datafile.write_atomically(path, datafile.render(path, first))
            assert {table.name: table.rows for table in read(path)} == first, name


def test_reserved_names_cover_every_built_in_path(app: MockApp) -> None:
    from mock_server.resources import build_routes

    firsts = {route.path.strip("/").split("/")[0] for route in build_routes(app.service)}  # type: ignore[attr-defined]
    assert firsts - {""} <= RESERVED
    assert set(VERSIONED_COLLECTIONS) <= RESERVED


async def test_a_failed_save_leaves_no_trace_in_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, _ = library_app(tmp_path)
    async with asgi_client(app) as client:
        before = (await client.get("/authors")).json()  # the collection's indexes now exist

        def disk_full(path: Path, text: str) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(datafile, "write_atomically", disk_full)
        assert (
            await client.post("/authors", json={"name": "Lost"}, headers=EDITOR)
        ).status_code == 500
        after = await client.get("/authors")
        assert after.status_code == 200
        assert after.json()["total"] == before["total"]
        assert [a["name"] for a in after.json()["_embedded"]["authors"]] == [
            a["name"] for a in before["_embedded"]["authors"]
        ]
