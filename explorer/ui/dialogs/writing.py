"""The dialogs that write a file where the person says: closed only once it is written.

Enter hands the path to the dialog's writer, on a thread (a body may be 100 MB).
A problem (no such directory, a name too long, no permission, a full disk) is
shown in the dialog, which stays open with the path to correct, so nothing typed
next reaches the screen below. A file that exists is replaced only after a
second Enter on the same path. Escape cancels, except while a write is under way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from textual import on, work
from textual.screen import ModalScreen
from textual.widgets import Input

from explorer.core.bodies.saving import FileExists, SaveProblem
from explorer.core.text.terminal_text import visible_line

__all__ = ["SaveTarget", "WritingDialog"]

ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class SaveTarget:
    """The file to write, and whether replacing an existing one was agreed to."""

    path: Path
    overwrite: bool = False


#: What writes the file: raises :class:`~explorer.core.bodies.saving.SaveProblem` (or
#: :class:`~explorer.core.bodies.saving.FileExists`) with the words to show.
Writer = Callable[[SaveTarget], ResultT]


class WritingDialog(ModalScreen[ResultT | None]):
    """A path in ``#save-path``; Enter writes there, and the dialog closes with the
    writer's result, or shows why not. Subclasses say where a problem is shown."""

    def __init__(self, write: Writer[ResultT]) -> None:
        super().__init__()
        self.write = write
        #: The existing file the person was told about: a second Enter replaces it.
        self._warned: Path | None = None
        self._writing = False

    def show_problem(self, text: str) -> None:
        """Show ``text`` (a problem, or what a second Enter does) in the dialog; "" clears it."""
        raise NotImplementedError

    @on(Input.Changed, "#save-path")
    def _path_changed(self) -> None:
        if not self._writing:
            self._warned = None
            self.show_problem("")

    @on(Input.Submitted, "#save-path")
    def _path_given(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self._writing:
            return
        if not text:
            self.show_problem("Give a file name.")
            return
        path = Path(text).expanduser()
        self._writing = True
        self.show_problem("Writing…")
        self._write(SaveTarget(path, overwrite=self._warned == path))

    @work(thread=True, exclusive=True, group="write")
    def _write(self, target: SaveTarget) -> None:
        try:
            result = self.write(target)
        except SaveProblem as problem:
            self.app.call_from_thread(self._failed, problem)
        else:
            self.app.call_from_thread(self._written, result)

    def _written(self, result: ResultT) -> None:
        self._writing = False
        self.dismiss(result)

    def _failed(self, problem: SaveProblem) -> None:
        self._writing = False
        text = visible_line(str(problem))
        if isinstance(problem, FileExists):
            self._warned = problem.path
            text += " Enter again replaces it, or change the name."
        self.show_problem(text)

    def action_cancel(self) -> None:
        if not self._writing:  # a write under way finishes, and closes the dialog
            self.dismiss(None)
