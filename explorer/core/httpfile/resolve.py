"""A request of a ``.http`` file made ready to send: variables substituted, files read.

:func:`resolve_request` turns an :class:`~.model.HttpRequest` and the
:class:`~.variables.VariableSources` into a :class:`ResolvedRequest`: the
:class:`~explorer.core.http.request.RequestSpec` to send and what its directives ask
(no redirects, no cookie jar, a timeout), plus what restwalk keeps but does not
do (scripts, output redirects), to be said aloud. Every error names the
variable or file, the request, the ``.http`` file and the line.

The body is built as the tools build it: lines joined by LF; a
``multipart/form-data`` body by CR LF, ending with one; an
``x-www-form-urlencoded`` body's ``&`` lines joined without a break; a
``< ./file`` line replaced by the file's bytes (``<@ ./file`` by its text,
variables substituted). A body that is one ``< ./file`` line is the file,
byte for byte. Every file and environment variable read goes through
:class:`~.local_reads.LocalReads`: one outside what the file may read is refused.

A URL whose origin an earlier answer gave (``GET {{create.response.headers.Location}}``)
goes where a server chose: :attr:`ResolvedRequest.origin_from` names the requests
whose answers made it, for the run to keep the request's secrets to their origin
(:func:`explorer.core.session.derived.scoped_to`).
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from explorer.core.http.errors import InvalidBody
from explorer.core.http.request import STANDARD_METHODS, RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.httpfile.errors import BadVariable, FileProblem, HttpFileError, UndefinedVariable
from explorer.core.httpfile.local_reads import LocalReads, ReadRefused
from explorer.core.httpfile.model import Directive, FileRef, HttpFile, HttpRequest, Script
from explorer.core.httpfile.parser import content_of
from explorer.core.httpfile.variables import (
    ResponseValues,
    VariableSources,
    references,
    substitute,
)
from explorer.core.httpfile.versions import VERSION_HINT, Protocol, protocol_of, unsendable

__all__ = [
    "KNOWN_DIRECTIVES",
    "ResolvedRequest",
    "describe",
    "file_variables",
    "parse_duration",
    "placed",
    "resolve_request",
]

#: Directives restwalk acts on or knowingly leaves alone (others are kept, and named).
KNOWN_DIRECTIVES = frozenset(
    {
        "name",
        "no-redirect",
        "no-cookie-jar",
        "timeout",
        "connection-timeout",
        "note",
        "prompt",
        "no-log",
    }
)
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|m)?$")
_SCALE = {"ms": 0.001, "s": 1.0, "m": 60.0}
_HTTP = re.compile(r"^https?://", re.IGNORECASE)
_MAX_BODY_FILE = 1_000_000_000
#: Authorization schemes VS Code's REST Client computes from a user and password.
_NOT_COMPUTED = frozenset({"digest", "aws", "cognito"})


@dataclass(frozen=True)
class ResolvedRequest:
    """A request ready to send, and what its directives ask of the sending."""

    request: HttpRequest
    spec: RequestSpec
    #: False for ``# @no-redirect``; None: the connection's setting.
    follow_redirects: bool | None = None
    #: False for ``# @no-cookie-jar``: neither send nor keep cookies.
    cookie_jar: bool = True
    #: Seconds, from ``# @timeout`` (each phase) and ``# @connection-timeout``.
    timeout: float | None = None
    connect_timeout: float | None = None
    #: Scripts and output redirects restwalk keeps but does not run.
    not_run: tuple[Script, ...] = ()
    #: Lines to show with the exchange: ``# @note``, directives not known...
    notes: tuple[str, ...] = ()
    #: How the request line's version says to send it (None: as the connection is set).
    protocol: Protocol | None = None
    #: The requests of the run whose answers gave this URL's origin (its scheme, host or
    #: port): a server chose where it goes, so its secrets keep to that server's origin.
    origin_from: tuple[str, ...] = ()


def describe(request: HttpRequest, http_file: HttpFile, line: int | None = None) -> str:
    """Where an error is, one place named once: ``api.http, line 12``, or
    ``request 'login' (api.http, line 12)`` for a named request. ``line`` is the
    line at fault (the request line when None)."""
    where = _where(http_file, line or request.line)
    return f"request {request.name!r} ({where})" if request.name else where


def placed(request: HttpRequest, http_file: HttpFile, line: int | None = None) -> str:
    """:func:`describe` in parentheses, after a sentence: ``(api.http, line 12)``,
    ``(api.http, line 12, request 'login')``; never one parenthesis in another."""
    where = _where(http_file, line or request.line)
    return f"({where}, request {request.name!r})" if request.name else f"({where})"


def _where(http_file: HttpFile, line: int) -> str:
    name = Path(http_file.path).name if http_file.path else "the .http text"
    return f"{name}, line {line}"


def file_variables(http_file: HttpFile) -> dict[str, str]:
    """The file's ``@name = value`` variables (a later one wins, as in VS Code)."""
    return {variable.name: variable.value for variable in http_file.variables}


def parse_duration(text: str) -> float | None:
    """``600``, ``5 s``, ``500 ms`` or ``2 m`` in seconds; None when it is none of them."""
    match = _DURATION.match(text.strip())
    if match is None:
        return None
    return float(match.group(1)) * _SCALE[match.group(2) or "s"]


def _reference_line(request: HttpRequest, http_file: HttpFile, reference: str) -> int:
    """The first line of ``request``'s block that uses ``reference`` (its line if none)."""
    start, end = request.block
    for index in range(start, min(end, len(http_file.lines))):
        if reference in references(content_of(http_file.lines[index])):
            return index + 1
    return request.line


class _Resolver:
    def __init__(
        self,
        request: HttpRequest,
        http_file: HttpFile,
        sources: VariableSources,
        reads: LocalReads | None,
    ):
        self.request = request
        self.file = http_file
        self.sources = sources
        self.base = Path(http_file.path).parent if http_file.path else Path.cwd()
        self.reads = reads if reads is not None else LocalReads(self.base)

    def text(self, text: str) -> str:
        """``text`` with its variables substituted; errors say where."""
        try:
            return substitute(text, self.sources)
        except ReadRefused as error:
            reference = next((r for r in references(text) if error.name in r), None)
            line = _reference_line(self.request, self.file, reference) if reference else None
            where = placed(self.request, self.file, line)
            raise error.placed(f"{error.explanation.rstrip('.')} {where}.") from None
        except UndefinedVariable as error:
            reference = next(
                (r for r in references(text) if error.name in r), error.name
            )  # the line that uses it
            line = _reference_line(self.request, self.file, reference)
            raise UndefinedVariable(
                f"{error.explanation.rstrip('.')} in {describe(self.request, self.file, line)}.",
                name=error.name,
                hint=error.hint,
            ) from None
        except HttpFileError as error:
            raise type(error)(
                f"{error.explanation.rstrip('.')} in {describe(self.request, self.file)}.",
                hint=error.hint,
            ) from None

    def file_bytes(self, ref: FileRef) -> bytes:
        path = Path(self.text(ref.path)).expanduser()
        if not path.is_absolute():
            path = self.base / path
        where = placed(self.request, self.file, ref.line)
        # InvalidBody's own hint speaks of the command line's -d @file.
        marker = "<@" if ref.substitute else "<"
        hint = f"Check the path after {marker}: a relative one is read from {self.base.absolute()}."

        def read(checked: Path) -> bytes:
            try:
                if checked.stat().st_size > _MAX_BODY_FILE:
                    raise InvalidBody(
                        f"The body file {checked} is larger than 1 GB {where}.", hint=hint
                    )
                return checked.read_bytes()
            except OSError as exc:
                raise InvalidBody(
                    f"The body file {str(checked)!r} cannot be read: {exc.strerror or exc} "
                    f"{where}.",
                    hint=hint,
                ) from None

        try:
            data = self.reads.read(path, "The body file", read)
        except ReadRefused as error:
            raise error.placed(f"{error.explanation.rstrip('.')} {where}.") from None
        if not ref.substitute:
            return data
        try:
            text = data.decode(ref.encoding or "utf-8")
        except (LookupError, UnicodeDecodeError) as exc:
            raise InvalidBody(
                f"The body file {path} cannot be read as text: {exc} {where}.", hint=hint
            ) from None
        return self.text(text).encode(ref.encoding or "utf-8")

    def body(self, content_type: str) -> bytes | str | None:
        lines = self.request.body
        if not lines:
            return None
        if len(lines) == 1 and isinstance(lines[0], FileRef):
            return self.file_bytes(lines[0])
        media = content_type.split(";", 1)[0].strip().lower()
        if media.startswith("multipart/"):
            parts = [
                self.file_bytes(line) if isinstance(line, FileRef) else self.text(line).encode()
                for line in lines
            ]
            return b"".join(part + b"\r\n" for part in parts)
        if any(isinstance(line, FileRef) for line in lines):
            return b"\n".join(
                self.file_bytes(line) if isinstance(line, FileRef) else self.text(line).encode()
                for line in lines
            )
        texts = [self.text(line) for line in lines if isinstance(line, str)]
        if media == "application/x-www-form-urlencoded":
            return "".join(
                t if i == 0 or t.startswith("&") else "\n" + t for i, t in enumerate(texts)
            )
        joined = "\n".join(texts)
        if media in ("application/x-ndjson", "application/jsonl", "application/json-seq"):
            joined += "\n"
        return joined

    def url(self, headers: list[tuple[str, str]]) -> str:
        url = self.text(self.request.url)
        if url.startswith("/") and not url.startswith("//"):
            host = next((v for k, v in headers if k.lower() == "host"), None)
            if host:  # origin form: the Host header says where (the spec's 3.2.1.1)
                if "://" in host:
                    return host.rstrip("/") + url
                scheme = "https" if host.rsplit(":", 1)[-1] in ("443", "8443") else "http"
                return f"{scheme}://{host.rstrip('/')}{url}"
        if not _HTTP.match(url) and "://" not in url and not url.startswith("/"):
            return f"http://{url}"  # the format's default scheme
        return url

    def duration(self, directive: Directive) -> float:
        seconds = parse_duration(directive.value)
        if seconds is None or seconds <= 0:
            raise FileProblem(
                f"# @{directive.name} {directive.value!r} is not a duration such as 30, "
                f"5 s, 500 ms or 2 m {placed(self.request, self.file, directive.line)}."
            )
        return seconds


def _authorization(headers: list[tuple[str, str]], notes: list[str]) -> list[tuple[str, str]]:
    """``Authorization: Basic user:password`` (or ``user password``), as both tools accept
    it, encoded as RFC 7617 says; schemes restwalk does not compute are named."""
    out = []
    for name, value in headers:
        scheme, _, credentials = value.strip().partition(" ")
        if name.lower() == "authorization" and scheme.lower() == "basic":
            credentials = credentials.strip()
            if ":" in credentials or " " in credentials:
                user, _, password = credentials.replace(" ", ":", 1).partition(":")
                raw = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
                value = f"Basic {raw}"
        elif name.lower() == "authorization" and scheme.lower() in _NOT_COMPUTED:
            notes.append(
                f"Authorization: {scheme} is computed by VS Code's REST Client; restwalk "
                "sends the header as written"
            )
        out.append((name, value))
    return out


#: What an answer's value is written as to find where in a URL it lands.
_MARK = "restwalkanswer"


class _Marking:
    """Response values as markers (``restwalkanswer0``...), each remembering whose it is."""

    def __init__(self, responses: ResponseValues) -> None:
        self.responses = responses
        self.names: list[str] = []

    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        if self.responses.value(name, part, kind, path) is None:
            return None
        self.names.append(name)
        return f"{_MARK}{len(self.names) - 1}x"


def _origin_from(
    request: HttpRequest, http_file: HttpFile, sources: VariableSources, reads: LocalReads | None
) -> list[str]:
    """The requests whose answers the URL's origin (scheme, host, port) is made of."""
    if sources.responses is None:
        return []
    marking = _Marking(sources.responses)
    resolver = _Resolver(request, http_file, replace(sources, responses=marking), reads)
    headers = [(resolver.text(name), resolver.text(value)) for name, value in request.headers]
    url = resolver.url(headers)
    origin = origin_of(url) or url
    return list(
        dict.fromkeys(
            name for index, name in enumerate(marking.names) if f"{_MARK}{index}x" in origin
        )
    )


def _graphql(spec: RequestSpec) -> RequestSpec:
    """VS Code's ``X-Request-Type: GraphQL``: the body is a query, then (after a blank
    line) its variables as JSON; sent as ``{"query", "operationName", "variables"}``."""
    body = spec.body_bytes.decode("utf-8", "replace").replace("\r\n", "\n")
    query, _, variables = body.partition("\n\n")
    named = re.match(r"^\s*query\s+([^@{(\s]+)", query, re.IGNORECASE)
    try:
        values = json.loads(variables) if variables.strip() else {}
    except json.JSONDecodeError as exc:
        raise FileProblem(f"The GraphQL variables are not JSON: {exc}.") from None
    payload = {
        "query": query,
        "operationName": named.group(1) if named else None,
        "variables": values,
    }
    headers = tuple((k, v) for k, v in spec.headers if k.lower() != "x-request-type")
    return replace(spec, headers=headers, body=json.dumps(payload))


def resolve_request(
    request: HttpRequest,
    http_file: HttpFile,
    sources: VariableSources,
    reads: LocalReads | None = None,
) -> ResolvedRequest:
    """``request`` ready to send (see the module docstring).

    ``reads`` checks and records each body file read (:mod:`.local_reads`; when None,
    only files of the ``.http`` file's folder may be read). Raises
    :class:`~.errors.HttpFileError` (or :class:`~explorer.core.http.errors.InvalidBody`)
    naming the line: a problem the parser found in the request's lines, an undefined
    variable, a read not allowed (:class:`~.local_reads.ReadRefused`), a body file
    that cannot be read, a directive with a bad value.
    """
    problems = http_file.problems_of(request)
    if problems:
        first = problems[0]
        raise FileProblem(f"{_capital(first.message)} {placed(request, http_file, first.line)}.")
    refused = unsendable(request.http_version)
    if refused is not None:
        version = " ".join((request.http_version or "").split())
        raise FileProblem(
            f"{version} is not a version restwalk can send {placed(request, http_file)}: "
            f"{refused}.",
            hint=VERSION_HINT,
        )
    resolver = _Resolver(request, http_file, sources, reads)
    headers = [(resolver.text(name), resolver.text(value)) for name, value in request.headers]
    if any("\n" in value or "\r" in value for _, value in headers):
        raise BadVariable(
            f"A header's value holds a line break once its variables are put in "
            f"{placed(request, http_file)}."
        )
    notes: list[str] = []
    headers = _authorization(headers, notes)
    content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
    method = resolver.text(request.effective_method)
    if request.url.strip() == "*":
        raise FileProblem(
            "The asterisk form (OPTIONS *) cannot be sent by restwalk; write the server's "
            f"URL instead, as OPTIONS http://host/ {placed(request, http_file)}."
        )
    if method.upper() in STANDARD_METHODS:
        method = method.upper()
    spec = RequestSpec(
        method=method,
        url=resolver.url(headers),
        headers=tuple((k, v) for k, v in headers if k.lower() != "host" or request.url[:1] != "/"),
        body=resolver.body(content_type),
    )
    if any(k.lower() == "x-request-type" and v.lower() == "graphql" for k, v in headers):
        spec = _graphql(spec)
    timeout = connect = None
    for directive in request.directives:
        if directive.name == "timeout":
            timeout = resolver.duration(directive)
        elif directive.name == "connection-timeout":
            connect = resolver.duration(directive)
        elif directive.name == "note" and directive.value:
            notes.append(f"note: {directive.value}")
        elif directive.name not in KNOWN_DIRECTIVES:
            notes.append(
                f"# @{directive.name} (line {directive.line}) is not a directive restwalk "
                "knows: it is kept in the file and not acted on"
            )
    return ResolvedRequest(
        request=request,
        spec=spec,
        follow_redirects=False if request.directive("no-redirect") else None,
        cookie_jar=request.directive("no-cookie-jar") is None,
        timeout=timeout,
        connect_timeout=connect,
        not_run=request.scripts,
        notes=tuple(notes),
        protocol=protocol_of(request.http_version),
        origin_from=tuple(_origin_from(request, http_file, sources, resolver.reads)),
    )


def _capital(sentence: str) -> str:
    """``sentence`` with its first letter a capital (a problem's text starts lower case)."""
    return sentence[:1].upper() + sentence[1:]
