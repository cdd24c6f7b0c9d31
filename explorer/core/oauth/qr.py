"""A QR code of the device flow's verification URL, drawn with Unicode half blocks.

A phone's camera reads it off the screen and opens the page where the code is
typed (RFC 8628 section 3.3.1 suggests it). segno makes the code (pure Python, no
dependency); it is drawn here two rows of modules to a line of text: ``▀`` the top
one, ``▄`` the bottom one, ``█`` both, a space neither, so it takes half the lines
and keeps its modules square in a terminal's cells.

What is inked is the code's *light* modules and its quiet zone, as ``qrencode -t
UTF8`` does: a terminal draws text light on dark, so the code comes out dark on
light, the way a camera expects it. A view that sets its own colours draws
:func:`qr_rows` dark on light and needs no inversion.
"""

from __future__ import annotations

import segno

__all__ = ["BORDER", "qr_lines", "qr_rows", "qr_size"]

#: Modules of quiet zone around the code (the standard asks 4; 2 reads well off a
#: screen and saves four lines).
BORDER = 2

_HALVES = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def qr_rows(text: str) -> list[list[bool]]:
    """The modules of ``text``'s QR code with its quiet zone, True for dark."""
    code = segno.make(text, error="l", micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(border=BORDER)]


def qr_size(text: str) -> tuple[int, int]:
    """The columns and lines :func:`qr_lines` takes for ``text``."""
    rows = qr_rows(text)
    return len(rows[0]), (len(rows) + 1) // 2


def qr_lines(text: str, *, max_width: int, max_height: int) -> list[str] | None:
    """``text``'s QR code as lines of half blocks (light modules inked), or None when it
    does not fit in ``max_width`` columns and ``max_height`` lines."""
    rows = qr_rows(text)
    if len(rows[0]) > max_width or (len(rows) + 1) // 2 > max_height:
        return None
    light = [[not module for module in row] for row in rows]
    if len(light) % 2:
        light.append([True] * len(light[0]))  # below the quiet zone: light too
    return [
        "".join(_HALVES[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(light[::2], light[1::2], strict=True)
    ]
