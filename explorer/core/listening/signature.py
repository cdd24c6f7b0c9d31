"""A Standard Webhooks signature, checked with the specification's own library.

Standard Webhooks (standardwebhooks.com) signs ``{webhook-id}.{webhook-timestamp}.{body}``
with HMAC-SHA256 under a shared secret (``whsec_`` and base64), sent as
``webhook-signature: v1,<base64>`` (several, space-separated, while a secret is
rotated). A receiver refuses a delivery whose signature does not match, and one
whose timestamp is more than five minutes from its clock (a replay). The check
here is the ``standardwebhooks`` library's ``Webhook.verify``; what it finds is
said in words a person can act on.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

__all__ = ["SIGNATURE_HEADERS", "SignatureCheck", "check_signature", "secret_problem"]

_PREFIX = "whsec_"
#: The header fields a Standard Webhooks delivery carries.
SIGNATURE_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")

# What each of the library's findings means, and what to look at.
_FINDINGS = {
    "Missing required headers": (
        "it lacks webhook-id, webhook-timestamp or webhook-signature: not a Standard "
        "Webhooks delivery, or a proxy dropped them"
    ),
    "Invalid Signature Headers": "webhook-timestamp is not a number of seconds",
    "Message timestamp too old": (
        "webhook-timestamp is more than 5 minutes old: a replay, or a clock that is wrong"
    ),
    "Message timestamp too new": (
        "webhook-timestamp is more than 5 minutes ahead: a clock that is wrong"
    ),
    "No matching signature found": (
        "no signature matches: another secret signed it, or its id, timestamp or body "
        "changed on the way"
    ),
}


@dataclass(frozen=True)
class SignatureCheck:
    """What the check found: valid or not, and what it rests on or what is wrong."""

    valid: bool
    detail: str

    @property
    def text(self) -> str:
        """One line: ``valid (...)`` or ``NOT valid: ...``."""
        return f"valid ({self.detail})" if self.valid else f"NOT valid: {self.detail}"


def secret_problem(secret: str) -> str | None:
    """Why ``secret`` cannot verify anything (None: it can).

    The library reads base64 leniently (a character that is not base64 is skipped):
    it is read strictly here, so a secret copied wrong is said at once, not found out
    as every delivery failing.
    """
    key = secret.removeprefix(_PREFIX)
    try:
        decoded = base64.b64decode(key + "=" * (-len(key) % 4), validate=True)
    except (binascii.Error, ValueError):
        decoded = b""
    if not decoded:
        return f"a Standard Webhooks secret is {_PREFIX} and base64 (as the sender shows it)"
    return None


def check_signature(secret: str, headers: Sequence[tuple[str, str]], body: bytes) -> SignatureCheck:
    """Check ``body`` and ``headers`` against ``secret`` (see the module docstring)."""
    fields = {name.lower(): value for name, value in headers}
    try:
        Webhook(secret).verify(body, fields, json_parse=False)
    except WebhookVerificationError as exc:
        finding = _FINDINGS.get(str(exc), str(exc))
        return SignatureCheck(False, finding)
    return SignatureCheck(True, f"Standard Webhooks, webhook-id {fields['webhook-id']}")
