"""Comparing two answers: status, media type, and the bodies, structurally when both are JSON.

The front ends (``restwalk diff`` and the TUI's side-by-side view) take a
:class:`Comparison` from :func:`compare`: the structural changes
(:func:`~explorer.core.survey.diff.diff_json`) when both bodies are JSON, else
a line diff of their text, bounded. Run it off the UI thread for large bodies.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import orjson

from explorer.core.bodies.memory import one_large_parse
from explorer.core.http.exchange import ReceivedResponse
from explorer.core.http.wire import body_text
from explorer.core.survey.diff import Change, diff_json

__all__ = ["MAX_TEXT_LINES", "Comparison", "compare", "parse_json"]

#: Lines of a text diff kept.
MAX_TEXT_LINES = 2_000
#: Bytes of each body a text diff reads.
MAX_TEXT_BYTES = 1_000_000
#: Bodies larger than this are not parsed for a structural diff.
MAX_PARSED = 32 * 1024 * 1024


@dataclass(frozen=True)
class Comparison:
    """Two answers compared: what differs around the bodies, and in them."""

    left_url: str
    right_url: str
    #: Differences of status and media type, in words (a media type changed breaks).
    notes: tuple[str, ...]
    #: The bodies' structural changes, when both are JSON (None: they are not both JSON).
    changes: tuple[Change, ...] | None
    #: A unified diff of the bodies' text when they are not both JSON.
    text_diff: tuple[str, ...] = ()
    left_json: object = None
    right_json: object = None
    media_changed: bool = False

    @property
    def breaking(self) -> tuple[Change, ...]:
        """The changes that break a client of the left side."""
        return tuple(c for c in self.changes or () if c.breaking)

    @property
    def same(self) -> bool:
        """True when nothing differs."""
        return not self.notes and not self.changes and not self.text_diff


def parse_json(body: bytes) -> tuple[bool, object]:
    """``(True, document)`` when ``body`` is JSON, else ``(False, None)``."""
    if not body.strip() or len(body) > MAX_PARSED:
        return False, None
    try:
        with one_large_parse(len(body)):
            return True, orjson.loads(body.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError:
        return False, None


def compare(left: ReceivedResponse, right: ReceivedResponse) -> Comparison:
    """Compare two answers (see the module docstring)."""
    notes: list[str] = []
    if left.status != right.status:
        notes.append(f"status {left.status} → {right.status}")
    media_changed = left.media_type != right.media_type
    if media_changed:
        notes.append(
            f"media type {left.media_type or 'none'} → {right.media_type or 'none'} "
            "(a client reading the left one breaks)"
        )
    left_ok, left_doc = parse_json(left.body)
    right_ok, right_doc = parse_json(right.body)
    if left_ok and right_ok:
        return Comparison(
            left.url,
            right.url,
            tuple(notes),
            tuple(diff_json(left_doc, right_doc)),
            left_json=left_doc,
            right_json=right_doc,
            media_changed=media_changed,
        )
    if left_ok != right_ok and left.body and right.body:
        notes.append("one body is JSON, the other is not")
    lines = difflib.unified_diff(
        body_text(left.body, left.header("content-type"), limit=MAX_TEXT_BYTES).splitlines(),
        body_text(right.body, right.header("content-type"), limit=MAX_TEXT_BYTES).splitlines(),
        fromfile=left.url,
        tofile=right.url,
        lineterm="",
        n=2,
    )
    text: list[str] = []
    for line in lines:
        if len(text) == MAX_TEXT_LINES:
            text.append(f"… (the diff is cut at {MAX_TEXT_LINES} lines)")
            break
        text.append(line)
    return Comparison(
        left.url, right.url, tuple(notes), None, tuple(text), media_changed=media_changed
    )
