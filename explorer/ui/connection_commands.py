"""Command palette commands for the connection: the HTTP version offered, and caching."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from explorer.ui.connection import PROTOCOLS, protocol_name, use_protocol
from explorer.ui.screens.main import BrowserScreen


class ConnectionCommands(Provider):
    """ "HTTP/2 by ALPN", "HTTP/2 by prior knowledge", "HTTP/1.1 only", "Caching on/off"."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        screen = self.screen
        if not isinstance(screen, BrowserScreen):
            return []
        client = screen.tab.client
        current = protocol_name(client)

        def switch(name: str) -> None:
            screen.run_worker(use_protocol(screen, client, name), exclusive=True, group="protocol")

        commands: list[tuple[str, str, Callable[[], object]]] = [
            (
                f"Protocol: {name}" + (" (now)" if name == current else ""),
                meaning,
                partial(switch, name),
            )
            for name, _, _, meaning in PROTOCOLS
        ]
        caching = client.caching
        commands.append(
            (
                f"Caching: turn {'off' if caching else 'on'} (C)",
                "Keep responses as your own HTTP cache would, and say what it reused and why",
                partial(screen.set_caching, not caching),
            )
        )
        return commands

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command, help_text, callback in self._commands():
            score = matcher.match(command)
            if score > 0:
                yield Hit(score, matcher.highlight(command), callback, text=command, help=help_text)

    async def discover(self) -> Hits:
        for command, help_text, callback in self._commands():
            yield DiscoveryHit(command, callback, help=help_text)
