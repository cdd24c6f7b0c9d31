"""Why a link is not followed as asked: the session's errors (:mod:`explorer.core.http.errors`
has the request's own).

::

    RestwalkError
    └── FollowRefused            a link cannot be followed as asked
        ├── NoSuchLink           the words name no link of the page
        ├── ActionNotFollowed    the link changes something or needs input
        ├── BrokenTemplate       the link is a template its values cannot fill
        └── UnfollowableLink     the link's target is no URL restwalk can request

Each message names the words and the link in the front ends' own terms; the
command line prints it as it is (the links exist on the server's page, the
words are the person's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.core.http.errors import RestwalkError

if TYPE_CHECKING:
    from explorer.core.hypermedia.link import Link

__all__ = [
    "ActionNotFollowed",
    "BrokenTemplate",
    "FollowRefused",
    "NoSuchLink",
    "UnfollowableLink",
]


class FollowRefused(RestwalkError):
    """A link cannot be followed as asked; the message says why."""


class NoSuchLink(FollowRefused):
    """The words name no link of the page (the message lists the relations there are)."""


class ActionNotFollowed(FollowRefused):
    """The link named changes something or needs input: it is composed, never followed."""

    def __init__(self, words: str, link: Link) -> None:
        self.words = words
        self.link = link
        super().__init__(
            f"{words!r} is an action ({link.method} {link.href}): it changes something or "
            "needs input, and only links that read are followed"
        )


class BrokenTemplate(FollowRefused):
    """The link is a URI template that cannot be expanded."""


class UnfollowableLink(FollowRefused):
    """The link's target is not a URL restwalk can request (the server's fault)."""
