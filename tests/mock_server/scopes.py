"""Hand-made ASGI scopes, for requests httpx would not send or would frame itself."""

from __future__ import annotations

from typing import Any


def http_scope(
    method: str,
    path: str,
    headers: list[tuple[bytes, bytes]],
    *,
    client: tuple[str, int] = ("127.0.0.1", 50000),
    server: tuple[str, int] = ("mock.test", 80),
) -> dict[str, Any]:
    """An HTTP/1.1 request scope for ``method path`` with exactly ``headers``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": client,
        "server": server,
    }
