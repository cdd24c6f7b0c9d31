"""A scrolling view drawn line by line, with the style under its lines worked out once a
pass: what the body view and the row table share."""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["LineView"]


class LineView(ScrollView):
    """A :class:`ScrollView` whose ``render_line`` reads :attr:`base_style`.

    Textual walks every ancestor to work out a widget's style; asked once a line, that
    was a good part of a view's drawing. A pass of :meth:`render_lines` asks once.
    """

    _base_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._base_style = None

    @property
    def base_style(self) -> Style:
        """The style under the lines: the pass's, or worked out now outside a pass."""
        return self.rich_style if self._base_style is None else self._base_style
