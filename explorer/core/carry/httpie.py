"""A request written as an HTTPie command line (``http POST url Name:value field=value``).

HTTPie's own syntax is used where it says the request exactly:

- options first (``--form``, ``--multipart``, ``-a user:password``, ``-A bearer
  -a TOKEN``, ``--verify=no``, ``--follow``), then the method and the URL (the
  query, version and credential spelled out, as for curl);
- headers as ``Name:value`` (``Name;`` for an empty one); cookies as a
  ``Cookie:`` header;
- a JSON object body as items (``name=Ann`` for strings, ``age:=30`` for
  anything else), which HTTPie serializes again (the same JSON, its own
  spacing); a form body as ``--form`` items; a multipart form as
  ``--multipart`` items (``photo@a.png;type=image/png``); a file as
  ``@path``; any other body as ``--raw 'text'``.

The separators ``: ; = @`` are escaped with ``\\`` where HTTPie would read them
as separators. HTTPie adds headers of its own (``User-Agent: HTTPie/...``,
``Accept: application/json, */*;q=0.5`` with a JSON body); a ``Content-Type``
item is written wherever restwalk's type is not the one HTTPie would send.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

import orjson

from explorer.core.carry.curl import CurlOptions
from explorer.core.carry.flat import (
    ExportError,
    cookie_pairs,
    flatten,
    sent_content_type,
)
from explorer.core.carry.shell_words import quote_word
from explorer.core.http.request import BasicAuth, BearerAuth, RequestSpec
from explorer.core.http.upload import FormPart

__all__ = ["to_httpie"]

_SPECIAL = ":;=@"
#: A backslash before a separator character: HTTPie would drop the backslash.
_AMBIGUOUS = re.compile(r"\\[:;=@\[\]\\]")
#: Keys HTTPie takes as they are (no nesting brackets, no separators).
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
FORM_URLENCODED = "application/x-www-form-urlencoded"
JSON = "application/json"


class _Unsayable(Exception):
    """HTTPie's item syntax cannot say this text exactly."""


def _key(text: str) -> str:
    """A header name or field name, its separator characters escaped."""
    if _AMBIGUOUS.search(text) or text.endswith("\\"):
        raise _Unsayable(text)
    return "".join(f"\\{char}" if char in _SPECIAL else char for char in text)


def _value(text: str) -> str:
    """An item's value: only a first character that would lengthen the separator is escaped."""
    if _AMBIGUOUS.search(text):
        raise _Unsayable(text)
    if text and text[0] in _SPECIAL:
        return "\\" + text
    return text


def _word(text: str) -> str:
    try:
        return quote_word(text)
    except ValueError as exc:
        raise ExportError(f"The request cannot be written as a command line: {exc}.") from None


def _option(name: str, value: str) -> str:
    """``-a VALUE``; ``--auth=-VALUE`` when the value starts as an option would."""
    if value.startswith("-"):
        long = {"-a": "--auth"}.get(name, name)
        return _word(f"{long}={value}")
    return f"{name} {_word(value)}"


def _json_items(body: bytes) -> list[str] | None:
    """A JSON object as ``key=string`` and ``key:=json`` items; None when it is not one."""
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(document, dict) or not document:
        return None
    items = []
    try:
        for key, value in document.items():
            if not _PLAIN_KEY.fullmatch(key):
                return None
            if isinstance(value, str):
                items.append(f"{key}={_value(value)}")
            else:
                items.append(f"{key}:={_value(orjson.dumps(value).decode())}")
    except _Unsayable:
        return None
    return items


def _form_items(body: bytes) -> list[str] | None:
    """A form body as ``--form`` items; None when HTTPie would not encode it back the same."""
    try:
        text = body.decode("ascii")
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=True)
    except (UnicodeDecodeError, ValueError):
        return None
    if urlencode(pairs) != text:
        return None
    try:
        return [f"{_key(name)}={_value(value)}" for name, value in pairs]
    except _Unsayable:
        return None


def _part(part: FormPart) -> str:
    if part.file is None:
        if part.content_type is not None:
            raise ExportError(
                f"The form field {part.name!r} has a type of its own, which HTTPie's "
                "items cannot say for text."
            )
        return f"{_key(part.name)}={_value(part.value)}"
    if part.filename is not None:
        raise ExportError(
            f"The form file {part.name!r} is sent as {part.filename!r}; HTTPie sends a "
            "file under its own name."
        )
    item = f"{_key(part.name)}@{_value(part.file)}"
    if part.content_type is not None:
        item += f";type={part.content_type}"
    return item


def _body(flat: RequestSpec) -> tuple[list[str], list[str], str | None]:
    """Options, items and the Content-Type HTTPie sends by itself, for the body."""
    if flat.form:
        return ["--multipart"], [_part(part) for part in flat.form], None
    if flat.body_file is not None:
        return [], [f"@{_value(flat.body_file)}"], None
    if flat.body is None:
        return [], [], None
    body = flat.body_bytes
    named = next((v for k, v in flat.headers if k.lower() == "content-type"), None)
    content_type = named or sent_content_type(flat) or ""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == JSON or media.endswith("+json"):
        items = _json_items(body)
        if items is not None:
            return [], items, JSON
    if media == FORM_URLENCODED:
        items = _form_items(body)
        if items is not None:
            return ["--form"], items, None
    text = body.decode("utf-8", "surrogateescape")
    return [_option("--raw", text)], [], None


def _options(options: CurlOptions) -> list[str]:
    words = []
    if options.insecure:
        words.append("--verify=no")
    elif options.cacert is not None:
        words.append(f"--verify={_word(options.cacert)}")
    if options.location:
        words.append("--follow")
    if options.max_redirs is not None:
        words.append(f"--max-redirects={options.max_redirs}")
    if options.max_time is not None or options.connect_timeout is not None:
        seconds = options.max_time or options.connect_timeout
        words.append(f"--timeout={seconds:g}")
    if options.proxy is not None:
        scheme = options.proxy.split("://", 1)[0]
        words.append(f"--proxy={_word(f'{scheme}:{options.proxy}')}")
    return words


def to_httpie(spec: RequestSpec, options: CurlOptions | None = None) -> str:
    """``spec`` as an HTTPie (``http``) command line.

    Raises :class:`~explorer.core.carry.flat.ExportError` for what HTTPie cannot
    say: a login flow, a form file sent under another name, a NUL.
    """
    flat = flatten(spec)
    words = ["http", *_options(options or CurlOptions())]
    items: list[str] = []
    auth = flat.auth
    if isinstance(auth, BasicAuth) and ":" not in auth.user:
        words.append(_option("-a", f"{auth.user}:{auth.password}"))
    elif isinstance(auth, BearerAuth) and auth.scheme.lower() == "bearer":
        if not _has(flat, "authorization"):
            words.append("-A bearer " + _option("-a", auth.token))
    elif isinstance(auth, BearerAuth) and not _has(flat, "authorization"):
        items.append(f"Authorization:{_value(auth.value)}")  # HTTPie's -A knows no other scheme
    elif isinstance(auth, BasicAuth):
        import base64

        raw = base64.b64encode(f"{auth.user}:{auth.password}".encode()).decode("ascii")
        items.append(f"Authorization:Basic {raw}")
    try:
        body_options, body_items, sends = _body(flat)
        for name, value in flat.headers:
            items.append(f"{_key(name)}:{_value(value)}" if value else f"{_key(name)};")
        session = cookie_pairs(auth)
        if session is not None and not _has(flat, "cookie"):
            items.append(f"Cookie:{_value(session)}")
        elif session is not None:
            items = [
                f"{item}; {session}" if item.lower().startswith("cookie:") else item
                for item in items
            ]
    except _Unsayable as exc:
        raise ExportError(
            f"HTTPie's items cannot say {exc.args[0]!r} exactly (a backslash before : ; = or @)."
        ) from None
    content_type = sent_content_type(flat)
    if content_type is not None and content_type != sends and not _has(flat, "content-type"):
        items.append(f"Content-Type:{_value(content_type)}")
    words += body_options
    words += [_word(flat.method), _word(flat.url)]
    every = [*items, *body_items]
    if any(item.startswith("-") for item in every):
        words.append("--")  # an item such as '-X:1' would be read as an option
    words += [_word(item) for item in every]
    return " ".join(words)


def _has(spec: RequestSpec, name: str) -> bool:
    return any(key.lower() == name for key, _ in spec.headers)
