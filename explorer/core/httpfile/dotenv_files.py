"""``.env`` files, read as python-dotenv reads them.

The syntax (quotes, ``export``, comments, multi-line values, ``${VAR}`` and
``${VAR:-default}`` expanded from earlier lines and the process environment)
is python-dotenv's, through its parser: its rules are the ones most ``.env``
files are written for. A line it cannot parse is an :class:`EnvFileError`
naming the file and the line (python-dotenv itself would only log it and go
on without the variable, which then looks undefined for no visible reason).

``${VAR}`` is expanded here, as python-dotenv's ``dotenv_values`` does (an
earlier line's value first, then the process environment), but the process
environment is asked through a :class:`~.variables.Lookup`: a ``.http`` file's
reads are checked and named (:mod:`.local_reads`).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from dotenv.parser import Binding, parse_stream
from dotenv.variables import Variable, parse_variables

from explorer.core.httpfile.errors import EnvFileError
from explorer.core.httpfile.variables import Lookup

__all__ = ["DOTENV_FILE", "dotenv_names", "parse_dotenv", "read_text"]

DOTENV_FILE = ".env"
#: The largest .env file read.
MAX_DOTENV_FILE = 10_000_000


def _bindings(text: str, name: str) -> list[Binding]:
    bindings = list(parse_stream(io.StringIO(text)))
    for binding in bindings:
        if binding.error:
            shown = binding.original.string.strip()[:60]
            raise EnvFileError(
                f"{name}, line {binding.original.line}: not a NAME=value line: {shown!r}.",
                hint="The file is left as it is; fix the line (quote a value with spaces).",
            )
    return bindings


def dotenv_names(text: str) -> set[str]:
    """The variables ``text`` expands as ``${NAME}``, whatever gives their value."""
    return {
        atom.name
        for binding in _bindings(text, DOTENV_FILE)
        if binding.value is not None
        for atom in parse_variables(binding.value)
        if isinstance(atom, Variable)
    }


class _Expanding:
    """What ``${NAME}`` is on a line: an earlier line's value, else the environment's."""

    def __init__(self, earlier: dict[str, str | None], process: Lookup) -> None:
        self.earlier = earlier
        self.process = process

    def get(self, name: str, default: str | None = None) -> str | None:
        if name in self.earlier:
            return self.earlier[name]
        found = self.process.get(name)
        return default if found is None else found


def parse_dotenv(
    text: str, name: str = DOTENV_FILE, process: Lookup | None = None
) -> dict[str, str]:
    """The variables ``text`` sets (a name without ``=value`` sets none).

    ``name`` is the file's, for the message of an :class:`EnvFileError`;
    ``process`` is the environment ``${NAME}`` reads (``os.environ`` when None).
    """
    environment = os.environ if process is None else process
    values: dict[str, str | None] = {}
    for binding in _bindings(text, name):
        if binding.key is None:
            continue
        if binding.value is None:
            values[binding.key] = None
            continue
        lookup = _Expanding(values, environment)
        values[binding.key] = "".join(
            atom.resolve(lookup)  # type: ignore[arg-type]  # only .get is used
            for atom in parse_variables(binding.value)
        )
    return {key: value for key, value in values.items() if value is not None}


def read_text(path: Path) -> str:
    """The text of the ``.env`` file ``path``; :class:`EnvFileError` if unreadable."""
    try:
        if path.stat().st_size > MAX_DOTENV_FILE:
            raise EnvFileError(f"{path}: larger than {MAX_DOTENV_FILE:,} bytes; not read.")
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EnvFileError(f"{path}: not UTF-8 text ({exc.reason}).") from None
    except OSError as exc:
        raise EnvFileError(f"{path}: cannot be read: {exc.strerror or exc}.") from None
