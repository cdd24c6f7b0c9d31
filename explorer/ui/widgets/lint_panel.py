"""What httplint finds in the response shown: each note, its level, what it means.

The notes are plain text already (:mod:`explorer.core.knowledge.lint`: the server's values in
them made visible); they are put in a :class:`~rich.text.Text` as data, never markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from explorer.core.knowledge.lint import LintNote, LintReport

#: How each level looks.
_LEVEL_STYLE = {
    "bad": "bold white on red",
    "warning": "bold black on yellow",
    "info": "bold white on blue",
    "good": "bold black on green",
}


def report_text(report: LintReport) -> Text:
    """The report as text: a heading with the tally, then each note and its detail."""
    text = Text()
    text.append("What an HTTP linter finds here", style="bold underline")
    text.append(f"  httplint: {report.tally}\n", style="dim")
    if report.remark:
        text.append(f"{report.remark}\n", style="italic")
    for note in report.notes:
        _note(text, note, "")
    return text


def _note(text: Text, note: LintNote, indent: str) -> None:
    text.append("\n" + indent)
    text.append(f" {note.word} ", style=_LEVEL_STYLE.get(note.level, "bold reverse"))
    text.append(f" {note.category}: ", style="bold")
    text.append(note.summary + "\n", style="bold")
    for paragraph in note.detail.split("\n\n"):
        text.append(f"{indent}  {paragraph}\n", style="dim")
    for child in note.children:
        _note(text, child, indent + "  ")


class LintPanel(Static):
    """Shows a :class:`LintReport`, or says that the lint is running or failed."""

    DEFAULT_CSS = """
    LintPanel { height: auto; padding: 1 0 0 0; }
    """

    def show_report(self, report: LintReport) -> None:
        """Show ``report``'s notes."""
        self.update(report_text(report))

    def show_message(self, message: str) -> None:
        """A plain line instead of notes (linting…, or why there are none)."""
        self.update(Text(message, style="italic"))
