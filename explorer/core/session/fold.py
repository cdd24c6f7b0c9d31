"""Folding URLs into resources: ``/customers/7`` and ``/customers/8`` are ``/customers/{id}``.

A map of an API shows resources, not the thousands of URLs that name their
members. A path segment is an identifier, and folds into ``{id}``, when its
shape says so on its own:

=====================  ================================================
integer                ``/customers/42``
UUID                   ``/jobs/0b4f0c1e-6a1e-4f43-9a3c-7c0c2a8d1f00``
hex hash               ``/commits/9fceb02d`` (8 or more hex digits, one a digit:
                       a git or MongoDB id, never the word ``deadbeef``)
opaque token           ``/charges/ch_3MmlLrLkdIwHu7ix`` (16 or more letters,
                       digits, ``_`` or ``-``, digits in two places or more:
                       ``oauth2-authorization`` stays a word)
OData key              ``/Books(11)``, ``/People('russell')`` → ``/Books({id})``
=====================  ================================================

A version segment (``v2``) is never an identifier. A word (a *slug*:
``/authors/ursula-le-guin``) folds only when its siblings show the pattern:
two or more different values in the same place were each reached as an item
of a collection (:meth:`Folder.learn_item`). A value met only as a navigation
link stays literal, so ``/authors/search`` beside ``/authors/{id}`` stays a
resource of its own.

A URI template's variables fold the same way (``/status/{code}`` is
``/status/{id}``), so a template and the URLs it makes land on one resource.
Variables are named ``{id}``, then ``{id2}``, ``{id3}``... when a path has
several. Pure functions and one small learner: no I/O.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = ["ID", "Folder", "identifier_shape", "path_of", "template_path"]

#: The name of a folded segment.
ID = "id"

_INTEGER = LazyPattern(r"^-?\d+$")
_UUID = LazyPattern(r"^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$", re.I)
_HEX = LazyPattern(r"^[0-9a-f]{8,}$", re.I)
_TOKEN = LazyPattern(r"^[A-Za-z0-9_-]{16,}$")
_DIGIT_RUNS = LazyPattern(r"\d+")
_VERSION = LazyPattern(r"^v\d+(\.\d+)*$", re.I)
_ODATA_KEY = LazyPattern(r"^([A-Za-z_][\w.]*)\((.+)\)$")
#: An expression of a URI template (RFC 6570), operator and all.
_EXPRESSION = LazyPattern(r"\{[^{}]*\}")
#: A query or fragment expression: ``{?a,b}``, ``{&c}``, ``{#frag}``.
_QUERY_EXPRESSION = LazyPattern(r"\{[?&#][^{}]*\}")
#: Items of one collection needed before a place's words fold into a slug.
SLUG_SIBLINGS = 2


def identifier_shape(segment: str) -> str | None:
    """The shape that makes ``segment`` an identifier (``integer``, ``uuid``, ``hex``,
    ``token``, ``odata``), or None for a word."""
    if not segment or _VERSION.match(segment):
        return None
    if _INTEGER.match(segment):
        return "integer"
    if _UUID.match(segment):
        return "uuid"
    if _HEX.match(segment) and any(c.isdigit() for c in segment):
        return "hex"
    if _TOKEN.match(segment) and len(_DIGIT_RUNS.findall(segment)) >= 2:
        return "token"
    key = _ODATA_KEY.match(segment)
    if key is not None and (key.group(2).startswith("'") or identifier_shape(key.group(2))):
        return "odata"
    return None


def path_of(url: str) -> str:
    """The path of ``url`` (``/`` when it has none), percent-decoding left as sent."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return "/"
    return path or "/"


def template_path(href: str) -> str:
    """The path part of a URI template: its query and fragment expressions and its
    query string dropped (``/customers{?name,city}`` → ``/customers``)."""
    href = _QUERY_EXPRESSION.sub("", href)
    path = path_of(_EXPRESSION.sub(_placeholder, href))
    return path.replace(_MARK, "{" + ID + "}")


# A stand-in for a path expression while the URL around it is parsed.
_MARK = "\x00var\x00"


def _placeholder(match: re.Match[str]) -> str:
    return _MARK


class Folder:
    """Folds paths into resource templates, and learns which places hold slugs."""

    def __init__(self) -> None:
        #: (template of the segments before, index) → words seen there as items.
        self._items: dict[tuple[str, int], set[str]] = {}

    def learn_item(self, url: str) -> bool:
        """Note that ``url`` was linked to as an item of a collection; True when this
        changes how some path folds (a place now holds slugs, or holds one more)."""
        segments = _segments(path_of(url))
        if not segments:
            return False
        last = len(segments) - 1
        word = unquote(segments[last])
        if identifier_shape(word) is not None:
            return False
        prefix = self._fold_segments(segments[:last])
        seen = self._items.setdefault((prefix, last), set())
        if word in seen:
            return False
        seen.add(word)
        return len(seen) >= SLUG_SIBLINGS

    def is_slug_place(self, prefix: str, index: int, word: str) -> bool:
        """True when ``word`` at ``index`` after ``prefix`` is one of a collection's slugs."""
        seen = self._items.get((prefix, index))
        return seen is not None and len(seen) >= SLUG_SIBLINGS and word in seen

    def fold(self, url_or_path: str) -> str:
        """The resource template of a URL or path: identifiers become ``{id}``, ``{id2}``..."""
        path = url_or_path if url_or_path.startswith("/") else path_of(url_or_path)
        path = path.split("?", 1)[0]
        return self._fold_segments(_segments(path), trailing=path.endswith("/") and path != "/")

    def fold_template(self, href: str) -> str:
        """The resource template of a URI template (its variables are identifiers)."""
        return self.fold(template_path(href))

    def _fold_segments(self, segments: list[str], *, trailing: bool = False) -> str:
        folded: list[str] = []
        count = 0
        for index, segment in enumerate(segments):
            word = unquote(segment)
            prefix = "/" + "/".join(folded)
            odata = _ODATA_KEY.match(word)
            if _EXPRESSION.search(segment):
                count += 1
                folded.append(_EXPRESSION.sub(_name(count), segment, count=1))
            elif odata is not None and identifier_shape(word) == "odata":
                count += 1
                folded.append(f"{odata.group(1)}({_name(count)})")
            elif identifier_shape(word) is not None or self.is_slug_place(prefix, index, word):
                count += 1
                folded.append(_name(count))
            else:
                folded.append(segment)
        template = "/" + "/".join(folded)
        return template + "/" if trailing and folded else template


def _name(count: int) -> str:
    return "{" + ID + ("" if count == 1 else str(count)) + "}"


def _segments(path: str) -> list[str]:
    """The non-empty segments of ``path``."""
    return [segment for segment in path.split("/") if segment]
