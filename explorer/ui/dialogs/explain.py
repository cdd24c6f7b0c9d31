"""A modal that explains one thing (a status, a header, a method, an error) in Markdown.

The Markdown may quote a server (a header value in the advice, a URL): its control
characters are made visible, and its links are shown, never opened. Given the
response's exchange, it adds what httplint finds in it (:mod:`explorer.core.knowledge.lint`),
linted in a thread: httplint takes a while to import, and to read a large body.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown
from textual.worker import get_current_worker

from explorer.core.http.exchange import Exchange
from explorer.core.knowledge.lint import LintReport
from explorer.core.text.terminal_text import visible
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.lint_panel import LintPanel


class ExplainDialog(ModalScreen[None]):
    """Shows ``markdown``; Escape or q closes it."""

    DEFAULT_CSS = """
    ExplainDialog { align: center middle; }
    ExplainDialog > VerticalScroll {
        width: 90%; max-width: 100; height: auto; max-height: 85%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ExplainDialog Markdown { margin: 0; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, markdown: str, exchange: Exchange | None = None) -> None:
        super().__init__()
        self.markdown = visible(markdown)
        #: The response to lint, when this explains one.
        self.exchange = exchange
        #: httplint's notes once the lint is done.
        self.report: LintReport | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="explain-scroll"):
            yield Markdown(self.markdown, id="explanation", open_links=False)
            if self.exchange is not None:
                yield LintPanel(id="lint")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#explain-scroll").focus()
        if self.exchange is not None:
            self.query_one(LintPanel).show_message("httplint is reading this response…")
            self._lint(self.exchange)

    @work(thread=True, exclusive=True, group="lint", description="lint the response")
    def _lint(self, exchange: Exchange) -> None:
        from explorer.core.knowledge.lint import lint_exchange

        worker = get_current_worker()
        try:
            report = lint_exchange(exchange)
        except Exception as exc:  # a linter's bug must not take the explanation with it
            message = f"httplint could not read this response: {type(exc).__name__}: {exc}"
            self.app.call_from_thread(self._lint_failed, visible(message))
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._linted, report)

    # (Both run on the UI thread, maybe after the dialog was closed: the lint's worker is
    # cancelled then, but its thread may have handed its result over already.)

    def _linted(self, report: LintReport) -> None:
        self.report = report
        for panel in self.query(LintPanel):
            panel.show_report(report)

    def _lint_failed(self, message: str) -> None:
        for panel in self.query(LintPanel):
            panel.show_message(message)

    def action_close(self) -> None:
        self.dismiss(None)
