"""config.toml on the command line: its settings are the defaults, options win, and a bad
file is one warning line while restwalk runs on its own defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.cli.options import connection_settings
from explorer.cli.parser import build_parser
from explorer.cli.settings import load_settings
from explorer.core.http.connection import ConnectionSettings

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """\
[connection]
timeout = 4
max_time = 9
max_body = "2kB"
redirects = false
max_redirects = 2
verify = false
proxy = "http://127.0.0.1:3128"
http2 = true
"""


def settings_for(*argv: str) -> ConnectionSettings:
    args = build_parser().parse_args(["request", "GET", "http://api.test/", *argv])
    assert load_settings(args) is None
    return connection_settings(args)


def test_the_file_sets_the_connection_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.toml").write_text(CONFIG)
    monkeypatch.setenv("RESTWALK_CONFIG", str(tmp_path / "config.toml"))
    settings = settings_for()
    assert (settings.timeout, settings.max_time, settings.max_body) == (4.0, 9.0, 2000)
    assert (settings.follow_redirects, settings.max_redirects) == (False, 2)
    assert (settings.verify, settings.proxy, settings.http2) == (
        False,
        "http://127.0.0.1:3128",
        True,
    )


def test_options_win_over_the_file(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(CONFIG)
    settings = settings_for(
        "--config",
        str(tmp_path / "mine.toml"),
        "--timeout",
        "30",
        "--max-body",
        "1MB",
        "--max-redirects",
        "0",
        "--proxy",
        "http://127.0.0.1:8888",
    )
    assert (settings.timeout, settings.max_body, settings.max_redirects) == (30.0, 10**6, 0)
    assert settings.proxy == "http://127.0.0.1:8888"
    assert settings.max_time == 9.0  # not given: the file's


def test_without_a_file_the_defaults_are_restwalks() -> None:
    settings = settings_for()
    assert settings == ConnectionSettings(verify=settings.verify)
    assert settings.verify is not False


def test_a_missing_config_option_file_is_bad_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["links", "http://127.0.0.1:9/", "--config", str(tmp_path / "nope.toml")])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"restwalk: --config: the config file {tmp_path / 'nope.toml'} does not exist\n"


def test_a_bad_file_is_one_warning_and_the_command_runs_on_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    text = "[connection]\ntimeout = 3\nverify = 'no'\n"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "explain", "418"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"RESTWALK_CONFIG": str(path), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert "418" in result.stdout
    assert result.stderr == (
        f"restwalk: warning: {path}:3: connection.verify must be true or false; "
        "this file is not used: restwalk runs on its defaults\n"
    )
    assert path.read_text() == text  # nothing is rewritten


def test_a_bad_file_leaves_every_setting_at_the_default(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(CONFIG + "colour = 'red'\n")
    args = build_parser().parse_args(
        ["request", "GET", "http://api.test/", "--config", str(tmp_path / "config.toml")]
    )
    warning = load_settings(args)
    assert warning is not None
    assert warning.startswith(f"{tmp_path / 'config.toml'}:10: unknown key 'connection.colour'")
    assert connection_settings(args).timeout == 30.0


def test_the_tui_gets_the_settings_the_theme_and_the_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from explorer.ui import app as app_module

    seen: list[dict[str, object]] = []

    def fake_run(url: str, settings: ConnectionSettings, **startup: object) -> int:
        seen.append({"settings": settings, **startup})
        return 0

    monkeypatch.setattr(app_module, "run_app", fake_run)
    monkeypatch.setattr("explorer.cli.tui.check_terminal", lambda: None)
    (tmp_path / "config.toml").write_text('theme = "nord"\n' + CONFIG)
    monkeypatch.setenv("RESTWALK_CONFIG", str(tmp_path / "config.toml"))
    assert main(["http://api.test/"]) == 0
    (started,) = seen
    assert started["warning"] is None
    assert started["config"].theme == "nord"  # type: ignore[attr-defined]
    assert started["settings"].timeout == 4.0  # type: ignore[attr-defined]
    (tmp_path / "config.toml").write_text("theme = \n")
    assert main(["http://api.test/"]) == 0
    assert "config.toml:1: is not valid TOML" in str(seen[-1]["warning"])


async def test_the_app_uses_the_theme_and_shows_the_warning() -> None:
    import httpx

    from explorer.core.config import Config
    from explorer.core.http.client import Client
    from explorer.ui.app import create_app

    client = Client(transport=httpx.MockTransport(lambda request: httpx.Response(204)))
    app = create_app(
        "http://api.test/", client=client, config=Config(theme="nord"), warning="c.toml:1: bad"
    )
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "nord"
        assert [n.message for n in app._notifications] == ["c.toml:1: bad (? shows it again)"]


async def test_a_config_warning_is_read_then_kept_in_the_help() -> None:
    """Long enough to read, not long enough to hide the body; ? lists it later (QA 1,
    item 23)."""
    import httpx
    from textual.widgets import Markdown

    from explorer.core.http.client import Client
    from explorer.ui.app import WARNING_SECONDS, create_app
    from explorer.ui.screens.help import HelpScreen
    from tests.explorer.ui.conftest import markdown_shown

    warning = "the config file /tmp/x/config.toml does not exist ($RESTWALK_CONFIG)"
    client = Client(transport=httpx.MockTransport(lambda request: httpx.Response(204)))
    app = create_app("http://api.test/", client=client, warning=warning)
    async with app.run_test() as pilot:
        await pilot.pause()
        (shown,) = app._notifications
        assert shown.title == "Config file not used"
        assert shown.severity == "warning"
        assert 5 <= shown.timeout == WARNING_SECONDS <= 15
        app.clear_notifications()  # as once it has timed out
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = markdown_shown(app.screen.query_one("#help-text", Markdown))
        assert "## Problems met in this session" in text
        assert "Config file not used: the config file /tmp/x/config.toml does not exist" in text
