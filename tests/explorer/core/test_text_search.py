"""Search: queries compiled as typed or as regular expressions, matches found line by line."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.bodies import display as body_module
from explorer.core.bodies.display import DisplayText
from explorer.core.text import text_search
from explorer.core.text.text_search import (
    Match,
    Matches,
    SearchError,
    SearchQuery,
    TextSearch,
    compile_query,
    find_matches,
    is_literal,
    scan,
)


def _search(text: DisplayText, query: SearchQuery) -> list[Match]:
    pattern = compile_query(query)
    return [m for first, chunk in text.chunks() for m in find_matches(pattern, first, chunk)]


def _per_line(lines: list[str], pattern: re.Pattern[str]) -> list[Match]:
    return [
        Match(n, m.start(), m.end())
        for n, line in enumerate(lines)
        for m in pattern.finditer(line)
        if m.end() > m.start()
    ]


def test_plain_text_is_not_a_pattern_and_ignores_case_by_default() -> None:
    text = DisplayText(b"a.b\nA.B and axb\n")
    assert _search(text, SearchQuery("a.b")) == [Match(0, 0, 3), Match(1, 0, 3)]
    assert _search(text, SearchQuery("a.b", case_sensitive=True)) == [Match(0, 0, 3)]
    assert _search(text, SearchQuery("a.b", regex=True)) == [
        Match(0, 0, 3),
        Match(1, 0, 3),
        Match(1, 8, 11),
    ]


def test_anchors_are_each_lines_ends_and_no_match_spans_lines() -> None:
    text = DisplayText(b"foo\nbar foo\nfoo\n")
    assert _search(text, SearchQuery("^foo", regex=True)) == [Match(0, 0, 3), Match(2, 0, 3)]
    assert _search(text, SearchQuery("foo$", regex=True)) == [
        Match(0, 0, 3),
        Match(1, 4, 7),
        Match(2, 0, 3),
    ]
    assert _search(text, SearchQuery(r"foo\sbar", regex=True)) == []
    assert _search(text, SearchQuery("x*", regex=True)) == []  # empty matches are nothing


@pytest.mark.parametrize(
    ("query", "position"),
    [("[abc", 0), ("a)", 1), ("(?P<x", 4), ("a{2,1}", 2)],
)
def test_a_bad_regular_expression_is_explained_with_where(query: str, position: int) -> None:
    with pytest.raises(SearchError) as caught:
        compile_query(SearchQuery(query, regex=True))
    assert caught.value.position == position
    assert caught.value.message.startswith(f"Not a regular expression at position {position + 1}")
    compile_query(SearchQuery(query))  # the same text, as typed, is fine


@given(
    st.text(alphabet="ab\n\r é\x1b", max_size=200),
    st.sampled_from(["a", "b", "ab", "é", "a+", "^b", "b$", "␍", "␛", " "]),
    st.booleans(),
)
def test_chunked_search_finds_what_a_per_line_search_finds(
    text: str, query: str, compress: bool
) -> None:
    saved = body_module.COMPRESS_ABOVE, body_module.BLOCK_SIZE
    body_module.COMPRESS_ABOVE = -1 if compress else saved[0]
    body_module.BLOCK_SIZE = 16  # many blocks
    try:
        shown = DisplayText(text.encode())
    finally:
        body_module.COMPRESS_ABOVE, body_module.BLOCK_SIZE = saved
    lines = [shown.line(n) for n in range(len(shown))]
    pattern = compile_query(SearchQuery(query, regex=True))
    assert _search(shown, SearchQuery(query, regex=True)) == _per_line(lines, pattern)
    assert shown.text().split("\n")[: len(lines)] == lines


@given(
    st.text(alphabet="aAbBkK\u212a.*\n é", max_size=200),
    st.text(alphabet="aAbBkK\u212a.*é", min_size=1, max_size=4),
)
def test_a_case_blind_search_of_plain_text_finds_what_ignorecase_finds(
    text: str, query: str
) -> None:
    """Plain queries in ASCII text are matched lower-cased (faster): the same matches."""
    pattern = compile_query(SearchQuery(query))
    expected = _per_line(text.split("\n"), pattern)
    assert list(find_matches(pattern, 0, text)) == expected


def test_matches_are_found_by_line_and_counted() -> None:
    matches = Matches()
    matches.add([Match(1, 0, 2), Match(1, 5, 7), Match(4, 1, 2)])
    assert matches.on_line(1) == [(0, 2), (5, 7)]
    assert matches.on_line(2) == []
    assert matches.first_from(2) == 2
    assert matches.first_from(5) is None
    assert matches[1] == Match(1, 5, 7)
    assert matches.count_text(done=False) == "3 so far"
    assert matches.count_text(done=True) == "3"


def test_matches_stop_at_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_search, "MAX_MATCHES", 2)
    matches = Matches()
    matches.add(Match(n, 0, 1) for n in range(5))
    assert len(matches) == 2
    assert matches.capped
    assert matches.count_text(done=True) == "2+"
    assert not Matches(limit=5).capped


def test_a_capped_search_says_so_and_steps_round_what_it_kept() -> None:
    search = TextSearch(compile_query(SearchQuery("y")), limit=3)
    search.add([Match(0, n, n + 1) for n in range(4)], done=True, top_line=0)
    assert len(search.matches) == 3
    assert search.status == "1 of 3+"
    assert search.note == "Only the first 3 matches are kept: n and N go round them."
    assert search.step(1, top_line=0)
    assert search.step(1, top_line=0)
    assert search.status == "3 of 3+"
    assert search.step(1, top_line=0)
    assert search.current_match == Match(0, 0, 1)  # round the last kept one
    assert search.step(-1, top_line=0)
    assert search.current_match == Match(0, 2, 3)
    assert TextSearch(compile_query(SearchQuery("y"))).note == ""
    above = TextSearch(compile_query(SearchQuery("y")), limit=3)
    above.add([Match(0, n, n + 1) for n in range(4)], done=False, top_line=9)
    assert above.status == "3+ matches"  # none current yet (all above the view)


def test_the_bound_is_one_hundred_thousand_as_for_links() -> None:
    assert text_search.MAX_MATCHES == 100_000


def test_a_long_line_shows_only_the_matches_in_view() -> None:
    matches = Matches()
    matches.add([Match(0, 0, 2), Match(3, 0, 4), Match(3, 10, 14), Match(3, 20, 24)])
    matches.add([Match(4, 1, 2)])
    assert matches.on_line(3) == [(0, 4), (10, 14), (20, 24)]
    assert matches.on_line(3, 4, 10) == []  # ends and starts are exclusive
    assert matches.on_line(3, 12, 13) == [(10, 14)]  # one begun before the view
    assert matches.on_line(3, 3, 21) == [(0, 4), (10, 14), (20, 24)]
    assert matches.on_line(3, 14) == [(20, 24)]


def test_a_search_starts_at_the_views_top_and_rounds_the_ends() -> None:
    search = TextSearch(compile_query(SearchQuery("x")))
    assert search.status == "searching…"
    assert not search.add([Match(2, 0, 1)], done=False, top_line=5)  # above the view: not yet
    assert search.status == "1 so far"
    assert search.add([Match(7, 0, 1), Match(9, 0, 1)], done=False, top_line=5)
    assert search.current_match == Match(7, 0, 1)
    assert search.status == "2 of 3 so far"
    search.add([], done=True, top_line=5)
    assert search.status == "2 of 3"
    assert search.step(1, top_line=0)
    assert search.step(1, top_line=0)
    assert search.current_match == Match(2, 0, 1)  # round the bottom
    assert search.step(-1, top_line=0)
    assert search.current_match == Match(9, 0, 1)


def test_a_search_with_nothing_below_the_view_starts_at_the_top_once_done() -> None:
    search = TextSearch(compile_query(SearchQuery("x")))
    assert not search.add([Match(1, 0, 1)], done=False, top_line=50)
    assert search.add([], done=True, top_line=50)
    assert search.current_match == Match(1, 0, 1)
    empty = TextSearch(compile_query(SearchQuery("x")))
    empty.add([], done=True, top_line=0)
    assert empty.status == "no match"
    assert not empty.step(1, top_line=0)
    assert TextSearch().status == ""


def test_scan_reports_the_first_match_at_once_then_the_rest() -> None:
    text = DisplayText(("".join(f"row {n}\n" for n in range(50_000))).encode())
    assert text.blocks > 1
    calls: list[tuple[int, bool]] = []
    scan(
        compile_query(SearchQuery("row 1", case_sensitive=True)),
        text.chunks(),
        lambda batch, done: calls.append((len(batch), done)),
        every=3600,  # after the first batch, nothing until the end
    )
    # The first block's matches at once, the rest at the end.
    assert len(calls) == 2
    assert calls[0][1] is False
    assert calls[1][1] is True
    assert 0 < calls[0][0] < 11_111
    assert sum(count for count, _done in calls) == 11_111  # row 1, 10-19, ..., 10000-19999


def test_a_cancelled_scan_reports_nothing_more() -> None:
    text = DisplayText(b"a\n" * 10)
    calls: list[bool] = []
    scan(
        compile_query(SearchQuery("a")),
        text.chunks(),
        lambda b, d: calls.append(d),
        cancelled=lambda: True,
    )
    assert calls == []


class _Pulled:
    """find_matches, counting the matches a scan takes from it."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, pattern: re.Pattern[str], first: int, chunk: str) -> Iterator[Match]:
        for match in find_matches(pattern, first, chunk):
            self.count += 1
            yield match


def test_a_scan_of_one_long_line_keeps_one_past_the_bound_and_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """50 MB of ``y`` once made 50 million matches before the bound was looked at (QA 3)."""
    pulled = _Pulled()
    monkeypatch.setattr(text_search, "find_matches", pulled)
    text = DisplayText(b'{"a": "' + b"y" * 200_000 + b'"}\n' + b"y\n" * 10)

    def chunks() -> Iterator[tuple[int, str]]:
        yield from text.chunks()
        raise AssertionError("read past the bound")

    batches: list[tuple[list[Match], bool]] = []
    scan(
        compile_query(SearchQuery("y")),
        chunks(),
        lambda batch, done: batches.append((batch, done)),
        limit=1000,
    )
    assert pulled.count == 1001
    assert [done for _batch, done in batches][-1] is True
    assert batches[0][0] == [Match(0, 7, 8)]  # the first match, at once
    search = TextSearch(compile_query(SearchQuery("y")), limit=1000)
    for batch, done in batches:
        search.add(batch, done, top_line=0)
    assert len(search.matches) == 1000
    assert search.matches.capped
    assert search.status == "1 of 1,000+"


def test_a_scan_cancelled_within_a_long_line_stops_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cancelled search stops within the line it is in, not at the line's end."""
    pulled = _Pulled()
    monkeypatch.setattr(text_search, "find_matches", pulled)
    text = DisplayText(b"y" * 100_000)
    stop = False
    dones: list[bool] = []

    def report(batch: list[Match], done: bool) -> None:
        nonlocal stop
        dones.append(done)
        stop = True  # closed as soon as the first match showed

    scan(compile_query(SearchQuery("y")), text.chunks(), report, cancelled=lambda: stop)
    assert dones == [False]  # the first match; no last report once cancelled
    assert pulled.count <= 1 + text_search.CHECK_EVERY


def test_plain_queries_are_literals_and_regular_expressions_are_not() -> None:
    assert is_literal(compile_query(SearchQuery("a.b (c) [d]")))
    assert is_literal(compile_query(SearchQuery("abc", regex=True)))
    assert not is_literal(compile_query(SearchQuery("a.b", regex=True)))
    assert not is_literal(compile_query(SearchQuery("(y+)+z", regex=True)))
