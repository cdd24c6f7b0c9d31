"""A string that matches a regular expression: for schemas with a ``pattern``.

Python parses the expression (``re._parser``, the module behind ``re``); this
walks the parsed form and draws each piece from a :class:`random.Random`, so
the same seed gives the same string. Repetitions are kept short (at most
:data:`MAX_EXTRA` beyond their minimum); lookarounds and anchors add nothing.
The caller checks the result (a lookahead may not hold) and tries again.
"""

from __future__ import annotations

import importlib
import random
import re
import string
from typing import Any

# The parser behind ``re`` (``re._parser`` since Python 3.11; typeshed does not know it).
sre_parse: Any = importlib.import_module("re._parser")
sre_constants: Any = importlib.import_module("re._constants")

#: The most repetitions drawn beyond a quantifier's minimum.
MAX_EXTRA = 3
_CATEGORIES: dict[Any, str] = {
    sre_constants.CATEGORY_DIGIT: string.digits,
    sre_constants.CATEGORY_NOT_DIGIT: string.ascii_letters,
    sre_constants.CATEGORY_SPACE: " ",
    sre_constants.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
    sre_constants.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    sre_constants.CATEGORY_NOT_WORD: "-.!",
}
_PRINTABLE = string.ascii_letters + string.digits + "-_."


class PatternError(ValueError):
    """The expression cannot be parsed by Python's ``re`` (an ECMA-only feature)."""


def matching(pattern: str, rng: random.Random) -> str:
    """A string in which ``pattern`` matches (drawn from ``rng``)."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError) as error:
        raise PatternError(str(error)) from None
    groups: dict[int, str] = {}
    return _sequence(parsed, rng, groups)


def _sequence(items: Any, rng: random.Random, groups: dict[int, str]) -> str:
    return "".join(_item(op, value, rng, groups) for op, value in items)


def _choices(items: list[tuple[Any, Any]]) -> tuple[list[str], bool]:
    """The characters an ``IN`` set allows, and whether the set is negated."""
    chars: list[str] = []
    negate = False
    for op, value in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            chars.append(chr(value))
        elif op is sre_constants.RANGE:
            low, high = value
            chars.extend(chr(c) for c in range(low, min(high, low + 255) + 1))
        elif op is sre_constants.CATEGORY:
            chars.extend(_CATEGORIES.get(value, _PRINTABLE))
    return chars, negate


def _item(op: Any, value: Any, rng: random.Random, groups: dict[int, str]) -> str:
    if op is sre_constants.LITERAL:
        return chr(value)
    if op is sre_constants.NOT_LITERAL:
        return rng.choice([c for c in _PRINTABLE if ord(c) != value])
    if op is sre_constants.ANY:
        return rng.choice(_PRINTABLE)
    if op is sre_constants.IN:
        chars, negate = _choices(value)
        if negate:
            chars = [c for c in _PRINTABLE if c not in chars] or ["~"]
        return rng.choice(chars) if chars else ""
    if op is sre_constants.CATEGORY:
        return rng.choice(_CATEGORIES.get(value, _PRINTABLE))
    if op is sre_constants.BRANCH:
        _, branches = value
        return _sequence(rng.choice(branches), rng, groups)
    if op is sre_constants.SUBPATTERN:
        group, _add, _remove, inner = value
        text = _sequence(inner, rng, groups)
        if group is not None:
            groups[group] = text
        return text
    if op in (
        sre_constants.MAX_REPEAT,
        sre_constants.MIN_REPEAT,
        getattr(sre_constants, "POSSESSIVE_REPEAT", None),
    ):
        low, high, inner = value
        top = low + MAX_EXTRA if high is sre_constants.MAXREPEAT else min(high, low + MAX_EXTRA)
        return "".join(_sequence(inner, rng, groups) for _ in range(rng.randint(low, top)))
    if op is sre_constants.GROUPREF:
        return groups.get(value, "")
    if op is sre_constants.ATOMIC_GROUP:
        return _sequence(value, rng, groups)
    return ""  # AT (anchors), ASSERT, ASSERT_NOT and the like add no characters
