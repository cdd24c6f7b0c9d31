"""The key that signs access tokens, and the JWK Set that publishes it (RFC 7517).

One ES256 key (ECDSA on P-256): short signatures, and a public key a resource
server fetches from ``/oauth/jwks``. The key id is its RFC 7638 thumbprint.

With a secret (``--secret``, or the one kept in ``--db``) the key is derived
from it (HKDF-SHA256 with a label of its own, so it is a different key from the
HMAC key of :mod:`mock_server.auth.tokens`): tokens then survive a restart and
every worker signs alike. Without one, each start makes a new key.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from joserfc.jwk import ECKey, KeySet

ALGORITHM = "ES256"
_CURVE = ec.SECP256R1()
#: The order of P-256's base point: a private key is a number from 1 to this minus 1.
_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_LABEL = b"restwalk-mock OAuth access token signing key (ES256)"


def _derived(secret: bytes) -> ec.EllipticCurvePrivateKey:
    material = HKDF(algorithm=hashes.SHA256(), length=48, salt=None, info=_LABEL).derive(secret)
    return ec.derive_private_key(int.from_bytes(material, "big") % (_ORDER - 1) + 1, _CURVE)


class SigningKeys:
    """The signing key set (one key) and its public JWK Set."""

    def __init__(self, secret: bytes | None = None) -> None:
        private = _derived(secret) if secret is not None else ec.generate_private_key(_CURVE)
        kid = ECKey.import_key(private).thumbprint()
        key = ECKey.import_key(private, parameters={"use": "sig", "alg": ALGORITHM, "kid": kid})
        #: The private key set: signs (the token's header then names the ``kid``).
        self.private = KeySet([key])
        #: The public key set: verifies, and is what ``/oauth/jwks`` serves.
        self.public = KeySet.import_key_set(self.private.as_dict(private=False))

    def jwks(self) -> dict[str, Any]:
        """The public JWK Set document."""
        return dict(self.public.as_dict(private=False))
