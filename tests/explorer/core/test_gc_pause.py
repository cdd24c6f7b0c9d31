"""The collector's pauses overlap and end together: it comes back on with the last one,
and only if it is meant to be on."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from explorer.core import gc_pause


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    assert gc.isenabled()
    assert gc_pause.pausing() == 0
    yield
    gc_pause.switch(True)
    while gc_pause.pausing():
        gc_pause.resume()
    assert gc.isenabled()


def test_the_last_pause_ended_turns_the_collector_back_on() -> None:
    gc_pause.pause()
    gc_pause.pause()
    assert not gc.isenabled()
    assert gc_pause.pausing() == 2
    gc_pause.resume()
    assert not gc.isenabled()
    gc_pause.resume()
    assert gc.isenabled()
    assert gc_pause.pausing() == 0


def test_a_resume_too_many_is_ignored() -> None:
    gc_pause.resume()
    assert gc.isenabled()
    assert gc_pause.pausing() == 0
    gc_pause.pause()
    gc_pause.resume()
    gc_pause.resume()
    gc_pause.pause()
    assert not gc.isenabled()  # (the extra resume did not eat this pause)


def test_switched_off_it_stays_off_after_a_pause() -> None:
    gc_pause.switch(False)
    assert not gc.isenabled()
    with gc_pause.paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc_pause.switch(True)
    assert gc.isenabled()


def test_switched_on_during_a_pause_it_waits_for_the_pause() -> None:
    gc_pause.switch(False)
    gc_pause.pause()
    gc_pause.switch(True)  # (the first screen drawn while a body is read for links)
    assert not gc.isenabled()
    gc_pause.resume()
    assert gc.isenabled()


class Failed(Exception):
    pass


def failing() -> None:
    with gc_pause.paused():
        assert not gc.isenabled()
        raise Failed


def test_a_pause_ends_with_its_block_even_when_it_raises() -> None:
    with pytest.raises(Failed):
        failing()
    assert gc.isenabled()


def test_pauses_of_two_threads_overlap() -> None:
    """A body read for links in a thread, the UI's page frame meanwhile: neither end
    turns the collector on while the other still needs it off."""
    reading, read = threading.Event(), threading.Event()
    seen: list[bool] = []

    def reader() -> None:
        with gc_pause.paused():
            reading.set()
            read.wait(5)
            seen.append(gc.isenabled())

    thread = threading.Thread(target=reader)
    thread.start()
    assert reading.wait(5)
    gc_pause.pause()  # the UI's hold
    read.set()
    thread.join(5)
    assert seen == [False]
    assert not gc.isenabled()  # the reader's end left it off
    gc_pause.resume()
    assert gc.isenabled()
