"""Strong entity tags computed from the bytes of a representation.

One function, so the conditional-request layer can compute the same tags for
GETs that the write handlers put on their answers.
"""

from __future__ import annotations

import hashlib

#: How many hex digits of the SHA-256 digest a tag keeps (64 bits: plenty for a cache key).
TAG_LENGTH = 16


def strong_etag(body: bytes) -> str:
    """The strong ETag of ``body``: ``"`` + the first hex digits of its SHA-256 + ``"``.

    Two representations with the same bytes get the same tag; any difference in
    bytes (another version, another media type) gives another tag, as a strong
    validator must (RFC 9110, section 8.8.1).
    """
    return '"' + hashlib.sha256(body).hexdigest()[:TAG_LENGTH] + '"'
