"""Counting in words: ``1 page``, ``2 pages``, never ``1 pages``.

Every message that puts a number before a noun says it through :func:`counted`
(or :func:`noun` when words come between), so English plurals are decided in one
place. The nouns are restwalk's own, all regular but a few given whole
(``entry``, ``entries``): no inflection library is needed for them.
"""

from __future__ import annotations

__all__ = ["counted", "noun"]


def noun(count: int, singular: str, plural: str | None = None) -> str:
    """``singular`` for one, else ``plural`` (``singular`` + "s" unless given)."""
    if count == 1:
        return singular
    return plural if plural is not None else singular + "s"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """The count with its noun: ``1 page``, ``0 pages``, ``1,200 pages``."""
    return f"{count:,} {noun(count, singular, plural)}"
