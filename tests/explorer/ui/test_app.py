"""``restwalk [URL]``: the command line chooses the server and hands the app its URL."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from explorer.cli import tui
from explorer.cli.options import tui_defaults
from explorer.core import gc_pause
from explorer.core.http.connection import ConnectionSettings
from explorer.core.http.tls import DefaultContext
from explorer.ui import app as app_module
from tests.explorer.ui.conftest import until


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[app_module.RestwalkApp]:
    """Record the apps ``run`` starts; each checks its URL answers, instead of a terminal."""
    started: list[app_module.RestwalkApp] = []

    def fake_run(self: app_module.RestwalkApp) -> None:
        started.append(self)
        if self.start_url and self.mock_users:  # the bundled mock must be up now
            assert httpx.get(self.start_url).status_code == httpx.codes.OK

    monkeypatch.setattr(app_module.RestwalkApp, "run", fake_run)
    monkeypatch.setattr(tui, "check_terminal", lambda: None)  # pytest's stdin is none
    monkeypatch.setenv("RESTWALK_MOCK_PORT", "0")  # tests take no fixed port: any free one
    return started


def test_run_without_url_serves_the_bundled_mock_and_opens_its_root(
    launched: list[app_module.RestwalkApp],
) -> None:
    assert tui.open_tui(tui_defaults(None)) == 0
    (app,) = launched
    assert app.start_url is not None
    assert app.start_url.startswith("http://127.0.0.1:")
    assert app.start_url.endswith("/")
    assert app.mock_users
    assert app.owns_client
    assert app.bundled is not None
    assert app.bundled.origin + "/" == app.start_url
    assert app.bundled.note == ""  # the port asked for was free
    with pytest.raises(httpx.ConnectError):  # stopped when the app ended
        httpx.get(app.start_url)


def test_the_bundled_mock_takes_the_port_asked_for_or_says_it_was_taken(
    launched: list[app_module.RestwalkApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("RESTWALK_MOCK_PORT", str(port))
        assert tui.open_tui(tui_defaults(None)) == 0
    (app,) = launched
    assert app.bundled is not None
    assert app.start_url != f"http://127.0.0.1:{port}/"  # a free one instead
    assert f"Port {port} is taken" in app.bundled.note
    assert app.bundled.origin in app.bundled.note


def test_a_port_that_is_none_is_bad_usage(
    launched: list[app_module.RestwalkApp],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from explorer import cli

    monkeypatch.setenv("RESTWALK_MOCK_PORT", "eighty")
    assert cli.main([]) == 2
    assert "$RESTWALK_MOCK_PORT is 'eighty'" in capsys.readouterr().err
    assert launched == []


def test_run_with_url_opens_it(launched: list[app_module.RestwalkApp]) -> None:
    assert tui.open_tui(tui_defaults("127.0.0.1:9/")) == 0
    (app,) = launched
    assert app.start_url == "http://127.0.0.1:9/"
    assert not app.mock_users


async def test_garbage_collection_is_back_on_after_the_first_frame() -> None:
    """Collection stays off until the browser screen, its start page shown, is drawn:
    composing and drawing it makes many objects and no garbage."""
    import gc

    from explorer.core.http.client import Client

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"ok": True})

    gc_pause.switch(False)  # as 'restwalk' does while it imports
    try:
        app = app_module.create_app(
            "http://api.test/", client=Client(transport=httpx.MockTransport(answer))
        )
        async with app.run_test() as pilot:
            await until(pilot, gc.isenabled, "collecting again")
            assert app.screen is app.browser
            assert app.browser.session.shown is not None
    finally:
        gc_pause.switch(True)
        gc.unfreeze()


def test_the_tui_command_pauses_collection_only_while_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from explorer import cli

    seen: list[bool] = []
    load_settings = tui.load_settings

    def settings_loaded(args: object) -> str | None:
        seen.append(gc.isenabled())  # paused before the command line's own imports
        return load_settings(args)  # type: ignore[arg-type]

    def fake_run(url: str, settings: ConnectionSettings, **startup: object) -> int:
        seen.append(gc.isenabled())
        # No CA certificate read yet: the client's default context reads them at the
        # first https handshake (explorer.core.http.tls), checking as httpx does.
        assert settings.verify is True
        assert settings.client().checks_tls
        return 0

    def no_reading(context: DefaultContext) -> None:
        raise AssertionError("CA certificates read before any https request")

    monkeypatch.setattr(DefaultContext, "trust", no_reading)
    monkeypatch.setattr(tui, "load_settings", settings_loaded)
    monkeypatch.setattr(app_module, "run_app", fake_run)
    monkeypatch.setattr(tui, "check_terminal", lambda: None)  # pytest's stdin is none
    assert cli.main(["http://api.test/"]) == 0
    assert seen == [False, False]
    assert gc.isenabled()


def test_the_tui_command_hands_the_app_its_http_file_and_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from explorer import cli

    (tmp_path / "http-client.env.json").write_text('{"dev": {"base": "http://mock"}}')
    seen: list[object] = []

    def fake_run(url: str, settings: ConnectionSettings, **startup: object) -> int:
        seen.append((startup["http_file"], startup["environment"]))
        return 0

    monkeypatch.setattr(app_module, "run_app", fake_run)
    monkeypatch.setattr(tui, "check_terminal", lambda: None)
    http_file = str(tmp_path / "api.http")
    assert cli.main(["--http-file", http_file, "--env", "dev", "http://api.test/"]) == 0
    assert seen == [(http_file, "dev")]


def test_an_http_file_that_cannot_be_one_stops_the_tui_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA 6: --http-file naming a folder, or in a folder that does not exist, started the
    TUI; S failed there later."""
    from explorer import cli

    monkeypatch.setattr(app_module, "run_app", lambda *a, **k: pytest.fail("started"))
    monkeypatch.setattr(tui, "check_terminal", lambda: None)
    for http_file, words in (
        (tmp_path, "is a directory"),
        (tmp_path / "no" / "api.http", f"the folder {tmp_path / 'no'} does not exist"),
    ):
        assert cli.main(["--http-file", str(http_file), "http://api.test/"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"restwalk: --http-file {http_file}: ")
        assert words in err
        assert err.count("\n") == 1


def test_an_environment_no_file_defines_stops_the_tui_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from explorer import cli

    (tmp_path / "http-client.env.json").write_text('{"dev": {}, "prod": {}}')
    monkeypatch.setattr(app_module, "run_app", lambda *a, **k: pytest.fail("started"))
    monkeypatch.setattr(tui, "check_terminal", lambda: None)
    status = cli.main(
        ["--http-file", str(tmp_path / "api.http"), "--env", "qa", "http://api.test/"]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "No environment 'qa'" in err
    assert "dev, prod" in err
    assert "Traceback" not in err
