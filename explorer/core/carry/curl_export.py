"""A request written as a curl command line to copy and paste into a shell.

Every argument is single-quoted (``$'...'`` when it holds control characters),
so the line is safe to paste whatever a server or a person put in it. What is
written is exactly what restwalk would send, less the headers restwalk adds of
its own (``User-Agent``, ``Accept``, ``Accept-Encoding``), which curl adds in
its own way:

- the method only when curl would not infer it (``-X PATCH``; ``-I`` for HEAD);
- the URL with the query, the API version and its marker spelled out;
- ``-u user:password`` for Basic, ``Authorization: Bearer`` for a token, ``-b``
  for cookies;
- ``-H 'Content-Type: ...'`` when restwalk's type is not curl's default
  (``application/x-www-form-urlencoded`` for ``-d``);
- the body as ``-d`` (``--data-raw`` when it starts with ``@``), a file as
  ``--data-binary @path``, a form as ``-F`` parts (``-F 'photo=@a.png;type=...'``).

Reading the line back with :func:`~explorer.core.carry.curl.parse_curl` gives
the same request; writing that again gives the same text.
"""

from __future__ import annotations

from explorer.core.carry.curl import FORM_URLENCODED, CurlOptions
from explorer.core.carry.flat import (
    ExportError,
    auth_header,
    cookie_pairs,
    flatten,
    sent_content_type,
)
from explorer.core.carry.shell_words import quote_word
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.http.upload import FormPart

__all__ = ["to_curl"]

_PARAMETER_UNSAFE = set(';,"\\')


def _q(word: str) -> str:
    try:
        return quote_word(word, always=True)
    except ValueError as exc:
        raise ExportError(
            f"The request cannot be written as a command line: {exc}.",
            hint="Save the body to a file and send it from there.",
        ) from None


def _connection(options: CurlOptions) -> list[str]:
    words = []
    if options.insecure:
        words.append("-k")
    if options.location:
        words.append("-L")
    if options.compressed:
        words.append("--compressed")
    if options.http2_prior_knowledge:
        words.append("--http2-prior-knowledge")
    elif options.http2:
        words.append("--http2")
    if options.max_time is not None:
        words.append(f"--max-time {options.max_time:g}")
    if options.connect_timeout is not None:
        words.append(f"--connect-timeout {options.connect_timeout:g}")
    if options.max_redirs is not None:
        words.append(f"--max-redirs {options.max_redirs}")
    if options.proxy is not None:
        words.append(f"-x {_q(options.proxy)}")
    if options.cacert is not None:
        words.append(f"--cacert {_q(options.cacert)}")
    return words


def _form_value(text: str) -> str:
    """A part's content or file name, double-quoted when curl would split it."""
    if not (set(text) & _PARAMETER_UNSAFE) and not text.startswith(('"', "@", "<")):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _form_part(part: FormPart) -> str:
    if "=" in part.name:
        raise ExportError(
            f"The form field {part.name!r} has '=' in its name, which curl's -F cannot say."
        )
    if part.file is not None:
        text = f"{part.name}=@{_form_value(part.file)}"
        if part.filename is not None:
            text += f";filename={_form_value(part.filename)}"
    elif part.value.startswith(('"', "@", "<")) or set(part.value) & _PARAMETER_UNSAFE:
        if part.content_type is None:
            return f"--form-string {_q(f'{part.name}={part.value}')}"
        text = f"{part.name}={_form_value(part.value)}"
    else:
        text = f"{part.name}={part.value}"
    if part.content_type is not None:
        text += f";type={part.content_type}"
    return f"-F {_q(text)}"


def _method_words(spec: RequestSpec) -> list[str]:
    """``-X METHOD`` where curl would not send that method by itself."""
    if spec.method == "HEAD" and not spec.has_body:
        return ["-I"]
    implied = "POST" if spec.has_body else "GET"
    if spec.method == implied:
        return []
    try:
        return [f"-X {quote_word(spec.method)}"]
    except ValueError as exc:
        raise ExportError(f"The method cannot be written in a command line: {exc}.") from None


def _body_words(spec: RequestSpec) -> list[str]:
    if spec.form:
        return [_form_part(part) for part in spec.form]
    if spec.body_file is not None:
        return [f"--data-binary {_q('@' + spec.body_file)}"]
    if spec.body is None:
        return []
    raw = spec.body_bytes
    text = raw.decode("utf-8", "surrogateescape")
    option = "--data-raw" if text.startswith("@") or not text else "-d"
    return [f"{option} {_q(text)}"]


def to_curl(
    spec: RequestSpec, options: CurlOptions | None = None, *, multiline: bool = False
) -> str:
    """``spec`` as a curl command line (one line, or one option a line with ``\\``).

    Raises :class:`~explorer.core.carry.flat.ExportError` for what a command
    line cannot say: a login flow, a NUL in the body or a header.
    """
    flat = flatten(spec)
    words = ["curl", *_connection(options or CurlOptions())]
    words += _method_words(flat)
    words.append(_q(flat.url))
    first_line = len(words)
    auth = flat.auth
    if isinstance(auth, BasicAuth):
        if ":" in auth.user:
            import base64

            raw = base64.b64encode(f"{auth.user}:{auth.password}".encode()).decode("ascii")
            words.append(f"-H {_q(f'Authorization: Basic {raw}')}")
        else:
            words.append(f"-u {_q(f'{auth.user}:{auth.password}')}")
    cookies = [value for name, value in flat.headers if name.lower() == "cookie"]
    for name, value in flat.headers:
        if name.lower() == "cookie":
            continue
        words.append(f"-H {_q(f'{name}: {value}' if value else f'{name};')}")
    bearer = auth_header(auth)
    if bearer is not None and not any(k.lower() == "authorization" for k, _ in flat.headers):
        words.append(f"-H {_q(f'{bearer[0]}: {bearer[1]}')}")
    has_data = flat.body is not None or flat.body_file is not None
    content_type = sent_content_type(flat)
    named = any(name.lower() == "content-type" for name, _ in flat.headers)
    if has_data and not named and content_type != FORM_URLENCODED:
        # curl sends its default type with -d unless told another, or none ("Name:").
        words.append(
            f"-H {_q(f'Content-Type: {content_type}' if content_type else 'Content-Type:')}"
        )
    session = cookie_pairs(auth)
    if session is not None:
        cookies.append(session)
    if cookies:
        words.append(f"-b {_q('; '.join(cookies))}")
    words += _body_words(flat)
    if not multiline:
        return " ".join(words)
    return " \\\n  ".join([" ".join(words[:first_line]), *words[first_line:]])
