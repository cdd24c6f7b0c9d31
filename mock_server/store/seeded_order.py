"""The seeded records a query selects, in its order: sequences indexed without a list.

:meth:`~mock_server.store.seeded.SeedTable.sequence` plans a query as
groups of base rows one after another (:class:`Chain`), each group either
:class:`RoundMajor` (round after round, the rows of a round in a fixed
order: the order of an id or of a linear field) or :class:`BaseMajor` (row
after row, each row's rounds in the order of their names: a suffixed name).
Each answers its length, the record at a position and the position of a
record from its rows' round sets. :class:`Listed` is the fallback for a
query no plan fits: every seeded record made and sorted.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence as Seq
from typing import Any, Protocol

from mock_server.store.query import Condition, Order, sort_records
from mock_server.store.record import Record
from mock_server.store.round_sets import Rounds, lex_rank, lex_select


class Rows(Protocol):
    """The seeded records a plan reads: base rows times rounds.

    The :class:`~mock_server.store.seeded.SeedTable` that plans with this module's sequences.
    """

    @property
    def count(self) -> int:
        """How many seeded records there are (their ids are 1 to ``count``)."""

    def __contains__(self, record_id: object) -> bool: ...

    def place(self, record_id: int) -> tuple[int, int]:
        """(base row, round) of a seeded id."""

    def id_of(self, row: int, round_: int) -> int:
        """The id of base row ``row`` in ``round_``."""

    def data(self, record_id: int) -> dict[str, Any]:
        """The data of seeded record ``record_id``."""

    def record(self, record_id: int) -> Record:
        """Seeded record ``record_id``."""


class Sequence(Protocol):
    """Seeded records in a query's order, by id."""

    def __len__(self) -> int: ...

    def select(self, position: int) -> int:
        """The id at ``position`` (from 0)."""

    def rank(self, record_id: int) -> int | None:
        """The position of ``record_id``; None when the query does not select it."""


class RoundMajor:
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


class BaseMajor:
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


class Chain:
    """Groups of rows one after another: the seeded part of a query's answer."""

    def __init__(self, table: Rows, parts: list[RoundMajor | BaseMajor]) -> None:
        self.table = table
        self.parts = parts
        self.starts = [0]
        for part in parts:
            self.starts.append(self.starts[-1] + len(part))
        self.part_of: dict[int, int] = {}
        for index, part in enumerate(parts):
            for row in part.perm if isinstance(part, RoundMajor) else part.rows:
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


class Listed:
    """A query the analysis cannot answer: every seeded record made, kept and sorted."""

    def __init__(self, table: Rows, conditions: Seq[Condition], orders: Seq[Order]) -> None:
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
