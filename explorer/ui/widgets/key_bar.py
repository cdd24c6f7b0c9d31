"""The keys that work now, on one line at the bottom of every screen.

It shows what Textual's ``Footer`` shows (each shown binding of the focused
widget, its screen and the app; keys that do nothing now dimmed; the command
palette's key at the right), and a click presses the key, as there. But it is
one widget drawing one line of text: ``Footer`` is a container of one widget
per key and mounts them all again whenever the bindings change, which is every
focus change and every page. That cost about 15 ms each time, several times
before restwalk's first screen was drawn, and it held back the screen's updates
while it ran. And it is drawn again only when the keys it shows change: a new
page most often has the same keys as the last. Which keys those are is looked at
after the screen's next frame, not before it: a followed page's bindings change
(and the key bar asked Textual for the screen's active bindings, a walk of every
binding of the focused widget's ancestors) in the middle of the page's way to the
screen, and the page's frame waited for it; a page whose keys differ has them drawn
in the frame after.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.screen import Screen
from textual.widget import Widget

__all__ = ["KeyBar"]


class _Key(NamedTuple):
    """One key as drawn: where it is on the line, and what it does."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str
    action: str = ""
    start: int = 0
    end: int = 0


#: Actions whose keys stay on a narrow bar (help, learn, quit): the others give way first.
KEPT_ACTIONS = frozenset({"help", "learn", "quit"})


def _fit_keys(keys: list[_Key], room: int) -> list[_Key]:
    """``keys`` for a line of ``room`` cells, compact: when they do not all fit, the last
    of the others give way to :data:`KEPT_ACTIONS` (``?``, ``l`` and ``q`` stay in
    sight on an 80-column terminal)."""
    width = sum(len(f"{k.display} {k.description} ") for k in keys)
    if width <= room:
        return keys
    kept = list(keys)
    for key in reversed(keys):
        if width <= room - 1:  # (one cell for the "…" that says keys are left out)
            break
        if key.action not in KEPT_ACTIONS:
            kept.remove(key)
            width -= len(f"{key.display} {key.description} ")
    return kept


class KeyBar(Widget, can_focus=False):
    """The screen's shown key bindings on one line; hover for a key's tooltip, click to press it."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "key-bar--key",
        "key-bar--description",
        "key-bar--hover",
        "key-bar--separator",
    }
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .key-bar--hover {
            background: $block-hover-background;
        }
        & > .key-bar--separator {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._keys: list[_Key] = []
        self._hover: int | None = None
        #: The keys last drawn (see :meth:`_shown_keys`): the same again are not redrawn.
        self._drawn: tuple[list[_Key], _Key | None] | None = None
        #: The bindings changed: they are looked at once the screen's next frame is drawn.
        self._changed = False

    def on_mount(self) -> None:
        # (Not immediate: told through this widget's messages, its call after the refresh
        # reaches the screen behind the updates of a page's widgets, so after their frame.
        # Told at once, it found the screen idle and ran before the frame.)
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self._changed and self.is_attached and screen is self.screen:
            self._changed = True
            screen.call_after_refresh(self._look_at_keys, screen)

    def _look_at_keys(self, screen: Screen[object]) -> None:
        """Draw the keys again if they are not the ones drawn (the screen's last frame is
        drawn: see the module's docstring)."""
        self._changed = False
        if self.is_attached and screen is self.screen and self._shown_keys() != self._drawn:
            self.refresh()

    # -- what is shown ------------------------------------------------------------------------

    def _shown_keys(self) -> tuple[list[_Key], _Key | None]:
        """The shown bindings, one per action (the first), and the palette's key if any."""
        app = self.app
        keys: list[_Key] = []
        actions: set[str] = set()
        active = self.screen.active_bindings
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in actions:
                actions.add(binding.action)
                display = app.get_key_display(binding)
                keys.append(
                    _Key(
                        binding.key, display, binding.description, enabled, tooltip, binding.action
                    )
                )
        palette = None
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[app.COMMAND_PALETTE_BINDING]
            palette = _Key(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                enabled,
                binding.tooltip or binding.description,
            )
        return keys, palette

    def render(self) -> RenderResult:
        key_style = self.get_component_rich_style("key-bar--key")
        description_style = self.get_component_rich_style("key-bar--description")
        hover_style = self.get_component_rich_style("key-bar--hover")
        dim = Style(dim=True)
        keys, palette = self._drawn = self._shown_keys()
        line = Text(no_wrap=True, overflow="crop", end="")
        placed: list[_Key] = []
        palette_width = len(f"▏{palette.display} {palette.description} ") if palette else 0
        room = self.size.width - palette_width - (1 if palette else 0)
        # Too many keys for the width: drop the padding, as Footer's compact mode does.
        roomy = sum(len(f" {k.display} {k.description} ") for k in keys) <= room
        lead = " " if roomy else ""
        fitted = _fit_keys(keys, room)

        def add(key: _Key, index: int, lead: str = lead) -> _Key:
            start = len(line)
            extra = hover_style if index == self._hover else Style()
            if not key.enabled:
                extra += dim
            line.append(f"{lead}{key.display} ", key_style + extra)
            if key.description:
                line.append(f"{key.description} ", description_style + extra)
            return key._replace(start=start, end=len(line))

        for index, key in enumerate(fitted):
            placed.append(add(key, index))
        if len(fitted) < len(keys):
            line.append("…")  # keys left out: ? lists them all
        if palette is not None:
            if len(line) > room:  # still too long: the palette's key stays in sight
                line.truncate(max(0, room - 1))
                line.append("…")
                placed = [key for key in placed if key.end <= room - 1]
            gap = max(1, self.size.width - len(line) - palette_width)
            line.append(" " * gap)
            line.append("▏", self.get_component_rich_style("key-bar--separator"))
            placed.append(add(palette, len(fitted), lead=""))
        self._keys = placed
        return line

    # -- mouse --------------------------------------------------------------------------------

    def _key_at(self, x: int) -> int | None:
        return next((i for i, key in enumerate(self._keys) if key.start <= x < key.end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        index = self._key_at(event.x)
        if index != self._hover:
            self._hover = index
            key = self._keys[index] if index is not None else None
            self.tooltip = (key.tooltip or key.description) if key is not None else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self._key_at(event.x)
        if index is None:
            return
        key = self._keys[index]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
