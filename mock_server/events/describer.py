"""What each change to the data is called on the event streams, and how it shows.

The event hub (:mod:`mock_server.events.hub`) knows no entities; this
describer does, given them by :func:`mock_server.app.create_app` (the teaching
API's and the ``--data`` file's). An event's type is ``<kind>.<action>``:

- a member of any collection (``--data`` ones too) is ``created`` (POST, or a
  PUT to a new id), ``replaced`` (PUT), ``updated`` (PATCH) or ``deleted``;
- a status change is named after the status it reached (an entity's
  :attr:`~mock_server.domain.entity.Entity.status_events`): ``order.placed``,
  ``order.shipped``, ``order.cancelled``;
- a report job is ``job.created``, then ``job.progress`` while it runs, then
  ``job.completed`` (see :mod:`mock_server.events.progress`);
- ``data.reset``: everything went back to the seed.

An event keeps the record as stored (the newest schema), and its data is
rendered when sent, in the API version of the stream or subscription: a
version 1 stream shows a customer's address as one line, version 2 as an
object, as every other answer of the mock does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mock_server.domain.entity import Entity
from mock_server.events.hub import RESET
from mock_server.events.progress import TOPIC as JOBS
from mock_server.store import Record
from mock_server.store.event_log import Event
from mock_server.store.store import Change

#: What a member's write can be called (an entity's status changes add theirs).
RECORD_ACTIONS: tuple[str, ...] = ("created", "replaced", "updated", "deleted")
JOB_TYPES: tuple[str, ...] = ("job.created", "job.progress", "job.completed")


class EntityDescriber:
    """A :class:`~mock_server.events.hub.Describer` for ``entities``, one per collection."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self.entities = {entity.collection: entity for entity in entities}

    def topics(self) -> tuple[str, ...]:
        """Every stream's topic: the collections, then the jobs."""
        return (*self.entities, JOBS)

    def describe(self, change: Change, now: float) -> Event | None:
        """The event for ``change``: its type, path and the record as stored."""
        if change.collection is None or change.record is None:
            return Event(RESET, now, None, "/", {"detail": "Every collection is back to its seed."})
        entity = self.entities.get(change.collection)
        if entity is None:
            return None
        record = change.record
        return Event(
            f"{entity.kind}.{change.action}",
            now,
            entity.collection,
            entity.item_path(record.id),
            record.data,
            record.id,
        )

    def render(self, event: Event, version: int) -> Any:
        """A record's representation in ``version``; anything else's payload as it is."""
        entity = self.entities.get(event.topic or "")
        if entity is None or event.record_id is None:
            return event.payload
        record = Record(event.record_id, event.payload, event.time, event.time)
        return entity.represent(record, version)

    def types(self) -> tuple[str, ...]:
        """Every event type this server sends."""
        found = [
            f"{entity.kind}.{action}"
            for entity in self.entities.values()
            for action in RECORD_ACTIONS
        ]
        found.extend(
            f"{entity.kind}.{status}"
            for entity in self.entities.values()
            for status in entity.status_events
        )
        return (*found, *JOB_TYPES, RESET)
