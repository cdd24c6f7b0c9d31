"""Command palette commands: "explain <status code, header or method>", and the screens."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from explorer.core.knowledge.headers import header_names
from explorer.core.knowledge.methods import method_names
from explorer.core.knowledge.statuses import all_statuses
from explorer.ui.dialogs.explain import ExplainDialog
from explorer.ui.explain_text import topic_markdown

_PREFIX = "explain "
_WORD = _PREFIX.strip()
_COMMON = ("401", "404", "429", "Cache-Control", "ETag", "POST")


def _topics() -> list[tuple[str, str]]:
    """``(topic, short description)`` for every explainable thing."""
    topics = [(str(info.code), info.phrase) for info in all_statuses()]
    topics += [(name, "header") for name in header_names()]
    topics += [(name, "method") for name in method_names()]
    return topics


class ExplainCommands(Provider):
    """``explain 404``, ``explain Retry-After``, ``explain PATCH``."""

    async def startup(self) -> None:
        self.topics = _topics()

    def _open(self, topic: str) -> None:
        self.app.push_screen(ExplainDialog(topic_markdown(topic)))

    async def search(self, query: str) -> Hits:
        text = query.strip()
        offered: set[str] = set()
        if text and _WORD.startswith(text.lower()):
            # "expl", "explain": the command's own word, no topic yet: the common topics,
            # as the palette lists them before anything is typed
            matcher = self.matcher(text)
            for topic in _COMMON:
                command = f"{_PREFIX}{topic}"
                offered.add(topic)
                yield Hit(
                    matcher.match(command),
                    matcher.highlight(command),
                    partial(self._open, topic),
                    text=command,
                    help="explain it; or type a status code, header or method after explain",
                )
        if text.lower().startswith(_WORD):
            text = text[len(_WORD) :].strip()
        if not text:
            return
        matcher = self.matcher(f"{_PREFIX}{text}")
        exact = text.isdigit() and len(text) == 3
        for topic, description in self.topics:
            if topic in offered:
                continue
            command = f"{_PREFIX}{topic}"
            score = 1.0 if exact and topic == text else matcher.match(command)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(command),
                    partial(self._open, topic),
                    text=command,
                    help=description,
                )
        if exact and not any(topic == text for topic, _ in self.topics):
            yield Hit(1.0, f"explain {text}", partial(self._open, text), help="status code")

    async def discover(self) -> Hits:
        for topic in _COMMON:
            yield DiscoveryHit(f"{_PREFIX}{topic}", partial(self._open, topic), help="explain it")
