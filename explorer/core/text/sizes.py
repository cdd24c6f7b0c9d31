"""Sizes as people write them: ``5000000``, ``5MB``, ``512 kB``, ``1GiB``; and as shown.

Every size the explorer shows goes through :func:`size_text`, in one style (decimal
units, as the limits are given: ``--max-body 100MB`` is 100,000,000 bytes), so the
copy menu, the save dialog, the trip tab and the composer agree on a body; a figure
that changes while it is read (a body's bytes as they come, a rate) goes through
:func:`moving_size_text`, the same units at a steady precision.
"""

from __future__ import annotations

import re

__all__ = ["moving_size_text", "parse_size", "size_text"]

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20}
_UNITS |= {"gib": 2**30, "k": 10**3, "m": 10**6, "g": 10**9}


def parse_size(text: str) -> int:
    """``text`` in bytes (at least 1); ValueError says what is wrong with it."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None:
        raise ValueError(f"{text!r} is not a size such as 5000000, 5MB or 1GB")
    value = int(float(match.group(1)) * unit)
    if value < 1:
        raise ValueError(f"{text} is less than one byte")
    return value


def size_text(size: int) -> str:
    """``512 B``, ``1.2 KB``, ``100 MB``, ``1.5 GB``: one decimal, none when it is 0."""
    if size < 1000:
        return f"{size} B"
    for unit, scale in (("KB", 10**3), ("MB", 10**6), ("GB", 10**9)):
        shown = f"{size / scale:.1f}"
        if float(shown) < 1000 or unit == "GB":  # (999,999 bytes is 1 MB, not 1000.0 KB)
            return f"{shown.removesuffix('.0')} {unit}"
    raise AssertionError("unreachable")


def moving_size_text(size: int) -> str:
    """``512 B``, ``974 KB``, ``1.0 MB``, ``4.1 MB``: a figure that moves while it is read
    (the bytes come, the rate), in the decimal units of :func:`size_text`, as a browser's
    download bar writes it: whole bytes and kilobytes, megabytes and gigabytes with their
    one decimal always. :func:`size_text`'s style (``1 MB/s``, then ``973.8 KB/s``) had
    it change precision and width with every reading about a unit's boundary."""
    if size < 999_500:  # (999,500 reads 1.0 MB, not 1000 KB)
        return f"{size} B" if size < 1000 else f"{size / 10**3:.0f} KB"
    if size < 999_950_000:
        return f"{size / 10**6:.1f} MB"
    return f"{size / 10**9:.1f} GB"
