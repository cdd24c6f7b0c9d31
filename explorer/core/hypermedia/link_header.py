"""RFC 8288 ``Link`` header fields (and RFC 9652 ``Link-Template``).

Grammar (RFC 8288 section 3)::

    Link       = #link-value
    link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
    link-param = token BWS [ "=" BWS ( token / quoted-string ) ]

The parser is a tolerant scanner, not a regular expression: commas and
semicolons inside ``<...>`` or a quoted string do not split, a value that does
not start with ``<`` is skipped up to the next top-level comma, and an
unterminated quote or bracket ends the field (a parameter whose quote never
closes is dropped), and a parameter whose name is not a token is skipped. Each
relation type of a ``rel`` (``rel="next last"``) gives one :class:`Link`. As RFC
8288 says, only the first ``rel``, ``title``, ``title*``, ``type`` and
``anchor`` count; ``title*`` (RFC 8187 ``charset'lang'pct-encoded``) wins over
``title``. Registered relation types compare case-insensitively, so they are
lower-cased; extension types (URIs) are kept as written. A link without ``rel``
gets ``related``. Other parameters (``media``, ``rev``, extensions) go to
``Link.attributes``.

Many APIs page by this header alone, their ``next`` and ``last`` URLs carrying the
page: GitHub's page numbers
(https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api),
Shopify's ``page_info`` cursor, its previous page named ``previous`` (read as
``prev``: :mod:`~explorer.core.hypermedia.vocabulary`;
https://shopify.dev/docs/api/usage/pagination-rest), json-server 0.17's ``_page``,
fastapi-pagination's ``UseHeaderLinks``.
"""

from __future__ import annotations

from urllib.parse import unquote

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.link import Link
from explorer.core.text.lazy_pattern import LazyPattern

_TOKEN = LazyPattern(r"[!#$%&'*+\-.^_`|~0-9a-z]+")
_SINGLE = frozenset({"rel", "title", "title*", "type", "anchor", "hreflang"})

Param = tuple[str, "str | None"]


def parse_link_values(value: str) -> list[tuple[str, list[Param]]]:
    """Split one field value into ``(uri-reference, [(name, value), ...])`` items."""
    items: list[tuple[str, list[Param]]] = []
    i, end = 0, len(value)
    while i < end:
        while i < end and value[i] in " \t\r\n,":
            i += 1
        if i >= end:
            break
        if value[i] != "<":
            i = _skip_to_comma(value, i)
            continue
        close = value.find(">", i + 1)
        if close < 0:
            break
        target = value[i + 1 : close].strip()
        params, i = _parse_params(value, close + 1)
        items.append((target, params))
    return items


def _skip_to_comma(value: str, i: int) -> int:
    """Index just past the next comma outside quotes and brackets (or the end)."""
    end = len(value)
    while i < end:
        char = value[i]
        if char == ",":
            return i + 1
        if char == '"':
            _, i, _ = _quoted(value, i)
            continue
        if char == "<":
            close = value.find(">", i + 1)
            i = end if close < 0 else close + 1
            continue
        i += 1
    return end


def _quoted(value: str, i: int) -> tuple[str, int, bool]:
    """The quoted-string at ``value[i] == '"'`` unescaped, the index after it, and if it closed."""
    out: list[str] = []
    i += 1
    end = len(value)
    while i < end:
        char = value[i]
        if char == "\\" and i + 1 < end:
            out.append(value[i + 1])
            i += 2
            continue
        if char == '"':
            return "".join(out), i + 1, True
        out.append(char)
        i += 1
    return "".join(out), end, False


def _parse_params(value: str, i: int) -> tuple[list[Param], int]:
    """The ``; name=value`` parameters after a target, up to the next top-level comma."""
    params: list[Param] = []
    end = len(value)
    while i < end:
        while i < end and value[i] in " \t\r\n":
            i += 1
        if i >= end or value[i] == ",":
            break
        if value[i] != ";":
            i = _skip_to_separator(value, i)
            continue
        i += 1
        start = i
        while i < end and value[i] not in "=;,":
            i += 1
        name = value[start:i].strip().lower()
        param_value: str | None = None
        if i < end and value[i] == "=":
            i += 1
            while i < end and value[i] in " \t":
                i += 1
            if i < end and value[i] == '"':
                param_value, i, closed = _quoted(value, i)
                if not closed:
                    break  # an unterminated quote ends the field; this parameter is lost
            else:
                start = i
                while i < end and value[i] not in ";,":
                    i += 1
                param_value = value[start:i].strip()
        if name and _TOKEN.fullmatch(name):
            params.append((name, param_value))
    return params, i


def _skip_to_separator(value: str, i: int) -> int:
    """Index of the next top-level ``;`` or ``,`` (garbage between parameters is dropped)."""
    end = len(value)
    while i < end and value[i] not in ";,":
        if value[i] == '"':
            _, i, _ = _quoted(value, i)
        else:
            i += 1
    return i


def decode_ext_value(value: str) -> str | None:
    """An RFC 8187 ``ext-value`` (``UTF-8'en'%E2%82%AC``) decoded, or None if malformed."""
    parts = value.split("'", 2)
    if len(parts) != 3:
        return None
    charset = parts[0].strip().lower()
    if charset not in ("utf-8", "iso-8859-1"):
        return None
    try:
        return unquote(parts[2], encoding=charset, errors="strict")
    except (UnicodeDecodeError, LookupError):
        return None


def _rel_types(rel: str | None) -> list[str]:
    if rel is None:
        return ["related"]
    types = [r if ":" in r else r.lower() for r in rel.split()]
    return list(dict.fromkeys(types)) or ["related"]  # a relation named twice counts once


def add_header_links(
    value: str, collector: Collector, source: str = "header:Link", templated: bool = False
) -> None:
    """Add one Link per relation type of every link-value in one header field value."""
    resolver = collector.resolver
    for target, params in parse_link_values(value):
        first: dict[str, str | None] = {}
        others: list[tuple[str, str]] = []
        for name, param_value in params:
            if name in _SINGLE:
                first.setdefault(name, param_value)
            else:
                others.append((name, param_value or ""))
        title = first.get("title")
        star = first.get("title*")
        if star:
            title = decode_ext_value(star) or title
        anchor = first.get("anchor")
        href = resolver.resolve(target, templated)
        for rel in _rel_types(first.get("rel")):
            collector.add(
                Link(
                    rel=rel,
                    href=href,
                    title=title or None,
                    media_type=first.get("type") or None,
                    templated=templated,
                    source=source,
                    hreflang=first.get("hreflang") or None,
                    anchor=resolver.resolve(anchor) if anchor is not None else None,
                    attributes=tuple(others),
                ),
                claim=False,
            )
