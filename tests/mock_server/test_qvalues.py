"""The weighted-list grammar shared by Accept and Accept-Encoding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mock_server.http.qvalues import Weighted, parse_weighted


def test_tokens_parameters_and_weights() -> None:
    assert parse_weighted('text/HTML;Level="1";q=0.5;ext=x, gzip , ,br;q=oops') == [
        Weighted("text/html", (("level", "1"),), 0.5),
        Weighted("gzip", (), 1.0),
        Weighted("br", (), 1.0),  # a malformed weight counts as 1
    ]


def test_weights_are_clamped_to_0_1() -> None:
    assert [w.q for w in parse_weighted("a;q=2, b;q=-1, c;q=0, d;q=inf")] == [1.0, 0.0, 0.0, 1.0]
    assert parse_weighted("e;q=nan")[0].q == 1.0  # not a number: malformed, so 1


@given(st.text(max_size=200))
def test_never_raises(value: str) -> None:
    for element in parse_weighted(value):
        assert element.token
        assert 0.0 <= element.q <= 1.0
