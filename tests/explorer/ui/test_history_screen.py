"""The history screen: Enter opens a row of the list the search line asks for, never one
of an older answer still on screen; a cache hit is listed as one."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from explorer.core.http.exchange import CacheNote, Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.storage.history import HistoryStore
from explorer.core.storage.history_entry import HistoryEntry
from explorer.core.storage.history_query import HistoryQuery
from explorer.ui.app import RestwalkApp
from explorer.ui.screens.history import HistoryScreen
from explorer.ui.widgets.row_table import RowTable
from tests.explorer.ui.conftest import SIZE, AppFactory, settle


class GatedStore(HistoryStore):
    """A history whose searches wait for the test to open the gate (a slow disk)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()

    def search(
        self, query: HistoryQuery | None = None, *, limit: int | None = 100, offset: int = 0
    ) -> list[HistoryEntry]:
        assert self.gate.wait(10)
        return super().search(query, limit=limit, offset=offset)


def keep(store: HistoryStore, *urls: str, cache: CacheNote | None = None) -> None:
    for n, url in enumerate(urls):
        request = SentRequest("GET", url, ())
        response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", url)
        exchange = Exchange(request, request, response, timings=Timings(0.01, 0.02), cache=cache)
        store.add(exchange, at=1000.0 + n)


@pytest.fixture
def store(tmp_path: Path) -> GatedStore:
    made = GatedStore(tmp_path / "history.sqlite")
    keep(made, "http://api.test/customers/1", "http://api.test/orders/7", "http://api.test/other")
    return made


async def open_history(app: RestwalkApp, store: HistoryStore) -> tuple[HistoryScreen, list[int]]:
    chosen: list[int] = []
    screen = HistoryScreen(store)
    app.push_screen(screen, lambda entry_id: chosen.append(entry_id or 0))
    return screen, chosen


async def test_enter_waits_for_the_answer_to_the_words_typed(
    make_app: AppFactory, store: GatedStore
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, chosen = await open_history(app, store)
        await settle(pilot)
        assert screen.entries[0].url == "http://api.test/other"
        store.gate.clear()  # the search of what is typed now takes its time
        await pilot.press(*"customers")
        await pilot.press("down", "enter")  # the table still shows every entry
        await pilot.pause()
        assert app.screen is screen
        assert chosen == []
        assert "searching" in str(screen.query_one("#history-note").render()).lower()
        store.gate.set()
        await settle(pilot)
        assert [e.url for e in screen.entries] == ["http://api.test/customers/1"]
        await pilot.press("enter")
        await settle(pilot)
        (entry,) = store.search(HistoryQuery(text=("customers",)))
        assert chosen == [entry.id]


async def test_a_choice_made_on_a_list_since_replaced_opens_nothing(
    make_app: AppFactory, store: GatedStore
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, chosen = await open_history(app, store)
        await settle(pilot)
        table = screen.query_one(RowTable)
        stale = RowTable.Selected(table, 0)  # Enter on the list of every entry...
        await pilot.press(*"orders")  # ...handled once the list of "orders" is shown
        await settle(pilot)
        assert [e.url for e in screen.entries] == ["http://api.test/orders/7"]
        table.post_message(stale)
        await settle(pilot)
        assert app.screen is screen
        assert chosen == []


async def test_a_cache_hit_is_listed_as_from_the_cache(
    make_app: AppFactory, tmp_path: Path
) -> None:
    history = HistoryStore(tmp_path / "history.sqlite")
    keep(history, "http://api.test/sent")
    keep(history, "http://api.test/cached", cache=CacheNote("fresh", "from the cache: fresh"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, _ = await open_history(app, history)
        await settle(pilot)
        rows = {row[3]: row for row in screen.query_one(RowTable)._rows}
        assert rows["http://api.test/cached"][4:6] == ("—", "cache")
        assert rows["http://api.test/sent"][4:6] == ("20", "")
        note = str(screen.query_one("#history-note").render())
        assert "From cache: the session's cache answered" in note


async def test_at_80_columns_each_url_shows_its_path(make_app: AppFactory, tmp_path: Path) -> None:
    # The URLs were cut right after the host there: every row read http://127.0.0.1:8642/o.
    history = HistoryStore(tmp_path / "history.sqlite")
    keep(history, "http://127.0.0.1:8642/orders/7", "http://127.0.0.1:8642/customers/12")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen, _ = await open_history(app, history)
        await settle(pilot)
        table = screen.query_one(RowTable)
        shown = [table.render_line(y).text for y in range(1, 3)]
        assert any("127.0.0.1:8642/orders/7" in line for line in shown), shown
        assert any("127.0.0.1:8642/customers/12" in line for line in shown), shown


def test_an_entry_of_another_year_says_its_date() -> None:
    from explorer.ui.screens.history import entry_row

    entry = HistoryEntry(
        id=1, at=1000.0, method="GET", url="http://h/", final_url="http://h/", status=200,
        reason="OK", duration=0.01, size=2, source="cli", masked=False,
    )  # fmt: skip
    assert entry_row(entry)[0] == "1970-01-01"


async def test_two_downs_typed_together_go_to_the_second_entry(
    make_app: AppFactory, store: GatedStore
) -> None:
    """QA 6: the first Down asks the focus to move to the list, the second, come in the
    same read from the terminal, went to the search line still focused: it was lost."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, chosen = await open_history(app, store)
        await settle(pilot)
        for _ in range(2):  # (as a terminal's read hands them over: no frame between)
            app.post_message(events.Key("down", None))
        await settle(pilot)
        table = screen.query_one(RowTable)
        assert screen.focused is table
        assert table.cursor_row == 1
        await pilot.press("enter")
        await settle(pilot)
        assert chosen == [screen.entries[1].id]
