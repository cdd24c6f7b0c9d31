"""The seeded records of a collection, computed from their ids and queried without a scan.

The seed is a few base rows repeated round after round: record ``id`` is
base row ``p`` of round ``r``, with ``id = r * bases + p + 1``. Most fields
are the same in every round; the few that are not say how they vary
(:class:`Suffixed`: a name gets `` 2``, `` 3``... from the second round on;
:class:`Linear`: an id reference moves on by a stride each round). So a
record is made when it is asked for (:meth:`SeedTable.record`), and a query
over millions of seeded records comes down, for each base row, to a set of
rounds (:mod:`mock_server.store.round_sets`) and a known order:

- a condition on a field that does not vary keeps a base row in every round
  or in none; ``contains`` on a suffixed name keeps every round, or those
  whose number starts or contains some digits; a comparison with a linear
  field keeps an interval of rounds;
- sorting by fields that do not vary groups the base rows; within a group, a
  suffixed name orders base row by base row, each row's rounds in the
  lexicographic order of their numbers, and a linear field (the id is one)
  orders round by round, the rows of a round in a fixed order.

:meth:`SeedTable.sequence` gives the seeded records a query selects, in its
order, as a :class:`Sequence`: its length, the id at any position, and the
position of any id, each in a few hundred steps whatever the seed's size. A
query the analysis cannot answer is answered by listing the seeded records
(correct, and slow for a big seed): no built-in collection asks one.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from collections.abc import Sequence as Seq
from dataclasses import dataclass
from functools import cmp_to_key, lru_cache
from typing import Any, Protocol

from mock_server.store.query import ID, Condition, Order, Reading
from mock_server.store.record import Record
from mock_server.store.round_sets import (
    NONE,
    Explicit,
    Ranges,
    Rounds,
    every,
    intersect,
    lex_rank,
    lex_select,
    union,
)

#: Make the data of base row ``p`` in round ``r``.
MakeRow = Callable[[int, int], dict[str, Any]]


@dataclass(frozen=True)
class Suffixed:
    """A text field: the base row's value, then `` N`` (N = round + 1) from round 1 on."""


@dataclass(frozen=True)
class Linear:
    """A number field: the base row's value plus ``stride`` times the round."""

    stride: int


@dataclass(frozen=True)
class Opaque:
    """A field that varies with the round in a way no query analyses (answered by listing)."""


Variation = Suffixed | Linear | Opaque


def suffix(round_: int) -> str:
    """What a suffixed field adds in ``round_``: nothing in the first, `` 2`` in the second…"""
    return "" if round_ == 0 else f" {round_ + 1}"


class Sequence(Protocol):
    """Seeded records in a query's order, by id."""

    def __len__(self) -> int: ...

    def select(self, position: int) -> int:
        """The id at ``position`` (from 0)."""

    def rank(self, record_id: int) -> int | None:
        """The position of ``record_id``; None when the query does not select it."""


class SeedTable:
    """A collection's seeded records: ``bases`` rows, ``rounds`` times, made on demand."""

    def __init__(
        self,
        bases: int,
        rounds: int,
        make: MakeRow,
        varying: dict[str, Variation],
        created: float,
    ) -> None:
        self.bases = bases
        self.rounds = rounds
        self.count = bases * rounds
        self.make = make
        self.varying = varying
        self.created = created

    # Records ---------------------------------------------------------------------------

    def place(self, record_id: int) -> tuple[int, int]:
        """(base row, round) of a seeded id."""
        round_, row = divmod(record_id - 1, self.bases)
        return row, round_

    def id_of(self, row: int, round_: int) -> int:
        """The id of base row ``row`` in ``round_``."""
        return round_ * self.bases + row + 1

    def __contains__(self, record_id: object) -> bool:
        return isinstance(record_id, int) and 1 <= record_id <= self.count

    def data(self, record_id: int) -> dict[str, Any]:
        """The data of seeded record ``record_id``, made afresh."""
        return self.make(*self.place(record_id))

    def record(self, record_id: int) -> Record:
        """Seeded record ``record_id``, made afresh."""
        return Record(record_id, self.data(record_id), self.created, self.created)

    def owner(self, field: str, folded: str) -> int | None:
        """The seeded id whose ``field`` (a suffixed one) reads ``folded`` once casefolded."""
        if not isinstance(self.varying.get(field), Suffixed):
            raise ValueError(f"{field} is not a suffixed field")
        reading = Reading(field, "folded")
        for row in range(self.bases):
            base = reading.of_data(self.make(row, 0))
            if folded == base:
                return self.id_of(row, 0)
            rest = folded.removeprefix(base + " ")
            if rest != folded and rest.isascii() and rest.isdigit() and rest[0] != "0":
                round_ = int(rest) - 1
                if 1 <= round_ < self.rounds:
                    return self.id_of(row, round_)
        return None

    # Conditions ------------------------------------------------------------------------

    def _variation(self, field: str) -> Variation | bool | None:
        """How ``field`` varies: a variation, None when it does not, True when unknown."""
        if field == ID:
            return Linear(self.bases)
        if field in self.varying:
            return self.varying[field]
        nested = any(
            key.startswith(field + ".") or field.startswith(key + ".") for key in self.varying
        )
        return True if nested else None

    def rounds_of(self, condition: Condition, row: int) -> Rounds:
        """The rounds in which base row ``row`` passes ``condition``."""
        reading = condition.reading
        variation = self._variation(reading.field)
        if variation is None:
            return every(self.rounds) if condition.matches(self.make(row, 0)) else NONE
        if (
            isinstance(variation, Suffixed)
            and condition.test == "contains"
            and reading.form == "folded"
        ):
            base = reading.of_data(self.make(row, 0))
            return _name_rounds(base, str(condition.value), self.rounds)
        if isinstance(variation, Linear) and reading.form in ("raw", "whole", "number"):
            found = self._linear_rounds(condition, row, variation)
            if found is not None:
                return found
        return Explicit(
            r for r in range(self.rounds) if condition.matches(self.make(row, r))
        )  # not analysed: listed (correct, slow for a big seed)

    def _linear_rounds(self, condition: Condition, row: int, linear: Linear) -> Rounds | None:
        value = condition.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        start = _linear_base(self, condition.reading, row)
        if start is None:
            return None
        stride = linear.stride
        if condition.test == "equals":
            steps, left = divmod(value - start, stride)
            if left != 0 or not 0 <= steps < self.rounds:
                return NONE
            return Ranges(((int(steps), int(steps) + 1),))
        if condition.test == "at_least":
            first = -int((start - value) // stride)  # ceil((value - start) / stride)
            return Ranges(((max(0, first), self.rounds),))
        if condition.test == "at_most":
            last = int((value - start) // stride)
            return Ranges(((0, min(self.rounds, last + 1)),))
        return None

    # Sequences -------------------------------------------------------------------------

    def sequence(self, conditions: Seq[Condition], orders: Seq[Order]) -> Sequence:
        """The seeded records that pass every condition, in the order asked, by id."""
        sets: list[Rounds] = []
        for row in range(self.bases):
            found: Rounds = every(self.rounds)
            for condition in conditions:
                if len(found) == 0:
                    break
                found = intersect(found, self.rounds_of(condition, row))
            sets.append(found)
        planned = self._plan(list(orders), sets)
        if planned is None:
            return _Listed(self, conditions, orders)
        return planned

    def _plan(self, orders: list[Order], sets: list[Rounds]) -> _Chain | None:
        constant: list[Order] = []
        rest = orders
        while rest and self._variation(rest[0].reading.field) is None:
            constant.append(rest[0])
            rest = rest[1:]
        rows = [row for row in range(self.bases) if len(sets[row])]
        samples = {row: Record(self.id_of(row, 0), self.make(row, 0), 0, 0) for row in rows}
        rows.sort(key=cmp_to_key(_comparison(constant, samples)))

        def values(row: int) -> tuple[Any, ...]:
            return tuple(order.reading.of(samples[row]) for order in constant)

        groups: list[list[int]] = []
        for row in rows:  # rows with the same values of the constant keys, together
            if groups and values(groups[-1][0]) == values(row):
                groups[-1].append(row)
            else:
                groups.append([row])
        first = rest[0] if rest else Order(Reading(ID))
        variation = self._variation(first.reading.field)
        parts: list[_RoundMajor | _BaseMajor] = []
        for group in groups:
            if isinstance(variation, Suffixed) and first.reading.form in ("folded", "text"):
                part = self._by_name(group, sets, first, samples)
                if part is None:
                    return None
                parts.append(part)
            elif isinstance(variation, Linear) and first.reading.form in ("raw", "whole", "number"):
                part_l = self._by_round(group, sets, first, rest[1:], samples, variation)
                if part_l is None:
                    return None
                parts.append(part_l)
            else:
                return None
        return _Chain(self, parts)

    def _by_name(
        self, group: list[int], sets: list[Rounds], order: Order, samples: dict[int, Record]
    ) -> _BaseMajor | None:
        keys = {row: order.reading.of(samples[row]) for row in group}
        ordered = sorted(group, key=lambda row: keys[row], reverse=order.descending)
        texts = [keys[row] for row in ordered]
        for a in texts:
            for b in texts:
                if a != b and b.startswith(a):
                    return None  # one name a prefix of another: their rounds would interleave
        if len(set(texts)) != len(texts):
            return None
        return _BaseMajor(ordered, [sets[row] for row in ordered], order.descending, self.rounds)

    def _by_round(
        self,
        group: list[int],
        sets: list[Rounds],
        order: Order,
        later: list[Order],
        samples: dict[int, Record],
        linear: Linear,
    ) -> _RoundMajor | None:
        starts = {row: _linear_base(self, order.reading, row) for row in group}
        known = [start for start in starts.values() if start is not None]
        if len(known) != len(group) or max(known) - min(known) >= linear.stride:
            return None  # the rounds would not come one after another
        # Within a round the rows keep one order: by this field, then the later keys
        # (each reads the same way in every round, relative to the other rows), then id.
        within = cmp_to_key(_comparison([order, *later], samples))
        perm = sorted(group, key=within)
        return _RoundMajor(perm, [sets[row] for row in perm], order.descending, self.rounds)


def _linear_base(table: SeedTable, reading: Reading, row: int) -> int | float | None:
    if reading.field == ID:
        return row + 1
    value = reading.of_data(table.make(row, 0))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _comparison(orders: Seq[Order], samples: dict[int, Record]) -> Callable[[int, int], int]:
    """Rows compared by ``orders`` read from their round-0 records, then by row."""

    def compare(a: int, b: int) -> int:
        for order in orders:
            left, right = order.reading.of(samples[a]), order.reading.of(samples[b])
            if left != right:
                smaller = left < right
                return (1 if smaller else -1) if order.descending else (-1 if smaller else 1)
        return (a > b) - (a < b)

    return compare


class _RoundMajor:
    """Rows ``perm`` round after round (ascending, or descending), each round in that order."""

    def __init__(self, perm: list[int], sets: list[Rounds], descending: bool, rounds: int) -> None:
        self.perm = perm
        self.sets = sets
        self.descending = descending
        self.rounds = rounds
        self.size = sum(len(s) for s in sets)
        self.full = all(len(s) == rounds for s in sets)
        self.where = {row: index for index, row in enumerate(perm)}

    def __len__(self) -> int:
        return self.size

    def _before(self, round_: int) -> int:
        """How many selected records come before round ``round_`` in this order."""
        if self.descending:
            return sum(s.count_in(round_ + 1, self.rounds) for s in self.sets)
        return sum(s.count_in(0, round_) for s in self.sets)

    def select(self, position: int) -> tuple[int, int]:
        if self.full:
            steps, index = divmod(position, len(self.perm))
            return self.perm[index], (self.rounds - 1 - steps if self.descending else steps)
        lo, hi = 0, self.rounds - 1
        # The round holding ``position``: the last (first, descending) with _before <= it.
        while lo < hi:
            if self.descending:
                middle = (lo + hi) // 2
                if self._before(middle) <= position:
                    hi = middle
                else:
                    lo = middle + 1
            else:
                middle = (lo + hi + 1) // 2
                if self._before(middle) <= position:
                    lo = middle
                else:
                    hi = middle - 1
        round_ = lo
        left = position - self._before(round_)
        for row, rounds in zip(self.perm, self.sets, strict=True):
            if round_ in rounds:
                if left == 0:
                    return row, round_
                left -= 1
        raise IndexError(position)

    def rank(self, row: int, round_: int) -> int | None:
        index = self.where.get(row)
        if index is None or round_ not in self.sets[index]:
            return None
        earlier = sum(1 for s in self.sets[:index] if round_ in s)
        return self._before(round_) + earlier


class _BaseMajor:
    """Rows one after another, each row's rounds in the order of their names."""

    def __init__(self, rows: list[int], sets: list[Rounds], descending: bool, rounds: int) -> None:
        self.rows = rows
        self.sets = sets
        self.descending = descending
        self.rounds = rounds
        self.starts = [0]
        for found in sets:
            self.starts.append(self.starts[-1] + len(found))
        self.where = {row: index for index, row in enumerate(rows)}

    def __len__(self) -> int:
        return self.starts[-1]

    def select(self, position: int) -> tuple[int, int]:
        index = bisect_right(self.starts, position) - 1
        found = self.sets[index]
        within = position - self.starts[index]
        if self.descending:
            within = len(found) - 1 - within
        return self.rows[index], lex_select(found, within, self.rounds)

    def rank(self, row: int, round_: int) -> int | None:
        index = self.where.get(row)
        if index is None or round_ not in self.sets[index]:
            return None
        within = lex_rank(self.sets[index], round_, self.rounds)
        if self.descending:
            within = len(self.sets[index]) - 1 - within
        return self.starts[index] + within


class _Chain:
    """Groups of rows one after another: the seeded part of a query's answer."""

    def __init__(self, table: SeedTable, parts: list[_RoundMajor | _BaseMajor]) -> None:
        self.table = table
        self.parts = parts
        self.starts = [0]
        for part in parts:
            self.starts.append(self.starts[-1] + len(part))
        self.part_of: dict[int, int] = {}
        for index, part in enumerate(parts):
            for row in part.perm if isinstance(part, _RoundMajor) else part.rows:
                self.part_of[row] = index

    def __len__(self) -> int:
        return self.starts[-1]

    def select(self, position: int) -> int:
        if not 0 <= position < len(self):
            raise IndexError(position)
        index = bisect_right(self.starts, position) - 1
        row, round_ = self.parts[index].select(position - self.starts[index])
        return self.table.id_of(row, round_)

    def rank(self, record_id: int) -> int | None:
        if record_id not in self.table:
            return None
        row, round_ = self.table.place(record_id)
        index = self.part_of.get(row)
        if index is None:
            return None
        found = self.parts[index].rank(row, round_)
        return None if found is None else self.starts[index] + found


class _Listed:
    """A query the analysis cannot answer: every seeded record made, kept and sorted."""

    def __init__(self, table: SeedTable, conditions: Seq[Condition], orders: Seq[Order]) -> None:
        from mock_server.store.query import sort_records

        kept = [
            table.record(record_id)
            for record_id in range(1, table.count + 1)
            if all(c.matches(table.data(record_id)) for c in conditions)
        ]
        self.ids = [record.id for record in sort_records(kept, orders)]
        self.positions = {record_id: index for index, record_id in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def select(self, position: int) -> int:
        return self.ids[position]

    def rank(self, record_id: int) -> int | None:
        return self.positions.get(record_id)


# Suffixed names ----------------------------------------------------------------------------


def _name_rounds(base: str, wanted: str, rounds: int) -> Rounds:
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
