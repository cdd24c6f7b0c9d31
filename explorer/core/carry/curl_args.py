"""curl's arguments read the way curl reads them, one option at a time.

The options table (:mod:`~explorer.core.carry.curl_options`) says which
options take an argument; this module applies each option to a
:class:`CurlState` (what the line said so far) and reads the small languages
inside some arguments: ``-H 'Name: value'`` (``Name;`` empty, ``Name:``
removed, ``@file``), ``-F name=@file;type=...;filename=...`` with curl's
double quotes. :mod:`explorer.core.carry.curl` turns the state into a request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.core.carry.curl_options import FLAGS, SHORT, TAKES_ARGUMENT
from explorer.core.http.errors import InvalidRequest
from explorer.core.http.upload import FileReader, FormPart

__all__ = [
    "IGNORED",
    "CurlError",
    "CurlState",
    "DataPiece",
    "form_field",
    "form_value",
    "read_options",
]

#: Options that change nothing in the request: how curl prints, saves or retries.
IGNORED = frozenset(
    {
        "silent",
        "show-error",
        "verbose",
        "include",
        "output",
        "output-dir",
        "remote-name",
        "remote-name-all",
        "remote-header-name",
        "remote-time",
        "write-out",
        "fail",
        "fail-early",
        "fail-with-body",
        "progress-bar",
        "no-progress-meter",
        "no-buffer",
        "buffer",
        "trace",
        "trace-ascii",
        "trace-time",
        "trace-ids",
        "trace-config",
        "stderr",
        "dump-header",
        "create-dirs",
        "retry",
        "retry-delay",
        "retry-max-time",
        "retry-connrefused",
        "retry-all-errors",
        "parallel",
        "parallel-max",
        "parallel-immediate",
        "globoff",
        "disable",
        "cookie-jar",
        "junk-session-cookies",
        "limit-rate",
        "speed-limit",
        "speed-time",
        "keepalive-time",
        "no-keepalive",
        "tcp-nodelay",
        "tcp-fastopen",
        "ipv4",
        "ipv6",
        "styled-output",
        "raw",
        "path-as-is",
        "libcurl",
        "no-sessionid",
        "no-alpn",
        "no-npn",
        "max-filesize",
        "remove-on-error",
        "no-clobber",
        "skip-existing",
        "out-null",
        "xattr",
        "suppress-connect-headers",
        "http1.1",
        "basic",
        "tlsv1",
        "tlsv1.0",
        "tlsv1.1",
        "tlsv1.2",
        "tlsv1.3",
        "tls-max",
        "ssl-reqd",
        "ssl",
        "ssl-no-revoke",
        "ssl-revoke-best-effort",
        "ssl-allow-beast",
        "ciphers",
        "tls13-ciphers",
        "false-start",
        "cert-status",
        "expect100-timeout",
        "happy-eyeballs-timeout-ms",
        "dns-servers",
        "proto",
        "proto-redir",
        "proto-default",
        "sasl-ir",
        "mptcp",
    }
)


class CurlError(InvalidRequest):
    """The text is not a curl command line restwalk can read; the message names why."""

    explanation = "This is not a curl command line restwalk can read."
    hint = ""


@dataclass(frozen=True)
class DataPiece:
    """One ``-d``-like option: which one, and its argument."""

    kind: str  # data, raw, binary, urlencode, json
    text: str


@dataclass
class CurlState:
    """What the options said so far."""

    method: str | None = None
    head: bool = False
    get: bool = False
    urls: list[str] = field(default_factory=list)
    headers: list[tuple[str, str]] = field(default_factory=list)
    data: list[DataPiece] = field(default_factory=list)
    form: list[FormPart] = field(default_factory=list)
    user: str | None = None
    bearer: str | None = None
    cookies: list[str] = field(default_factory=list)
    upload: str | None = None
    url_query: list[str] = field(default_factory=list)
    #: ``-H 'Content-Type:'``: curl sends no type with the data.
    no_content_type: bool = False
    options: dict[str, object] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _number(name: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise CurlError(f"curl option --{name} takes a number of seconds, not {value!r}.") from None


def _header(state: CurlState, line: str, read: FileReader) -> None:
    """``-H 'Name: value'``, ``-H 'Name;'`` (empty), ``-H 'Name:'`` (none), ``-H @file``."""
    if line.startswith("@"):
        text = read(line[1:]).decode("utf-8", "replace")
        for each in text.splitlines():
            if each.strip():
                _header(state, each.strip(), read)
        return
    name, colon, value = line.partition(":")
    if not colon:
        name, semicolon, rest = line.partition(";")
        if semicolon and not rest.strip() and name.strip():
            state.headers.append((name.strip(), ""))
        else:
            state.notes.append(f"-H {line!r} is not 'Name: value'; curl sends nothing for it")
        return
    name = name.strip()
    value = value.strip()
    if value:
        state.headers.append((name, value))
        return
    # curl: "Name:" with nothing after it removes that header.
    if name.lower() == "content-type":
        state.no_content_type = True
    before = len(state.headers)
    state.headers = [(k, v) for k, v in state.headers if k.lower() != name.lower()]
    if len(state.headers) == before and name.lower() in ("user-agent", "accept", "host"):
        state.notes.append(f"-H '{name}:' stops curl's own {name} header; restwalk sends its own")


def _form_part(spec: str, *, literal: bool, read: FileReader) -> FormPart:
    """``-F name=value``, ``name=@file;type=...;filename=...``, ``name=<file``."""
    name, eq, rest = spec.partition("=")
    if not eq:
        raise CurlError(f"-F {spec!r} is not name=content.")
    if literal:
        return FormPart(name, rest)
    content, params = _form_params(rest)
    content_type = params.get("type")
    if content.startswith("@"):
        filename = params.get("filename")
        return FormPart(name, file=content[1:], filename=filename, content_type=content_type)
    if content.startswith("<"):
        text = read(content[1:]).decode("utf-8", "replace")
        return FormPart(name, text, content_type=content_type)
    return FormPart(name, content, content_type=content_type)


_FORM_PARAMS = ("type", "filename", "headers", "encoder")


def _form_params(text: str) -> tuple[str, dict[str, str]]:
    """Split ``content;type=...;filename=...`` (content may be in double quotes)."""
    prefix = ""
    if text.startswith(("@", "<")) and text[1:2] == '"':
        prefix, text = text[0], text[1:]
    if text.startswith('"'):
        content, index = _quoted_value(text)
        rest = text[index:]
    else:
        content, rest = _until_param(text)
    params: dict[str, str] = {}
    while rest.startswith(";"):
        rest = rest[1:].lstrip()
        key, _, after = rest.partition("=")
        key = key.strip().lower()
        if after.startswith('"'):
            value, index = _quoted_value(after)
            rest = after[index:]
        else:
            value, sep, tail = after.partition(";")
            rest = sep + tail
        params[key] = value
    return prefix + content, params


def _until_param(text: str) -> tuple[str, str]:
    """Content up to the first ``;name=`` that is one of curl's part parameters."""
    index = 0
    while True:
        index = text.find(";", index)
        if index < 0:
            return text, ""
        after = text[index + 1 :].lstrip().lower()
        if any(after.startswith(f"{param}=") for param in _FORM_PARAMS):
            return text[:index], text[index:]
        index += 1


def _quoted_value(text: str) -> tuple[str, int]:
    """A double-quoted value with ``\\"`` and ``\\\\`` escapes; its text and where it ends."""
    out = []
    index = 1
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in '"\\':
            out.append(text[index + 1])
            index += 2
            continue
        if char == '"':
            return "".join(out), index + 1
        out.append(char)
        index += 1
    raise CurlError(f"The double quote in -F {text!r} is never closed.")


def _apply(state: CurlState, name: str, value: str | None, written: str, read: FileReader) -> None:
    """One option, ``--name`` with its argument, as curl reads it."""
    assert value is not None or name not in TAKES_ARGUMENT
    arg = value or ""
    if name == "request":
        state.method = arg
    elif name == "header":
        _header(state, arg, read)
    elif name in ("data", "data-ascii"):
        state.data.append(DataPiece("data", arg))
    elif name == "data-raw":
        state.data.append(DataPiece("raw", arg))
    elif name == "data-binary":
        state.data.append(DataPiece("binary", arg))
    elif name == "data-urlencode":
        state.data.append(DataPiece("urlencode", arg))
    elif name == "json":
        state.data.append(DataPiece("json", arg))
    elif name in ("form", "form-string"):
        state.form.append(_form_part(arg, literal=name == "form-string", read=read))
    elif name == "user":
        state.user = arg
    elif name == "oauth2-bearer":
        state.bearer = arg
    elif name == "cookie":
        state.cookies.append(arg)
    elif name == "user-agent":
        state.headers.append(("User-Agent", arg))
    elif name == "referer":
        referer = arg.removesuffix(";auto")
        if referer != arg:
            state.notes.append("-e ';auto' (a Referer on redirects) is not done")
        if referer:
            state.headers.append(("Referer", referer))
    elif name == "get":
        state.get = True
    elif name == "head":
        state.head = True
    elif name == "url":
        state.urls.append(arg)
    elif name == "url-query":
        state.url_query.append(arg)
    elif name == "upload-file":
        state.upload = arg
    elif name == "range":
        state.headers.append(("Range", f"bytes={arg}"))
    elif name in ("insecure", "compressed", "http2", "http2-prior-knowledge"):
        state.options[name.replace("-", "_")] = True
    elif name in ("location", "location-trusted"):
        state.options["location"] = True
        if name == "location-trusted":
            state.notes.append(
                "--location-trusted: restwalk drops the credential when a redirect leaves "
                "the server, as plain -L does"
            )
    elif name in ("max-time", "connect-timeout"):
        state.options[name.replace("-", "_")] = _number(name, arg)
    elif name == "max-redirs":
        state.options["max_redirs"] = int(_number(name, arg))
    elif name == "proxy":
        state.options["proxy"] = arg if "://" in arg else f"http://{arg}"
    elif name == "cacert":
        state.options["cacert"] = arg
    elif name in IGNORED:
        state.ignored.append(written)
    else:
        state.unsupported.append(written)


def _negated(state: CurlState, name: str, written: str) -> None:
    """``--no-NAME``: a flag turned off (curl's default for most of them)."""
    if name in ("insecure", "location", "compressed"):
        state.options[name] = False
    elif name in ("get", "head"):
        setattr(state, name, False)
    elif name in IGNORED or name in ("keepalive", "buffer", "progress-meter", "sessionid"):
        state.ignored.append(written)
    else:
        state.unsupported.append(written)


def read_options(words: list[str], state: CurlState, read: FileReader) -> None:
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            state.urls.extend(words[index:])
            return
        if word.startswith("--") and len(word) > 2:
            name, eq, inline = word[2:].partition("=")
            if not eq or (name not in TAKES_ARGUMENT and name not in FLAGS):
                name, inline = word[2:], ""
                eq = ""
            if name in TAKES_ARGUMENT:
                if eq:
                    value = inline
                elif index < len(words):
                    value = words[index]
                    index += 1
                else:
                    raise CurlError(f"curl option {word} needs an argument, and none follows.")
                _apply(state, name, value, f"{word} {value}" if not eq else word, read)
            elif name in FLAGS:
                _apply(state, name, None, word, read)
            elif name.startswith("no-") and name[3:] in FLAGS | IGNORED:
                _negated(state, name[3:], word)
            else:
                state.unsupported.append(f"{word} (not a curl option restwalk knows)")
        elif word.startswith("-") and len(word) > 1:
            index = _short_options(word, words, index, state, read)
        else:
            state.urls.append(word)


def _short_options(
    word: str, words: list[str], index: int, state: CurlState, read: FileReader
) -> int:
    """A group of short options (``-sSL``, ``-XPOST``, ``-HX:y``); the next word's index."""
    letters = word[1:]
    position = 0
    while position < len(letters):
        letter = letters[position]
        position += 1
        name = SHORT.get(letter)
        if name is None:
            state.unsupported.append(f"-{letter} (not a curl option restwalk knows)")
            continue
        if name not in TAKES_ARGUMENT:
            _apply(state, name, None, f"-{letter}", read)
            continue
        value = letters[position:]
        if not value:
            if index >= len(words):
                raise CurlError(f"curl option -{letter} needs an argument, and none follows.")
            value = words[index]
            index += 1
        _apply(state, name, value, f"-{letter} {value}", read)
        return index
    return index


def form_field(name: str, value: str) -> FormPart:
    """A form field as ``-F name=value`` says it: ``@path;type=...;filename=...`` is a
    file, anything else text (as typed; ``<file`` is not read here)."""
    if not value.startswith("@"):
        return FormPart(name, value)
    content, params = _form_params(value)
    return FormPart(
        name, file=content[1:], filename=params.get("filename"), content_type=params.get("type")
    )


def form_value(part: FormPart) -> str:
    """What :func:`form_field` reads back as ``part`` (a file as ``@path;type=...``)."""
    if part.file is None:
        return part.value
    text = "@" + (f'"{part.file}"' if ";" in part.file else part.file)
    if part.content_type is not None:
        text += f";type={part.content_type}"
    if part.filename is not None:
        text += f";filename={part.filename}"
    return text
