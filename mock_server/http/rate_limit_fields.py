"""The ``RateLimit-*`` fields (draft-ietf-httpapi-ratelimit-headers) as data.

The mock says a client's budget in the draft's four fields: ``RateLimit-Limit``
(requests allowed per window), ``RateLimit-Remaining``, ``RateLimit-Reset``
(seconds until a slot frees) and ``RateLimit-Policy`` (``100;w=10``). The draft
asks two things of a refusal: when a response carries both ``Retry-After`` and
``RateLimit-Reset``, they name the same point in time; and with more than one
window, the fields are those of the window with the fewest requests left, which
for a 429 is the one that refused, so ``RateLimit-Remaining`` is 0.
"""

from __future__ import annotations

import math


def budget_fields(
    requests: int, window_seconds: float, remaining: int, reset_seconds: int
) -> dict[str, str]:
    """The fields of a limit of ``requests`` per ``window_seconds``, ``remaining`` left."""
    return {
        "RateLimit-Limit": str(requests),
        "RateLimit-Remaining": str(remaining),
        "RateLimit-Reset": str(reset_seconds),
        "RateLimit-Policy": f"{requests};w={window_seconds:g}",
    }


def refusal_fields(
    requests: int, window_seconds: float, retry_after: int | None = None
) -> dict[str, str]:
    """A 429's fields under a limit: none left, and ``Retry-After`` equal to the reset.

    Without ``retry_after``, the wait is the whole window: the longest a sliding
    window makes a refused client wait.
    """
    seconds = retry_after if retry_after is not None else max(1, math.ceil(window_seconds))
    return {**budget_fields(requests, window_seconds, 0, seconds), "Retry-After": str(seconds)}
