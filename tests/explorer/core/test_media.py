"""One answer to "is this body text?" for the body view and the raw wire text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from explorer.core.bodies.display import format_body
from explorer.core.bodies.media import is_text
from explorer.core.http.wire import body_text


@pytest.mark.parametrize(
    ("media_type", "body", "text"),
    [
        ("application/x-ndjson", b'{"a": 1}\n{"a": 2}\n', True),
        ("application/problem+yaml", b"title: Not Found\n", True),
        ("application/yaml; charset=utf-8", b"a: 1\n", True),
        ("application/octet-stream", b"just ascii", False),
        ("image/png", b"\x89PNG\r\n", False),
        ("application/x-custom", b"plain words", True),
        ("application/x-custom", b"\x00\x01\x02", False),
        (None, b"\xff\xfe\xfd", False),
        (None, "naïve".encode(), True),
    ],
)
def test_the_body_view_and_the_raw_view_agree(
    media_type: str | None, body: bytes, text: bool
) -> None:
    assert is_text(media_type, body) is text
    summarised_in_raw = body_text(body, media_type).startswith(f"[{len(body)} bytes of")
    summarised_in_body = "binary, not shown as text" in format_body(body, media_type).line(0)
    assert summarised_in_raw is summarised_in_body is (not text)


def test_exchange_imports_nothing_of_the_explorer() -> None:
    """exchange is plain data; wire imports it, never the other way round."""
    source = Path(__file__).resolve().parents[3] / "explorer" / "core" / "http" / "exchange.py"
    imported = [
        node.module or ""
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.ImportFrom)
    ]
    assert not [name for name in imported if name.startswith("explorer")]
