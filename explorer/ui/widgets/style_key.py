"""A cheap key that changes whenever a widget's style could: for styles worked out once.

Textual works out a widget's :attr:`~textual.dom.DOMNode.rich_style` and
:attr:`~textual.dom.DOMNode.background_colors` by walking every ancestor and mixing
their colours, each time it is asked (some 30 to 70 us a widget: a followed page's
frame asked a dozen times). What they give depends only on the styles of the widget
and its ancestors, and each node's styles carry a counter Textual bumps whenever one
of their rules changes (a theme, a focus or hover rule, an inline style, an
animation's step): :func:`styles_key` collects those counters up the tree, in a few
microseconds, and :class:`StyleMemo` keeps a value worked out from the styles until
that key changes (:class:`KeptStyles` a widget's own style and backgrounds, and
:class:`ComponentStyles` the styles of a widget's component classes, whose own
counters count too).

The one place this leans on Textual's internals: ``RenderStyles._cache_key`` (the
counters' sum, which Textual keeps for its own caches of styles), pinned by the
textual range in pyproject and tested (tests/explorer/ui/test_style_key.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from rich.style import Style
from textual.color import Color
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.widget import Widget

__all__ = ["ComponentStyles", "KeptStyles", "StyleMemo", "styles_key"]

_T = TypeVar("_T")


def styles_key(node: DOMNode) -> tuple[int, ...]:
    """A key that changes when the styles of ``node`` or of any of its ancestors do (or
    when it is moved under another parent)."""
    key: list[int] = []
    current: MessagePump | None = node
    while isinstance(current, DOMNode):
        key.append(id(current))
        key.append(current.styles._cache_key)
        current = current._parent
    return tuple(key)


class StyleMemo(Generic[_T]):
    """A value worked out from a node's styles, worked out again only when they change."""

    def __init__(self, work_out: Callable[[], _T]) -> None:
        self._work_out = work_out
        self._kept: tuple[tuple[object, ...], _T] | None = None

    def get(self, node: DOMNode, *more: object) -> _T:
        """The value for ``node``'s styles now (``more``: what else it depends on)."""
        key = (styles_key(node), *more)
        kept = self._kept
        if kept is None or kept[0] != key:
            kept = self._kept = (key, self._work_out())
        return kept[1]


class ComponentStyles:
    """A widget's component classes' styles (:meth:`Widget.get_component_rich_style`),
    worked out again only when a style changes: the widget's, an ancestor's or a
    component's (Textual works them out again after each refresh of the widget: a table
    given new rows asked for them again, a walk up the tree each)."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._styles = StyleMemo(self._work_out)

    def _work_out(self) -> dict[str, Style]:
        widget = self._widget
        return {name: widget.get_component_rich_style(name) for name in widget._component_styles}

    def now(self) -> dict[str, Style]:
        """The styles, by component class name, as they are now."""
        widget = self._widget
        components = tuple((id(s), s._cache_key) for s in widget._component_styles.values())
        return self._styles.get(widget, components)


if TYPE_CHECKING:
    _Widget = Widget
else:
    _Widget = object


class KeptStyles(_Widget):
    """A widget whose :attr:`rich_style` and :attr:`background_colors` are worked out again
    only when a style of it or an ancestor changes (Textual works them out at each
    frame's drawing of it, a walk up the tree each: some 30 to 70 us).

    A mixin, named first among a widget class's bases (not a widget class itself: as
    one, its class attributes, ``can_focus`` and the like, would hide its widget's)."""

    _kept_style: tuple[tuple[int, ...], Style] | None = None
    _kept_backgrounds: tuple[tuple[int, ...], tuple[Color, Color]] | None = None

    @property
    def rich_style(self) -> Style:
        key = styles_key(self)
        kept = self._kept_style
        if kept is None or kept[0] != key:
            kept = self._kept_style = (key, super().rich_style)
        return kept[1]

    @property
    def background_colors(self) -> tuple[Color, Color]:
        key = styles_key(self)
        kept = self._kept_backgrounds
        if kept is None or kept[0] != key:
            kept = self._kept_backgrounds = (key, super().background_colors)
        return kept[1]
