"""An Input that never holds a character the terminal would obey.

Textual draws an Input's value as it is: a control character in it reaches the
terminal raw, and ``ESC ] 52 ;`` writes the clipboard, ``ESC ] 0 ;`` the window
title, ``ESC [ 2J`` clears the screen, and the field draws it again at every
repaint. What an Input holds may come from a server: a link's URL put in the URL
bar, a form's suggested value put in the composer. So every value, however it is
set (by code, typed or pasted), is made visible as all server text is
(:func:`~explorer.core.text.terminal_text.visible_line`: ``ESC`` becomes ``␛``).
"""

from __future__ import annotations

from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.in_order_input import InOrderInput

__all__ = ["SafeInput"]


class SafeInput(InOrderInput):
    """An :class:`~textual.widgets.Input` whose value holds no terminal control character."""

    def validate_value(self, value: str) -> str:
        """Every value set goes through here (Textual's reactive validation)."""
        return visible_line(value)
