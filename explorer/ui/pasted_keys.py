"""Pasted text arrives as one paste, whatever it holds: escape characters in a paste are dropped.

A terminal in bracketed-paste mode sends a paste between ``ESC [ 200 ~`` and
``ESC [ 201 ~``. Textual's input parser (``textual._xterm_parser``, 8.2) reads
an ``ESC`` inside a paste as the start of a key sequence, and when none matches
it sends what follows as key presses: a pasted ``curl "x ESC[31m ... CR line2``
became typed keys and an Enter that submitted the URL bar. xterm does not pass
control characters in a paste on (its ``allowPasteControls`` is off by
default); restwalk does the same for ``ESC`` before Textual reads the input, so
a paste stays one :class:`~textual.events.Paste` and never turns into keys.

:class:`PasteFilter` is the rule, on text alone; :func:`paste_safe` puts it in
front of the parser of Textual's Linux driver (Textual has no hook for it: the
driver builds its parser from its module's name ``XTermParser``, which a test
checks).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual._xterm_parser import XTermParser
    from textual.driver import Driver
    from textual.message import Message

__all__ = ["PASTE_END", "PASTE_START", "PasteFilter", "paste_safe"]

ESC = "\x1b"
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


def _end_begins(text: str) -> int:
    """How many of the last characters of ``text`` could begin :data:`PASTE_END`."""
    for size in range(min(len(text), len(PASTE_END) - 1), 0, -1):
        if PASTE_END.startswith(text[-size:]):
            return size
    return 0


class PasteFilter:
    """Terminal input with every ``ESC`` inside a bracketed paste taken out.

    Input outside a paste passes unchanged and at once (an Escape key press is
    never held back). Inside a paste, the few characters that may begin the end
    marker are held until the next read tells.
    """

    def __init__(self) -> None:
        self._pasting = False
        #: Outside a paste: the last characters passed on, which may begin the start marker.
        self._recent = ""
        #: Inside a paste: characters that may begin the end marker.
        self._held = ""

    def feed(self, data: str) -> str:
        """The input ``data`` as the parser should read it."""
        out: list[str] = []
        while data:
            if not self._pasting:
                seen = self._recent + data
                at = seen.find(PASTE_START)
                if at < 0:
                    out.append(data)
                    self._recent = seen[-(len(PASTE_START) - 1) :]
                    break
                cut = at + len(PASTE_START) - len(self._recent)
                out.append(data[:cut])
                data = data[cut:]
                self._recent = ""
                self._pasting = True
            else:
                text = self._held + data
                at = text.find(PASTE_END)
                if at < 0:
                    keep = _end_begins(text)
                    self._held = text[len(text) - keep :]
                    out.append(text[: len(text) - keep].replace(ESC, ""))
                    break
                out.append(text[:at].replace(ESC, "") + PASTE_END)
                data = text[at + len(PASTE_END) :]
                self._held = ""
                self._pasting = False
        return "".join(out)

    def flush(self) -> str:
        """What is held back, at the end of the input."""
        held, self._held = self._held, ""
        return held.replace(ESC, "")


@functools.cache
def _parser_class() -> type[XTermParser]:
    from textual._xterm_parser import XTermParser

    class PasteSafeParser(XTermParser):
        """Textual's input parser, reading its input through a :class:`PasteFilter`."""

        def __init__(self, debug: bool = False) -> None:
            super().__init__(debug)
            self._paste_filter = PasteFilter()

        def feed(self, data: str) -> Iterable[Message]:
            if data:
                filtered = self._paste_filter.feed(data)
                return super().feed(filtered) if filtered else ()
            rest = self._paste_filter.flush()  # the end of the input
            return itertools.chain(super().feed(rest) if rest else (), super().feed(""))

    return PasteSafeParser


@functools.cache
def paste_safe(driver: type[Driver]) -> type[Driver]:
    """``driver``, its pastes read whole when it is Textual's Linux driver (else as it is)."""
    if driver.__module__ != "textual.drivers.linux_driver" or driver.__name__ != "LinuxDriver":
        return driver
    from textual.drivers import linux_driver

    parser = _parser_class()

    class PasteSafeDriver(driver):  # type: ignore[valid-type,misc]
        """Textual's Linux driver, with a :class:`PasteFilter` before its parser."""

        def run_input_thread(self) -> None:
            # The driver builds its parser as ``XTermParser(...)``, a name of its module.
            setattr(linux_driver, "XTermParser", parser)  # noqa: B010
            super().run_input_thread()

    return PasteSafeDriver
