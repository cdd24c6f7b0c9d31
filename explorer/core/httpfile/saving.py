"""Save a request into a ``.http`` file, the person's file: only that request changes.

A :class:`Draft` is what S (the page shown) or F2 (the composer) would save:
the request, and where it came from when it was opened from a ``.http`` file
(:mod:`.opened`: its ``{{variables}}`` are then written again, and what the
session added is left out). :func:`save_into` reads the file (when there is
one), puts the request in by name (:func:`~.writer.save_request`: its lines
replaced, or a new block at the end) and writes the whole file at once
(:func:`~.writer.write_http_file`). A Bearer token may go to
``http-client.private.env.json`` instead, the file then saying ``{{token}}``
(:mod:`.private_env`). A file that cannot be read, a request the format cannot
hold or that changed in the file since it was opened, is an error before
anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from explorer.core.http.request import RequestSpec
from explorer.core.httpfile.errors import HttpFileError
from explorer.core.httpfile.model import HttpRequest
from explorer.core.httpfile.opened import OpenedRequest, after_saving, changed_in, written_back
from explorer.core.httpfile.parser import parse_http
from explorer.core.httpfile.private_env import (
    TOKEN_VARIABLE,
    bearer_token,
    set_private_variable,
    token_as_variable,
)
from explorer.core.httpfile.workspace import read_http_file
from explorer.core.httpfile.writer import http_request_of, save_request, write_http_file

__all__ = ["DEFAULT_HTTP_FILE", "Draft", "Saved", "save_into", "suggested_name"]

#: Where a request is saved when no .http file was opened or saved before.
DEFAULT_HTTP_FILE = "restwalk.http"


@dataclass(frozen=True)
class Saved:
    """Where a request was saved: the file, its line, and whether it replaced one."""

    path: Path
    line: int
    replaced: bool
    #: The private environment file the token went to (None: it did not).
    private_file: Path | None = None
    #: What the request saved is opened as from now on, when it came from a .http file.
    opened: OpenedRequest | None = None


@dataclass(frozen=True)
class Draft:
    """A request to save: as the person has it, and what it came from.

    ``opened`` is the ``.http`` request it was opened from; ``baseline`` what the
    person was first shown (the resolved request and what the session adds to
    it); ``token`` the one the session's login flow got.
    """

    spec: RequestSpec
    opened: OpenedRequest | None = None
    baseline: RequestSpec | None = None
    token: str | None = None

    @cached_property
    def _written(self) -> HttpRequest | HttpFileError:
        """The request as written (computed once: an edited body is diffed), or why not."""
        try:
            if self.opened is not None:
                return written_back(self.opened, self.spec, self.baseline, token=self.token)
            return http_request_of(self.spec, token=self.token)
        except HttpFileError as error:
            return error

    def request(self, name: str) -> HttpRequest:
        """The request as it will be written under ``name``; :class:`~.writer.CannotWrite`
        when it cannot be."""
        written = self._written
        if isinstance(written, HttpFileError):
            raise written
        return replace(written, name=name)

    @property
    def problem(self) -> HttpFileError | None:
        """Why the request cannot be written, whatever its name (None: it can)."""
        written = self._written
        return written if isinstance(written, HttpFileError) else None

    def _request_or_none(self) -> HttpRequest | None:
        written = self._written
        return None if isinstance(written, HttpFileError) else written

    @property
    def credential(self) -> bool:
        """Whether a credential is written out in the file (not as a ``{{variable}}``)."""
        request = self._request_or_none()
        return request is not None and any(
            name.lower() in ("authorization", "cookie") and "{{" not in value
            for name, value in request.headers
        )

    @property
    def bearer(self) -> bool:
        """Whether a Bearer token is written out (and could go to the private file)."""
        request = self._request_or_none()
        return request is not None and bearer_token(request) is not None

    @property
    def session_credential_left_out(self) -> bool:
        """Whether the session's credential is on the request and not written (it was
        opened from a file whose request has none)."""
        return (
            self.opened is not None
            and self.spec.auth is not None
            and self.baseline is not None
            and self.spec.auth == self.baseline.auth
        )


def suggested_name(spec: RequestSpec) -> str:
    """A name for a request not named yet: its method and path (``GET /customers``)."""
    import httpx

    try:
        path = httpx.URL(spec.url).path or "/"
    except (httpx.InvalidURL, TypeError, ValueError):
        path = spec.url
    return f"{spec.method} {path}"


def save_into(
    path: Path,
    draft: Draft | RequestSpec,
    name: str,
    *,
    private_token: bool = False,
    environment: str | None = None,
) -> Saved:
    """Save ``draft`` as the request ``name`` of the ``.http`` file ``path`` (made if new).

    With ``private_token``, a Bearer token is written as ``{{token}}`` and its value
    put in ``environment`` (None: ``$shared``) of ``http-client.private.env.json``
    beside the file. Raises :class:`~.errors.HttpFileError` (the file cannot be
    read, the name is used twice there, the request opened from it has changed
    there since) or :class:`~.writer.CannotWrite` before writing anything.
    """
    if isinstance(draft, RequestSpec):
        draft = Draft(draft)
    path = path.expanduser()
    name = name.strip()
    existing = read_http_file(path) if path.exists() else None
    request = draft.request(name)
    opened = draft.opened
    if (
        opened is not None
        and existing is not None
        and name == opened.name
        and _same_file(path, opened.path)
        and changed_in(opened, existing)
    ):
        raise HttpFileError(
            f"The request {name!r} changed in {path.name} since it was opened; it is not "
            "saved over.",
            hint="Open it again (o), or save under another name.",
        )
    token = bearer_token(request) if private_token else None
    if token is not None:
        request = token_as_variable(request)
    new_text = save_request(existing.text if existing else "", request)
    private_file = None
    if token is not None:
        directory = path.parent if str(path.parent) else Path(".")
        directory.mkdir(parents=True, exist_ok=True)
        private_file, _ = set_private_variable(directory, environment, TOKEN_VARIABLE, token)
    write_http_file(path, new_text)
    written = parse_http(new_text, str(path)).named(name)[0]
    replaced = existing is not None and bool(existing.named(name))
    now = None
    if opened is not None:
        now = after_saving(opened, draft.spec, written, path, draft.baseline, draft.token)
    return Saved(path, written.line, replaced, private_file, now)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False
