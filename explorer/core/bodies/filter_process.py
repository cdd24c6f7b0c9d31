"""Filtering a large body in a child process, so the UI's process stays responsive.

Parsing 20 MB of JSON holds the GIL for half a second (orjson), and the ``jq``
binding holds it for the whole run: in a thread of the UI's process either
would freeze the screen. Above :data:`ISOLATE_ABOVE` bytes a filter runs in a
fresh interpreter (``python -m explorer.core.bodies.filter_process LANGUAGE EXPRESSION``,
the body on its standard input); a newer expression kills it at once. Smaller
bodies are filtered in the calling thread: they take milliseconds.

The child writes one JSON line (the result's count, whether it was cut, the hint;
or the error and its position), then the result's text.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any, cast

import orjson

from explorer.core.bodies.body_filter import (
    LANGUAGES,
    FilterError,
    FilterResult,
    Language,
    parse_document,
    run_filter,
)
from explorer.core.bodies.memory import LARGE_BODY

__all__ = ["ISOLATE_ABOVE", "filter_body"]

#: Bodies larger than this are filtered in a child process.
ISOLATE_ABOVE = LARGE_BODY
#: How often the waiting thread asks whether the filter was cancelled (seconds).
POLL = 0.05


def filter_body(
    language: Language,
    expression: str,
    body: bytes,
    *,
    cancelled: Callable[[], bool] = lambda: False,
) -> FilterResult | None:
    """Run ``expression`` on ``body``; None when ``cancelled()`` came first.

    Raises :class:`FilterError` (a bad expression, a body that is not JSON).
    """
    if len(body) <= ISOLATE_ABOVE:
        result = run_filter(
            language,
            expression,
            document=lambda: parse_document(body),
            body=body,
            cancelled=cancelled,
        )
        return None if cancelled() else result
    return _in_child(language, expression, body, cancelled)


def _in_child(
    language: Language, expression: str, body: bytes, cancelled: Callable[[], bool]
) -> FilterResult | None:
    command = [sys.executable, "-m", "explorer.core.bodies.filter_process", language, expression]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    outcome: dict[str, tuple[bytes, bytes]] = {}

    def talk() -> None:
        try:
            outcome["out"] = child.communicate(body)
        except (OSError, ValueError):  # killed while writing: nothing to read
            outcome["out"] = (b"", b"")

    talker = threading.Thread(target=talk, name="filter child", daemon=True)
    talker.start()
    while talker.is_alive():
        if cancelled():
            child.kill()
            talker.join()
            return None
        talker.join(POLL)
    out, err = outcome.get("out", (b"", b""))
    head, _, text = out.partition(b"\n")
    try:
        header = cast(dict[str, Any], orjson.loads(head))
    except orjson.JSONDecodeError:
        last = err.decode("utf-8", errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise FilterError(f"The filter failed: {last[0]}") from None
    if "error" in header:
        raise FilterError(str(header["error"]), header.get("position"))
    return FilterResult(
        text, int(header["count"]), bool(header["truncated"]), str(header.get("hint", ""))
    )


def main(argv: list[str]) -> int:
    """The child: filter standard input, write the header line and the result."""
    language, expression = argv
    if language not in LANGUAGES:
        raise SystemExit(f"unknown filter language {language!r}")
    body = sys.stdin.buffer.read()
    try:
        result = run_filter(
            language,
            expression,
            document=lambda: parse_document(body),
            body=body,
        )
    except FilterError as error:
        header: dict[str, Any] = {"error": error.message, "position": error.position}
        sys.stdout.buffer.write(orjson.dumps(header) + b"\n")
        return 0
    header = {"count": result.count, "truncated": result.truncated, "hint": result.hint}
    sys.stdout.buffer.write(orjson.dumps(header) + b"\n" + result.text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
