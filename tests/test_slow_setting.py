"""``RESTWALK_SLOW`` names the slow tests a run keeps (tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.conftest import slow_markers_left_out


@pytest.mark.parametrize(
    ("setting", "left_out"),
    [
        (None, set()),
        ("1", set()),
        ("0", {"interop", "lesson"}),
        ("lesson", {"interop"}),
        ("interop", {"lesson"}),
        ("interop, lesson", set()),
    ],
)
def test_the_setting_names_the_slow_tests_kept(setting: str | None, left_out: set[str]) -> None:
    assert slow_markers_left_out(setting) == left_out


def test_a_marker_misspelt_is_said_not_ignored() -> None:
    with pytest.raises(pytest.UsageError, match="no slow marker lessons"):
        slow_markers_left_out("lessons")
