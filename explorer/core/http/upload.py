"""What a request uploads: a body read from a file, or a ``multipart/form-data`` body.

A :class:`FormPart` is one field of a multipart form (RFC 7578): text, or the
bytes of a file. Files are named by path in a
:class:`~explorer.core.http.request.RequestSpec` and read only when the request is
built, so a request copied as curl says ``@photo.png``, not its bytes. A file
is read whole into memory, at most :data:`MAX_UPLOAD` bytes; a missing,
unreadable or larger file is an :class:`~explorer.core.http.errors.InvalidBody`
naming it.

The form is encoded as browsers and curl do: parts in the order given, names
and file names quoted with ``"`` escaped as ``%22`` and line breaks as
``%0D``/``%0A`` (the HTML standard's rule, which curl and httpx follow), a
``Content-Type`` for files (guessed from the name when not given) and none for
text. The boundary is derived from the content, so the same form always
encodes to the same bytes, and it is checked not to occur in any part.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from explorer.core.http.errors import InvalidBody
from explorer.core.text.sizes import size_text

__all__ = [
    "MAX_UPLOAD",
    "FileReader",
    "FormPart",
    "encode_multipart",
    "guess_file_type",
    "part_head_lines",
    "peek_file",
    "read_body_file",
]

#: The largest file sent as a body or form part, in bytes: the default --max-body.
MAX_UPLOAD = 100 * 1000 * 1000

#: How a request's files are read: path in, bytes out (tests and previews swap it).
FileReader = Callable[[str], bytes]


@dataclass(frozen=True)
class FormPart:
    """One field of a ``multipart/form-data`` body: ``value`` text, or the file at ``file``.

    ``filename`` is the name sent for a file (default: the last part of its path);
    ``content_type`` the part's type (default: guessed from the name for files,
    none for text).
    """

    name: str
    value: str = ""
    file: str | None = None
    filename: str | None = None
    content_type: str | None = None

    @property
    def is_file(self) -> bool:
        """True for a file upload, False for a text field."""
        return self.file is not None

    @property
    def sent_filename(self) -> str | None:
        """The file name the part carries (None for text)."""
        if self.file is None:
            return None
        return self.filename if self.filename is not None else os.path.basename(self.file)


def read_body_file(path: str) -> bytes:
    """The bytes of the file at ``path`` (``~`` expanded), at most :data:`MAX_UPLOAD`.

    Raises :class:`InvalidBody` naming the file when it is missing, unreadable,
    a directory or too large.
    """
    full = os.path.expanduser(path)
    try:
        with open(full, "rb") as file:
            data = file.read(MAX_UPLOAD + 1)
    except FileNotFoundError:
        raise InvalidBody(
            f"The file {path!r} does not exist.",
            hint="Check its name: a relative path starts from where restwalk runs.",
        ) from None
    except IsADirectoryError:
        raise InvalidBody(f"{path!r} is a directory, not a file.") from None
    except OSError as exc:
        raise InvalidBody(
            f"The file {path!r} cannot be read: {exc.strerror or exc}.", hint=""
        ) from None
    if len(data) > MAX_UPLOAD:
        raise InvalidBody(
            f"The file {path!r} is larger than {size_text(MAX_UPLOAD)}, the most "
            "restwalk sends from a file.",
            hint="Send a smaller file, or use curl for large uploads.",
        )
    return data


def peek_file(path: str) -> bytes:
    """A stand-in for a file's bytes in a preview: its name and size, nothing read.

    Raises :class:`InvalidBody` as :func:`read_body_file` does for a file that is
    missing or too large, so a preview says so before anything is sent.
    """
    full = os.path.expanduser(path)
    try:
        size = os.stat(full).st_size
    except FileNotFoundError:
        raise InvalidBody(f"The file {path!r} does not exist.") from None
    except OSError as exc:
        raise InvalidBody(f"The file {path!r} cannot be read: {exc.strerror or exc}.") from None
    if os.path.isdir(full):
        raise InvalidBody(f"{path!r} is a directory, not a file.")
    if size > MAX_UPLOAD:
        raise InvalidBody(
            f"The file {path!r} is larger than {size_text(MAX_UPLOAD)}, the most "
            "restwalk sends from a file."
        )
    return f"[the {size_text(size)} of {path}]".encode()


def guess_file_type(name: str) -> str:
    """A file's media type from its name, ``application/octet-stream`` when unknown."""
    guessed, _ = mimetypes.guess_type(name, strict=False)
    return guessed or "application/octet-stream"


def _quoted(text: str) -> str:
    """A name or file name as a quoted string of a Content-Disposition (HTML's rule)."""
    escaped = text.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")
    return f'"{escaped}"'


def part_head_lines(part: FormPart) -> list[str]:
    """The header lines of a part of a ``multipart/form-data`` body (``Content-Disposition``
    and, for a file or a typed value, ``Content-Type``)."""
    disposition = f"form-data; name={_quoted(part.name)}"
    lines = []
    filename = part.sent_filename
    if filename is not None:
        disposition += f"; filename={_quoted(filename)}"
    lines.append(f"Content-Disposition: {disposition}")
    content_type = part.content_type
    if content_type is None and filename is not None:
        content_type = guess_file_type(filename)
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    return lines


def _part_head(part: FormPart) -> bytes:
    return ("\r\n".join(part_head_lines(part)) + "\r\n\r\n").encode("utf-8")


def encode_multipart(
    parts: Sequence[FormPart], read: FileReader = read_body_file
) -> tuple[bytes, str]:
    """The body of ``parts`` as ``multipart/form-data``, and its Content-Type.

    Files are read with ``read``. The boundary is a hash of the content: the
    same form gives the same bytes.
    """
    heads = [_part_head(part) for part in parts]
    contents = [read(part.file) if part.file is not None else part.value.encode() for part in parts]
    digest = hashlib.sha256()
    for head, content in zip(heads, contents, strict=True):
        digest.update(head)
        digest.update(hashlib.sha256(content).digest())
    for attempt in range(100):
        boundary = f"restwalk-{digest.hexdigest()[:24]}{attempt or ''}"
        marker = f"--{boundary}".encode("ascii")
        if not any(marker in chunk for chunk in (*heads, *contents)):
            break
    body = bytearray()
    for head, content in zip(heads, contents, strict=True):
        body += marker + b"\r\n" + head + content + b"\r\n"
    body += marker + b"--\r\n"
    return bytes(body), f"multipart/form-data; boundary={boundary}"
