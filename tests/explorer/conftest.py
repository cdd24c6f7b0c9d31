"""The Pilot's idle check, sampled in shorter slices for every TUI test here.

Textual's Pilot waits for the app to be idle after each key it presses (twice) and at
each ``pause()``: it sleeps a slice of ``textual._wait.SLEEP_GRANULARITY`` (20 ms) at a
time until one slice burns under a twentieth of itself in CPU. That is a floor of 40 ms
a key and 20 ms a pause, most of it asleep: a lesson test types hundreds of keys, and
the suite's TUI tests spent half their time there. Slices of 5 ms keep the same rule
(idle when a slice is 95 % asleep) and look four times as often.

What a test waits for is not this check: ``settle`` (every worker done, every screen's
queue processed) and ``until`` (a condition, bounded by the clock) in
``tests/explorer/ui/conftest.py``. The check is Textual's guess that the app has done
what a key set off; the same rule makes it, only sampled more often. The names are
Textual's own, private: set with ``raising=True`` so that a Textual that renames them
fails here, not silently slower.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import textual._wait

#: The slice the Pilot's idle check sleeps, in seconds (Textual's default: 1 / 50).
IDLE_SLICE = 0.005


@pytest.fixture(autouse=True, scope="session")
def _quick_idle_check() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textual._wait, "SLEEP_GRANULARITY", IDLE_SLICE, raising=True)
        # Idle: a slice that spent under a twentieth of itself on the CPU, as Textual says.
        patch.setattr(textual._wait, "SLEEP_IDLE", IDLE_SLICE / 20, raising=True)
        yield
