"""Copying to the clipboard: how big a copy may be, and how a copy is described.

The TUI copies through the terminal (Textual's ``copy_to_clipboard`` writes an
OSC 52 escape, which works over SSH). Terminals bound what that escape may
carry (some at 100 KB, many near 1 MB; tmux drops what passes its buffer), so
a copy over :data:`COPY_LIMIT` is refused with a message rather than lost
without a word.
"""

from __future__ import annotations

from explorer.core.text.sizes import size_text

__all__ = ["COPY_LIMIT", "copy_refusal", "describe_copy"]

#: The largest text copied through the terminal, in bytes of UTF-8.
COPY_LIMIT = 1024 * 1024


def describe_copy(what: str, text: str) -> str:
    """The notice after a copy: ``Copied the body: 12.3 KB, 340 lines.``"""
    size = len(text.encode("utf-8", errors="replace"))
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    counted = f", {lines:,} lines" if lines > 1 else ""
    return f"Copied {what}: {size_text(size)}{counted}."


def copy_refusal(what: str, size: int) -> str | None:
    """Why ``what`` of ``size`` bytes is not copied (None: it may be)."""
    if size <= COPY_LIMIT:
        return None
    return (
        f"Not copied: {what} is {size_text(size)}, and a terminal's clipboard takes about "
        f"{size_text(COPY_LIMIT)} at most. Filter it (|) or copy a line."
    )
