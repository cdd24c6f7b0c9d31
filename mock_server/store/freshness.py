"""Which request is reading the store: a shared database is asked once per request.

With a database that other instances write to (PostgreSQL), memory may be
behind. Asking the database on every look at a collection would cost a
round trip each time, several per request; not asking at all would let a
client that wrote on one instance and reads on another straight after miss
its own write (a notification can still be on its way). So each request
begins a new *view* (:func:`begin_view`, called by
:class:`~mock_server.layers.freshness.FreshnessLayer`): the first look at the
store in a view asks the database where it is, and later looks in the same
view rely on what the listener has heard since. Outside any view (a script
using the store directly) every look asks.
"""

from __future__ import annotations

from contextvars import ContextVar


class View:
    """One request's look at the store (compared by identity)."""

    __slots__ = ()


_current: ContextVar[View | None] = ContextVar("restwalk_store_view", default=None)


def begin_view() -> None:
    """A new request begins: its first look at a shared store asks the database."""
    _current.set(View())


def current_view() -> View | None:
    """The view of the request being served, or None outside any."""
    return _current.get()
