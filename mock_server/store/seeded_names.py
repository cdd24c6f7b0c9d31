"""Which rounds of the seed have a name containing some text: without reading the names.

A seeded name is its base row's name, then from the second round on a space
and the round's number plus one. A case-insensitive substring search over
millions of such names comes down, row by row, to an interval set of rounds
(the numbers that start with some digits) or a list (those that contain
them), found by arithmetic and one regular expression over the numbers.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mock_server.store.round_sets import NONE, Explicit, Ranges, Rounds, every, union


def name_rounds(base: str, wanted: str, rounds: int) -> Rounds:
    """The rounds whose name (``base``, then `` N`` with N = round + 1) contains ``wanted``.

    Both are casefolded. Either ``wanted`` is in the base name (every round),
    or it ends in the number: it is a tail of ``base + " "`` followed by the
    number's first digits (or by nothing), or it lies inside the number.
    """
    if wanted in base:
        return every(rounds)
    if rounds < 2:
        return NONE
    head = base + " "
    parts: list[Rounds] = []
    for cut in range(1, len(wanted) + 1):
        tail, digits = wanted[:cut], wanted[cut:]
        if not head.endswith(tail):
            continue
        if not digits:
            parts.append(Ranges(((1, rounds),)))
        elif digits.isascii() and digits.isdigit() and digits[0] != "0":
            parts.append(_starting_with(int(digits), rounds))
    if wanted.isascii() and wanted.isdigit():
        parts.append(_containing(wanted, rounds))
    return union(parts) if parts else NONE


def _starting_with(prefix: int, rounds: int) -> Ranges:
    """The rounds r >= 1 whose number r + 1 starts with the digits of ``prefix``."""
    found: list[tuple[int, int]] = []
    lo, hi = prefix, prefix + 1
    while lo <= rounds:
        # Numbers [lo, hi) are rounds [lo - 1, hi - 1); numbers run from 2 to ``rounds``.
        found.append((max(lo - 1, 1), min(hi - 1, rounds)))
        lo *= 10
        hi *= 10
    return Ranges(found)


@lru_cache(maxsize=4)
def _numbers(rounds: int) -> str:
    """The numbers 2 to ``rounds``, one a line: searched in C by a regular expression."""
    return "\n".join(map(str, range(2, rounds + 1)))


@lru_cache(maxsize=32)
def _containing(digits: str, rounds: int) -> Explicit:
    """The rounds r >= 1 whose number r + 1 has ``digits`` in it."""
    pattern = re.compile(rf"^[0-9]*{re.escape(digits)}[0-9]*$", re.MULTILINE)
    return Explicit(int(match.group()) - 1 for match in pattern.finditer(_numbers(rounds)))
