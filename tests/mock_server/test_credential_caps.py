"""Sessions and stored tokens are capped: a new one beyond the cap ends the oldest.

On each store: in memory, in SQLite, in PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from mock_server.auth.sessions import MAX_SESSIONS, MemorySessions, Session, SessionStore
from mock_server.auth.tokens import MAX_TOKENS, MemoryTokens, TokenRegistry
from tests.mock_server.conftest import StoreUnderTest

NOW = 1_000.0


def _capped(any_store: StoreUnderTest) -> tuple[Any, SessionStore, TokenRegistry]:
    """The store's persistence (None in memory), its sessions and tokens capped at 3."""
    persistence = any_store.persistence()
    if persistence is None:
        return None, MemorySessions(limit=3), MemoryTokens(limit=3)
    persistence.sessions.limit = persistence.tokens.limit = 3
    return persistence, persistence.sessions, persistence.tokens


def _close(persistence: Any) -> None:
    if persistence is not None:
        persistence.close()


def test_the_caps_are_large_enough_for_real_use() -> None:
    assert MAX_SESSIONS >= 1000
    assert MAX_TOKENS >= 1000


def test_a_session_beyond_the_cap_ends_the_oldest(any_store: StoreUnderTest) -> None:
    persistence, store, _ = _capped(any_store)
    for n in range(5):
        # Same expiry for all (made in one second): the order of making decides.
        store.put(f"d{n}", Session("alice", "editor", NOW + 60))
    assert [store.get(f"d{n}", NOW) is not None for n in range(5)] == [
        False,
        False,
        True,
        True,
        True,
    ]
    _close(persistence)


def test_a_token_beyond_the_cap_revokes_the_oldest(any_store: StoreUnderTest) -> None:
    persistence, _, registry = _capped(any_store)
    for n in range(5):
        registry.add(f"t{n}", "alice", NOW + 60 + n // 2)
    assert [registry.active(f"t{n}", NOW) for n in range(5)] == [
        False,
        False,
        True,
        True,
        True,
    ]
    _close(persistence)


def test_putting_the_same_session_again_does_not_count_twice(any_store: StoreUnderTest) -> None:
    persistence, store, _ = _capped(any_store)
    for _ in range(5):
        store.put("same", Session("alice", "editor", NOW + 60))
    store.put("other", Session("bob", "viewer", NOW + 60))
    assert store.get("same", NOW) is not None
    assert store.get("other", NOW) is not None
    _close(persistence)
