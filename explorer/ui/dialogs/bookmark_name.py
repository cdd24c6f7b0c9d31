"""Naming a bookmark: the rel path it keeps is shown, the name is asked.

:meth:`BookmarkNameDialog.for_trail` makes the dialog for the trail shown: the path
of relations leading to its last page (:func:`~explorer.core.session.rel_path.rel_path`),
a name suggested for it, and its saving in the bookmarks.

Enter saves through the caller's ``save`` (it raises
:class:`~explorer.core.storage.bookmarks.BookmarksError`), and the dialog closes
with what was saved, in words; a problem (the bookmarks file broken meanwhile)
is shown in the dialog, which stays open. A name already used is said before
Enter replaces that bookmark. None: the person cancelled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from explorer.core.session.rel_path import RelPath, bookmark_name, rel_path
from explorer.core.storage.bookmarks import BookmarksError, BookmarkStore
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

if TYPE_CHECKING:
    from explorer.core.bundled.rebase import BundledMock
    from explorer.core.session.trail import Page


class BookmarkNameDialog(ModalScreen[str | None]):
    """The path to keep, and a name for it; Enter saves, Escape cancels."""

    DEFAULT_CSS = """
    BookmarkNameDialog { align: center middle; }
    BookmarkNameDialog > Vertical {
        width: 90%; max-width: 100; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    BookmarkNameDialog #bookmark-path, BookmarkNameDialog #bookmark-note {
        height: auto; color: $text-muted;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        path: RelPath,
        suggested: str,
        taken: frozenset[str],
        save: Callable[[str], str],
    ) -> None:
        super().__init__()
        self.path = path
        self.suggested = suggested
        self.taken = taken
        self.save = save

    @classmethod
    def for_trail(
        cls, trail: Sequence[Page], bookmarks: BookmarkStore, bundled: BundledMock | None
    ) -> BookmarkNameDialog:
        """The dialog bookmarking ``trail``'s last page in ``bookmarks`` (kept as made on
        ``bundled``, the bundled mock server, when it is). Raises
        :class:`~explorer.core.session.rel_path.PathError` when no path leads there, and
        :class:`~explorer.core.storage.bookmarks.BookmarksError` when the bookmarks
        cannot be read."""
        path = rel_path(trail)
        taken = frozenset(bookmark.name for bookmark in bookmarks.all())
        on_bundled = bundled is not None and bundled.made_on(path.entry)

        def save(name: str) -> str:
            replaced = bookmarks.save(name, path, bundled=on_bundled)
            what = "Replaced" if replaced else "Bookmarked"
            return f"{what} {name!r}: {counted(len(path.steps), 'link')} from {path.entry}."

        return cls(path, bookmark_name(trail) or path.describe(), taken, save)

    def compose(self) -> ComposeResult:
        numbered = enumerate(self.path.steps, start=1)
        steps = "\n".join(f"  {n}. {visible_line(step.follow)}" for n, step in numbered)
        where = f"From {visible_line(self.path.entry)}\n{steps or '  (the entry point itself)'}"
        with Vertical():
            yield Label("Bookmark this page as the links that lead to it:", markup=False)
            yield Static(where, id="bookmark-path", markup=False)
            yield SafeInput(self.suggested, placeholder="a name", id="bookmark-name")
            yield Static("", id="bookmark-note", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._check(self.suggested)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    def _check(self, name: str) -> None:
        note = "Enter saves; ' lists the bookmarks and walks one again."
        if name.strip() in self.taken:
            note = f"A bookmark is named {name.strip()!r}: Enter replaces it."
        self.query_one("#bookmark-note", Static).update(note)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not name:
            return
        try:
            saved = self.save(name)  # a small JSON file: written at once
        except BookmarksError as error:
            note = self.query_one("#bookmark-note", Static)
            note.update(visible_line(f"Not bookmarked: {error}"))
            return
        self.dismiss(saved)

    def action_cancel(self) -> None:
        self.dismiss(None)
