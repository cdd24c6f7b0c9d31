"""``config.toml``: the person's defaults, read with :mod:`tomllib`, never written.

The file has a few top-level keys and one table per subject::

    theme = "nord"

    [connection]            # what the command-line options of the same names set
    timeout = 10            # seconds, each of connect / read / write
    max_time = 60           # seconds for a whole exchange
    max_body = "100MB"      # bytes, or a size with kB, MB, GB
    redirects = true        # false: show a 3xx instead of following it
    max_redirects = 10
    verify = true           # false: do not check TLS certificates (-k)
    ca_bundle = "~/ca.pem"  # trust these CA certificates (--cacert)
    proxy = "http://proxy:3128"
    http2 = false           # offer HTTP/2 (by ALPN over TLS)
    http2_prior_knowledge = false  # speak HTTP/2 from the start, also over http:// (h2c)

    [cache]                 # the TUI's HTTP cache (C turns it on and off)
    enabled = false         # true: start with it on (or restwalk --cache)
    max_bytes = "64MB"      # what it holds at most; the least recently used go first

    [history]
    enabled = true
    max_entries = 10000     # the oldest go first beyond either bound
    max_bytes = "200MB"
    mask_secrets = true     # false keeps tokens, passwords and cookies as sent

    [http_files]            # what a .http file may read besides its folder (--allow-file...)
    allow_files = ["~/certs/client.pem", "~/shared-bodies"]   # a folder: all under it
    allow_env = ["GITHUB_TOKEN"]    # environment variables no env file beside it names

    [oauth.github]          # an OAuth 2.0 login, named: restwalk auth login github
    server = "https://api.github.com"   # the API: its token goes to this origin only
    client_id = "Iv1.0123456789abcdef"  # empty: restwalk registers itself (RFC 7591)
    grant = "device_code"   # or authorization_code, client_credentials (default: chosen)
    scope = "read:user"
    device_url = "https://github.com/login/device/code"  # when the server publishes no
    token_url = "https://github.com/login/oauth/access_token"  # metadata (RFC 8414)
    keep = true             # keep its tokens between runs (a 0600 file); default false

Command-line options win over the file. A file that is not valid TOML, has a key
restwalk does not know or a value of the wrong type is not used at all: restwalk
runs on its defaults and says why in one line naming the file and the line
(:class:`ConfigProblem`). Each key is declared once, as a field of the section's
record (a ``NamedTuple``: the TUI's start defines them all, and a dataclass costs five
times as much to define) annotated with its :data:`KINDS` check
(``Annotated[float, "seconds"]``); a new key is one field. A field whose type is a
section's record is a table (``[name]``), one of a mapping to a record a table of tables
(``[name.NAME]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, NamedTuple

from explorer.core.http.limits import (
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_TIME,
    DEFAULT_TIMEOUT,
)
from explorer.core.text.lazy_pattern import LazyPattern
from explorer.core.text.sizes import parse_size

__all__ = [
    "KINDS",
    "CacheConfig",
    "Config",
    "ConfigProblem",
    "ConnectionConfig",
    "HistoryConfig",
    "HttpFilesConfig",
    "OAuthConfig",
    "load_config",
    "parse_config",
]


# --- what a value may be ----------------------------------------------------------------


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError("must be a number of seconds above 0, such as 30 or 2.5")
    return float(value)


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("must be a whole number, 0 or more")
    return value


def _size(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError('must be a number of bytes or a size such as "100MB"')
    if isinstance(value, int):
        if value < 1:
            raise ValueError("must be at least 1 byte")
        return value
    return parse_size(value)


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value


def _path(value: object) -> str:
    return str(Path(_text(value)).expanduser())


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(i, str) and i.strip() for i in value):
        raise ValueError('must be a list of non-empty strings, such as ["a", "b"]')
    return tuple(value)


def _paths(value: object) -> tuple[str, ...]:
    return tuple(_path(item) for item in _texts(value))


def _url(value: object) -> str:
    text = _text(value)
    if "://" not in text:
        raise ValueError("must be a URL such as http://HOST:PORT")
    return text


def _client_authentication(value: object) -> str:
    if value not in ("basic", "in body", "none"):
        raise ValueError('must be "basic", "in body" or "none"')
    return str(value)


#: Each kind of value a key may hold: a check that returns the value to use, or raises
#: ValueError saying what the value must be.
KINDS: dict[str, Callable[[object], object]] = {
    "boolean": _boolean,
    "seconds": _seconds,
    "count": _count,
    "size": _size,
    "text": _text,
    "path": _path,
    "url": _url,
    "texts": _texts,
    "paths": _paths,
    "client_authentication": _client_authentication,
}


#: A key's annotation says its :data:`KINDS` check, then ``REQUIRED`` when a table without
#: it is refused: ``Annotated[str, "url", REQUIRED]``.
REQUIRED = "required"


# --- the settings ------------------------------------------------------------------------


class ConnectionConfig(NamedTuple):
    """``[connection]``: the defaults of the connection options (``--timeout``...)."""

    timeout: Annotated[float, "seconds"] = DEFAULT_TIMEOUT
    max_time: Annotated[float, "seconds"] = DEFAULT_MAX_TIME
    max_body: Annotated[int, "size"] = DEFAULT_MAX_BODY
    redirects: Annotated[bool, "boolean"] = True
    max_redirects: Annotated[int, "count"] = DEFAULT_MAX_REDIRECTS
    verify: Annotated[bool, "boolean"] = True
    ca_bundle: Annotated[str | None, "path"] = None
    proxy: Annotated[str | None, "url"] = None
    http2: Annotated[bool, "boolean"] = False
    http2_prior_knowledge: Annotated[bool, "boolean"] = False


class HistoryConfig(NamedTuple):
    """``[history]``: whether exchanges are kept, how many, and with secrets masked."""

    enabled: Annotated[bool, "boolean"] = True
    max_entries: Annotated[int, "count"] = 10_000
    max_bytes: Annotated[int, "size"] = 200_000_000
    mask_secrets: Annotated[bool, "boolean"] = True


class CacheConfig(NamedTuple):
    """``[cache]``: the session's HTTP cache in the TUI (``C`` turns it on and off)."""

    enabled: Annotated[bool, "boolean"] = False
    max_bytes: Annotated[int, "size"] = 64_000_000


class HttpFilesConfig(NamedTuple):
    """``[http_files]``: what a ``.http`` file's requests may read besides their folder and
    the environment variables its environment files name (``--allow-file``, ``--allow-env``)."""

    allow_files: Annotated[tuple[str, ...], "paths"] = ()
    allow_env: Annotated[tuple[str, ...], "texts"] = ()


class OAuthConfig(NamedTuple):
    """``[oauth.NAME]``: one OAuth 2.0 login (``restwalk auth login NAME``, ``--auth NAME``).

    What it leaves out is discovered from ``server`` (RFC 9728, RFC 8414, OpenID
    Connect) or chosen (:mod:`explorer.core.oauth.settings`). Its repr never shows
    ``client_secret``.
    """

    server: Annotated[str, "url", REQUIRED] = ""
    client_id: Annotated[str | None, "text"] = None
    client_secret: Annotated[str | None, "text"] = None
    grant: Annotated[str | None, "text"] = None
    scope: Annotated[str | None, "text"] = None
    auth_url: Annotated[str | None, "url"] = None
    token_url: Annotated[str | None, "url"] = None
    device_url: Annotated[str | None, "url"] = None
    redirect_url: Annotated[str | None, "url"] = None
    client_authentication: Annotated[str | None, "client_authentication"] = None
    keep: Annotated[bool, "boolean"] = False

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(self._fields, self, strict=True)
            if name != "client_secret"
        )
        return f"OAuthConfig({shown})"


class Config(NamedTuple):
    """Everything ``config.toml`` may set; ``Config()`` is restwalk's defaults."""

    theme: Annotated[str | None, "text"] = None
    # Tables (``[name]`` in the file): a section's record.
    connection: ConnectionConfig = ConnectionConfig()
    history: HistoryConfig = HistoryConfig()
    cache: CacheConfig = CacheConfig()
    http_files: HttpFilesConfig = HttpFilesConfig()
    # Tables of tables (``[oauth.NAME]``): a mapping to a section's record.
    oauth: Mapping[str, OAuthConfig] = MappingProxyType({})


class ConfigProblem(Exception):
    """What is wrong with a config file, and where: one line for the person."""

    def __init__(self, path: Path, message: str, line: int | None = None) -> None:
        self.path = path
        self.message = message
        self.line = line
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


# --- reading -----------------------------------------------------------------------------


def load_config(path: Path) -> Config:
    """The settings of the file at ``path``; a missing file is the defaults.

    Raises :class:`ConfigProblem` for a file that cannot be used; the caller
    then runs on ``Config()`` and shows the problem. The file is only read.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise ConfigProblem(path, f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigProblem(path, "is not UTF-8 text", line) from None
    return parse_config(text, path)


_TOML_POSITION = LazyPattern(r"\s*\(at line (\d+), column (\d+)\)$")


def parse_config(text: str, path: Path) -> Config:
    """The settings ``text`` (the content of ``path``) gives; see :func:`load_config`."""
    import tomllib  # (only a file there is parsed: the TUI's start without one does not wait)

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        line = int(found.group(1)) if found else None
        if found:
            message = f"{message[: found.start()]} (column {found.group(2)})"
        raise ConfigProblem(path, f"is not valid TOML: {message}", line) from None
    config: Config = _build(Config, document, (), _Locator(text, path))
    return config


def _build(cls: type[Any], table: dict[str, Any], section: tuple[str, ...], at: _Locator) -> Any:
    """An instance of the section's record ``cls`` from the TOML ``table`` at ``section``."""
    from typing import get_args, get_origin, get_type_hints

    keys = get_type_hints(cls, include_extras=True)  # (the annotations, evaluated)
    values: dict[str, object] = {}
    for key, value in table.items():
        kind = keys.get(key)
        if kind is None:
            known = ", ".join(keys)
            raise at.problem(
                section, key, f"unknown key {at.name(section, key)!r} (known: {known})"
            )
        if _is_section(kind):
            if not isinstance(value, dict):
                raise at.problem(section, key, f"{key!r} must be a table: [{key}]")
            values[key] = _build(kind, value, (*section, key), at)
            continue
        if get_origin(kind) is Mapping:
            values[key] = _build_tables(get_args(kind)[1], value, (*section, key), at)
            continue
        try:
            values[key] = KINDS[kind.__metadata__[0]](value)
        except ValueError as exc:
            raise at.problem(section, key, f"{at.name(section, key)} {exc}") from None
    for name, kind in keys.items():
        if REQUIRED in getattr(kind, "__metadata__", ()) and name not in table:
            where = "[" + ".".join(section) + "]"
            raise at.problem(section[:-1], section[-1], f"{where} needs {name} = ...")
    return cls(**values)


def _is_section(kind: object) -> bool:
    """Whether the annotation ``kind`` is a section's record (a table)."""
    return isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields")


def _build_tables(
    cls: type[Any], value: object, section: tuple[str, ...], at: _Locator
) -> dict[str, Any]:
    """``[section.NAME]`` tables, each an instance of the section's record ``cls``, by name."""
    key = section[-1]
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise at.problem(section[:-1], key, f"{key!r} must hold tables: [{key}.NAME]")
    return {name: _build(cls, inner, (*section, name), at) for name, inner in value.items()}


class _Locator(NamedTuple):
    """Finds the line of a key in the text, for the message (tomllib gives values only)."""

    text: str
    path: Path

    @staticmethod
    def name(section: tuple[str, ...], key: str) -> str:
        return ".".join((*section, key))

    def problem(self, section: tuple[str, ...], key: str, message: str) -> ConfigProblem:
        return ConfigProblem(self.path, message, self.line_of(section, key))

    def line_of(self, section: tuple[str, ...], key: str) -> int | None:
        """The line assigning ``key`` in table ``section`` (or dotted at the top), if found."""
        current: tuple[str, ...] = ()
        dotted = self.name(section, key)
        for number, line in enumerate(self.text.splitlines(), start=1):
            stripped = line.strip()
            header = re.fullmatch(r"\[\s*([^\[\]]+?)\s*\]\s*(#.*)?", stripped)
            if header:
                current = tuple(part.strip().strip("\"'") for part in header.group(1).split("."))
                if current == (*section, key):
                    return number
                continue
            name = re.match(r"""([A-Za-z0-9_."' -]+?)\s*=""", stripped)
            if name is None:
                continue
            written = ".".join(p.strip().strip("\"'") for p in name.group(1).split("."))
            if (current == section and written == key) or self.name(current, written) == dotted:
                return number
        return None
