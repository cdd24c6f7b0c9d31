"""What ``D`` compares the page shown with: a page of the trail, or this page in another
API version (the version and how to ask for it picked here, in the version dialog)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from explorer.core.session.trail import Page, page_labels
from explorer.core.session.version import VersionChoice
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar

__all__ = ["ANOTHER_VERSION", "DiffPicker"]

#: The choice "this page in another API version".
ANOTHER_VERSION = "version"


def _page_label(page: Page, label_text: str, back: int) -> Text:
    status = str(page.status) if page.status is not None else "failed"
    label = Text.assemble((f"{status:>6}  ", "bold"), visible_line(label_text))
    label.append(f"  ({back} back)" if back > 0 else "  (ahead)", style="dim")
    return label


class DiffPicker(ModalScreen[Page | VersionChoice | None]):
    """Pick the other side: a page of the trail (newest first) or another version, asked
    for from ``current`` (the version the page's server is asked for now)."""

    DEFAULT_CSS = """
    DiffPicker { align: center middle; }
    DiffPicker > OptionList {
        width: 80%; max-width: 100; height: auto; max-height: 20;
        border: thick $accent; background: $surface;
    }
    """
    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, pages: list[Page], shown: Page, current: VersionChoice) -> None:
        super().__init__()
        self.pages = pages
        self.shown = shown
        self.current = current

    def compose(self) -> ComposeResult:
        options = [
            Option(
                Text.assemble(
                    ("this page in another API version…", "bold"),
                    ("  (v: the version and how to ask for it)", "dim"),
                ),
                id=ANOTHER_VERSION,
            )
        ]
        here = next((n for n, page in enumerate(self.pages) if page is self.shown), len(self.pages))
        labels = page_labels([*self.pages, self.shown])
        for index in range(len(self.pages) - 1, -1, -1):
            page = self.pages[index]
            if page is self.shown or page.exchange is None:
                continue
            options.append(Option(_page_label(page, labels[index], here - index), id=str(index)))
        menu = OptionList(*options)
        menu.border_title = "Compare this page with"
        yield menu
        yield KeyBar()

    def on_mount(self) -> None:
        menu = self.query_one(OptionList)
        menu.highlighted = 1 if menu.option_count > 1 else 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id
        if choice == ANOTHER_VERSION:
            from explorer.ui.dialogs.version import VersionDialog

            def chosen(version: VersionChoice | None) -> None:
                self.dismiss(version if version is not None and version.active else None)

            self.app.push_screen(VersionDialog(self.current), chosen)
        elif choice is not None:
            self.dismiss(self.pages[int(choice)])

    def action_close(self) -> None:
        self.dismiss(None)
