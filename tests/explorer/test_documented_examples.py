"""Every command the README and ``restwalk --help`` show works as printed (exit 0).

The examples name ``http://127.0.0.1:8000``; here that is the bundled mock
server on a free port, with its default data.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.cli.parser import EPILOG
from mock_server import BackgroundServer, Settings

README = Path(__file__).resolve().parents[2] / "README.md"
DOCUMENTED = "http://127.0.0.1:8000"


def _commands(text: str) -> list[str]:
    """The ``restwalk ...`` commands in ``text``: continuations joined, ``;`` split."""
    joined = re.sub(r"\\\n\s*", " ", text)
    commands = []
    for line in joined.splitlines():
        for part in line.split(";"):
            part = part.strip()
            commands_run = ("request", "links", "explain", "lint")
            if part.startswith("restwalk ") and part.split()[1] in commands_run:
                commands.append(part)
    return commands


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [command for block in blocks for command in _commands(block)]


EXAMPLES = sorted(set(readme_commands()) | set(_commands(EPILOG)))


def test_the_examples_were_found() -> None:
    assert len(EXAMPLES) >= 8
    assert any("--follow" in example for example in EXAMPLES)


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


@pytest.mark.parametrize("command", EXAMPLES)
def test_a_documented_command_works_as_printed(
    command: str, server_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = shlex.split(command.replace(DOCUMENTED, server_url))[1:]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out


def test_the_copy_menu_is_documented_whole() -> None:
    """Every request format the `y` menu offers is in the README's `y` row, the help's
    walk-through and the key's tooltip (QA 1: `t`, the .http text, was missing)."""
    from explorer.core.carry import EXPORT_FORMATS
    from explorer.ui.screens.browser_keys import BROWSER_KEYS
    from explorer.ui.screens.help import WALK

    (row,) = [line for line in README.read_text().splitlines() if line.startswith("| `y` |")]
    (copy,) = [b for b in BROWSER_KEYS if getattr(b, "key", None) == "y"]
    names = {"c": "curl", "i": "HTTPie", "t": ".http"}
    for export in EXPORT_FORMATS.values():
        assert f"(`{export.key}`)" in row
        assert names[export.key] in " ".join(WALK.split())
        assert names[export.key] in copy.tooltip
