"""An iterative walk over the strings of a JSON document, skipping claimed subtrees.

The generic passes (``*_url`` fields, bare URL guesses) look at every string of
a body that may be tens of megabytes, so the walk is a plain loop over an
explicit stack of iterators (no recursion, no copies), in document order. It
yields the *container's* pointer and the member's key rather than the
member's own pointer: building a pointer for every string would cost more than
the whole test of the string, so callers build one only for a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson

from explorer.core.hypermedia.collector import child

StringHit = tuple[str, "str | int", str, "str | None"]


#: Members walked between two calls of the ``tick`` callback.
_TICK_EVERY = 4096


def iter_strings(
    doc: object, claimed: set[str], tick: Callable[[], None] | None = None
) -> Iterator[StringHit]:
    """Yield ``(container pointer, key or index, string, name)`` for each string.

    ``name`` is the member's key, or for an array element the key of the
    array (None at the top). Containers whose pointer is in ``claimed`` are
    skipped with everything under them. ``tick`` is called every few thousand
    members (it may raise, to stop a walk that takes too long).
    """
    if isinstance(doc, str):
        yield "", "", doc, None
        return
    if not isinstance(doc, (dict, list)) or "" in claimed:
        return
    stack: list[tuple[Iterator[tuple[str | int, object]], str, str | None]] = [
        (_members(doc), "", None)
    ]
    walked = 0
    while stack:
        members, pointer, array_name = stack[-1]
        for key, value in members:
            walked += 1
            if tick is not None and walked % _TICK_EVERY == 0:
                tick()
            kind = type(value)  # orjson gives exact types; ``is`` beats isinstance here
            if kind is str:
                yield pointer, key, value, key if type(key) is str else array_name  # type: ignore[misc]
            elif kind is dict or kind is list:
                here = child(pointer, key)
                if here in claimed:
                    continue
                name = key if isinstance(key, str) else array_name
                stack.append((_members(value), here, name))  # type: ignore[arg-type]
                break
        else:
            stack.pop()


def _members(value: dict[str, object] | list[object]) -> Iterator[tuple[str | int, object]]:
    if isinstance(value, dict):
        return iter(value.items())
    return enumerate(value)


#: Keys that name a URL whatever their value (``*_url`` and ``*Url`` too).
_URL_KEYS = frozenset({"url", "href", "resource_uri"})
_URL_SUFFIXES = ("_url", "Url")
#: How a string that may be a URL starts (an absolute http(s) URL or a path).
URL_STARTS = ("/", "h")


def may_hold_candidates(container: dict[str, Any] | list[Any]) -> bool:
    """False when no string under ``container`` can be a candidate, as its JSON shows.

    A resource's own data (its numbers, names, dates, nested objects of them) is
    most of a page, and walking it in Python costs several times what it takes
    orjson to write it out and ``in`` to look at the text. A candidate string
    starts with ``/`` or ``h`` (written ``"/``, ``"h``: orjson escapes neither)
    or is the value of a key ending in ``url``, ``Url`` or ``href`` (written
    ``...url":``, ``...href":``). With none of those in the text there is nothing
    to walk for; with one (in a key or mid-string as well) the container is
    walked as usual.
    """
    try:
        # (as text: ``bytes in bytes`` first tries the needle as an integer, and
        # raises and clears an exception to find it is not one)
        text = orjson.dumps(container).decode()
    except orjson.JSONEncodeError:  # (nested deeper than orjson writes: walk it)
        return True
    return '"/' in text or '"h' in text or 'rl":' in text or 'ref":' in text


class Candidates:
    """The strings the generic passes may care about, gathered in document order.

    A string qualifies when its key names a URL (``url``, ``href``, ``*_url``,
    ``*Url``) or its value starts like one (``/`` or ``h``); the passes apply
    their exact tests. It walks as :func:`iter_strings` does (claimed subtrees
    skipped), in one loop with the test inside: a 10 MB document has a few
    hundred thousand members. A format reader that walks the document anyway
    (HAL) hands it the members it does not read itself, so the document is not
    walked twice: :meth:`member` for one member, :meth:`walk` for a container.
    """

    __slots__ = ("_tick", "_walked", "claimed", "hits", "url_keys")

    def __init__(self, claimed: set[str], tick: Callable[[], None] | None = None) -> None:
        self.claimed = claimed
        self.hits: list[StringHit] = []
        self._tick = tick
        #: A document repeats its keys: whether each names a URL is decided once
        #: (by :meth:`names_url`).
        self.url_keys: dict[str, bool] = {}
        self._walked = 0

    def member(self, pointer: str, key: str | int, value: object, name: str | None) -> None:
        """Member ``key`` of the container at ``pointer``; ``name`` is the key, or for an
        array element the array's key. A string is tested, a container walked (unless
        its JSON shows it holds no candidate: see :func:`may_hold_candidates`)."""
        if type(value) is str:
            if value.startswith(URL_STARTS) or (type(key) is str and self.names_url(key)):
                self.hits.append((pointer, key, value, name))
        elif (type(value) is dict or type(value) is list) and may_hold_candidates(value):
            self.container(pointer, key, value, name)

    def container(
        self, pointer: str, key: str | int, value: dict[str, Any] | list[Any], name: str | None
    ) -> None:
        """Container ``key`` of the container at ``pointer``, whose JSON may hold a
        candidate (:func:`may_hold_candidates`), walked unless claimed."""
        here = child(pointer, key)
        if here not in self.claimed:
            self.walk(value, here, name)

    def names_url(self, key: str) -> bool:
        """True when ``key`` names a URL (``url``, ``href``, ``*_url``, ``*Url``)."""
        named = self.url_keys.get(key)
        if named is None:
            named = self.url_keys[key] = key in _URL_KEYS or key.endswith(_URL_SUFFIXES)
        return named

    def walk(self, container: dict[str, Any] | list[Any], pointer: str, name: str | None) -> None:
        """Every candidate under ``container`` (at ``pointer``; ``name``: its key)."""
        add = self.hits.append
        claimed = self.claimed
        tick = self._tick
        url_key = self.url_keys
        stack: list[_Frame] = [
            (iter(container.items()), pointer, name, True)
            if type(container) is dict
            else (enumerate(container), pointer, name, False)
        ]
        while stack:
            members, pointer, array_name, is_object = stack[-1]
            for key, value in members:
                kind = type(value)
                if kind is str:
                    if value.startswith(URL_STARTS):
                        add((pointer, key, value, key if is_object else array_name))
                    elif is_object:
                        named = url_key.get(key)
                        if named is None:
                            named = url_key[key] = key in _URL_KEYS or key.endswith(_URL_SUFFIXES)
                        if named:
                            add((pointer, key, value, key))
                elif kind is dict or kind is list:
                    if not is_object or ("/" not in key and "~" not in key):
                        here = f"{pointer}/{key}"  # child(), inlined for the common keys
                    else:
                        here = child(pointer, key)
                    if here in claimed:
                        continue
                    self._walked += 1
                    if tick is not None and self._walked % _TICK_EVERY == 0:
                        tick()
                    name = key if is_object else array_name
                    if kind is dict:
                        stack.append((iter(value.items()), here, name, True))
                    else:
                        stack.append((enumerate(value), here, name, False))
                    break
            else:
                stack.pop()


#: A container being walked: its members left, its pointer, the name its array
#: elements take (its key), and whether it is an object.
_Frame = tuple[Iterator[tuple[Any, Any]], str, "str | None", bool]


def url_candidates(
    doc: object, claimed: set[str], tick: Callable[[], None] | None = None
) -> list[StringHit]:
    """The strings of ``doc`` the generic passes may care about (see :class:`Candidates`)."""
    found = Candidates(claimed, tick)
    if type(doc) is str:
        if doc.startswith(URL_STARTS):
            found.hits.append(("", "", doc, None))
    elif (type(doc) is dict or type(doc) is list) and "" not in claimed:
        found.walk(doc, "", None)
    return found.hits
