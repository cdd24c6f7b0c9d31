"""Which callback URLs a webhook subscription may have (pure: no socket, no DNS).

A mock that POSTs wherever it is told is a request forgery tool, so the
callback is checked when the subscription is made and again before every
delivery:

- an ``http`` or ``https`` URL, as httpx (which sends the deliveries) reads
  it, so the check and the delivery cannot disagree on the host; no
  credentials in it (``user:pass@``); at most :data:`MAX_URL` characters;
- its host allowed: without ``--webhook-allow``, a loopback address
  (``127.0.0.0/8``, ``::1``) or ``localhost``, on any port; with it, only the
  ``HOST`` or ``HOST:PORT`` entries given;
- not this server itself (a delivery must not become a request to the
  server that sent it).

Deliveries never follow redirects (:mod:`mock_server.events.delivery`), so
the URL checked is the only one reached.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

MAX_URL = 2048
SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Allowed:
    """One ``--webhook-allow`` entry: a host (lower case), and a port or any."""

    host: str
    port: int | None = None

    @classmethod
    def parse(cls, text: str) -> Allowed:
        """``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT``; ValueError says what is wrong."""
        value = text.strip().lower()
        if not value or "/" in value or "@" in value:
            raise ValueError(f"expected HOST or HOST:PORT, got {text!r}")
        host, port = value, None
        if value.startswith("["):
            inside, _, rest = value[1:].partition("]")
            host = inside
            if rest:
                port = _port(rest.removeprefix(":") if rest.startswith(":") else "", text)
        elif value.count(":") == 1:
            host, _, raw = value.partition(":")
            port = _port(raw, text)
        if not host:
            raise ValueError(f"expected HOST or HOST:PORT, got {text!r}")
        return cls(host, port)

    def __str__(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return shown if self.port is None else f"{shown}:{self.port}"


def _port(raw: str, text: str) -> int:
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 65535:
        raise ValueError(f"expected HOST or HOST:PORT with a port from 1 to 65535, got {text!r}")
    return int(raw)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        # ``::ffff:127.0.0.1`` is a spelling address filters are known to miss, and Python
        # 3.13 calls it loopback where 3.11 does not: not a loopback here, on any Python.
        return False
    return address.is_loopback


@dataclass(frozen=True)
class CallbackPolicy:
    """Where deliveries may go: ``allowed`` entries, or loopback when there are none."""

    allowed: tuple[Allowed, ...] = ()

    def describe(self) -> str:
        """Where deliveries may go, in words (for a refusal)."""
        if not self.allowed:
            return "a loopback address (127.0.0.1, ::1, localhost): see --webhook-allow"
        return "one of " + ", ".join(str(entry) for entry in self.allowed) + " (--webhook-allow)"

    def refusal(self, url: str, own: tuple[str, int] | None = None) -> str | None:
        """Why ``url`` may not be a callback (None: it may); ``own`` is this server's
        address (host, port)."""
        if len(url) > MAX_URL:
            return f"must be at most {MAX_URL} characters"
        # httpx when a callback is first checked, not when the mock starts: restwalk's
        # bundled mock starts beside its UI, and most runs never make a webhook.
        import httpx

        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError, ValueError) as error:
            return f"is not a URL ({error})"
        if parsed.scheme not in SCHEMES or not parsed.host:
            return "must be an absolute http or https URL"
        if parsed.userinfo:
            return "must not carry credentials (user:password@)"
        if parsed.fragment:
            return "must not have a fragment (#...): a delivery would not send it"
        host = parsed.host.lower()
        port = parsed.port or DEFAULT_PORTS[parsed.scheme]
        if not self.allows(host, port):
            return f"names {host}, where this server does not deliver; allowed: {self.describe()}"
        if own is not None and port == own[1] and (is_loopback(host) or host == own[0].lower()):
            return "is this server itself: a delivery would be a request to the server sending it"
        return None

    def allows(self, host: str, port: int) -> bool:
        """True when deliveries may go to ``host`` (lower case) on ``port``."""
        if not self.allowed:
            return is_loopback(host)
        return any(e.host == host and e.port in (None, port) for e in self.allowed)
