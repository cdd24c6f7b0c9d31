"""Tokens kept between runs, when the person asks (``keep = true``, ``auth login --keep``).

By default a login's tokens live in memory and die with restwalk. Kept, they are in
one JSON file, ``oauth-tokens.json`` in restwalk's data directory
(:func:`explorer.core.paths.data_dir`), readable and writable by its owner only
(mode 0600, in a directory made 0700): a token is a password for as long as it
lives. The file is written whole to a new 0600 file, then renamed over the old
one, so it is never half written nor, for a moment, readable by others; a file
that others can read is not used (the error says how to fix it).

Each entry holds what renewing the tokens needs without asking the server again:
the server's URL the login is for, the token endpoint, the client id and the
revocation endpoint. Client secrets are never written here.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from explorer.core.oauth.errors import OAuthFailed
from explorer.core.oauth.tokens import Tokens

__all__ = ["TOKEN_FILE", "Kept", "TokenFile"]

TOKEN_FILE = "oauth-tokens.json"
#: The largest token file read.
MAX_FILE = 10_000_000


@dataclass(frozen=True)
class Kept:
    """One login's kept tokens and what renewing them needs."""

    tokens: Tokens
    server: str
    token_url: str
    client_id: str
    issuer: str = ""
    revocation_url: str = ""

    def __repr__(self) -> str:
        return f"Kept(server={self.server!r}, client_id={self.client_id!r}, tokens=****)"

    def to_json(self) -> dict[str, Any]:
        return {
            "tokens": self.tokens.to_json(),
            "server": self.server,
            "token_url": self.token_url,
            "client_id": self.client_id,
            "issuer": self.issuer,
            "revocation_url": self.revocation_url,
        }

    @classmethod
    def from_json(cls, document: Any) -> Kept:
        if not isinstance(document, dict) or not isinstance(document.get("tokens"), dict):
            raise OAuthFailed("A kept login that is not restwalk's.")
        texts = {}
        for name in ("server", "token_url", "client_id", "issuer", "revocation_url"):
            value = document.get(name, "")
            if not isinstance(value, str):
                raise OAuthFailed("A kept login that is not restwalk's.")
            texts[name] = value
        return cls(tokens=Tokens.from_json(document["tokens"]), **texts)


class TokenFile:
    """The file of kept tokens at ``path`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, Kept]:
        """Every kept login by name ({} when there is no file).

        Raises :class:`OAuthFailed` for a file others may read, or one not restwalk's.
        """
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise OAuthFailed(f"{self.path} cannot be read: {exc.strerror or exc}.") from None
        if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise OAuthFailed(
                f"{self.path} holds tokens and others may read it: it is not used.",
                hint=f"chmod 600 {self.path} (or delete it and log in again).",
            )
        if info.st_size > MAX_FILE:
            raise OAuthFailed(f"{self.path} is larger than {MAX_FILE:,} bytes: it is not used.")
        try:
            document = orjson.loads(self.path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            raise OAuthFailed(
                f"{self.path} is not restwalk's token file: it is not used."
            ) from None
        if not isinstance(document, dict):
            raise OAuthFailed(f"{self.path} is not restwalk's token file: it is not used.")
        kept: dict[str, Kept] = {}
        for name, entry in document.items():
            with contextlib.suppress(OAuthFailed):
                kept[str(name)] = Kept.from_json(entry)
        return kept

    def get(self, name: str) -> Kept | None:
        """The kept login ``name``, if there is one."""
        return self.read().get(name)

    def put(self, name: str, kept: Kept) -> None:
        """Keep ``kept`` as login ``name``."""
        logins = self.read()
        logins[name] = kept
        self._write(logins)

    def drop(self, name: str) -> bool:
        """Forget login ``name``; False when it was not kept."""
        logins = self.read()
        if logins.pop(name, None) is None:
            return False
        self._write(logins)
        return True

    def _write(self, logins: dict[str, Kept]) -> None:
        if not logins:
            self.path.unlink(missing_ok=True)
            return
        data = orjson.dumps(
            {name: kept.to_json() for name, kept in logins.items()}, option=orjson.OPT_INDENT_2
        )
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.new")
        temporary.unlink(missing_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            os.replace(temporary, self.path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
