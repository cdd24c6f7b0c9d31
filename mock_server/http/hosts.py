"""Which names a request may call the server by: the defence against DNS rebinding.

A web page on ``attacker.example`` can have its own DNS answer ``127.0.0.1`` for
that name; the browser then lets the page read what the mock on the visitor's
machine answers, as the page's own origin (with the documented ``admin:admin``,
the request journal too). Every such request still says ``Host:
attacker.example``: answering only the names the server is known by ends the
attack. Those names are (:class:`HostRule`):

- the loopback ones: ``localhost``, any address of ``127.0.0.0/8``, ``[::1]``;
- the host the server was told to listen on, when it is a name or an address
  (``--host 192.168.1.20``, ``--host mock.lan``);
- for a server listening on every address (``--host 0.0.0.0`` or ``::``), the
  address each connection reached (the machine's own, whichever it was):
  names there need ``--allowed-host``;
- each name given with ``--allowed-host``.

A name is compared without its port, case-insensitively, and without a final
dot (``LOCALHOST.:80`` is ``localhost``). ``*.localhost`` is not loopback here:
browsers keep it so, but other resolvers may not. An empty ``Host`` (HTTP/1.0,
or a target without authority: RFC 9112 §3.2) names nothing and is served.
Anything else is answered ``421 Misdirected Request`` (RFC 9110 §15.5.20: "not
able to produce a response for the target URI's authority") by
:mod:`mock_server.layers.host_check`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

#: The loopback name (RFC 6761 §6.3), as a client sends it.
LOCALHOST = "localhost"
#: The hosts that mean "every address of this machine" when listened on.
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
#: A registered name: letters, digits, ``-``, ``_`` and dots (RFC 3986's reg-name, less
#: the percent-encoded and sub-delims forms no client sends in a Host).
_NAME = re.compile(r"^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$")
_PORT = re.compile(r"^[0-9]*$")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class BadHost(ValueError):
    """A ``Host`` value that is not ``host[:port]``; the message says so."""


def _address(text: str) -> Address | None:
    """``text`` as an IP address (an IPv4-mapped IPv6 one as IPv4), or None."""
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def host_of(value: str) -> str:
    """The host a ``Host`` value names, lower-cased, without port or final dot.

    An IPv6 address keeps no brackets (``[::1]:80`` → ``::1``). Raises
    :class:`BadHost` for a value that is not ``host[:port]``.
    """
    text = value.strip().lower()
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket or not (rest == "" or (rest.startswith(":") and _PORT.match(rest[1:]))):
            raise BadHost(f"{value!r} is not [address]:port")
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            raise BadHost(f"{value!r} does not hold an IPv6 address in its brackets") from None
        return inside
    host, colon, port = text.partition(":")
    if colon and not _PORT.match(port):
        raise BadHost(f"{value!r} is not host:port")
    host = host.removesuffix(".")
    if host and not _NAME.match(host):
        raise BadHost(f"{value!r} is not a host name or address")
    return host


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the loopback addresses (a host as :func:`host_of` gives it)."""
    if host == LOCALHOST:
        return True
    address = _address(host)
    return address is not None and address.is_loopback


def _normal(host: str) -> str:
    """``host`` as :func:`host_of` gives it, an address in its one spelling."""
    plain = host.strip().lower().removeprefix("[").removesuffix("]").removesuffix(".")
    address = _address(plain)
    return plain if address is None else address.compressed


@dataclass(frozen=True)
class HostRule:
    """The names a server answers to besides the loopback ones (see the module)."""

    #: Names and addresses (in their :func:`_normal` form) answered.
    names: frozenset[str]
    #: The server listens on every address: an address literal naming the one the
    #: connection reached is answered.
    every_address: bool = False

    @classmethod
    def for_server(cls, listen_host: str, allowed: Iterable[str] = ()) -> HostRule:
        """The rule of a server listening on ``listen_host``, also answering ``allowed``."""
        every = listen_host.strip() in WILDCARD_HOSTS
        names = {_normal(name) for name in allowed}
        if not every:
            names.add(_normal(listen_host))
        return cls(frozenset(names), every)

    def allows(self, host: str, local_address: str | None = None) -> bool:
        """True when a request naming ``host`` (as :func:`host_of` gives it) is answered.

        ``local_address`` is the address the connection reached (ASGI's
        ``scope["server"]``), for a server listening on every address.
        """
        if not host or is_loopback(host):
            return True
        address = _address(host)
        shown = host if address is None else address.compressed
        if shown in self.names:
            return True
        if self.every_address and address is not None and local_address is not None:
            reached = _address(local_address.removeprefix("[").removesuffix("]"))
            return reached is not None and reached == address
        return False

    def described(self) -> list[str]:
        """The names answered, for a person: the loopback ones first."""
        found = [LOCALHOST, "127.0.0.1", "[::1]"]
        if self.every_address:
            found.append("this machine's addresses")
        found.extend(f"[{name}]" if ":" in name else name for name in sorted(self.names))
        return list(dict.fromkeys(found))
