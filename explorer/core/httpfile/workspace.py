"""A ``.http`` file with the environments beside it: what ``restwalk run`` and the TUI open.

:func:`open_workspace` reads the file and its environment files (each error
names its file and line), checks the chosen environment exists, and gives the
:class:`~.variables.VariableSources` its requests are resolved with. What its
requests may read on this machine, and what they did read, is its
:class:`~.local_reads.LocalReads`. The OAuth 2.0 logins its requests use
(``{{$auth.token("id")}}``) are found with :meth:`Workspace.auth_references` and
described by :meth:`Workspace.auth_settings`; their tokens come in as
:attr:`Workspace.auth`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from explorer.core.httpfile.auth_configs import (
    AUTH_KINDS,
    AuthReference,
    auth_reference,
    auth_value_key,
    settings_from_auth,
)
from explorer.core.httpfile.environments import ENV_FILE, Environments, load_environments
from explorer.core.httpfile.errors import HttpFileError
from explorer.core.httpfile.local_reads import Allowed, LocalReads, process_names
from explorer.core.httpfile.model import HttpFile, HttpRequest
from explorer.core.httpfile.opened import OpenedRequest, open_request
from explorer.core.httpfile.parser import content_of, parse_http
from explorer.core.httpfile.resolve import ResolvedRequest, file_variables, resolve_request
from explorer.core.httpfile.variables import (
    ResponseValues,
    VariableSources,
    references,
    substitute,
)
from explorer.core.oauth.errors import OAuthSettingsError
from explorer.core.oauth.settings import OAuthSettings

__all__ = ["MAX_HTTP_FILE", "Workspace", "open_workspace", "read_http_file"]

#: The largest .http file read (a file of requests, not of data).
MAX_HTTP_FILE = 20_000_000


def read_http_file(path: Path) -> HttpFile:
    """Read and parse the ``.http`` file ``path``; :class:`HttpFileError` if it cannot be read.

    Bytes that are not UTF-8 are kept (as surrogates) so writing the file back
    gives them back unchanged.
    """
    try:
        if path.is_dir():
            raise HttpFileError(f"{path} is a directory, not a .http file.")
        if path.stat().st_size > MAX_HTTP_FILE:
            raise HttpFileError(f"{path} is larger than {MAX_HTTP_FILE:,} bytes; not read.")
        data = path.read_bytes()
    except OSError as exc:
        raise HttpFileError(f"{path} cannot be read: {exc.strerror or exc}.") from None
    return parse_http(data.decode("utf-8", "surrogateescape"), str(path))


@dataclass(frozen=True)
class Workspace:
    """A parsed ``.http`` file, the environments beside it, and the one chosen."""

    http_file: HttpFile
    environments: Environments
    environment: str | None = None
    #: Values given by the person (``--var``, a prompt): they win over every other.
    given: Mapping[str, str] = field(default_factory=dict)
    #: What its requests may read, and have read (see :attr:`local_reads`).
    reads: LocalReads | None = field(default=None, compare=False)
    #: The tokens of its OAuth 2.0 logins got so far (``token:id``, ``idToken:id``).
    auth: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.reads is None:  # one for the file's folder, nothing else allowed
            object.__setattr__(self, "reads", LocalReads(self.path.parent))

    @property
    def local_reads(self) -> LocalReads:
        """What its requests may read on this machine, and what they read."""
        assert self.reads is not None  # (made with the workspace)
        return self.reads

    @property
    def path(self) -> Path:
        """The ``.http`` file's path."""
        return Path(self.http_file.path)

    def sources(self, responses: ResponseValues | None = None) -> VariableSources:
        """Where this workspace's variables come from (see :mod:`.variables`); the
        process environment through :attr:`local_reads`."""
        return VariableSources(
            given=self.given,
            environment=self.environments.variables(self.environment),
            shared=self.environments.shared(),
            file=file_variables(self.http_file),
            dotenv=self.environments.dotenv,
            process=self.local_reads,
            responses=responses,
            auth=self.auth,
        )

    def auth_references(self, request: HttpRequest) -> list[AuthReference]:
        """The ``$auth`` variables ``request`` uses, each once, in order."""
        found: list[AuthReference] = []
        start, end = request.block
        for line in self.http_file.lines[start:end]:
            for reference in references(content_of(line)):
                login = auth_reference(reference)
                if login is not None and login not in found:
                    found.append(login)
        return found

    def environments_with_login(self, auth_id: str) -> list[str]:
        """The environments whose ``Security.Auth`` has the login ``auth_id``."""
        environments = self.environments
        return [name for name in environments.names if auth_id in environments.auth(name)]

    def auth_placeholders(self) -> dict[str, str]:
        """A stand-in token for every login of the environment (to check the requests
        before any login is made)."""
        return {
            auth_value_key((kind, auth_id)): "placeholder"
            for auth_id in self.environments.auth(self.environment)
            for kind in AUTH_KINDS
        }

    def auth_settings(self, auth_id: str) -> OAuthSettings:
        """The login ``auth_id`` of the environment's ``Security.Auth``, its
        ``{{variables}}`` substituted; :class:`OAuthSettingsError` when there is none."""
        configs = self.environments.auth(self.environment)
        where = f"Security.Auth {auth_id!r} of {ENV_FILE}"
        if self.environment is not None:
            where += f" (environment {self.environment!r})"
        if auth_id not in configs:
            having = self.environments_with_login(auth_id)
            if having:
                hint = f"Choose an environment that has it: {', '.join(having)}."
            elif configs:
                hint = f"The logins there: {', '.join(repr(name) for name in configs)}."
            else:
                hint = "Add it to the file, under the environment's Security.Auth."
            raise OAuthSettingsError(f"No {where}.", hint=hint)
        sources = self.sources()
        return settings_from_auth(
            auth_id, configs[auth_id], where=where, values=lambda text: substitute(text, sources)
        )

    def resolve(
        self, request: HttpRequest, responses: ResponseValues | None = None
    ) -> ResolvedRequest:
        """``request`` ready to send, its reads checked by :attr:`local_reads`; raises
        as :func:`~.resolve.resolve_request` does."""
        sources = self.sources(responses)
        return resolve_request(request, self.http_file, sources, self.local_reads)

    def open(self, request: HttpRequest) -> tuple[ResolvedRequest, OpenedRequest]:
        """``request`` ready to send, and what to remember to save it back with its
        variables (:mod:`.opened`); raises as :func:`~.resolve.resolve_request` does."""
        sources = self.sources()
        resolved = resolve_request(request, self.http_file, sources, self.local_reads)
        opened = open_request(
            request, resolved.spec, self.http_file, self.environments, self.environment, sources
        )
        return resolved, opened

    def select(self, names: list[str]) -> list[HttpRequest]:
        """The requests called ``names``, in that order; every request when none is given.

        Raises :class:`HttpFileError` for a name no request has, listing those there are.
        """
        requests = self.http_file.requests
        if not names:
            return list(requests)
        chosen: list[HttpRequest] = []
        for name in names:
            found = self.http_file.named(name)
            if not found:
                known = ", ".join(repr(r.name) for r in requests if r.name) or "none is named"
                raise HttpFileError(
                    f"No request named {name!r} in {self.path.name}; the named ones: {known}."
                )
            chosen += found
        return chosen


def open_workspace(
    path: Path,
    environment: str | None = None,
    given: Mapping[str, str] | None = None,
    allowed: Allowed | None = None,
) -> Workspace:
    """The ``.http`` file ``path`` and the environments beside it, ``environment`` chosen;
    its requests may read what :mod:`.local_reads` lets them, and what ``allowed`` says.

    Raises :class:`HttpFileError` (a file that cannot be read, an environment no
    file defines, an environment file leading out of the folder) and
    :class:`~.errors.EnvFileError` (an environment file that is not what it should be).
    """
    http_file = read_http_file(path)
    reads = LocalReads(path.parent, allowed or Allowed())
    for value in (given or {}).values():
        reads.name_variables(process_names(value), "--var")
    environments = load_environments(path.parent if str(path.parent) else Path("."), reads)
    workspace = Workspace(http_file, environments, environment, dict(given or {}), reads)
    environments.variables(environment)  # an unknown name is an error now, not at send
    return workspace
