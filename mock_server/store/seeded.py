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
(correct, and slow for a big seed): no built-in collection asks one. The
name searches are :mod:`~mock_server.store.seeded_names`'s, the sequences
:mod:`~mock_server.store.seeded_order`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence as Seq
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from mock_server.store.query import ID, Condition, Order, Reading
from mock_server.store.record import Record
from mock_server.store.round_sets import NONE, Explicit, Ranges, Rounds, every, intersect
from mock_server.store.seeded_names import name_rounds
from mock_server.store.seeded_order import BaseMajor, Chain, Listed, RoundMajor, Sequence

__all__ = ["Linear", "Opaque", "SeedTable", "Sequence", "Suffixed", "suffix"]

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
            return name_rounds(base, str(condition.value), self.rounds)
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
            return Listed(self, conditions, orders)
        return planned

    def _plan(self, orders: list[Order], sets: list[Rounds]) -> Chain | None:
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
        parts: list[RoundMajor | BaseMajor] = []
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
        return Chain(self, parts)

    def _by_name(
        self, group: list[int], sets: list[Rounds], order: Order, samples: dict[int, Record]
    ) -> BaseMajor | None:
        keys = {row: order.reading.of(samples[row]) for row in group}
        ordered = sorted(group, key=lambda row: keys[row], reverse=order.descending)
        texts = [keys[row] for row in ordered]
        for a in texts:
            for b in texts:
                if a != b and b.startswith(a):
                    return None  # one name a prefix of another: their rounds would interleave
        if len(set(texts)) != len(texts):
            return None
        return BaseMajor(ordered, [sets[row] for row in ordered], order.descending, self.rounds)

    def _by_round(
        self,
        group: list[int],
        sets: list[Rounds],
        order: Order,
        later: list[Order],
        samples: dict[int, Record],
        linear: Linear,
    ) -> RoundMajor | None:
        starts = {row: _linear_base(self, order.reading, row) for row in group}
        known = [start for start in starts.values() if start is not None]
        if len(known) != len(group) or max(known) - min(known) >= linear.stride:
            return None  # the rounds would not come one after another
        # Within a round the rows keep one order: by this field, then the later keys
        # (each reads the same way in every round, relative to the other rows), then id.
        within = cmp_to_key(_comparison([order, *later], samples))
        perm = sorted(group, key=within)
        return RoundMajor(perm, [sets[row] for row in perm], order.descending, self.rounds)


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
