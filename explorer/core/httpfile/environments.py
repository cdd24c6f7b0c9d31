"""Environments: ``http-client.env.json`` and ``http-client.private.env.json``.

The JetBrains convention: beside the ``.http`` file, a JSON object of named
environments, each an object of variables::

    {"dev": {"host": "localhost:8000"}, "prod": {"host": "api.example.com"}}

The public file goes into version control; the private one holds secrets and
stays out of it, and its values win over the public file's. ``$shared`` is an
environment whose variables every other one has (VS Code's convention, which
JetBrains reads too). A value that is an object is read as variables with
dotted names (``{{db.user}}``); numbers and booleans as their JSON text.

An environment's ``Security`` object is no variable: its ``Auth`` entries are
OAuth 2.0 logins (:mod:`.auth_configs`), kept apart (:meth:`Environments.auth`), the
private file's keys winning one by one.

A file that is not such JSON is an :class:`EnvFileError` naming the file and
the line; it is only ever read, never written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explorer.core.httpfile.dotenv_files import DOTENV_FILE, dotenv_names, parse_dotenv, read_text
from explorer.core.httpfile.errors import EnvFileError
from explorer.core.httpfile.local_reads import LocalReads, process_names

__all__ = [
    "ENV_FILE",
    "PRIVATE_ENV_FILE",
    "SHARED",
    "Environments",
    "load_environments",
    "read_env_file",
]

ENV_FILE = "http-client.env.json"
PRIVATE_ENV_FILE = "http-client.private.env.json"
#: The environment whose variables every environment has.
SHARED = "$shared"
#: The largest environment file read (they are a few lines; this is no database).
MAX_ENV_FILE = 10_000_000

EnvironmentTable = dict[str, dict[str, str]]
#: Environment → login id → the login's JSON object (``Security.Auth``).
AuthTable = dict[str, dict[str, dict[str, Any]]]
#: The key of an environment that is no variable.
SECURITY = "Security"


@dataclass(frozen=True)
class Environments:
    """The environments found beside a ``.http`` file, and its ``.env`` values."""

    directory: Path
    public: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    private: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    dotenv: Mapping[str, str] = field(default_factory=dict)
    #: The files that were read, in the order read.
    files: tuple[Path, ...] = ()
    #: Each file's ``Security.Auth`` logins (public, private).
    public_auth: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    private_auth: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The environments one can choose (``$shared`` is not one)."""
        names = {*self.public, *self.private} - {SHARED}
        return sorted(names, key=str.lower)

    def shared(self) -> dict[str, str]:
        """The ``$shared`` variables (private over public)."""
        return {**self.public.get(SHARED, {}), **self.private.get(SHARED, {})}

    def variables(self, name: str | None) -> dict[str, str]:
        """The variables of environment ``name`` (None: only the ``$shared`` ones).

        Raises :class:`EnvFileError` for a name no file defines.
        """
        values = self.shared()
        if name is None:
            return values
        if name not in self.names:
            known = ", ".join(self.names) or "none"
            where = os.path.abspath(self.directory)  # "." would read as "in .."
            raise EnvFileError(
                f"No environment {name!r} in {ENV_FILE} or {PRIVATE_ENV_FILE} (in {where}).",
                hint=f"The environments there: {known}.",
            )
        return {**values, **self.public.get(name, {}), **self.private.get(name, {})}

    def auth(self, name: str | None) -> dict[str, dict[str, Any]]:
        """The ``Security.Auth`` logins of environment ``name`` (None: the ``$shared``
        ones) by id: ``$shared``'s, then the environment's, the private file's keys over
        the public file's."""
        merged: dict[str, dict[str, Any]] = {}
        for environment in (SHARED, name) if name is not None else (SHARED,):
            for table in (self.public_auth, self.private_auth):
                for auth_id, config in table.get(environment, {}).items():
                    merged[auth_id] = {**merged.get(auth_id, {}), **config}
        return merged

    def is_private(self, environment: str, variable: str) -> bool:
        """True when ``variable`` of ``environment`` comes from the private file."""
        return variable in self.private.get(environment, {}) or variable in self.private.get(
            SHARED, {}
        )


def _line_of(text: str, needle: str) -> int:
    """The line where ``needle`` first appears in ``text`` (1 when it does not)."""
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _flatten(prefix: str, value: object, into: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(f"{prefix}.{key}", inner, into)
    elif isinstance(value, str):
        into[prefix] = value
    elif value is None:
        into[prefix] = ""
    else:
        into[prefix] = json.dumps(value, ensure_ascii=False)


def read_env_file(path: Path) -> EnvironmentTable:
    """The environments of one JSON environment file (their variables).

    Raises :class:`EnvFileError` naming the file and the line for a file that
    cannot be read, is not JSON, or is not an object of objects.
    """
    return read_env_tables(path)[0]


def _auth_of(path: Path, name: str, security: object, text: str) -> dict[str, dict[str, Any]]:
    """The ``Auth`` logins of an environment's ``Security`` object."""
    auth = security.get("Auth", {}) if isinstance(security, dict) else None
    if not isinstance(auth, dict) or not all(isinstance(v, dict) for v in auth.values()):
        line = _line_of(text, '"Auth"')
        raise EnvFileError(
            f"{path}, line {line}: the Security.Auth of {name!r} must be an object of "
            'logins, {"my-login": {"Type": "OAuth2", ...}}.'
        )
    return {str(auth_id): dict(config) for auth_id, config in auth.items()}


def read_env_tables(path: Path) -> tuple[EnvironmentTable, AuthTable]:
    """The variables and the ``Security.Auth`` logins of one environment file."""
    try:
        if path.stat().st_size > MAX_ENV_FILE:
            raise EnvFileError(f"{path}: larger than {MAX_ENV_FILE:,} bytes; not read.")
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EnvFileError(f"{path}: not UTF-8 text ({exc.reason}).") from None
    except OSError as exc:
        raise EnvFileError(f"{path}: cannot be read: {exc.strerror or exc}.") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EnvFileError(
            f"{path}, line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno}).",
            hint="The file is left as it is.",
        ) from None
    if not isinstance(document, dict):
        raise EnvFileError(
            f"{path}, line 1: must be a JSON object of environments, "
            '{"dev": {"host": "..."}}, not a JSON ' + type(document).__name__ + "."
        )
    table: EnvironmentTable = {}
    logins: AuthTable = {}
    for name, values in document.items():
        if not isinstance(values, dict):
            line = _line_of(text, json.dumps(name, ensure_ascii=False))
            raise EnvFileError(
                f"{path}, line {line}: the environment {name!r} "
                "must be an object of variables, "
                f'{{"host": "..."}}, not a JSON {type(values).__name__}.'
            )
        variables: dict[str, str] = {}
        for key, value in values.items():
            if key == SECURITY:
                logins[name] = _auth_of(path, name, value, text)
                continue
            _flatten(key, value, variables)
        table[name] = variables
    return table, logins


def load_environments(directory: Path, reads: LocalReads | None = None) -> Environments:
    """The environment files and ``.env`` in ``directory`` (each may be missing).

    With ``reads``, each file is checked and recorded as a read of the ``.http`` file
    beside them (one that leads out of the folder is refused), the environment
    variables they name are noted, and ``.env``'s ``${NAME}`` reads through it.
    Raises :class:`EnvFileError` for the first one that exists but cannot be read.
    """
    found: list[Path] = []
    tables: list[EnvironmentTable] = []
    logins: list[AuthTable] = []
    for name in (ENV_FILE, PRIVATE_ENV_FILE):
        path = directory / name
        if not path.is_file():
            tables.append({})
            logins.append({})
            continue
        both = (
            read_env_tables(path)
            if reads is None
            else reads.read(path, "The environment file", read_env_tables)
        )
        tables.append(both[0])
        logins.append(both[1])
        if reads is not None:
            for values in tables[-1].values():
                for value in values.values():
                    reads.name_variables(process_names(value), name)
            for configs in logins[-1].values():
                for config in configs.values():
                    for value in config.values():
                        if isinstance(value, str):
                            reads.name_variables(process_names(value), name)
        found.append(path)
    dotenv_path = directory / DOTENV_FILE
    dotenv: dict[str, str] = {}
    if dotenv_path.is_file():
        if reads is None:
            text = read_text(dotenv_path)
        else:
            text = reads.read(dotenv_path, "The .env file", read_text)
            reads.name_variables(dotenv_names(text), DOTENV_FILE)
        dotenv = parse_dotenv(text, str(dotenv_path), reads)
        found.append(dotenv_path)
    return Environments(directory, tables[0], tables[1], dotenv, tuple(found), logins[0], logins[1])
