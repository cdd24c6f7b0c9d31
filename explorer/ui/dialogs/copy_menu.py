"""The copy menu: what ``y`` can copy now (the body, a line, a header, a link's URL, the
request for another tool); the one chosen goes to the clipboard, or is refused when it
is too large to (:func:`~explorer.core.text.copy_text.copy_refusal`)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from explorer.core.session.exports import Exported
from explorer.core.text.copy_text import copy_refusal, describe_copy
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar

#: How much of a choice's text its label shows.
PREVIEW = 48


@dataclass(frozen=True)
class CopyChoice:
    """One thing to copy: its key in the menu, what it is called, and the text (or why not)."""

    key: str
    what: str
    text: str
    size: int
    #: What the label shows of the text, when not the text itself (its credentials masked).
    preview: str | None = None

    @property
    def label(self) -> Text:
        """``b  the body as shown (12.3 KB)  {"count": ...``, as plain text."""
        shown = self.text if self.preview is None else self.preview
        first = shown[:PREVIEW].split("\n", 1)[0]
        label = Text.assemble((f"{self.key}  ", "bold"), f"{self.what} ({size_text(self.size)})  ")
        if copy_refusal(self.what, self.size) is not None:
            # Said here, before it is chosen, not only once it is refused.
            label.append("too large for the clipboard (| filters, d saves the body)", style="dim")
        else:
            label.append(visible_line(first), style="dim")
        return label


def exported_choices(exported: list[Exported]) -> list[CopyChoice]:
    """The request written for other tools, as choices of the menu."""
    return [CopyChoice(e.key, e.what, e.text, len(e.text.encode()), e.preview) for e in exported]


class CopyMenu(ModalScreen[CopyChoice | None]):
    """Pick what to copy: its key, or the arrows and Enter; Escape copies nothing.

    Closes with what was copied (None: nothing was)."""

    DEFAULT_CSS = """
    CopyMenu { align: center middle; }
    CopyMenu > OptionList {
        width: 80%; max-width: 90; height: auto; max-height: 12;
        border: thick $accent; background: $surface;
    }
    """
    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, choices: list[CopyChoice], focused: int = 0) -> None:
        super().__init__()
        self.choices = choices
        self.start = focused

    def compose(self) -> ComposeResult:
        menu = OptionList(*(Option(choice.label, id=choice.key) for choice in self.choices))
        menu.border_title = "Copy to the clipboard"
        yield menu
        yield KeyBar()

    def on_mount(self) -> None:
        menu = self.query_one(OptionList)
        menu.highlighted = self.start
        menu.focus()

    def on_key(self, event: events.Key) -> None:
        for choice in self.choices:
            if event.character == choice.key:
                event.stop()
                self._copy(choice)
                return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._copy(self.choices[event.option_index])

    def _copy(self, choice: CopyChoice) -> None:
        """Put ``choice`` on the clipboard and say so, or say why not."""
        refusal = copy_refusal(choice.what, choice.size)
        if refusal is not None:
            self.notify(refusal, severity="warning", timeout=8)
            self.dismiss(None)
            return
        self.app.copy_to_clipboard(choice.text)
        self.notify(describe_copy(choice.what, choice.text))
        self.dismiss(choice)

    def action_close(self) -> None:
        self.dismiss(None)
