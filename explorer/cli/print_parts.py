"""``restwalk request --print WHAT`` and ``-o FILE``: the parts of an exchange a script wants.

``WHAT`` takes HTTPie's letters: ``H`` the request's head (request line and
headers), ``B`` the request body, ``h`` the response's head (status line and
headers), ``b`` the response body. The parts come in that order, a blank line
between them, as HTTPie prints them. A body goes to a pipe or a file as its
exact bytes (Content-Encoding undone), so ``--print b | jq .`` reads the JSON
the server sent; on a terminal it is pretty-printed and its control characters
are shown, never sent to the terminal. Heads are text, credentials masked.

``-o FILE`` writes the response body to FILE, whole or not at all: it is written
to a temporary file beside it and renamed over it once complete, so a failed
request or a full disk never leaves FILE half written.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from explorer.cli.errors import CommandError, UsageError
from explorer.core.http.exchange import Exchange
from explorer.core.http.wire import mask_header, request_target
from explorer.core.text.terminal_text import visible

__all__ = ["PRINT_LETTERS", "check_output", "parse_print", "save_body", "write_parts"]

#: The letters of ``--print``, in the order their parts are printed.
PRINT_LETTERS = "HBhb"
_NAMES = {
    "H": "request headers",
    "B": "request body",
    "h": "response headers",
    "b": "response body",
}


def parse_print(text: str) -> str:
    """The parts ``--print`` asks for, in printing order; :class:`UsageError` for a bad letter."""
    unknown = sorted({letter for letter in text if letter not in PRINT_LETTERS})
    if unknown or not text:
        known = ", ".join(f"{letter} {name}" for letter, name in _NAMES.items())
        given = f"{''.join(unknown)!r} is not" if unknown else "nothing is"
        raise UsageError(f"--print {text!r}: {given} a part to print (give letters of: {known})")
    return "".join(letter for letter in PRINT_LETTERS if letter in text)


def _head(start: str, headers: tuple[tuple[str, str], ...]) -> str:
    lines = [start, *(f"{name}: {mask_header(name, value)}" for name, value in headers)]
    return "\n".join(lines) + "\n"


def _body_for_terminal(body: bytes, content_type: str | None) -> str:
    from explorer.cli.output import pretty_body

    text = pretty_body(body, content_type)
    return text if text.endswith("\n") or not text else text + "\n"


def write_parts(exchange: Exchange, parts: str) -> None:
    """Print the ``parts`` (letters of :data:`PRINT_LETTERS`) of ``exchange``'s last request
    and its response on stdout: heads as visible text, bodies as bytes to a pipe."""
    request, response = exchange.final, exchange.response
    to_terminal = sys.stdout.isatty()
    chunks: list[bytes] = []
    for letter in parts:
        if letter == "H":
            start = f"{request.method} {request_target(request.url)} {request.http_version}"
            chunks.append(visible(_head(start, request.headers)).encode("utf-8"))
        elif letter == "h":
            start = f"{response.http_version} {response.status} {response.reason}".rstrip()
            chunks.append(visible(_head(start, response.headers)).encode("utf-8"))
        else:
            message = request if letter == "B" else response
            body, content_type = message.body, _content_type(message.headers)
            if not body:
                continue
            if to_terminal:
                chunks.append(visible(_body_for_terminal(body, content_type)).encode("utf-8"))
            else:
                chunks.append(body)
    sys.stdout.flush()
    out = sys.stdout.buffer
    for number, chunk in enumerate(chunks):
        if number:  # a blank line between parts, as HTTPie prints them
            out.write(b"\n" if chunks[number - 1].endswith(b"\n") else b"\n\n")
        out.write(chunk)
    out.flush()


def _content_type(headers: tuple[tuple[str, str], ...]) -> str | None:
    return next((value for name, value in headers if name.lower() == "content-type"), None)


def check_output(path: str) -> None:
    """Refuse ``-o path`` before anything is sent when it cannot be a file: a folder, or
    in a folder that does not exist (a POST sent, then its answer nowhere to go)."""
    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"-o {path}: is a directory; give a file name")
    folder = target.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"-o {path}: the folder {folder} {what}; nothing was sent")


def save_body(path: str, body: bytes) -> None:
    """Write ``body`` to ``path`` whole, replacing the file only once every byte is written.

    A new file gets the mode the umask allows (as a shell's ``>`` gives); an existing
    one keeps its own. Raises :class:`CommandError` (exit 1) naming the file and the
    reason when it cannot be written.
    """
    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"-o {path}: is a directory; give a file name")
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as exc:
        raise CommandError(f"-o {path}: cannot be written: {exc.strerror or exc}") from None
    folder = target.parent
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
        with os.fdopen(handle, "wb") as file:
            file.write(body)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        temporary = None
    except OSError as exc:
        raise CommandError(f"-o {path}: cannot be written: {exc.strerror or exc}") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
