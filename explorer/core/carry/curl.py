"""A curl command line read into a request: what curl would send, option by option.

:func:`parse_curl` splits the line as a POSIX shell does
(:mod:`~explorer.core.carry.shell_words`), then reads curl's options the way
curl does: short ones combined (``-sSL``, ``-XPOST``), an option's argument
in the next word or glued to a short one, several ``-d`` joined with ``&``,
``-G`` moving the data into the query, the method implied by the data (POST),
``-T`` (PUT) or ``-I`` (HEAD) unless ``-X`` says otherwise.

Nothing is dropped without a word. :class:`CurlCommand` lists the options
that change nothing in the request (``-s``, ``-v``, ``-o FILE``...) as
``ignored``, those restwalk cannot apply (``--digest``, ``--cert``, an option
it does not know...) as ``unsupported``, and says in ``notes`` where the
request differs from curl's (``-d @file`` keeps the file's line breaks). A
line that is not a command curl would run (an unclosed quote, no URL, an
option without its argument) raises :class:`CurlError` naming the problem.

Files are kept by name where restwalk can send them by name (``-F
name=@photo.png``, ``--data-binary @body.json``, ``-T file``), so a request
copied back as curl says ``@photo.png`` again; where curl transforms a file
(``--data-urlencode name@file``, ``-H @file``, ``-d @file`` among other data)
it is read here, with the reader given.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import quote

import httpx

from explorer.core.carry.curl_args import (
    CurlError,
    CurlState,
    DataPiece,
    form_field,
    form_value,
    read_options,
)
from explorer.core.carry.shell_words import ShellSyntaxError, split_line
from explorer.core.http.request import Auth, BasicAuth, BearerAuth, RequestSpec
from explorer.core.http.upload import FileReader, read_body_file
from explorer.core.text.url_paste import looks_like_curl

__all__ = [
    "CurlCommand",
    "CurlError",
    "CurlOptions",
    "composer_note",
    "form_field",
    "form_value",
    "looks_like_curl",
    "parse_curl",
]

FORM_URLENCODED = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class CurlOptions:
    """curl's options that are about the connection, not the request."""

    insecure: bool = False
    location: bool = False
    compressed: bool = False
    max_time: float | None = None
    connect_timeout: float | None = None
    max_redirs: int | None = None
    proxy: str | None = None
    cacert: str | None = None
    http2: bool = False
    http2_prior_knowledge: bool = False


@dataclass(frozen=True)
class CurlCommand:
    """What a curl command line asks for, and what of it restwalk does not do."""

    spec: RequestSpec
    options: CurlOptions = CurlOptions()
    #: Options that change nothing in the request, as written (``-s``, ``-o out.json``).
    ignored: tuple[str, ...] = ()
    #: Options and forms restwalk does not apply, as written (``--digest``, ``-b cookies.txt``).
    unsupported: tuple[str, ...] = ()
    #: ``$NAME`` left as written: the environment given has no value for them.
    unset: tuple[str, ...] = ()
    #: Where restwalk's request differs from curl's, in words.
    notes: tuple[str, ...] = ()

    @property
    def problem(self) -> str | None:
        """One line naming what restwalk cannot do of this line (None: nothing)."""
        parts = []
        if self.unsupported:
            parts.append("curl options restwalk does not apply: " + ", ".join(self.unsupported))
        if self.unset:
            parts.append(
                "variables with no value (set them, or write the value): " + ", ".join(self.unset)
            )
        return "; ".join(parts) or None


def _program_words(words: list[str]) -> list[str]:
    """The words after ``curl`` (a prompt, ``sudo`` and ``NAME=value`` before it go)."""
    index = 0
    while index < len(words) and (
        words[index] in ("$", "%", ">", "sudo", "command", "exec")
        or ("=" in words[index] and not words[index].startswith("-") and "/" not in words[index])
    ):
        index += 1
    if index >= len(words):
        raise CurlError("There is no command here: paste a line that starts with curl.")
    if os.path.basename(words[index]) not in ("curl", "curl.exe"):
        raise CurlError(
            f"This is a {words[index]!r} command, not curl: paste a line that starts with curl."
        )
    return words[index + 1 :]


def _strip_newlines(data: bytes) -> bytes:
    return data.replace(b"\r", b"").replace(b"\n", b"")


def _urlencoded(text: str, read: FileReader) -> bytes:
    """``--data-urlencode``'s five forms: content, =content, name=content, @file, name@file."""
    equals, at = text.find("="), text.find("@")
    if equals >= 0 and (at < 0 or equals < at):
        name, content = text[:equals], text[equals + 1 :].encode("utf-8", "surrogateescape")
    elif at >= 0:
        name, content = text[:at], read(text[at + 1 :])
    else:
        name, content = "", text.encode("utf-8", "surrogateescape")
    encoded = quote(content, safe="")
    return f"{name}={encoded}".encode() if name else encoded.encode()


def _data_bytes(piece: DataPiece, read: FileReader) -> bytes:
    """One piece of data as curl sends it (files read)."""
    if piece.kind == "urlencode":
        return _urlencoded(piece.text, read)
    if piece.kind != "raw" and piece.text.startswith("@"):
        data = read(piece.text[1:])
        return _strip_newlines(data) if piece.kind == "data" else data
    return piece.text.encode("utf-8", "surrogateescape")


def _with_data(state: CurlState, spec: RequestSpec, read: FileReader) -> RequestSpec:
    """The body (or, with ``-G``, the query) the data options make."""
    pieces = state.data
    kinds = {piece.kind for piece in pieces}
    if state.get:
        joined = b"&".join(_data_bytes(piece, read) for piece in pieces)
        url = spec.url + ("&" if "?" in spec.url else "?") + joined.decode("utf-8", "replace")
        return replace(spec, url=url)
    headers = list(spec.headers)
    has = {name.lower() for name, _ in headers}
    if "json" in kinds:
        for name in ("Content-Type", "Accept"):
            if name.lower() not in has:
                headers.append((name, "application/json"))
    content_type = None if "content-type" in has or "json" in kinds else FORM_URLENCODED
    if state.no_content_type and "content-type" not in has:
        content_type = None
        if any(piece.text for piece in pieces):
            state.notes.append(
                "-H 'Content-Type:': curl sends the data with no type; restwalk names one"
            )
    only = pieces[0] if len(pieces) == 1 else None
    if (
        only is not None
        and only.kind in ("data", "binary", "json")
        and only.text.startswith("@")
        and only.text != "@-"
    ):
        if only.kind == "data":
            state.notes.append(
                f"-d {only.text}: curl takes the line breaks out of the file; restwalk sends "
                f"it as it is (as --data-binary {only.text} does)"
            )
        return replace(
            spec, headers=tuple(headers), body_file=only.text[1:], content_type=content_type
        )
    separator = b"" if kinds == {"json"} else b"&"
    body = separator.join(_data_bytes(piece, read) for piece in pieces)
    text = body.decode("utf-8", "surrogateescape")
    if content_type == FORM_URLENCODED and text.lstrip()[:1] in ("{", "["):
        state.notes.append(
            "the data looks like JSON, but with no Content-Type given curl sends it as "
            f"{FORM_URLENCODED}, and so does restwalk: add -H 'Content-Type: application/json' "
            "if the server wants JSON"
        )
    try:
        text.encode("utf-8")
        sent: bytes | str = text
    except UnicodeEncodeError:
        sent = body
    return replace(spec, headers=tuple(headers), body=sent, content_type=content_type)


def _auth(state: CurlState) -> Auth | None:
    if state.bearer is not None:
        if state.user is not None:
            state.notes.append("-u and --oauth2-bearer both given: the bearer token is sent")
        return BearerAuth(state.bearer)
    if state.user is None:
        return None
    user, colon, password = state.user.partition(":")
    if not colon:
        state.notes.append(
            f"-u {user}: curl asks for the password at a prompt; restwalk sends an empty one"
        )
    return BasicAuth(user, password)


def _url(state: CurlState, base: str | None) -> str:
    if not state.urls:
        raise CurlError("This curl line has no URL.")
    if len(state.urls) > 1:
        shown = ", ".join(repr(url) for url in state.urls[:3])
        raise CurlError(
            f"This curl line has {len(state.urls)} URLs ({shown}); restwalk sends one request."
        )
    url = state.urls[0]
    if url.startswith("/"):
        if base is None:
            raise CurlError(f"The URL {url!r} is a path with no server: give http://HOST{url}.")
        url = str(httpx.URL(base).join(url))
    elif "://" not in url:
        url = f"http://{url}"  # curl's default scheme
    for pair in state.url_query:
        raw = pair[1:] if pair.startswith("+") else None
        if raw is None:
            name, eq, value = pair.partition("=")
            raw = f"{name}={quote(value, safe='')}" if eq else quote(pair, safe="")
        url += ("&" if "?" in url else "?") + raw
    return url


def _method(state: CurlState, has_body: bool) -> str:
    if state.head and ((state.data and not state.get) or state.form):
        raise CurlError("-I (HEAD) cannot send data: curl refuses this line too.")
    if state.form and state.data:
        raise CurlError("-F and -d cannot be combined: curl refuses this line too.")
    if state.get and state.form:
        raise CurlError("-G and -F cannot be combined: curl refuses this line too.")
    if state.method:
        return state.method
    if state.head:
        return "HEAD"
    if state.upload is not None:
        return "PUT"
    return "POST" if has_body else "GET"


def parse_curl(
    text: str,
    *,
    env: Mapping[str, str] | None = None,
    read: FileReader = read_body_file,
    base: str | None = None,
) -> CurlCommand:
    """The request a curl command line describes.

    ``env`` gives the values of ``$NAME`` (None: kept as written); ``read``
    reads the files curl would read while building the request (``@-``, standard
    input, is what a here-document or ``< FILE`` gives); a URL that is only a
    path (``/v1/customers``) is resolved against ``base``. Raises
    :class:`CurlError` for a line curl itself would not run, or one that is
    not curl at all; a file that cannot be read is an
    :class:`~explorer.core.http.errors.InvalidBody`.
    """
    try:
        line = split_line(text, env)
    except ShellSyntaxError as exc:
        raise CurlError(f"This curl line cannot be read: {exc}.") from None
    words = _program_words(line.words)
    state = CurlState()
    read = _with_stdin(read, line.stdin, line.stdin_file)
    for substitution in line.substitutions:
        state.unsupported.append(f"{substitution} (a command restwalk does not run)")
    read_options(words, state, read)
    url = _url(state, base)
    spec = RequestSpec(url=url, headers=tuple(state.headers))
    if state.upload == "-":
        spec = replace(spec, body=read("-"))
    elif state.upload is not None:
        if url.endswith("/"):
            spec = replace(spec, url=url + os.path.basename(state.upload))
            state.notes.append("-T to a URL ending in '/': the file's name is added, as curl does")
        spec = replace(spec, body_file=state.upload)
        if not any(name.lower() == "content-type" for name, _ in spec.headers):
            state.notes.append(
                "-T: curl sends the file with no Content-Type; restwalk names one from the "
                "file's name"
            )
    if state.data:
        spec = _with_data(state, spec, read)
    if state.form:
        spec = replace(spec, form=tuple(state.form))
    if state.cookies:
        spec = _with_cookies(state, spec)
    has_body = bool(state.data and not state.get) or bool(state.form) or state.upload is not None
    spec = replace(spec, method=_method(state, has_body), auth=_auth(state))
    if line.redirections:
        state.ignored.extend(line.redirections)
    if line.after:
        state.notes.append(f"the rest of the shell line is not part of the request: {line.after}")
    return CurlCommand(
        spec=spec,
        options=CurlOptions(**state.options),  # type: ignore[arg-type]
        ignored=tuple(state.ignored),
        unsupported=tuple(state.unsupported),
        unset=tuple(dict.fromkeys(line.unset)),
        notes=tuple(state.notes),
    )


def _with_stdin(read: FileReader, stdin: str | None, stdin_file: str | None) -> FileReader:
    """``read``, with ``-`` (standard input) read from the here-document or ``< FILE``."""

    def reading(path: str) -> bytes:
        if path != "-":
            return read(path)
        if stdin is not None:
            return stdin.encode("utf-8", "surrogateescape")
        if stdin_file is not None:
            return read(stdin_file)
        raise CurlError(
            "This curl line reads standard input (@- or -T -), and gives none: "
            "write the data in the line, or use a here-document (<< EOF)."
        )

    return reading


def _with_cookies(state: CurlState, spec: RequestSpec) -> RequestSpec:
    """``-b 'a=1; b=2'`` as a Cookie header; ``-b FILE`` (a cookie jar) is not read."""
    values = []
    for cookie in state.cookies:
        if "=" in cookie:
            values.append(cookie.strip().rstrip(";"))
        else:
            state.unsupported.append(f"-b {cookie} (cookies from a file)")
    if not values:
        return spec
    headers = list(spec.headers)
    for index, (name, value) in enumerate(headers):
        if name.lower() == "cookie":
            headers[index] = (name, "; ".join([value, *values]))
            break
    else:
        headers.append(("Cookie", "; ".join(values)))
    return replace(spec, headers=tuple(headers))


def composer_note(command: CurlCommand) -> str:
    """What the composer says of a pasted curl line: what restwalk does not do of it."""
    lines = ["From a curl command line."]
    if command.unsupported:
        lines.append("Not applied (restwalk does not do them): " + ", ".join(command.unsupported))
    if command.unset:
        lines.append("Variables with no value, left as written: " + ", ".join(command.unset))
    options = command.options
    connection = [
        flag
        for flag, given in (
            ("-k", options.insecure),
            ("--compressed", options.compressed),
            ("-x", options.proxy is not None),
            ("--cacert", options.cacert is not None),
            ("-m", options.max_time is not None),
            ("--http2", options.http2 or options.http2_prior_knowledge),
        )
        if given
    ]
    if connection:
        lines.append(
            "Connection options are this session's, not the line's: " + ", ".join(connection)
        )
    lines.extend(note[0].upper() + note[1:] for note in command.notes)
    return "\n".join(lines)
