"""Sessions and stored tokens are capped: a new one beyond the cap ends the oldest."""

from __future__ import annotations

from pathlib import Path

import pytest

from mock_server.auth.sessions import MAX_SESSIONS, MemorySessions, Session, SessionStore
from mock_server.auth.tokens import MAX_TOKENS, MemoryTokens, TokenRegistry
from mock_server.store.sqlite import SQLitePersistence, SQLiteSessions, SQLiteTokens

NOW = 1_000.0


@pytest.fixture
def persistence(tmp_path: Path) -> SQLitePersistence:
    return SQLitePersistence(tmp_path / "caps.db")


def _session_stores(persistence: SQLitePersistence) -> list[SessionStore]:
    return [MemorySessions(limit=3), SQLiteSessions(persistence, limit=3)]


def _token_registries(persistence: SQLitePersistence) -> list[TokenRegistry]:
    return [MemoryTokens(limit=3), SQLiteTokens(persistence, limit=3)]


def test_the_caps_are_large_enough_for_real_use() -> None:
    assert MAX_SESSIONS >= 1000
    assert MAX_TOKENS >= 1000


def test_a_session_beyond_the_cap_ends_the_oldest(persistence: SQLitePersistence) -> None:
    for store in _session_stores(persistence):
        for n in range(5):
            # Same expiry for all (made in one second): the order of making decides.
            store.put(f"d{n}", Session("alice", "editor", NOW + 60))
        assert [store.get(f"d{n}", NOW) is not None for n in range(5)] == [
            False,
            False,
            True,
            True,
            True,
        ], type(store).__name__
    persistence.close()


def test_a_token_beyond_the_cap_revokes_the_oldest(persistence: SQLitePersistence) -> None:
    for registry in _token_registries(persistence):
        for n in range(5):
            registry.add(f"t{n}", "alice", NOW + 60 + n // 2)
        assert [registry.active(f"t{n}", NOW) for n in range(5)] == [
            False,
            False,
            True,
            True,
            True,
        ], type(registry).__name__
    persistence.close()


def test_putting_the_same_session_again_does_not_count_twice(
    persistence: SQLitePersistence,
) -> None:
    for store in _session_stores(persistence):
        for _ in range(5):
            store.put("same", Session("alice", "editor", NOW + 60))
        store.put("other", Session("bob", "viewer", NOW + 60))
        assert store.get("same", NOW) is not None
        assert store.get("other", NOW) is not None
    persistence.close()
