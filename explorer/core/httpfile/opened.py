"""A request opened from a ``.http`` file, remembered so that saving it back keeps the file's.

The TUI opens a request with its variables put in (to read, edit and send).
:class:`OpenedRequest` remembers where it came from: the file, the request as
written, what it resolved to, the value each ``{{reference}}`` had, and the
values that came from private places. :func:`written_back` then turns the
request as the person left it into the request to write:

- a part left as it was (method, URL, a header, the body) is written as the
  file had it, ``{{variables}}``, ``< ./file`` bodies and all;
- a part edited is written as edited, with each variable whose value the
  person did not touch put back as ``{{name}}`` (:mod:`.retemplate`);
- what the session added and the file's request did not say (the session's
  credential, headers kept for the server, its API version) is left out: the
  file is the person's, and a credential the session holds is not its to keep;
- a value from ``http-client.private.env.json``, ``.env``, a
  ``{{$processEnv NAME}}`` or an OAuth 2.0 login's ``{{$auth.token("id")}}`` the
  request uses is never written as it is: it is written as the variable that
  gives it (refused when none does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from explorer.core.http.request import RequestSpec
from explorer.core.httpfile.auth_configs import auth_reference
from explorer.core.httpfile.environments import PRIVATE_ENV_FILE, SHARED, Environments
from explorer.core.httpfile.errors import HttpFileError
from explorer.core.httpfile.model import BodyLine, FileRef, HttpFile, HttpRequest
from explorer.core.httpfile.retemplate import retemplate
from explorer.core.httpfile.variables import REFERENCE, VariableSources, references, substitute
from explorer.core.httpfile.writer import CannotWrite, http_request_of

__all__ = [
    "OpenedRequest",
    "Secret",
    "after_saving",
    "changed_in",
    "open_request",
    "written_back",
]

#: System variables with one value whatever the moment (the others change at each use).
_STABLE_SYSTEM = ("$processEnv", "$env.", "$dotenv", "$shared")
#: A secret this short is put back only where it stands alone ("1" is not hidden in "18731").
_SHORT_SECRET = 4
_WORD = "0-9A-Za-z"
#: Bodies whose text is not their lines joined by LF: not re-templated, written as edited.
_BUILT_BODIES = ("multipart/", "application/x-www-form-urlencoded")


@dataclass(frozen=True)
class Secret:
    """A value from a private place, and the ``{{...}}`` that gives it (None if none does)."""

    value: str
    #: What goes between the braces instead: ``password``, ``$dotenv KEY``...
    reference: str | None
    #: Where it came from, for a message: ``password of http-client.private.env.json``.
    origin: str


@dataclass(frozen=True)
class OpenedRequest:
    """A request of a ``.http`` file as written, and what it became when opened."""

    path: Path
    request: HttpRequest
    #: What it resolved to, before the session added anything.
    resolved: RequestSpec
    #: Each ``{{reference}}`` of the request and its value (None: one that changes each use).
    values: Mapping[str, str | None] = field(default_factory=dict)
    secrets: tuple[Secret, ...] = ()

    @property
    def name(self) -> str:
        """The request's name in its file (empty when it has none)."""
        return self.request.name or ""


def _texts(request: HttpRequest) -> list[str]:
    """Every text of ``request`` that may hold ``{{...}}``."""
    texts = [request.url, request.method or ""]
    for name, value in request.headers:
        texts += [name, value]
    for line in request.body:
        texts.append(line.path if isinstance(line, FileRef) else line)
    return texts


def _stable(reference: str) -> bool:
    inner = reference.removeprefix("%").strip()
    return not inner.startswith("$") or inner.startswith(_STABLE_SYSTEM)


def _value(reference: str, sources: VariableSources) -> str | None:
    try:
        return substitute("{{" + reference + "}}", sources)
    except HttpFileError:
        return None


def _secrets(
    request: HttpRequest,
    environments: Environments,
    environment: str | None,
    sources: VariableSources,
) -> tuple[Secret, ...]:
    """The values of the private places this request may show, each with what gives it back."""
    found: list[tuple[str, list[str], str]] = []  # value, candidate references, origin
    private = dict(environments.private.get(SHARED, {}))
    if environment is not None:
        private.update(environments.private.get(environment, {}))
    for name, value in private.items():
        shared = name in environments.private.get(SHARED, {})
        candidates = [name, f"$shared {name}"] if shared else [name]
        found.append((value, candidates, f"{name} of {PRIVATE_ENV_FILE}"))
    for name, value in environments.dotenv.items():
        found.append((value, [name, f"$dotenv {name}"], f"{name} of .env"))
    for text in _texts(request):
        for reference in references(text):
            inner = reference.removeprefix("%").strip()
            if inner.startswith(("$processEnv", "$env.")) and "%" not in inner:
                from_process = _value(inner, sources)
                if from_process is not None:
                    found.append((from_process, [inner], f"{{{{{inner}}}}}"))
            elif auth_reference(inner) is not None:  # an OAuth 2.0 login's token
                token = _value(inner, sources)
                if token is not None:
                    found.append((token, [inner], f"{{{{{inner}}}}}"))
    secrets = []
    for secret, candidates, origin in found:
        if secret:
            given_by = next((c for c in candidates if _value(c, sources) == secret), None)
            secrets.append(Secret(secret, given_by, origin))
    return tuple(secrets)


def open_request(
    request: HttpRequest,
    resolved: RequestSpec,
    http_file: HttpFile,
    environments: Environments,
    environment: str | None,
    sources: VariableSources,
) -> OpenedRequest:
    """What to remember of ``request`` (resolved as ``resolved``) to save it back later."""
    values: dict[str, str | None] = {}
    for text in _texts(request):
        for reference in references(text):
            if reference not in values:
                values[reference] = _value(reference, sources) if _stable(reference) else None
    return OpenedRequest(
        path=Path(http_file.path),
        request=request,
        resolved=resolved,
        values=values,
        secrets=_secrets(request, environments, environment, sources),
    )


def changed_in(opened: OpenedRequest, http_file: HttpFile) -> bool:
    """Whether ``http_file`` no longer has ``opened``'s request as it was when opened."""
    same = http_file.named(opened.name) if opened.name else []
    if len(same) != 1:
        return True
    now, then = same[0], opened.request
    return (now.method, now.url, now.http_version, now.headers, now.body) != (
        then.method,
        then.url,
        then.http_version,
        then.headers,
        then.body,
    )


class _Hider:
    """Writes each private value as the variable that gives it."""

    def __init__(self, secrets: tuple[Secret, ...]) -> None:
        self.by_value = {s.value: s for s in sorted(secrets, key=lambda s: -len(s.value))}
        alternatives = [
            re.escape(value)
            if len(value) >= _SHORT_SECRET
            else f"(?<![{_WORD}]){re.escape(value)}(?![{_WORD}])"
            for value in self.by_value
        ]
        self.pattern = re.compile("|".join(alternatives)) if alternatives else None

    def __call__(self, text: str) -> str:
        if self.pattern is None or not text:
            return text
        return self.pattern.sub(self._put_back, text)

    def _put_back(self, match: re.Match[str]) -> str:
        secret = self.by_value[match.group(0)]
        if secret.reference is None:
            raise CannotWrite(
                f"The value of {secret.origin} would be written into the file, and no "
                "variable gives it back here.",
                hint="Edit it out of the request, or give it a name no other value hides.",
            )
        return "{{" + secret.reference + "}}"


def _without_session(
    spec: RequestSpec, baseline: RequestSpec, resolved: RequestSpec
) -> RequestSpec:
    """``spec`` less what the session added to ``resolved`` (as ``baseline`` shows) and the
    person left as it was."""
    if spec.auth is not None and spec.auth == baseline.auth and resolved.auth is None:
        spec = replace(spec, auth=None)
    added = list(baseline.headers)
    for header in resolved.headers:
        if header in added:
            added.remove(header)
    headers = list(spec.headers)
    for header in added:
        if header in headers:
            headers.remove(header)
    spec = replace(spec, headers=tuple(headers))
    version = (spec.api_version, spec.version_style, spec.version_name, spec.base_path)
    if resolved.api_version is None and version == (
        baseline.api_version,
        baseline.version_style,
        baseline.version_name,
        baseline.base_path,
    ):
        spec = replace(spec, api_version=None, version_style="none", version_name="")
    return spec


class _Merge:
    """Each part of the request as to write: the file's where it was left, else as edited."""

    def __init__(self, opened: OpenedRequest) -> None:
        self.opened = opened
        self.hide = _Hider(opened.secrets)

    def text(self, template: str, old: str, new: str) -> str:
        return retemplate(template, old, new, self.opened.values, self.hide)

    def substituted(self, text: str) -> str:
        """``text`` with the values it had when opened (a value that changes: as written)."""

        def value(match: re.Match[str]) -> str:
            found = self.opened.values.get(match.group(1).strip())
            return match.group(0) if found is None else found

        return REFERENCE.sub(value, text)

    def _not_sent(self, keep_host: bool, keep_request_type: bool) -> tuple[set[int], set[int]]:
        """The template's headers that are not sent as headers (the URL or the body says
        them), and those of them to write again."""
        request = self.opened.request
        names = [self.substituted(name).lower() for name, _ in request.headers]
        graphql = any(
            name == "x-request-type" and self.substituted(value).lower() == "graphql"
            for name, (_, value) in zip(names, request.headers, strict=True)
        )
        not_sent: set[int] = set()
        kept: set[int] = set()
        for index, name in enumerate(names):
            if name == "host" and request.url.startswith("/"):
                not_sent.add(index)
                if keep_host:
                    kept.add(index)
            elif graphql and name == "x-request-type":
                not_sent.add(index)
                if keep_request_type:
                    kept.add(index)
        return not_sent, kept

    def headers(
        self,
        old: tuple[tuple[str, str], ...],
        new: tuple[tuple[str, str], ...],
        keep_host: bool,
        keep_request_type: bool,
    ) -> list[tuple[str, str]]:
        """``new``'s headers: one left as it was is the file's line, one edited is merged
        with the file's, a new one is written as it is; ``old`` are the file's, resolved
        in the same order (less those :meth:`_not_sent`)."""
        written = self.opened.request.headers
        not_sent, kept = self._not_sent(keep_host, keep_request_type)
        file_index = [i for i in range(len(written)) if i not in not_sent]  # old's j → written's
        used: set[int] = set()

        def find(name: str, value: str | None) -> int | None:
            for j, (n, v) in enumerate(old):
                if j not in used and n.lower() == name.lower() and value in (None, v):
                    return j
            return None

        out: list[tuple[str, str]] = []
        for name, value in new:
            same = find(name, value)
            if same is not None:
                used.add(same)
                if same < len(file_index):
                    out.append(written[file_index[same]])
                continue  # not the file's (what the writer adds): left out as it was
            edited = find(name, None)
            if edited is not None and edited < len(file_index):
                used.add(edited)
                file_name, file_value = written[file_index[edited]]
                out.append(
                    (
                        file_name if old[edited][0] == name else self.hide(name),
                        self.text(file_value, old[edited][1], value),
                    )
                )
                continue
            out.append((self.hide(name), self.hide(value)))
        for index in sorted(kept):
            out.insert(min(index, len(out)), written[index])
        return out

    def body(self, resolved: RequestSpec, lines: tuple[BodyLine, ...]) -> tuple[BodyLine, ...]:
        """The body lines to write for an edited body (``lines``, as the writer writes it)."""
        request = self.opened.request
        plain = (
            bool(request.body)
            and not any(isinstance(line, FileRef) for line in request.body)
            and not _media(request.headers).startswith(_BUILT_BODIES)
            and isinstance(resolved.body, str)
            and not any(isinstance(line, FileRef) for line in lines)
        )
        if plain and isinstance(resolved.body, str):
            template = "\n".join(str(line) for line in request.body)
            edited = "\n".join(str(line) for line in lines)
            return tuple(self.text(template, _trimmed(resolved.body), edited).split("\n"))
        return tuple(self.hide(x) if isinstance(x, str) else x for x in lines)


def _media(headers: tuple[tuple[str, str], ...]) -> str:
    value = next((v for k, v in headers if k.lower() == "content-type"), "")
    return value.split(";", 1)[0].strip().lower()


def _trimmed(body: str) -> str:
    """A body as the writer keeps it: LF line ends, no blank lines around it."""
    lines = body.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


def _same_body(resolved: RequestSpec, spec: RequestSpec) -> bool:
    """Whether ``spec`` sends the body ``resolved`` had (line ends and blank lines around
    it aside, which an editor may change)."""
    if spec.body_file is not None or spec.form:
        return False
    if resolved.body is None or spec.body is None:
        return resolved.body is None and spec.body is None
    if resolved.body_bytes == spec.body_bytes:
        return True
    try:
        before = resolved.body_bytes.decode("utf-8")
        after = spec.body_bytes.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return _trimmed(before) == _trimmed(after)


def written_back(
    opened: OpenedRequest,
    spec: RequestSpec,
    baseline: RequestSpec | None = None,
    name: str | None = None,
    token: str | None = None,
) -> HttpRequest:
    """The request to write for ``spec``, which was opened as ``opened`` (see the module
    docstring). ``baseline`` is what the person was shown at first (the resolved
    request and what the session adds); ``token`` is the one a login flow got.

    Raises :class:`~.writer.CannotWrite` for what the format cannot hold, and for a
    private value that no variable gives back.
    """
    resolved = opened.resolved
    spec = _without_session(spec, baseline or resolved, resolved)
    head = replace(spec, body=None, body_file=None, form=())
    new = http_request_of(head, name, token=token)
    old = http_request_of(replace(resolved, body=None))
    merge = _Merge(opened)
    request = opened.request
    url = merge.text(request.url, old.url, new.url)
    method = request.method if new.method == old.method else merge.hide(new.method or "GET")
    if _same_body(resolved, spec):
        lines, body_kept = request.body, True
    else:
        body = http_request_of(replace(spec, headers=(), auth=None, api_version=None))
        lines, body_kept = merge.body(resolved, body.body), False
        if lines and not request.body:  # a new body: its type, as for a new request
            body_type = [(k, v) for k, v in body.headers if k.lower() == "content-type"]
            if not any(k.lower() == "content-type" for k, _ in new.headers):
                new_headers = (*new.headers, *body_type)
                new = replace(new, headers=new_headers)
    headers = merge.headers(old.headers, new.headers, url == request.url, body_kept)
    return HttpRequest(
        url=url,
        method=method,
        http_version=request.http_version,
        headers=tuple(headers),
        body=lines,
        name=name if name is not None else request.name,
        directives=request.directives,
    )


def after_saving(
    opened: OpenedRequest,
    spec: RequestSpec,
    written: HttpRequest,
    path: Path,
    baseline: RequestSpec | None = None,
    token: str | None = None,
) -> OpenedRequest:
    """What ``spec`` is opened as once saved as ``written`` (as read back from ``path``):
    the next save compares with it, values that change at each use as they were."""
    resolved = opened.resolved
    spec = _without_session(spec, baseline or resolved, resolved)
    head = http_request_of(replace(spec, body=None, body_file=None, form=()), token=token)
    now = RequestSpec(
        method=head.method or "GET",
        url=head.url,
        headers=head.headers,
        body=spec.body,
        body_file=spec.body_file,
        form=spec.form,
    )
    values = dict(opened.values)
    for secret in opened.secrets:
        if secret.reference is not None:
            values.setdefault(secret.reference, secret.value)
    return replace(opened, path=path, request=written, resolved=now, values=values)
