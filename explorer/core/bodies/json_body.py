"""Is a request body meant as JSON valid JSON? Where it is not, say where, as an editor does.

A body typed by hand that is not valid JSON would otherwise be sent as
``text/plain`` (or with a JSON Content-Type it does not match), and the server's
400 or 415 would be the first word about it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["JsonProblem", "json_problem", "meant_as_json"]


@dataclass(frozen=True)
class JsonProblem:
    """Where a JSON text goes wrong: 1-based line and column, and what is wrong there."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


def meant_as_json(body: str | bytes, content_type: str | None) -> bool:
    """True when ``body`` is meant as JSON: a JSON Content-Type, or it starts like JSON."""
    if content_type:
        media_type = content_type.split(";", 1)[0].strip().lower()
        if media_type == "application/json" or media_type.endswith("+json"):
            return True
        if media_type:
            return False
    head = body.lstrip()[:1]
    return head in ("{", "[", b"{", b"[")


def json_problem(body: str | bytes) -> JsonProblem | None:
    """Where ``body`` is not valid JSON, or None when it is."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return JsonProblem(error.lineno, error.colno, error.msg)
    except RecursionError:
        return JsonProblem(1, 1, "nested too deeply to check")
    return None
