"""``.env`` files, read as python-dotenv reads them.

The syntax (quotes, ``export``, comments, multi-line values, ``${VAR}`` and
``${VAR:-default}`` expanded from earlier lines and the process environment)
is python-dotenv's, through its parser: its rules are the ones most ``.env``
files are written for. A line it cannot parse is an :class:`EnvFileError`
naming the file and the line (python-dotenv itself would only log it and go
on without the variable, which then looks undefined for no visible reason).
"""

from __future__ import annotations

import io
from pathlib import Path

from dotenv import dotenv_values
from dotenv.parser import parse_stream

from explorer.core.httpfile.errors import EnvFileError

__all__ = ["DOTENV_FILE", "parse_dotenv", "read_dotenv"]

DOTENV_FILE = ".env"
#: The largest .env file read.
MAX_DOTENV_FILE = 10_000_000


def parse_dotenv(text: str, name: str = DOTENV_FILE) -> dict[str, str]:
    """The variables ``text`` sets (a name without ``=value`` sets none).

    ``name`` is the file's, for the message of an :class:`EnvFileError`.
    """
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            shown = binding.original.string.strip()[:60]
            raise EnvFileError(
                f"{name}, line {binding.original.line}: not a NAME=value line: {shown!r}.",
                hint="The file is left as it is; fix the line (quote a value with spaces).",
            )
    values = dotenv_values(stream=io.StringIO(text), interpolate=True)
    return {key: value for key, value in values.items() if value is not None}


def read_dotenv(path: Path) -> dict[str, str]:
    """The variables of the ``.env`` file ``path``; :class:`EnvFileError` if unreadable."""
    try:
        if path.stat().st_size > MAX_DOTENV_FILE:
            raise EnvFileError(f"{path}: larger than {MAX_DOTENV_FILE:,} bytes; not read.")
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EnvFileError(f"{path}: not UTF-8 text ({exc.reason}).") from None
    except OSError as exc:
        raise EnvFileError(f"{path}: cannot be read: {exc.strerror or exc}.") from None
    return parse_dotenv(text, str(path))
