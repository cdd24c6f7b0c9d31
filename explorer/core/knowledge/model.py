"""The shapes of knowledge: immutable records (NamedTuples) for statuses, headers and methods.

Every entry answers the same three questions a person asks when they meet it in a
response: what does the protocol say (``rule``), what does it mean for me now
(``meaning``), and what do I do next (``next_steps``). The texts are ours, written
against RFC 9110 (semantics), RFC 9111 (caching), RFC 9112 (HTTP/1.1) and the spec.

The first screen imports them: see :mod:`explorer.core` for why NamedTuples.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Usage(enum.Enum):
    """Where a header field appears."""

    REQUEST = "request"
    RESPONSE = "response"
    BOTH = "both"


class Cacheability(enum.Enum):
    """How a cache may treat a response with a given status code (RFC 9111 §3, §4.2.2)."""

    #: Storable and reusable without explicit freshness: RFC 9110 §15.1 lists the code
    #: as heuristically cacheable, so a cache may guess a lifetime from Last-Modified.
    HEURISTIC = "cacheable by default"
    #: Storable only when the response says so (max-age, s-maxage, Expires, public).
    EXPLICIT = "cacheable only with explicit freshness"
    #: Never stored: interim 1xx responses, and codes whose RFC forbids storing them.
    NEVER = "never stored"
    #: Not stored itself: a 304 refreshes the copy a cache already holds.
    UPDATES = "refreshes a stored response"


class StatusClass(NamedTuple):
    """One of the five classes of status codes, named by the first digit."""

    digit: int
    name: str
    meaning: str
    advice: str

    @property
    def label(self) -> str:
        """``"4xx Client Error"``."""
        return f"{self.digit}xx {self.name}"


class StatusInfo(NamedTuple):
    """What a status code means: rule, meaning now, next steps, related headers."""

    code: int
    phrase: str
    rule: str
    meaning: str
    next_steps: tuple[str, ...]
    cacheability: Cacheability
    reference: str
    #: Header fields that go with this code.
    headers: tuple[str, ...] = ()
    #: Named in the restwalk spec's status table; False for codes real servers send
    #: that the spec leaves out (103, 425, ...).
    in_spec: bool = True
    #: Other reason phrases in use: older RFCs, the spec's wording, frameworks.
    other_names: tuple[str, ...] = ()

    @property
    def cacheable(self) -> bool:
        """True when caches may store it without explicit freshness (RFC 9110 §15.1)."""
        return self.cacheability is Cacheability.HEURISTIC

    @property
    def class_digit(self) -> int:
        """The first digit: 1 to 5."""
        return self.code // 100

    @property
    def title(self) -> str:
        """``"418 I'm a teapot"``."""
        return f"{self.code} {self.phrase}"


class HeaderInfo(NamedTuple):
    """What a header field is for, where it goes, and an example of it."""

    name: str
    usage: Usage
    topic: str
    rule: str
    meaning: str
    example: str
    reference: str
    #: For request headers: a short hint shown while composing a request.
    hint: str = ""
    #: Named in the restwalk spec.
    in_spec: bool = False
    #: Deprecated or obsolete: say so before anything else.
    deprecated: bool = False
    #: Status codes this header goes with.
    statuses: tuple[int, ...] = ()


class MethodInfo(NamedTuple):
    """A request method and its properties (RFC 9110 §9)."""

    name: str
    safe: bool
    idempotent: bool
    cacheable: bool
    request_body: str
    response_body: str
    rule: str
    meaning: str
    next_steps: tuple[str, ...]
    reference: str
    #: Listed in the spec's method tables.
    in_spec: bool = True
