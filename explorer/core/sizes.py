"""Sizes as people write them: ``5000000``, ``5MB``, ``512 kB``, ``1GiB``."""

from __future__ import annotations

import re

__all__ = ["parse_size"]

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
