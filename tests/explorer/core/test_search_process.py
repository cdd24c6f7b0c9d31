"""A search in a child process: the same matches as in the thread, and stopped at once."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

import pytest

from explorer.core.bodies import display as body_module
from explorer.core.bodies import search_process
from explorer.core.bodies.display import DisplayText
from explorer.core.bodies.search_process import search_text
from explorer.core.text.text_search import Match, SearchError, SearchQuery, compile_query, scan

LINES = b"".join(b"row %d: Ann, Bob and ann\n" % n for n in range(3000))


class Recorded:
    """The children started, and an event set when one is."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.children: list[subprocess.Popen[bytes]] = []
        self.started = threading.Event()
        real = subprocess.Popen

        def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
            child: subprocess.Popen[bytes] = real(*args, **kwargs)
            self.children.append(child)
            self.started.set()
            return child

        monkeypatch.setattr(search_process.subprocess, "Popen", popen)


def found(
    text: DisplayText, query: SearchQuery, limit: int | None = None
) -> tuple[list[Match], list[bool]]:
    matches: list[Match] = []
    dones: list[bool] = []

    def report(batch: list[Match], done: bool) -> None:
        matches.extend(batch)
        dones.append(done)

    search_text(compile_query(query), text, report, limit=limit)
    return matches, dones


def in_thread(text: DisplayText, query: SearchQuery, limit: int | None = None) -> list[Match]:
    matches: list[Match] = []
    scan(compile_query(query), text.chunks(), lambda b, d: matches.extend(b), limit=limit)
    return matches


def test_a_regular_expression_is_searched_in_a_child_with_the_same_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = Recorded(monkeypatch)
    text = DisplayText(LINES)
    query = SearchQuery(r"ann\b", regex=True)
    matches, dones = found(text, query)
    assert len(recorded.children) == 1
    assert matches == in_thread(text, query)
    assert len(matches) == 6000
    assert dones[-1] is True
    assert recorded.children[0].returncode == 0


def test_plain_text_in_a_small_text_is_searched_in_the_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = Recorded(monkeypatch)
    matches, _dones = found(DisplayText(LINES), SearchQuery("Bob"))
    assert len(matches) == 3000
    assert recorded.children == []


def test_a_large_compressed_text_crosses_to_the_child_and_stops_at_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = Recorded(monkeypatch)
    monkeypatch.setattr(body_module, "COMPRESS_ABOVE", 1024)
    monkeypatch.setattr(body_module, "BLOCK_SIZE", 4096)
    text = DisplayText(LINES + b'{"a": "' + b"y" * 300_000 + b'"}')
    assert text.compressed
    assert text.size > search_process.ISOLATE_ABOVE / 16
    monkeypatch.setattr(search_process, "ISOLATE_ABOVE", 1024)
    matches, dones = found(text, SearchQuery("y"), limit=500)
    assert len(recorded.children) == 1
    assert len(matches) == 501  # one past the bound: the view says "500+"
    assert matches[0] == Match(3000, 7, 8)
    assert dones[-1] is True


def test_cancelling_kills_a_child_stuck_in_a_regular_expression(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``(y+)+z`` on 40 ``y`` takes 2**40 steps in one call of ``re``: no thread could stop
    it; the child is killed."""
    recorded = Recorded(monkeypatch)
    cancel = threading.Event()
    reports: list[bool] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            search_text(
                compile_query(SearchQuery("(y+)+z", regex=True)),
                DisplayText(b"y" * 40 + b"\n"),
                lambda batch, done: reports.append(done),
                cancelled=cancel.is_set,
            )
        except BaseException as error:  # (shown by the assertion below)
            failures.append(error)

    searching = threading.Thread(target=run)
    searching.start()
    assert recorded.started.wait(30)
    cancel.set()
    searching.join(30)  # a deadline for a failing test, not a synchronisation
    assert not searching.is_alive()
    assert failures == []
    assert reports == []
    (child,) = recorded.children
    assert child.returncode is not None
    assert child.returncode != 0  # killed, not finished


def test_a_search_past_its_time_is_stopped_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search left open on an expression that takes hours holds a core no longer than
    its bound; the matches found before stand."""
    recorded = Recorded(monkeypatch)
    reports: list[bool] = []
    with pytest.raises(SearchError) as caught:
        search_text(
            compile_query(SearchQuery("(y+)+z", regex=True)),
            DisplayText(b"y" * 40 + b"\n"),
            lambda batch, done: reports.append(done),
            max_seconds=0.3,
        )
    assert caught.value.message.startswith("The search stopped after 0.3 s")
    assert reports == []
    (child,) = recorded.children
    assert child.returncode is not None
    assert child.returncode != 0  # killed


def test_a_child_that_fails_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    script = "import sys; sys.stdin.buffer.read(); sys.exit('MemoryError: out of memory')"
    monkeypatch.setattr(search_process, "_command", lambda: [sys.executable, "-c", script])
    with pytest.raises(SearchError) as caught:
        found(DisplayText(LINES), SearchQuery("a+", regex=True))
    assert caught.value.message == "The search stopped: MemoryError: out of memory"


def test_the_text_crosses_without_its_caches() -> None:
    text = DisplayText(b"x" * (body_module.LONG_LINE + 1) + b"\nshort\n")
    assert text.line(0) == "x" * (body_module.LONG_LINE + 1)
    state = text.__getstate__()
    assert state["_cache"] == {}
    assert state["_long_lines"] == {}
    assert text.line(0) is text.line(0)  # (kept decoded, in this process)
