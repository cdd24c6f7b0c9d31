"""A scrolling view drawn line by line, with the style under its lines worked out once a
pass: what the body view and the row table share."""

from __future__ import annotations

from time import monotonic

from rich.style import Style
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.strip import Strip

from explorer.ui.widgets.plain_styles import PlainStylesCache
from explorer.ui.widgets.quick_refresh import QuickRefresh
from explorer.ui.widgets.scroll_bars import QuickScrollBar, QuickScrollBarCorner
from explorer.ui.widgets.style_key import KeptStyles

__all__ = ["LineView"]


class LineView(QuickRefresh, KeptStyles, ScrollView):
    """A :class:`ScrollView` whose ``render_line`` reads :attr:`base_style` and :attr:`view`.

    Textual walks every ancestor to work out a widget's style, and its styles again for
    the scroll offset and the region inside the scrollbars; asked once a line, that was
    a good part of a view's drawing. A pass of :meth:`render_lines` asks once, and the
    style is worked out again only when a style above changes (see
    :mod:`~explorer.ui.widgets.style_key`). Its lines are styled the short way when its
    box is plain (see :mod:`~explorer.ui.widgets.plain_styles`).
    """

    _base_style: Style | None = None
    _view: tuple[int, int, int] | None = None
    _pass_width: int | None = None

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._styles_cache = PlainStylesCache()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style
        self._view = (*self.scroll_offset, self.scrollable_content_region.width)
        self._pass_width = self.size.width
        try:
            return super().render_lines(crop)
        finally:
            self._base_style = None
            self._view = None
            self._pass_width = None

    @property
    def base_style(self) -> Style:
        """The style under the lines: the pass's, or worked out now outside a pass."""
        return self.rich_style if self._base_style is None else self._base_style

    @property
    def drawn_width(self) -> int:
        """The view's width, scrollbars' gutter included: the pass's, or worked out now."""
        return self.size.width if self._pass_width is None else self._pass_width

    @property
    def view(self) -> tuple[int, int, int]:
        """The scroll offset (x, y) and the width inside the scrollbars: the pass's, or
        worked out now outside a pass."""
        if self._view is None:
            return (*self.scroll_offset, self.scrollable_content_region.width)
        return self._view

    # Textual's own properties, with bars and a corner that draw quicker (Textual makes a
    # bar, hidden, the first time it asks for it).
    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self._new_bar(vertical=True)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self._new_bar(vertical=False)
        return self._horizontal_scrollbar

    @property
    def scrollbar_corner(self) -> ScrollBarCorner:
        if self._scrollbar_corner is None:
            self._scrollbar_corner = QuickScrollBarCorner()
            self.app._start_widget(self, self._scrollbar_corner)
        return self._scrollbar_corner

    def _new_bar(self, *, vertical: bool) -> QuickScrollBar:
        thickness = self.scrollbar_size_vertical if vertical else self.scrollbar_size_horizontal
        name = "vertical" if vertical else "horizontal"
        bar = QuickScrollBar(vertical=vertical, name=name, thickness=thickness)
        bar.display = False
        self.app._start_widget(self, bar)
        return bar

    def scroll_home_now(self) -> None:
        """Scroll to the top left at once (``scroll_to(0, 0, animate=False, immediate=True,
        force=True)``). A view there already, with no scroll on its way, is left as it is:
        Textual's scroll stops two animations and sets six reactives to the values they
        hold (a new page's table and body, each followed page, were mostly at their top)."""
        animator = self.app.animator
        if (
            self.scroll_x == self.scroll_y == self.scroll_target_x == self.scroll_target_y == 0
            and not animator.is_being_animated(self, "scroll_x")
            and not animator.is_being_animated(self, "scroll_y")
        ):
            self._anchor_released = True  # (what the scroll's release_anchor leaves)
            self._last_scroll_time = monotonic()
            return
        self.scroll_to(0, 0, animate=False, immediate=True, force=True)

    def size_virtually(self, size: Size) -> None:
        """Make ``size`` the virtual size, and show or hide the scrollbars for it now.

        The screen is laid out again only when a scrollbar comes or goes: the view's own
        box does not follow its virtual size (its place is set by its container), so
        Textual's layout for a new virtual size only ever moved its scrollbars, and their
        thumbs are sized here. A layout is the whole screen's, and each followed page set a
        new one (``bench/profile_page_frame.py``). Before the first layout nothing is
        decided: that layout decides.
        """
        if not self.container_size:
            self.virtual_size = size
            return
        self.set_reactive(ScrollView.virtual_size, size)
        self.show_scrollbars_now()
        self.refresh()

    def show_scrollbars_now(self) -> None:
        """Show or hide the scrollbars for the virtual size just set, before the next frame;
        their thumbs sized for it, and the scroll kept within it.

        Textual decides on them while it lays the screen out, too late for that layout: a
        scrollbar shown or hidden then takes a frame of its own (and a layout) after the
        one that drew the new content, which was drawn without it. Decided now, the next
        frame lays them out with the content. (Before the first layout nothing is decided:
        that layout decides.)
        """
        if not self.container_size:
            return
        bars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self._refresh_scrollbars()
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != bars:
            self.refresh(layout=True)  # (which sizes the bars' thumbs)
            self.scroll_x = self.validate_scroll_x(self.scroll_x)
            self.scroll_y = self.validate_scroll_y(self.scroll_y)
        else:
            self._bars_resized()

    def _bars_resized(self) -> None:
        """Textual's ``_scroll_update`` for bars that neither came nor went: their thumbs
        sized for the virtual size, and the scroll kept within it; a bar given the sizes
        it has (a page as long as the last) is not asked to draw again, and a reactive
        given the value it holds is not set (each a dispatch through Textual's reactive
        machinery: a dozen a followed page for the links table's and the body's bars)."""
        width, height = self.container_size
        virtual = self.virtual_size
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            _size_bar(
                self.vertical_scrollbar, virtual.height, height - self.scrollbar_size_horizontal
            )
        if self.show_horizontal_scrollbar and self.styles.scrollbar_size_horizontal:
            _size_bar(
                self.horizontal_scrollbar, virtual.width, width - self.scrollbar_size_vertical
            )
        scroll_x, scroll_y = self.scroll_x, self.scroll_y
        if (within := self.validate_scroll_x(scroll_x)) != scroll_x:
            self.scroll_x = within
        if (within := self.validate_scroll_y(scroll_y)) != scroll_y:
            self.scroll_y = within


def _size_bar(bar: ScrollBar, virtual_size: int, window_size: int) -> None:
    """Give ``bar`` its view's sizes, and ask it to draw again only when they changed."""
    if bar.window_virtual_size != virtual_size or bar.window_size != window_size:
        bar.window_virtual_size = virtual_size
        bar.window_size = window_size
        bar.refresh()
