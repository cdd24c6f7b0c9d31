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


def url_candidates(
    doc: object, claimed: set[str], tick: Callable[[], None] | None = None
) -> list[StringHit]:
    """The strings the generic passes may care about, from one walk.

    A string qualifies when its key names a URL (``url``, ``href``, ``*_url``,
    ``*Url``) or its value starts like one (``/`` or ``h``); the passes apply
    their exact tests. One walk instead of one per pass, and no work for the
    many strings that cannot be URLs.
    """
    return [
        hit
        for hit in iter_strings(doc, claimed, tick)
        if hit[2][:1] in ("/", "h")
        or (type(hit[1]) is str and (hit[1] in ("url", "href") or hit[1].endswith(("_url", "Url"))))
    ]
