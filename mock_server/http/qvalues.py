"""Weighted lists (RFC 9110 §12.4.2): ``Accept`` and ``Accept-Encoding`` elements with q.

Both headers are comma-separated elements, each a token with ``;name=value``
parameters, one of which may be the weight ``q``. This reads that grammar
once; the negotiation and compression layers give the tokens their meaning.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Weighted:
    """One element: its token (lower case), the parameters before ``q``, and ``q``."""

    token: str
    params: tuple[tuple[str, str], ...]
    q: float


def parse_weighted(value: str) -> list[Weighted]:
    """The non-empty elements of ``value``, in order.

    A malformed q counts as 1 (be liberal in what you accept); parameters
    after ``q`` are extensions and are dropped; quoted values lose their quotes.
    """
    elements: list[Weighted] = []
    for part in value.split(","):
        pieces = [piece.strip() for piece in part.split(";")]
        token = pieces[0].lower()
        if not token:
            continue
        q = 1.0
        params: list[tuple[str, str]] = []
        for parameter in pieces[1:]:
            name, _, raw = parameter.partition("=")
            name = name.strip().lower()
            raw = raw.strip().strip('"')
            if name == "q":
                try:
                    weight = float(raw)
                except ValueError:
                    weight = math.nan
                q = min(max(weight, 0.0), 1.0) if not math.isnan(weight) else 1.0
                break
            if name:
                params.append((name, raw))
        elements.append(Weighted(token, tuple(params), q))
    return elements
