"""A pattern compiled when first used answers as the compiled pattern does, and costs
nothing until then."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from explorer.core.text.lazy_pattern import LazyPattern


def test_nothing_is_compiled_until_the_first_call() -> None:
    pattern = LazyPattern(r"(\d+)-(\d+)")
    assert not pattern.is_compiled
    match = pattern.match("12-34")
    assert match is not None
    assert match.groups() == ("12", "34")
    assert pattern.is_compiled


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda p: p.match("ab12").group(), "ab"),
        (lambda p: p.match("ab12", 2), None),
        (lambda p: p.fullmatch("abc").group(), "abc"),
        (lambda p: p.fullmatch("ab1"), None),
        (lambda p: p.search("12ab").group(), "ab"),
        (lambda p: p.search("ab12cd", 2).group(), "cd"),
        (lambda p: [m.group() for m in p.finditer("a1bb2")], ["a", "bb"]),
        (lambda p: p.findall("a1bb2C"), ["a", "bb", "C"]),
        (lambda p: p.split("1a2bb3"), ["1", "2", "3"]),
        (lambda p: p.sub("_", "1a2bb3"), "1_2_3"),
        (lambda p: p.sub(lambda m: m.group().upper(), "1a2bb3", count=1), "1A2bb3"),
    ],
)
def test_each_method_answers_as_the_compiled_pattern_before_and_after_it_is_compiled(
    call: Callable[[Any], object], expected: object
) -> None:
    first = LazyPattern(r"[a-z]+", re.I)
    assert call(first) == expected  # (this call compiles it)
    assert call(first) == expected  # (this one goes to the compiled pattern's own method)
    assert call(re.compile(r"[a-z]+", re.I)) == expected


def test_a_bytes_pattern() -> None:
    pattern = LazyPattern(rb"\x7f|\xc2[\x80-\x9f]")
    found = pattern.search(b"ab\x7fc")
    assert found is not None
    assert found.start() == 2
    assert pattern.sub(b"?", b"a\xc2\x85b") == b"a?b"
