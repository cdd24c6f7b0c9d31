"""Sessions and stored tokens are capped: a new one beyond the cap ends the oldest."""

from __future__ import annotations

from pathlib import Path

import pytest

from mock_server.auth.sessions import MAX_SESSIONS, MemorySessions, Session, SessionStore
from mock_server.auth.tokens import MAX_TOKENS, MemoryTokens, TokenRegistry
from mock_server.store.sqlite import SQLiteJournal, SQLiteSessions, SQLiteTokens

NOW = 1_000.0


@pytest.fixture
def journal(tmp_path: Path) -> SQLiteJournal:
    return SQLiteJournal(tmp_path / "caps.db")


def _session_stores(journal: SQLiteJournal) -> list[SessionStore]:
    return [MemorySessions(limit=3), SQLiteSessions(journal, limit=3)]


def _token_registries(journal: SQLiteJournal) -> list[TokenRegistry]:
    return [MemoryTokens(limit=3), SQLiteTokens(journal, limit=3)]


def test_the_caps_are_large_enough_for_real_use() -> None:
    assert MAX_SESSIONS >= 1000
    assert MAX_TOKENS >= 1000


def test_a_session_beyond_the_cap_ends_the_oldest(journal: SQLiteJournal) -> None:
    for store in _session_stores(journal):
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
    journal.close()


def test_a_token_beyond_the_cap_revokes_the_oldest(journal: SQLiteJournal) -> None:
    for registry in _token_registries(journal):
        for n in range(5):
            registry.add(f"t{n}", "alice", NOW + 60 + n // 2)
        assert [registry.active(f"t{n}", NOW) for n in range(5)] == [
            False,
            False,
            True,
            True,
            True,
        ], type(registry).__name__
    journal.close()


def test_putting_the_same_session_again_does_not_count_twice(journal: SQLiteJournal) -> None:
    for store in _session_stores(journal):
        for _ in range(5):
            store.put("same", Session("alice", "editor", NOW + 60))
        store.put("other", Session("bob", "viewer", NOW + 60))
        assert store.get("same", NOW) is not None
        assert store.get("other", NOW) is not None
    journal.close()
