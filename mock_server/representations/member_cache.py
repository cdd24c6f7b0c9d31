"""Members made once per state and reused: by the next pages, and by the next reads.

A page of twenty members builds twenty resources (the version's properties,
a self link with its title, the related links) and renders each: that was
most of what a page cost. Between two writes, the same member asked for in
the same way comes out the same, so :class:`MemberCache` keeps each member
as it was made, with what it was made from:

- the record's id and when it last changed;
- the store's :meth:`~mock_server.store.Store.state`, which moves on with
  every write and every reload: a member's links may name other records (an
  order's title for its customer), so any write makes every entry stale;
- the entity's context for the request
  (:meth:`~mock_server.domain.entity.Entity.member_context`: the API
  version and how it was chosen, which the links keep); an entity whose
  members depend on more of the request says None and is not cached.

A cached :class:`~mock_server.representations.model.Resource` is shared by
every page that embeds it, so nothing may change it; the renderers keep
their rendering of it (``Resource.rendered``), and that is reused too.
At most ``limit`` members are kept: when full, the cache starts again empty.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from mock_server.representations.model import Resource
from mock_server.store import Record

#: Members kept per collection (a few MB at most): fifty pages of twenty, a working set.
DEFAULT_LIMIT = 1024


class MemberCache:
    """Embedded members of one collection, by record and request context."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self._state: Hashable = None
        self._entries: dict[tuple[int, Hashable], tuple[float, Resource]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def members(
        self,
        state: Hashable,
        context: Hashable | None,
        records: list[Record],
        make: Callable[[Record], Resource],
    ) -> list[Resource]:
        """:meth:`member` for each of ``records``, in order (the state checked once)."""
        if context is None:
            return [make(record) for record in records]
        if state != self._state:
            self._entries.clear()
            self._state = state
        entries = self._entries
        found: list[Resource] = []
        for record in records:
            kept = entries.get((record.id, context))
            if kept is not None and kept[0] == record.updated:
                found.append(kept[1])
                continue
            made = make(record)
            if len(entries) >= self.limit:
                entries.clear()
            entries[record.id, context] = (record.updated, made)
            found.append(made)
        return found

    def member(
        self,
        state: Hashable,
        context: Hashable | None,
        record: Record,
        make: Callable[[Record], Resource],
    ) -> Resource:
        """The member for ``record`` in ``context`` at store ``state``: made now, or kept."""
        if context is None:
            return make(record)
        if state != self._state:
            self._entries.clear()
            self._state = state
        key = (record.id, context)
        found = self._entries.get(key)
        if found is not None and found[0] == record.updated:
            return found[1]
        made = make(record)
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = (record.updated, made)
        return made
