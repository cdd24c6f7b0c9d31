"""A token pasted with its header or its scheme is read as the token alone."""

from __future__ import annotations

import pytest

from explorer.core.session.pasted_token import PastedToken, read_pasted_token


@pytest.mark.parametrize(
    ("pasted", "scheme", "read"),
    [
        ("eyJhbGciOi.x.y", "Bearer", PastedToken("eyJhbGciOi.x.y", "Bearer")),
        ("  eyJ.x.y \n", "Bearer", PastedToken("eyJ.x.y", "Bearer")),
        ("Bearer eyJ.x.y", "Bearer", PastedToken("eyJ.x.y", "Bearer")),
        ("bearer eyJ.x.y", "Bearer", PastedToken("eyJ.x.y", "Bearer")),
        ("Authorization: Bearer eyJ.x.y", "Bearer", PastedToken("eyJ.x.y", "Bearer")),
        ("authorization:Bearer abc", "Bearer", PastedToken("abc", "Bearer")),
        ("Token 9944b09", "Bearer", PastedToken("9944b09", "Token")),  # DRF's
        ("Authorization: Token 9944b09", "Token", PastedToken("9944b09", "Token")),
        ("X-API-Key: secret", "Bearer", PastedToken("secret", "Bearer", header="X-API-Key")),
        # a colon inside a token is the token's (no space after it, not Authorization)
        ("abc:def", "Bearer", PastedToken("abc:def", "Bearer")),
        ("Bearer", "Bearer", PastedToken("Bearer", "Bearer")),  # a word alone stays
    ],
)
def test_a_pasted_token_is_read_out_of_its_header_line(
    pasted: str, scheme: str, read: PastedToken
) -> None:
    assert read_pasted_token(pasted, scheme) == read
