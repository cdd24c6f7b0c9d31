"""What a tab does next (:class:`Next`), and which requests go again without asking.

A :class:`Next` says to send a request now, to open the composer with it first, or to
fill a link template's form; a request is sent again without asking only when its
method is safe (RFC 9110 section 9.2.1), else :func:`reload_note` says why the
composer asks.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link

__all__ = ["IDEMPOTENT_METHODS", "SAFE_METHODS", "Next", "reload_note"]

#: RFC 9110 section 9.2.1: methods that only read. They are sent again without asking.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
#: RFC 9110 section 9.2.2: sending these twice has the effect of sending them once.
IDEMPOTENT_METHODS = SAFE_METHODS | {"PUT", "DELETE"}


class Next(NamedTuple):
    """What to do next: ``send`` ``spec`` now, ``compose`` it first (``note`` says why), or
    fill the ``form`` of ``link``'s template first.

    ``withheld`` says what a send goes without, given for another origin (a followed
    link's: :meth:`~explorer.core.session.session.Session.following`); ``link`` is the
    link followed, if one was; ``reload``: the send is a reload (``r``), which a cache
    checks with the server (:mod:`explorer.core.http.reload`).
    """

    kind: Literal["send", "form", "compose"]
    spec: RequestSpec
    note: str = ""
    via: str = "url"
    withheld: str = ""
    link: Link | None = None
    reload: bool = False


def reload_note(method: str) -> str:
    """Why the composer asks before ``method`` is sent again."""
    if method in IDEMPOTENT_METHODS:
        return (
            f"Send this {method} again? It is idempotent, not safe: sending it twice leaves "
            "the same state as once, but it changes the resource. ctrl+s sends it, "
            "Escape cancels."
        )
    return (
        f"Send this {method} again? It is neither safe nor idempotent: sending it twice may "
        "do it twice (a second order, a second payment). ctrl+s sends it, Escape cancels."
    )
