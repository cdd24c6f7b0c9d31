"""Command palette commands for what restwalk keeps: history, bookmarks, HAR export, and
the OAuth 2.0 logins held for ``.http`` files."""

from __future__ import annotations

from collections.abc import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider

__all__ = ["KeepCommands"]


class KeepCommands(Provider):
    """``history``, ``bookmarks``, ``bookmark this page``, ``export … as HAR``, ``forget
    the .http files' logins``."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        from explorer.core.storage.history_query import HistoryQuery
        from explorer.ui.har_export import export_history, export_walk

        app = self.app
        browser = app.browser  # type: ignore[attr-defined]
        keep = app.keep  # type: ignore[attr-defined]
        return [
            ("history", "every exchange kept, searchable (H)", browser.action_history),
            ("bookmarks", "walk a bookmark again (')", browser.action_bookmarks),
            ("bookmark this page", "as the links that lead to it (m)", browser.action_bookmark),
            (
                "export this walk as HAR",
                "the pages of back and forward",
                lambda: export_walk(app, browser.trail.pages, keep.config.mask_secrets),
            ),
            (
                "export the history as HAR",
                "every exchange kept, as HAR 1.2",
                lambda: export_history(app, keep.history, HistoryQuery()),
            ),
            (
                "forget the .http files' logins",
                'the OAuth 2.0 tokens o got for {{$auth.token("id")}}, revoked where it can',
                browser.http_file_badge.forget_logins,
            ),
        ]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, run in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, text=name, help=help_text)

    async def discover(self) -> Hits:
        for name, help_text, run in self._commands():
            yield DiscoveryHit(name, run, help=help_text)
