"""A base style summed with the styles put on it: as rich's own sums, each made once."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style

from explorer.ui.widgets.style_sums import on_base, plus


def test_styles_on_a_base_are_riches_own_sums() -> None:
    red, bold = Style(color="red"), Style(bold=True)
    link = Style(link="https://example.com/")
    segments = [
        Segment("a", red),
        Segment("b", None),
        Segment("\x1b[0m", None, [(1,)]),  # a control: no style put on it
        Segment("c", red),
        Segment("d", bold),
    ]
    for base in (Style(bgcolor="blue"), Style(), Style(bgcolor="blue") + bold):
        assert on_base(segments, base) == list(Segment.apply_style(segments, base))
        assert plus(base, red) == base + red
    # Made once: the same sum for each segment of the same style (rich's is too, from its
    # cache); a link's sum is a copy each time, with an id of its own, as rich makes it.
    first, _, _, second, _ = on_base(segments, Style(bgcolor="blue"))
    assert first.style is second.style
    linked = on_base([Segment("x", link), Segment("y", link)], Style(bgcolor="blue"))
    one, two = (segment.style for segment in linked)
    assert one is not None
    assert two is not None
    assert one == two
    assert one.link_id != two.link_id
