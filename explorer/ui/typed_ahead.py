"""Keys typed ahead of a screen: each is the screen's that is on top when it is routed.

Textual hands a key to the focused widget as the app reads it, and runs a
binding's action only when the key has bubbled back up to the app, a turn per
widget on the way. A key that opens a dialog (``c``, ``a``, ``e``, ``y``) thus
runs after the keys typed with it were handed to the page: they come up after
it, when the dialog is on top, and Textual looks for them among the dialog's
bindings, finding none: lost. A key the app reads while a screen is pushed but
not yet mounted goes to that screen with nothing focused: lost too. A person
who types ``c`` then ``/users``, on a busy screen or fast, means the composer's
URL field, as a browser's dialog or a native app's takes what is typed after
the key that opened it.

:class:`TypedAhead` keeps the two rules the app routes keys by:

- a key that comes back up unused from a screen no longer on top is routed
  again, to the screen now on top (:meth:`TypedAhead.rerouted`);
- until the screen on top is mounted and settled, keys wait, in their order:
  its ``on_mount`` asks the app to focus its first field (or a menu that takes
  the keys as its own), and the app does so at its next turn; the keys are
  routed to the screen after that (:meth:`TypedAhead.route`,
  :meth:`TypedAhead.release`).

A key a widget of the covered screen used (a letter typed into its field) is
the widget's: what the person saw take it.

A paste (:class:`~textual.events.Paste`: what the terminal sends for ctrl+shift+v
or a middle click, once bracketed) waits with the keys, in their order: ``c`` then
a pasted URL is the composer's URL, as ``c`` then a typed one is. Textual hands a
paste to the focused widget of the screen on top, which for a dialog not mounted
yet is none: the paste was lost. A paste never comes back up as a key does, so it
is never rerouted.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakSet

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

__all__ = ["Typed", "TypedAhead", "opens_dialog"]

#: What the person types: keys, and pastes (which wait with the keys, in their order).
Typed = events.Key | events.Paste

#: Keys remembered with the screen they were routed on; more are never on their way
#: at once (one that a widget used never comes back, and is forgotten past this).
_ROUTED_KEPT = 64


class TypedAhead:
    """Where ``app``'s keys were routed, and the keys waiting for a screen to mount.

    ``route`` is the app's own routing of a key or a paste read from the terminal
    (Textual's: priority bindings, then the focused widget)."""

    def __init__(self, app: App[Any], route: Callable[[Typed], Awaitable[None]]) -> None:
        self._app = app
        self._route = route
        self._held: deque[Typed] = deque()
        self._routed: dict[events.Key, Screen[Any]] = {}
        #: The screen whose mount the held keys wait for.
        self._waiting_for: Screen[Any] | None = None
        #: Screens mounted, and the focus their mount asked for set: keys go straight on.
        self._settled: WeakSet[Screen[Any]] = WeakSet()

    async def route(self, key: Typed) -> None:
        """Route ``key`` (or a paste) to the screen on top now, or hold it until that
        screen is mounted and settled (and behind the keys held before it)."""
        screen = self._app.screen
        if self._held or screen not in self._settled:
            self._held.append(key)
            self._wait_for(screen)
            return
        self._note(key, screen)
        await self._route(key)

    def rerouted(self, key: events.Key) -> events.Key | None:
        """A copy of ``key`` to route again, if it came back up unused from a screen that
        is no longer on top (a dialog opened by a key before it); else None."""
        screen = self._routed.pop(key, None)
        if screen is None or screen is self._app.screen:
            return None
        return key.copy()

    async def release(self, screen: Screen[Any]) -> None:
        """``screen`` is mounted and settled: route the held keys, in order, while the
        screen on top is; one that pushes another screen holds the rest for it."""
        if screen.is_mounted:
            self._settled.add(screen)
        if screen is self._waiting_for:
            self._waiting_for = None
        while self._held:
            top = self._app.screen
            if top not in self._settled:
                self._wait_for(top)
                return
            key = self._held.popleft()
            self._note(key, top)
            await self._route(key)

    def screen_changed(self, screen: Screen[Any]) -> None:
        """``screen`` is on top now (the app's ``screen_change_signal``): held keys wait for
        it, not for one closed before it was mounted (whose own callback never runs)."""
        if self._held:
            self._wait_for(screen)

    def _note(self, key: Typed, screen: Screen[Any]) -> None:
        if not isinstance(key, events.Key):
            return  # a paste never comes back up to be rerouted
        routed = self._routed
        routed[key] = screen
        if len(routed) > _ROUTED_KEPT:
            del routed[next(iter(routed))]

    def _wait_for(self, screen: Screen[Any]) -> None:
        """Release the held keys once ``screen`` is mounted and settled: a callback of its
        own runs after its mount and its resume (where Textual focuses it), and hands the
        release to the app, after the focus its ``on_mount`` asked the app for."""
        if screen is self._waiting_for:
            return
        self._waiting_for = screen
        app = self._app
        if screen.is_mounted:
            app.call_later(self.release, screen)
        else:
            screen.call_later(app.call_later, self.release, screen)


def opens_dialog(key: str, action: str, description: str, **options: Any) -> Binding:
    """The binding of a key that opens a dialog (or another screen): a priority key, so
    the app runs its action, which pushes the dialog, before it routes the next key; the
    keys typed with it wait for the dialog then (:class:`TypedAhead`) and are its own, not
    the page's (``c`` then ``/users``: the composer's URL, not a search of the page). A
    focused field that types the key keeps it, as for any key of the page."""
    return Binding(key, action, description, priority=True, **options)
