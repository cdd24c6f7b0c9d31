"""Options before a subcommand (``restwalk --config F request ...``, ``restwalk -k links
URL``) apply to it, as git's and docker's global options do; one the subcommand does not
take is a one-line error naming it. Nothing here sends a request (``--as curl`` prints it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.cli import main
from explorer.cli.tui import unknown_command

URL = "http://127.0.0.1:9/customers"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_config_before_the_command_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("[connection]\nverify = false\nhttp2_prior_knowledge = true\n")
    for argv in (
        ["--config", str(config), "request", "GET", URL, "--as", "curl"],
        [f"--config={config}", "request", "GET", URL, "--as", "curl"],
    ):
        code, out, err = run(capsys, *argv)
        assert (code, err) == (0, "")
        assert out == f"curl -k -L --http2-prior-knowledge '{URL}'\n"


def test_connection_options_before_the_command_apply_to_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "-k", "--max-time", "5", "request", "GET", URL, "--as", "curl", "--http2"
    )
    assert (code, err) == (0, "")
    assert out == f"curl -k -L --http2 --max-time 5 '{URL}'\n"


def test_a_missing_config_before_the_command_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.toml"
    code, out, err = run(capsys, "--config", str(missing), "links", URL)
    assert (code, out) == (2, "")
    assert err == f"restwalk: --config: the config file {missing} does not exist\n"


def test_an_option_the_command_does_not_take_is_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "-k", "explain", "418")
    assert (code, out) == (2, "")
    assert err == "restwalk: unrecognized arguments: -k (see 'restwalk explain --help')\n"


def test_help_lists_config(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--config FILE" in out


def test_a_command_name_is_never_its_own_suggestion() -> None:
    message = str(unknown_command("request", one=False))
    assert "did you mean" not in message
    assert "'request' is a command" in message
