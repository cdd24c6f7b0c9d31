"""Standard Webhooks signatures: what a delivery carries so its receiver can trust it.

The Standard Webhooks specification (standardwebhooks.com) signs
``{webhook-id}.{webhook-timestamp}.{body}`` with HMAC-SHA256 under the
subscription's secret, and sends three header fields:

- ``webhook-id``: the message's id, the same on every retry (receivers use it
  to drop duplicates); here, the event's id;
- ``webhook-timestamp``: whole seconds since the epoch, when this attempt was
  signed (receivers refuse one too far from their clock);
- ``webhook-signature``: ``v1,`` and the signature in base64.

The secret is ``whsec_`` and base64 of 24 to 64 random bytes. Signing is
done by the specification's own Python library (``standardwebhooks``), which
receivers can verify with too.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

PREFIX = "whsec_"
#: Random bytes in a secret made here (the specification allows 24 to 64).
SECRET_BYTES = 32
MIN_SECRET_BYTES = 24
MAX_SECRET_BYTES = 64


def new_secret() -> str:
    """A fresh secret: ``whsec_`` and 32 random bytes in base64."""
    return PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def secret_refusal(value: str) -> str | None:
    """Why ``value`` cannot be a secret (None: it can)."""
    if not value.startswith(PREFIX):
        return f"must start with {PREFIX}"
    try:
        key = base64.b64decode(value.removeprefix(PREFIX), validate=True)
    except (binascii.Error, ValueError):
        return f"must be {PREFIX} and base64"
    if not MIN_SECRET_BYTES <= len(key) <= MAX_SECRET_BYTES:
        return f"must hold {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes, not {len(key)}"
    return None


def signature_headers(secret: str, message_id: str, when: int, body: bytes) -> dict[str, str]:
    """The three Standard Webhooks header fields for ``body`` sent at ``when`` (seconds)."""
    signature = Webhook(secret).sign(message_id, datetime.fromtimestamp(when, tz=UTC), body)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(when),
        "webhook-signature": signature,
    }
