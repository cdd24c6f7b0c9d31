"""The browser screen's reading keys: search, filter, wrap and copy.

:class:`BrowserReading` is the part of the browser screen that acts on the
response shown: ``/`` and ``|`` open the response tabs' find bar, ``n``/``N``
step through the matches, ``W`` wraps long lines, and ``y`` copies what the
person points at. The tabs and the body view do the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from explorer.core.text.copy_text import copy_refusal, describe_copy
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs

if TYPE_CHECKING:
    from explorer.ui.dialogs.copy_menu import CopyChoice

# The copy menu is imported where it opens: the first screen does not wait for it.


class BrowserReading(Screen[None]):
    """Search, filter, wrap and copy on the response shown."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n``/``N`` apply while a search is open."""
        if action == "next_match":
            return self.query_one(ResponseTabs).searching
        return True

    async def action_search(self) -> None:
        await self.query_one(ResponseTabs).open_bar("search")

    async def action_filter(self) -> None:
        await self.query_one(ResponseTabs).open_bar("filter")

    def action_next_match(self, step: int) -> None:
        self.query_one(ResponseTabs).step_match(step)

    def action_wrap(self) -> None:
        tabs = self.query_one(ResponseTabs)
        wrapped = tabs.toggle_wrap()
        self.notify("Long lines wrap." if wrapped else "Long lines scroll sideways.", timeout=2)

    @work(group="copy")
    async def action_copy(self) -> None:
        """Open the copy menu on what can be copied now, the focused thing first."""
        from explorer.ui.dialogs.copy_menu import CopyMenu

        choices = self._copy_choices()
        if not choices:
            self.notify("Nothing to copy yet.")
            return
        focused = next((n for n, c in enumerate(choices) if c.key == self._focused_kind()), 0)
        choice = await self.app.push_screen_wait(CopyMenu(choices, focused))
        if choice is None:
            return
        refusal = copy_refusal(choice.what, choice.size)
        if refusal is not None:
            self.notify(refusal, severity="warning", timeout=8)
            return
        self.app.copy_to_clipboard(choice.text)
        self.notify(describe_copy(choice.what, choice.text))

    def _focused_kind(self) -> str:
        focused = self.focused
        if focused is None:
            return "b"
        if self.query_one(LinksPanel) in focused.ancestors_with_self:
            return "u"
        if any(isinstance(node, HeadersView) for node in focused.ancestors_with_self):
            return "h"
        return "l" if self.query_one(ResponseTabs).body_view.cursor_line is not None else "b"

    def _copy_choices(self) -> list[CopyChoice]:
        from explorer.ui.dialogs.copy_menu import CopyChoice

        tabs = self.query_one(ResponseTabs)
        choices: list[CopyChoice] = []
        view = tabs.body_view
        text = view.text
        if tabs.page is not None and text.size:
            # What is copied is the text shown (JSON indented): its size, not the body's.
            what = "the filter's result" if view.filtered else "the body as shown"
            shown = text.text() if copy_refusal(what, text.size) is None else ""
            choices.append(CopyChoice("b", what, shown, text.size))
        if view.cursor_line is not None:
            line = text.line(view.cursor_line, as_shown=False)
            what = f"line {view.cursor_line + 1:,}"
            choices.append(CopyChoice("l", what, line, len(line.encode())))
        for headers in tabs.query(HeadersView):
            row = headers.table.cursor_row
            if 0 <= row < len(headers.headers):
                name, value = headers.headers[row]
                header = f"{name}: {value}"
                choices.append(CopyChoice("h", f"the header {name}", header, len(header.encode())))
        panel = self.query_one(LinksPanel)
        link = panel.link_at(panel.table.cursor_row + 1)
        if link is not None:
            choices.append(CopyChoice("u", "the link's URL", link.href, len(link.href.encode())))
        return choices
