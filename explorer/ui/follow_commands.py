"""The command palette's ``follow WORDS``: a link of the page shown, chosen by words.

``follow next``, ``follow next#2``, ``follow child[title=books]``, ``follow
order-items`` (the last word of a URI relation), ``follow 7``: the words are read by
:func:`explorer.core.session.choice.choose_link`, the same function as ``restwalk
request --follow``, so they name the same link in both. The palette also offers
each link of the page by the words that name it, and matches what is typed
against them as it matches any command.

Every word shown here is the server's (relations, titles, URLs): each prompt is a
``Text`` built from plain strings, with control characters made visible, never
markup (the palette reads a ``str`` prompt or help as markup).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import choose_link, link_words, relations
from explorer.core.text.terminal_text import visible_line

if TYPE_CHECKING:
    from explorer.ui.screens.main import BrowserScreen

_PREFIX = "follow "
#: Links offered when nothing is typed yet.
_DISCOVERED = 12
#: The score of the link the words name: above any fuzzy match's (they are not bounded).
_FIRST = float("inf")


def _prompt(words: str, link: Link) -> Text:
    """``follow WORDS`` and, under it, where the link goes: plain text only."""
    where = f"{link.method} {link.href}"
    if link.title:
        where += f" · {link.title}"
    return Text.assemble(
        (_PREFIX, "bold"), visible_line(words), "\n", (visible_line(where), "dim italic")
    )


class FollowCommands(Provider):
    """``follow WORDS`` on the browser screen: the link the words name, followed."""

    def _browser(self) -> BrowserScreen | None:
        from explorer.ui.screens.main import BrowserScreen

        screen = self.screen
        return screen if isinstance(screen, BrowserScreen) else None

    def _links(self) -> tuple[Link, ...]:
        browser = self._browser()
        shown = browser.session.shown if browser is not None else None
        return shown.links if shown is not None else ()

    def _follow(self, link: Link) -> None:
        browser = self._browser()
        if browser is not None:
            browser.follow_link(link)

    async def search(self, query: str) -> Hits:
        links = self._links()
        typed = query.strip()
        if typed.lower() == _PREFIX.strip():  # "follow" alone: every link, by its words
            for words, link in link_words(links):
                yield Hit(0.5, _prompt(words, link), partial(self._follow, link), _PREFIX + words)
            return
        prefixed = typed.lower().startswith(_PREFIX)
        words = typed[len(_PREFIX) :].strip() if prefixed else typed
        if not words:
            return
        if not links:
            if prefixed and self._browser() is not None:
                yield self._nothing(words, "this page has no links")
            return
        chosen = choose_link(links, words)
        if chosen is not None:  # the link the words name comes first, whatever the matcher says
            yield Hit(
                _FIRST, _prompt(words, chosen), partial(self._follow, chosen), text=_PREFIX + words
            )
        matcher = self.matcher(_PREFIX + words)
        offered_any = chosen is not None
        for offered, link in link_words(links):
            if link is chosen:
                continue
            command = _PREFIX + offered
            score = matcher.match(command)
            if score > 0:
                offered_any = True
                yield Hit(score, _prompt(offered, link), partial(self._follow, link), text=command)
        if prefixed and not offered_any:  # more than Textual's bare "No matches found"
            yield self._nothing(
                words, f"no link of this page matches {words!r}; its relations: {relations(links)}"
            )

    def _nothing(self, words: str, why: str) -> Hit:
        """A hit saying why ``follow WORDS`` follows nothing (as ``--follow`` does on the
        command line); choosing it says so again, and nothing is sent."""
        prompt = Text.assemble(
            (_PREFIX, "bold"), visible_line(words), "\n", (visible_line(why), "dim italic")
        )
        return Hit(1.0, prompt, partial(self.app.notify, visible_line(why)), text=_PREFIX + words)

    async def discover(self) -> Hits:
        for number, (words, link) in enumerate(link_words(self._links())):
            if number == _DISCOVERED:
                break
            yield DiscoveryHit(_prompt(words, link), partial(self._follow, link), _PREFIX + words)
