"""Write requests in the ``.http`` format, and save one into a file without touching the rest.

:func:`format_request` turns a :class:`~explorer.core.http.request.RequestSpec` (what
the composer or ``restwalk request`` holds) into the text of one request, the
credential, API version and query written out as they would be sent.
:func:`save_request` puts a request into the text of an existing file: the
lines of the request of that name (request line to the end of its body) are
replaced, and its ``###`` line, directives, comments, scripts and every other
block stay as they were; a new name is appended at the end.

The format has no escapes, so some requests cannot be written, and saying so
beats writing a file that reads back as something else (:class:`CannotWrite`):
a body line the format would read as something else (``###``, ``< file``,
``> {%``...), a header name starting with ``#`` or ``&``, a line break in a
name, URL or header, a body that is not UTF-8 text. Blank lines around a body
are not kept (both tools trim them).
"""

from __future__ import annotations

import base64
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import quote, urlencode

import httpx

from explorer.core.http.request import (
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    OAuthBearer,
    RequestSpec,
    guess_content_type,
    mark_version,
)
from explorer.core.http.upload import FormPart, part_head_lines
from explorer.core.httpfile.errors import HttpFileError
from explorer.core.httpfile.model import BodyLine, FileRef, HttpRequest
from explorer.core.httpfile.parser import (
    content_of,
    ends_body,
    is_file_ref,
    is_separator,
    parse_http,
    parse_request_line,
    split_lines,
)

__all__ = [
    "CannotWrite",
    "format_http_request",
    "format_request",
    "http_request_of",
    "save_request",
    "write_http_file",
]

_SIMPLE_NAME = re.compile(r"^[\w.-]+$")
_BREAK = re.compile(r"[\r\n]")


class CannotWrite(HttpFileError):
    """The request holds something the ``.http`` format cannot say."""


def http_request_of(
    spec: RequestSpec, name: str | None = None, *, token: str | None = None
) -> HttpRequest:
    """The ``.http`` model of ``spec``: its query, credential, API version and content
    type written out as headers and URL, as :func:`~explorer.core.http.request.build_request`
    would send them (less the User-Agent, Accept and Accept-Encoding it adds).

    A login flow is written as the ``token`` it got (a Bearer header); without one,
    :class:`CannotWrite`. An OAuth 2.0 login is written as the JetBrains client says
    it, ``Bearer {{$auth.token("name")}}``: its token is never written. A body file is
    written as ``< path``, form fields as a ``multipart/form-data`` body whose files are
    ``< path`` lines.
    """
    headers = [(k, v.strip()) for k, v in spec.headers]
    lower = {k.lower() for k, _ in headers}
    auth = spec.auth
    if isinstance(auth, LoginFlow):
        if token is None:
            raise CannotWrite(
                f"This request logs in at {auth.url} first; the .http format has no such step.",
                hint="Send it once (that logs in), then save: the token is then written "
                "as a Bearer header.",
            )
        auth = BearerAuth(token, auth.scheme)
    if isinstance(auth, OAuthBearer) and "authorization" not in lower:
        headers.append(("Authorization", f'Bearer {{{{$auth.token("{auth.login}")}}}}'))
    elif isinstance(auth, BearerAuth) and "authorization" not in lower:
        headers.append(("Authorization", auth.value))
    elif isinstance(auth, BasicAuth) and "authorization" not in lower:
        raw = base64.b64encode(f"{auth.user}:{auth.password}".encode()).decode("ascii")
        headers.append(("Authorization", f"Basic {raw}"))
    elif isinstance(auth, CookieSession) and auth.cookies:
        cookies = "; ".join(f"{k}={v}" for k, v in auth.cookies)
        if "cookie" in lower:
            headers = [(k, f"{v}; {cookies}" if k.lower() == "cookie" else v) for k, v in headers]
        else:
            headers.append(("Cookie", cookies))
    body = spec.body
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise CannotWrite(
                "The body is not UTF-8 text; a .http file holds it only as a file.",
                hint="Save the body to a file and write '< ./that-file' as the body.",
            ) from None
    has_type = "content-type" in {k.lower() for k, _ in headers}
    if body is not None and not has_type:
        content_type = spec.content_type or (guess_content_type(body) if body else None)
        if content_type:
            headers.append(("Content-Type", content_type))
    # The URL's own query stays as it was written ({{variables}} in it); the pairs given
    # apart, and a query-style version, follow it (mark_version: the recipe of the
    # request sent, spelled in .http syntax).
    url = spec.url
    query = list(spec.query)
    if spec.api_version is not None and spec.version_style != "none":
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError, ValueError) as exc:
            raise CannotWrite(f"The URL {url!r} is not valid: {exc}.") from None
        url = str(mark_version(spec, parsed, headers, query))
    if query:
        joiner = "&" if "?" in url else "?"
        url += joiner + urlencode(query, quote_via=quote, safe="{}$")
    lines: tuple[BodyLine, ...] = tuple(body.replace("\r\n", "\n").split("\n")) if body else ()
    while lines and not str(lines[-1]).strip():
        lines = lines[:-1]
    while lines and not str(lines[0]).strip():
        lines = lines[1:]
    if body is None and spec.body_file is not None:
        lines = (FileRef(spec.body_file),)
        if not has_type and spec.content_type:
            headers.append(("Content-Type", spec.content_type))
    elif body is None and spec.form:
        lines, content_type = _multipart(spec.form)
        headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
        headers.append(("Content-Type", content_type))
    return HttpRequest(url=url, method=spec.method, headers=tuple(headers), body=lines, name=name)


def _multipart(parts: tuple[FormPart, ...]) -> tuple[tuple[BodyLine, ...], str]:
    """Form fields as the lines of a ``multipart/form-data`` body (files as ``< path``),
    and its Content-Type, as the JetBrains client's documentation writes one."""
    boundary = "RestwalkBoundary"
    while any(boundary in f"{p.name}{p.value}{p.filename or ''}" for p in parts):
        boundary += "-"
    lines: list[BodyLine] = []
    for part in parts:
        lines += [f"--{boundary}", *part_head_lines(part), ""]
        if part.file is not None:
            lines.append(FileRef(part.file))
        else:  # (a line break in a value is then sent as CR LF, as browsers send it)
            lines += part.value.replace("\r\n", "\n").split("\n")
    lines.append(f"--{boundary}--")
    return tuple(lines), f"multipart/form-data; boundary={boundary}"


def _check(request: HttpRequest) -> None:
    """Raise :class:`CannotWrite` for what would read back as something else."""
    if request.name is not None and (_BREAK.search(request.name) or not request.name.strip()):
        raise CannotWrite("A request's name is one line of text, not empty.")
    if request.name is not None and request.name.strip().startswith("#"):
        raise CannotWrite(f"The name {request.name!r} would lose its leading '#'.")
    url = request.url
    if not url.strip() or _BREAK.search(url) or url != url.strip():
        raise CannotWrite(f"The URL {url!r} cannot be written: empty, or space around it.")
    if request.method is not None and (not request.method or _BREAK.search(request.method)):
        raise CannotWrite(f"The method {request.method!r} cannot be written.")
    first = _first_line(request)
    if parse_request_line(first) != (request.method, url, request.http_version):
        raise CannotWrite(f"The request line {first!r} would read back as another one.")
    for name, value in request.headers:
        line = f"{name}: {value}"
        if (
            not name
            or ":" in name
            or name != name.strip()
            or name.startswith(("#", "//", "?", "&"))
            or ends_body(line)
        ):
            raise CannotWrite(f"The header name {name!r} cannot be written in a .http file.")
        if _BREAK.search(value) or value != value.strip():
            raise CannotWrite(f"The value of {name!r} holds a line break or space around it.")
    body = request.body
    if body and any(isinstance(end, str) and not end.strip() for end in (body[0], body[-1])):
        raise CannotWrite("A body in a .http file does not start or end with a blank line.")
    for number, text in enumerate(body, 1):
        if isinstance(text, FileRef):
            continue
        if _BREAK.search(text) or is_separator(text) or ends_body(text) or is_file_ref(text):
            raise CannotWrite(
                f"Line {number} of the body starts with {text[:8]!r}, which a .http file "
                "reads as something else than body.",
                hint="Save the body to a file and write '< ./that-file' as the body.",
            )


def _body_line(line: str | FileRef) -> str:
    if isinstance(line, str):
        return line
    marker = "<@" + (line.encoding or "") if line.substitute else "<"
    return f"{marker} {line.path}"


def _first_line(request: HttpRequest) -> str:
    first = request.url if request.method is None else f"{request.method} {request.url}"
    return f"{first} {request.http_version}" if request.http_version else first


def request_lines(request: HttpRequest) -> list[str]:
    """The request line, headers and body of ``request`` (no ``###``, no directives)."""
    _check(request)
    lines = [_first_line(request), *(f"{name}: {value}" for name, value in request.headers)]
    if request.body:
        lines += ["", *(_body_line(line) for line in request.body)]
    return lines


def _head_lines(request: HttpRequest) -> list[str]:
    """The ``###`` line, ``# @name`` and the other directives."""
    name = request.name
    lines = [f"### {name}" if name else "###"]
    if name and _SIMPLE_NAME.match(name):
        lines.append(f"# @name {name}")  # VS Code knows a request's name only so
    lines += [f"# @{d.name} {d.value}".rstrip() for d in request.directives if d.name != "name"]
    return lines


def format_http_request(request: HttpRequest, newline: str = "\n") -> str:
    """One request as a block of a ``.http`` file, ending with a line break."""
    lines = _head_lines(request) + request_lines(request)
    return newline.join(lines) + newline


def format_request(spec: RequestSpec, name: str | None = None, *, token: str | None = None) -> str:
    """``spec`` as the text of one ``.http`` request (named ``name``).

    Raises :class:`CannotWrite` for a request the format cannot hold (see the
    module docstring): a login flow, a body that is not text, a body line the
    format would misread.
    """
    return format_http_request(http_request_of(spec, name, token=token))


def _newline_of(lines: list[str]) -> str:
    """The file's own line ending (LF when it has none yet)."""
    for line in lines:
        ending = line[len(line.rstrip("\r\n")) :]
        if ending:
            return ending
    return "\n"


def save_request(text: str, request: HttpRequest) -> str:
    """``text`` (a ``.http`` file) with ``request`` saved in it, by its name.

    The request of that name has its lines (request line to the end of the
    body) replaced; comments among its headers are kept after the new ones.
    Without one, the request is appended as a new block. Raises
    :class:`CannotWrite` when two requests have that name (which one is meant?),
    or for a request the format cannot hold.
    """
    if not request.name:
        raise CannotWrite("A request is saved under a name; give it one.")
    lines = split_lines(text)
    newline = _newline_of(lines)
    same = parse_http(text).named(request.name)
    if len(same) > 1:
        where = ", ".join(str(r.line) for r in same)
        raise CannotWrite(
            f"Several requests are named {request.name!r} (lines {where}); rename one first."
        )
    if not same:
        new = format_http_request(request, newline)
        if not lines:
            return new
        last = lines[-1]
        tail = "" if last.endswith(("\n", "\r")) else newline
        gap = "" if not content_of(last).strip() and not tail else newline
        return text + tail + gap + new
    old = same[0]
    start, end = old.span
    kept_comments = []
    for line in lines[start + 1 : end]:
        if not content_of(line).strip():
            break  # the body starts: what follows is the body's own text
        if content_of(line).lstrip().startswith(("#", "//")):
            kept_comments.append(line)
    new_lines = [line + newline for line in request_lines(request)]
    if kept_comments:
        cut = next((i for i, line in enumerate(new_lines) if not line.strip()), len(new_lines))
        new_lines[cut:cut] = kept_comments
    if end == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        new_lines[-1] = new_lines[-1].rstrip("\r\n")
    return "".join(lines[:start] + new_lines + lines[end:])


def write_http_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename),
    keeping the file's permissions; never half a file."""
    path = path.expanduser()
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8", "surrogateescape")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if not path.exists():  # a new file gets the usual permissions (umask applied)
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666))
        os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
