"""Lost updates: a write's preconditions and the write itself as one step.

The conditional layer checks ``If-Match`` (or ``If-None-Match``,
``If-Unmodified-Since``) when the request's headers arrive; the handler writes
after reading the body, which may come much later. Two PATCHes with the same
``If-Match`` could both pass the check before either writes, and the second
would silently undo the first. So the check is carried to the write:

1. the layer asks the resources for the member with an internal GET, and the
   read handler records the record it served (:func:`observe`);
2. when the preconditions hold, the layer hands that record to the write as an
   :class:`Expected` (:func:`expect`), which the handler passes to the store;
3. the store compares and writes in one step: in memory without an ``await``
   between the two, with ``--db`` inside the file's write transaction (``BEGIN
   IMMEDIATE``), so a write from another ``--workers`` process cannot come
   between. A member that changed since the check answers 412, as if the
   request had arrived a moment later.

The record is compared whole (data and times): two states that compare equal
have the same representations, hence the same ETags, so the check still holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import Scope

from mock_server.store.record import Record

#: Where in ``scope["state"]`` the read handler leaves the record it served.
OBSERVED = "restwalk.observed_record"
#: Where in ``scope["state"]`` the conditional layer leaves what the write expects.
EXPECTED = "restwalk.expected_record"


@dataclass(frozen=True)
class Expected:
    """The member as the preconditions saw it; ``record`` None: it did not exist."""

    record: Record | None


def observe(scope: Scope, record: Record) -> None:
    """Note that this request's handler served ``record`` (for an internal GET)."""
    state = scope.get("state")
    if isinstance(state, dict) and OBSERVED in state:
        state[OBSERVED] = record


def observing_state(scope: Scope) -> dict[str, object]:
    """A copy of ``scope``'s state for an internal GET, ready to note what it reads."""
    return {**scope.get("state", {}), OBSERVED: None}


def observed(state: dict[str, object]) -> Record | None:
    """The record the internal GET with ``state`` served, if it served one."""
    record = state.get(OBSERVED)
    return record if isinstance(record, Record) else None


def expect(scope: Scope, expected: Expected) -> None:
    """Tell the write of this request which state its preconditions held for."""
    scope.setdefault("state", {})[EXPECTED] = expected


def expected(scope: Scope) -> Expected | None:
    """What the write of this request must find (None: it was not conditional)."""
    found = scope.get("state", {}).get(EXPECTED)
    return found if isinstance(found, Expected) else None
