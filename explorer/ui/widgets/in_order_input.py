"""An Input that edits in the order the keys were typed.

Textual hands a key to the focused Input, which inserts a printable character at
once; any other key bubbles up, a turn per widget, to the app, which only then runs
the Input's binding for it (``backspace``, ``ctrl+u``, ``home``, the arrows). Keys
read together (typed fast, or while the screen was busy) are thus applied out of
order: ``ctrl+u`` then ``/users`` left the field empty (the characters went in, then
everything left of the cursor was deleted), ``x`` ``backspace`` ``y`` left ``x``.
:class:`InOrderInput` runs its own editing bindings as the key reaches it, in turn
with the characters. ``enter`` (submit) and bindings added by subclasses go up as
before.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input

__all__ = ["InOrderInput"]

#: The actions of Textual's Input's own bindings that edit or move in the field.
_EDITING = frozenset(
    binding.action
    for binding in Input.BINDINGS
    if isinstance(binding, Binding) and binding.action != "submit"
)


class InOrderInput(Input):
    """An :class:`~textual.widgets.Input` whose editing keys act in turn with the typed
    characters, not after them."""

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls Input's own _on_key after this one (it walks the classes), unless
        # the default is prevented: a printable character goes on to it.
        if event.is_printable:
            return
        for key in (event.key, *event.aliases):
            bindings = self._bindings.key_to_bindings.get(key)
            if bindings:  # the field's own binding for the key, as the app would find it
                binding = bindings[0]
                if binding.action in _EDITING:
                    event.stop()
                    event.prevent_default()
                    await self.run_action(binding.action)
                return
