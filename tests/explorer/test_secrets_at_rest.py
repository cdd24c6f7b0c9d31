"""What is kept at rest holds no secret: the history (SQLite), its HAR export, a walk's HAR.

The requests go to httpbin (a server no one here wrote) over a socket; it echoes
what it was sent (``/anything``, ``/headers``, ``/cookies``, ``/response-headers``),
so each secret comes back under names of its own. Every secret value is then
looked for in the history's files on disk, in every kept exchange, in
``restwalk history --har`` and in the TUI's HAR export of a walk: it must be in
none of them, and each HAR still validates against the HAR 1.2 JSON Schema.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from explorer.core.carry.har import har_bytes, har_document
from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.http.upload import FormPart
from explorer.core.session.trail import Page
from explorer.core.storage.history import HistoryStore
from explorer.ui.har_export import walk_exchanges
from tests.explorer.cli_run import run
from tests.explorer.httpbin_server import HttpbinServer

SCHEMA = json.loads((Path(__file__).parent / "data" / "har" / "har-1.2.schema.json").read_text())

#: Secret headers, each with a value found nowhere else.
HEADERS = {
    "X-Api-Key": "hdr-api-key-1111",
    "Private-Token": "glpat-hdr-2222",
    "X-Auth-Token": "hdr-auth-token-3333",
    "Api-Key": "hdr-apikey-4444",
    "X-Access-Token": "hdr-access-5555",
    "X-Csrf-Token": "hdr-csrf-6666",
    "X-Amz-Security-Token": "hdr-amz-7777",
    "Proxy-Authorization": "Basic cHJveHk6cHJveHktc2VjcmV0",  # proxy:proxy-secret
}
#: Secret query parameters.
QUERY = {
    "X-Amz-Signature": "qs-amzsig-1111",
    "sig": "qs-sig-2222",
    "signature": "qs-signature-3333",
    "code": "qs-code-4444",
    "token": "qs-token-5555",
    "access_token": "qs-access-6666",
    "refresh_token": "qs-refresh-7777",
    "api_key": "qs-api-key-8888",
    "apikey": "qs-apikey-9999",
    "key": "qs-key-0000",
    "client_secret": "qs-client-secret-1212",
}
#: Secret fields of a body (multipart, an HTML form, JSON).
FIELDS = {
    "password": "field-password-1111",
    "client_secret": "field-client-secret-2222",
    "token": "field-token-3333",
    "secret": "field-secret-4444",
}
BASIC = ("alice", "wonderland-basic-5555")
BEARER = "bearer-token-6666"
COOKIE = "cookie-session-7777"


def secrets() -> list[str]:
    return [
        *HEADERS.values(),
        "cHJveHk6cHJveHktc2VjcmV0",
        "proxy-secret",
        *QUERY.values(),
        *FIELDS.values(),
        BASIC[1],
        BEARER,
        COOKIE,
    ]


def assert_no_secret(text: str, where: str) -> None:
    found = [secret for secret in secrets() if secret in text]
    assert found == [], f"{where} keeps {found}"


@pytest.fixture(scope="module")
def httpbin() -> Iterator[str]:
    with HttpbinServer() as server:
        yield server.url


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def header_options() -> list[str]:
    return [option for name, value in HEADERS.items() for option in ("-H", f"{name}: {value}")]


def query() -> str:
    return "&".join(f"{name}={value}" for name, value in QUERY.items())


def send_every_secret(capsys: pytest.CaptureFixture[str], url: str) -> None:
    """Each kind of secret, sent to httpbin's echoes by ``restwalk request``."""
    basic = ["-u", ":".join(BASIC)]
    cookie = ["--cookie", f"sid={COOKIE}"]
    fields = [f"{name}={value}" for name, value in FIELDS.items()]
    calls = [
        ["GET", f"{url}/anything?{query()}&page=2", *header_options(), *basic, *cookie],
        ["GET", f"{url}/headers", "--bearer", BEARER, *cookie],
        ["GET", f"{url}/cookies", *cookie],
        ["POST", f"{url}/anything", *(o for f in fields for o in ("-F", f)), "-F", "note=kept"],
        ["POST", f"{url}/anything", "-d", "&".join(fields) + "&username=alice"],
        ["POST", f"{url}/anything", "-d", json.dumps({**FIELDS, "username": "alice"})],
        # The key echoed back under a name that is no secret's: as a response header too.
        ["GET", f"{url}/response-headers?echo={HEADERS['X-Api-Key']}", *header_options()],
    ]
    for call in calls:
        code, out, err = run(capsys, "request", *call)
        assert code == 0, err
        assert "200 OK" in out


def test_the_history_and_its_har_keep_no_secret(
    capsys: pytest.CaptureFixture[str], httpbin: str, data_dir: Path, tmp_path: Path
) -> None:
    send_every_secret(capsys, httpbin)
    store = HistoryStore.in_directory(data_dir)
    kept = [exchange for _, exchange in store.exchanges(limit=None)]
    assert len(kept) == 7
    for exchange in kept:
        assert exchange.masked
        assert_no_secret(repr(exchange), f"the history's {exchange.request.url}")
    store.close()
    for file in data_dir.glob("history.sqlite*"):  # the database, its WAL
        assert_no_secret(file.read_bytes().decode("latin-1"), file.name)
    target = tmp_path / "history.har"
    code, _, err = run(capsys, "history", "--har", str(target))
    assert code == 0, err
    text = target.read_text()
    assert_no_secret(text, "restwalk history --har")
    document = json.loads(text)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    # What is no secret is kept as it came.
    assert "username=alice" in text
    assert "kept" in text
    assert '"page"' in text


def test_the_history_reopens_what_it_masked_as_masks(
    capsys: pytest.CaptureFixture[str], httpbin: str, data_dir: Path
) -> None:
    run(capsys, "request", "GET", f"{httpbin}/anything?{query()}", *header_options())
    (entry,) = HistoryStore.in_directory(data_dir).search(limit=None)
    code, out, _ = run(capsys, "history", "--show", str(entry.id))
    assert code == 0
    assert_no_secret(out, "restwalk history --show")
    assert "X-Api-Key: ****" in out
    assert "api_key=****" in out


async def test_a_walk_exported_as_har_keeps_no_secret(httpbin: str) -> None:
    specs = [
        RequestSpec(
            url=f"{httpbin}/anything?{query()}",
            headers=(*HEADERS.items(), ("Cookie", f"sid={COOKIE}")),
            auth=BasicAuth(*BASIC),
        ),
        RequestSpec(
            method="POST",
            url=f"{httpbin}/anything",
            form=tuple(FormPart(name, value) for name, value in FIELDS.items()),
        ),
        RequestSpec(url=f"{httpbin}/headers", headers=(("Authorization", f"Bearer {BEARER}"),)),
    ]
    async with Client() as client:
        pages = [
            Page(spec, exchange=await client.send(spec), sent_at=time.time()) for spec in specs
        ]
    text = repr(pages)
    assert BEARER in text  # sent and echoed: the walk itself holds them
    items = walk_exchanges(pages, mask=True)
    document = har_document(items, comment="exported by restwalk")
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert_no_secret(har_bytes(document).decode("utf-8"), "the walk's HAR")
