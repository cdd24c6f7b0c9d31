"""Status codes: the five classes and every code, looked up by number.

RFC 9110 §15 asks every client to understand the class of any status code, even one
it has never seen, and to treat an unknown code like the x00 code of its class (except
that it must not be cached). :func:`status_class` gives that class for any code in
100..599, so an unknown code still gets an explanation.
"""

from __future__ import annotations

from explorer.core.knowledge import (
    status_data_1xx_3xx,
    status_data_5xx,
    status_data_400_417,
    status_data_418_499,
)
from explorer.core.knowledge.model import StatusClass, StatusInfo

CLASSES: tuple[StatusClass, ...] = (
    StatusClass(
        1,
        "Informational",
        "An interim answer: the request arrived and is being processed; the final "
        "response follows on the same request.",
        "Wait for the final response; there is nothing to act on yet.",
    ),
    StatusClass(
        2,
        "Successful",
        "The request was received, understood and accepted.",
        "Read the response and follow its links.",
    ),
    StatusClass(
        3,
        "Redirection",
        "The client must take a further step to complete the request, usually following "
        "the URL in `Location`.",
        "Follow `Location` (or pick one of the offered choices).",
    ),
    StatusClass(
        4,
        "Client Error",
        "The request has a problem: syntax, credentials, permissions, target or method.",
        "Read the problem body, fix the request, then send it again.",
    ),
    StatusClass(
        5,
        "Server Error",
        "The server accepted the request but failed, or cannot perform it. The request "
        "may be fine.",
        "Retry later (idempotent requests only), and report it if it persists.",
    ),
)

_BY_DIGIT = {cls.digit: cls for cls in CLASSES}
_ALL: tuple[StatusInfo, ...] = (
    status_data_1xx_3xx.STATUSES
    + status_data_400_417.STATUSES
    + status_data_418_499.STATUSES
    + status_data_5xx.STATUSES
)
_BY_CODE = {info.code: info for info in _ALL}

MIN_CODE = 100
MAX_CODE = 599


#: 4xx answers that the same request may not get again: a timeout, a lock, too many
#: requests (after the wait), too early, and the teapot, which is a joke, not a fault.
_NOT_THE_SAME_AGAIN = frozenset({408, 418, 423, 425, 429})


def same_again(code: int) -> str:
    """For a 4xx that the same request gets again: a sentence saying so (else empty)."""
    if code // 100 == 4 and code not in _NOT_THE_SAME_AGAIN:
        return "Sending it again unchanged will fail the same way."
    return ""


def status_info(code: int) -> StatusInfo | None:
    """The entry for ``code``, or None when the code is not one we describe."""
    return _BY_CODE.get(code)


def status_class(code: int) -> StatusClass | None:
    """The class of any three-digit code 100..599, known or not; None outside."""
    if not MIN_CODE <= code <= MAX_CODE:
        return None
    return _BY_DIGIT[code // 100]


def all_statuses() -> tuple[StatusInfo, ...]:
    """Every described status code, in numeric order."""
    return tuple(sorted(_ALL, key=lambda info: info.code))


def all_classes() -> tuple[StatusClass, ...]:
    """The five classes, 1xx to 5xx."""
    return CLASSES


def statuses_in_class(digit: int) -> tuple[StatusInfo, ...]:
    """Every described code whose first digit is ``digit``, in order."""
    return tuple(info for info in all_statuses() if info.class_digit == digit)


def fallback_for(code: int) -> StatusInfo | None:
    """The x00 code an unknown ``code`` is treated as (RFC 9110 §15), if in range."""
    cls = status_class(code)
    return None if cls is None else _BY_CODE.get(cls.digit * 100)
