"""Links restwalk guessed are marked in the links panel itself: muted, their rel marked,
the mark explained on the border while one is listed."""

from __future__ import annotations

from explorer.ui.widgets.links_panel import GUESS_LEGEND, GUESS_MARK, LinksPanel
from tests.explorer.ui.conftest import SIZE, AppFactory, settle


async def test_guessed_links_are_marked_and_the_mark_explained(make_app: AppFactory) -> None:
    # The mock's /oauth page declares four links (_links) and holds bare URLs (its
    # endpoints, its clients' redirect URIs): those are guesses.
    app = make_app("http://mock/oauth")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        table = panel.table
        guesses = [n for n, link in enumerate(panel.links) if link.guess]
        declared = [n for n, link in enumerate(panel.links) if not link.guess]
        assert guesses
        assert declared
        rels = [row[1] for row in table.rows]
        assert all(rels[n] == GUESS_MARK + panel.links[n].rel for n in guesses)
        assert not any(rels[n].startswith(GUESS_MARK) for n in declared)
        assert "~token_endpoint" in rels
        assert str(panel.border_subtitle) == GUESS_LEGEND
        muted = table.get_component_rich_style("row-table--muted").color
        cursor = table.cursor_row

        def colour(row: int) -> object:
            style = next(iter(table.render_line(row + 1))).style  # (line 0: the header)
            assert style is not None
            return style.color

        assert all(colour(n) == muted for n in guesses if n != cursor)
        assert not any(colour(n) == muted for n in declared)


async def test_a_page_without_guesses_has_no_mark_and_no_legend(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        assert panel.links
        assert not any(link.guess for link in panel.links)
        assert not any(row[1].startswith(GUESS_MARK) for row in panel.table.rows)
        assert GUESS_LEGEND not in str(panel.border_subtitle)
