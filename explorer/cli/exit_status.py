"""The exit statuses of ``restwalk``: what a script may rely on."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitStatus"]


class ExitStatus(IntEnum):
    """How a ``restwalk`` command ended.

    Any HTTP answer is a success, a 404 included: the request was made and
    answered. A request that got no answer (refused, DNS, timeout, TLS, a broken
    response, a failed login) or a ``--follow`` that found no link is a failure.
    """

    #: An answer came, whatever its HTTP status.
    OK = 0
    #: The request failed, or a ``--follow`` relation was not in the response.
    FAILED = 1
    #: Bad usage: an unknown option, a bad URL, method, header or body.
    USAGE = 2
    #: Interrupted by the person (ctrl+c), as shells report SIGINT.
    INTERRUPTED = 130
