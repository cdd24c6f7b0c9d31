"""The RFC 8288 ``Link`` header: the same links as the body, for clients that read headers."""

from __future__ import annotations

from collections.abc import Iterable

from mock_server.representations.model import Link


def quoted(value: str) -> str:
    """``value`` as an HTTP quoted-string (RFC 9110, section 5.6.4)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def link_value(link: Link) -> str:
    """One link-value: ``<href>; rel="next"`` plus its title, if any."""
    value = f"<{link.href}>; rel={quoted(link.rel)}"
    if link.title:
        value += f"; title={quoted(link.title)}"
    if link.type:
        value += f"; type={quoted(link.type)}"
    return value


def preload_header(paths: Iterable[str]) -> str:
    """The ``Link`` field value saying a client will fetch ``paths`` next (``rel=preload``).

    ``as=fetch``: they are API reads, not scripts or styles (Preload, W3C).
    """
    return ", ".join(f"<{path}>; rel=preload; as=fetch" for path in paths)


def link_header(links: Iterable[Link]) -> str:
    """The ``Link`` field value for ``links`` (templated links cannot go in a header)."""
    return ", ".join(link_value(link) for link in links if not link.templated)
