"""--cors: preflights answered, answers to allowed origins marked; --allow-reset."""

from __future__ import annotations

import httpx
import pytest

from mock_server import BackgroundServer, create_app
from mock_server.cli import settings_from_args
from mock_server.cli_parser import build_parser
from mock_server.serving import settings_from_env, settings_to_env
from tests.mock_server.conftest import EDITOR, asgi_client, make_settings

SITE = "http://localhost:5173"
PREFLIGHT = {
    "Origin": SITE,
    "Access-Control-Request-Method": "PUT",
    "Access-Control-Request-Headers": "content-type, if-match",
}


async def test_preflight_from_an_allowed_origin() -> None:
    app = create_app(make_settings(cors_origins=(SITE,), disabled_methods=frozenset({"PATCH"})))
    async with asgi_client(app) as client:
        response = await client.options("/customers/1", headers=PREFLIGHT)
    assert response.status_code == 204
    assert response.headers["access-control-allow-origin"] == SITE
    assert response.headers["access-control-allow-credentials"] == "true"
    assert response.headers["access-control-allow-headers"] == "content-type, if-match"
    methods = response.headers["access-control-allow-methods"].split(", ")
    assert "PUT" in methods
    assert "PATCH" not in methods
    assert "Origin" in response.headers["vary"]


async def test_preflight_from_another_origin_is_a_problem() -> None:
    app = create_app(make_settings(cors_origins=(SITE,)))
    async with asgi_client(app) as client:
        response = await client.options(
            "/customers/1", headers={**PREFLIGHT, "Origin": "https://evil.example"}
        )
    assert response.status_code == 403
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert SITE in response.json()["detail"]
    assert "access-control-allow-origin" not in response.headers


async def test_answers_to_an_allowed_origin_are_readable_by_the_page() -> None:
    app = create_app(make_settings(cors_origins=("*",)))
    async with asgi_client(app) as client:
        read = await client.get("/customers/1", headers={"Origin": SITE})
        refused = await client.post("/products", json={}, headers={"Origin": SITE})
        plain = await client.get("/customers/1")
    assert read.headers["access-control-allow-origin"] == "*"
    assert "ETag" in read.headers["access-control-expose-headers"]
    assert "Origin" in read.headers["vary"]
    assert refused.status_code == 401
    assert refused.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-origin" not in plain.headers


@pytest.mark.parametrize("origin", [SITE, "https://evil.example", "null"])
async def test_any_origin_reads_without_credentials(origin: str) -> None:
    # Reflecting every Origin with credentials let any site read /_journal through a
    # logged-in browser: with no list, * and no credentials.
    app = create_app(make_settings(cors_origins=("*",)))
    async with asgi_client(app) as client:
        read = await client.get("/customers/1", headers={"Origin": origin, "Cookie": "a=b"})
        preflight = await client.options("/customers/1", headers={**PREFLIGHT, "Origin": origin})
    for answer in (read, preflight):
        assert answer.headers["access-control-allow-origin"] == "*"
        assert "access-control-allow-credentials" not in answer.headers
    assert preflight.status_code == 204


async def test_credentials_only_for_an_origin_listed_exactly() -> None:
    app = create_app(make_settings(cors_origins=("*", SITE)))
    async with asgi_client(app) as client:
        listed = await client.get("/customers/1", headers={"Origin": SITE})
        near = await client.get("/customers/1", headers={"Origin": SITE + "0"})
        preflight = await client.options("/customers/1", headers=PREFLIGHT)
    assert listed.headers["access-control-allow-origin"] == SITE
    assert listed.headers["access-control-allow-credentials"] == "true"
    assert preflight.headers["access-control-allow-origin"] == SITE
    assert preflight.headers["access-control-allow-credentials"] == "true"
    assert near.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in near.headers


@pytest.mark.parametrize("origins", [("*",), (SITE,)])
async def test_every_answer_varies_on_origin(origins: tuple[str, ...]) -> None:
    # An answer with no Access-Control-Allow-Origin (no Origin, or one not allowed),
    # kept by a cache, must not be handed to an allowed page's request: the browser
    # would refuse to read it. So it varies on Origin as the marked ones do.
    app = create_app(make_settings(cors_origins=origins))
    async with asgi_client(app) as client:
        plain = await client.get("/customers/1")
        other = await client.get("/customers/1", headers={"Origin": "https://evil.example"})
        missing = await client.get("/customers/999")
    answers = (plain, missing) if origins == ("*",) else (plain, other, missing)
    for answer in answers:
        assert "access-control-allow-origin" not in answer.headers
        vary = [v.strip() for v in answer.headers["vary"].split(",")]
        assert vary.count("Origin") == 1, vary
        assert "Accept" in vary  # (the app's own Vary kept)


async def test_without_cors_answers_do_not_vary_on_origin(client: httpx.AsyncClient) -> None:
    response = await client.get("/customers/1")
    assert "Origin" not in response.headers["vary"]


def test_over_a_socket_a_listed_origin_and_any_other() -> None:
    with BackgroundServer(make_settings(cors_origins=(SITE,))) as listed:
        answer = httpx.get(listed.url + "/customers/1", headers={"Origin": SITE})
        other = httpx.get(listed.url + "/customers/1", headers={"Origin": "null"})
    assert answer.headers["access-control-allow-origin"] == SITE
    assert answer.headers["access-control-allow-credentials"] == "true"
    assert "access-control-allow-origin" not in other.headers
    with BackgroundServer(make_settings(cors_origins=("*",))) as anyone:
        answer = httpx.get(anyone.url + "/customers/1", headers={"Origin": "null"})
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in answer.headers


@pytest.mark.parametrize(
    ("origins", "message"),
    [
        (["null"], "cannot allow null"),
        ([SITE + "/"], "no path"),
        (["HTTP://localhost:5173"], "lower case"),
        (["localhost:5173"], "scheme://host"),
    ],
)
def test_the_command_line_refuses_what_no_browser_sends(origins: list[str], message: str) -> None:
    # The command line makes a ValueError of the settings one line and exit 2.
    with pytest.raises(ValueError, match=message):
        settings_from_args(build_parser().parse_args(["--cors", *origins]))


async def test_cors_is_off_by_default(client: httpx.AsyncClient) -> None:
    response = await client.options("/customers/1", headers=PREFLIGHT)
    assert response.status_code == 204
    assert "access-control-allow-origin" not in response.headers


async def test_reset_without_login_only_when_allowed(client: httpx.AsyncClient) -> None:
    refused = await client.post("/_reset")
    assert refused.status_code == 404
    assert "--allow-reset" in refused.json()["detail"]
    app = create_app(make_settings(allow_reset=True))
    async with asgi_client(app) as allowed:
        assert (await allowed.delete("/products/1", headers=EDITOR)).status_code == 204
        assert (await allowed.post("/_reset")).status_code == 204
        assert (await allowed.get("/products/1")).status_code == 200


def test_command_line_flags_of_the_test_backend() -> None:
    parse = build_parser().parse_args
    assert settings_from_args(parse([])).cors_origins is None
    assert settings_from_args(parse(["--cors"])).cors_origins == ("*",)
    settings = settings_from_args(
        parse(
            [
                "--cors",
                SITE,
                "https://app.example",
                "--allow-reset",
                "--fault-kind",
                "reset",
                "--fault-kind",
                "503",
                "--journal-size",
                "5",
                "--data",
                "db.json",
                "--read-only-data",
                "--oauth-client",
                "app:s3cret:http://127.0.0.1/cb",
            ]
        )
    )
    assert settings.cors_origins == (SITE, "https://app.example")
    assert settings.allow_reset
    assert settings.fault_kinds == ("reset", "503")
    assert settings.journal_size == 5
    assert settings.read_only_data
    assert settings_from_env(settings_to_env(settings)) == settings


def test_an_unknown_fault_kind_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--fault-kind", "explode"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
