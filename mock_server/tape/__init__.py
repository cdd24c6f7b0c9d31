"""Your API from a recording: ``--record URL --tape F.har`` and ``--replay F.har``.

- :mod:`.har` reads and writes HAR 1.2 (any HAR: restwalk's history export too);
- :mod:`.masking` takes the secrets out of an exchange before it is kept;
- :mod:`.recorder` proxies to the real API and records;
- :mod:`.replayer` serves the recordings offline, a document (``--openapi``) for
  the rest, or a 404 naming the nearest recordings.
"""

from __future__ import annotations

from typing import Any

from mock_server.guest import GuestApi
from mock_server.http.every_answer import VERSION
from mock_server.settings import Settings
from mock_server.tape.har import TapeError, read_tape
from mock_server.tape.recorder import Recorder, check_tape_writable, check_upstream
from mock_server.tape.replayer import Replayer

__all__ = [
    "Recorder",
    "Replayer",
    "TapeError",
    "check_tape_writable",
    "check_upstream",
    "open_tape",
    "read_tape",
]


def open_tape(settings: Settings, fallback: Any = None) -> GuestApi | None:
    """The recorder or the replayer ``settings`` ask for (None: neither); ``fallback``
    answers what a replayed tape has no recording of."""
    if settings.record is not None:
        assert settings.tape is not None
        return Recorder(settings.record, settings.tape, VERSION)
    if settings.replay is not None:
        exchanges, upstream = read_tape(settings.replay)
        return Replayer(exchanges, upstream, fallback)
    return None
