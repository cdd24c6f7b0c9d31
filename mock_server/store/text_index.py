"""A trigram index: which records' text holds a given substring, without reading them all.

``?name=lace`` (a case-insensitive substring, as json-server's ``q`` and
``_like`` are) cannot be answered from a sorted list. Every three-character
sequence of a record's text maps to the records that have it; a wanted text
of three characters or more can only be in records that have all of its
trigrams, so the intersection of their sets holds every match, and each
candidate is then checked. A shorter text narrows nothing (the caller scans).
"""

from __future__ import annotations

from collections.abc import Iterable

from mock_server.store.query import Reading
from mock_server.store.record import Record

#: The shortest text the index narrows down.
MIN_LENGTH = 3


def trigrams(text: str) -> set[str]:
    """Every three-character sequence of ``text``."""
    return {text[i : i + MIN_LENGTH] for i in range(len(text) - MIN_LENGTH + 1)}


class TrigramIndex:
    """The records by the trigrams of one text field (read casefolded)."""

    def __init__(self, reading: Reading, records: Iterable[Record]) -> None:
        self.reading = reading
        self.grams: dict[str, set[int]] = {}
        for record in records:
            self.add(record)

    def add(self, record: Record) -> None:
        """Index ``record`` (just stored)."""
        for gram in trigrams(self.reading.of(record)):
            self.grams.setdefault(gram, set()).add(record.id)

    def remove(self, record: Record) -> None:
        """Forget ``record`` (as it was indexed)."""
        for gram in trigrams(self.reading.of(record)):
            found = self.grams.get(gram)
            if found is not None:
                found.discard(record.id)
                if not found:
                    del self.grams[gram]

    def candidates(self, wanted: str) -> set[int] | None:
        """The ids that may contain ``wanted`` (a superset); None when it is too short."""
        if len(wanted) < MIN_LENGTH:
            return None
        sets = []
        for gram in trigrams(wanted):
            found = self.grams.get(gram)
            if not found:
                return set()
            sets.append(found)
        sets.sort(key=len)
        return set(sets[0]).intersection(*sets[1:])
