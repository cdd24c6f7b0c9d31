"""An OAuth endpoint's JSON answer read as flows and registration read it: one object,
bounded in size, and the refusal it may be (RFC 6749 section 5.2's ``error`` and
``error_description``, which RFC 7591 and RFC 8628 reuse)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.core.oauth.discovery import json_object
from explorer.core.oauth.errors import AccessDenied, OAuthFailed, OAuthRefused

__all__ = ["MAX_ANSWER", "json_answer", "refusal"]

#: The largest answer of a device authorization, revocation or registration endpoint read.
MAX_ANSWER = 100_000


def json_answer(body: bytes, what: str) -> dict[str, Any]:
    """``body``, the answer of ``what`` (an endpoint's name), as a JSON object; an
    :class:`OAuthFailed` saying what was wrong when it is none (or too large)."""
    return json_object(body, f"the {what}'s answer", limit=MAX_ANSWER, error=OAuthFailed)


def refusal(document: Mapping[str, Any], at: str) -> OAuthRefused | None:
    """The refusal ``document`` (from the endpoint ``at``) says, or None when it names no
    error; ``access_denied`` is the person's own refusal (:class:`AccessDenied`)."""
    error = document.get("error")
    if not isinstance(error, str) or not error:
        return None
    description = document.get("error_description")
    text = description if isinstance(description, str) else ""
    kind = AccessDenied if error == "access_denied" else OAuthRefused
    return kind(error, text, at=at)
