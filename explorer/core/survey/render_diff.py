"""A comparison as text for people, as JSON for scripts, and as marked lines side by side.

:func:`json_lines` pretty-prints a document with the path of each line, so a
side-by-side view can mark the lines a change touches (:func:`marked_lines`).
Server text is data: the CLI prints the text through the terminal filter, the
TUI builds plain ``Text`` from it.
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from explorer.core.survey.compare import Comparison
from explorer.core.survey.diff import Change, Path
from explorer.core.text.plural import noun
from explorer.core.text.terminal_text import json_visible

__all__ = ["comparison_json", "comparison_text", "json_lines", "marked_lines"]

#: Lines of one side pretty-printed at most (a larger body is cut, and says so).
MAX_LINES = 200_000


def comparison_text(comparison: Comparison, *, values: bool = False) -> str:
    """The comparison for a person: breaking changes first, then the others; the value
    changes are counted unless ``values`` lists them."""
    lines = [f"--- {comparison.left_url}", f"+++ {comparison.right_url}"]
    lines.extend(f"! {note}" for note in comparison.notes)
    if comparison.changes is None:
        lines.append("The bodies are not both JSON: their text differs as follows.")
        lines.extend(comparison.text_diff or ["(the same text)"])
        return "\n".join(lines) + "\n"
    shape = [c for c in comparison.changes if c.kind != "value"]
    value_changes = [c for c in comparison.changes if c.kind == "value"]
    breaking = [c for c in shape if c.breaking]
    others = [c for c in shape if not c.breaking]
    if breaking:
        lines.append(f"Breaking ({len(breaking)}): a client of the left side may fail")
        lines.extend(f"  ✗ {c.kind:<12} {c.detail()}" for c in breaking)
    if others:
        lines.append(f"Not breaking ({len(others)})")
        lines.extend(f"  ✓ {c.kind:<12} {c.detail()}" for c in others)
    if value_changes:
        count = sum(c.count for c in value_changes)
        if values:
            lines.append(f"Values ({count})")
            lines.extend(f"  · {c.describe()}" for c in value_changes)
        else:
            differ = noun(count, "value differs", "values differ")
            lines.append(f"{count:,} {differ} (--values lists them).")
    if not comparison.changes and not comparison.notes:
        lines.append("The two bodies have the same structure and values.")
    elif not breaking and not comparison.media_changed:
        lines.append("Nothing breaks a client of the left side.")
    return "\n".join(lines) + "\n"


def change_json(change: Change) -> dict[str, object]:
    """One change as a JSON object."""
    return {
        "kind": change.kind,
        "path": change.path,
        "breaking": change.breaking,
        "old": change.old,
        "new": change.new,
        "to": change.to_path,
        "count": change.count,
        "members": change.members,
        "text": change.describe(),
    }


def comparison_json(comparison: Comparison) -> str:
    """The comparison as one JSON document."""
    document = {
        "left": comparison.left_url,
        "right": comparison.right_url,
        "notes": list(comparison.notes),
        "breaking": bool(comparison.breaking) or comparison.media_changed,
        "changes": None
        if comparison.changes is None
        else [change_json(c) for c in comparison.changes],
        "text_diff": list(comparison.text_diff),
    }
    return json_visible(orjson.dumps(document, option=orjson.OPT_INDENT_2)).decode() + "\n"


def json_lines(doc: object, indent: int = 2) -> list[tuple[Path, str]]:
    """``doc`` pretty-printed, each line with the path of the value it belongs to."""
    out: list[tuple[Path, str]] = []
    _emit(doc, (), 0, "", "", indent, out)
    if len(out) > MAX_LINES:
        del out[MAX_LINES:]
        out.append(((), f"… (cut at {MAX_LINES:,} lines)"))
    return out


def _emit(
    value: object,
    path: Path,
    depth: int,
    head: str,
    tail: str,
    indent: int,
    out: list[tuple[Path, str]],
) -> None:
    pad = " " * (indent * depth)
    if len(out) > MAX_LINES:
        return
    if isinstance(value, dict) and value:
        out.append((path, f"{pad}{head}{{"))
        items = list(value.items())
        for n, (key, child) in enumerate(items):
            comma = "," if n < len(items) - 1 else ""
            _emit(child, (*path, key), depth + 1, _key(key), comma, indent, out)
        out.append((path, f"{pad}}}{tail}"))
    elif isinstance(value, list) and value:
        out.append((path, f"{pad}{head}["))
        for n, child in enumerate(value):
            comma = "," if n < len(value) - 1 else ""
            _emit(child, (*path, n), depth + 1, "", comma, indent, out)
        out.append((path, f"{pad}]{tail}"))
    else:
        out.append((path, f"{pad}{head}{_scalar(value)}{tail}"))


def _key(key: str) -> str:
    return orjson.dumps(key).decode() + ": "


def _scalar(value: object) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return repr(value)


def marked_lines(
    lines: list[tuple[Path, str]], changes: Iterable[Change], side: str
) -> dict[int, Change]:
    """Which of a side's ``lines`` each change touches (a value's own lines and its
    children's); ``side`` is ``left`` or ``right``."""
    places: dict[Path, Change] = {}
    for change in changes:
        for place in change.left if side == "left" else change.right:
            places.setdefault(place, change)
    if not places:
        return {}
    marks: dict[int, Change] = {}
    for index, (path, _) in enumerate(lines):
        for length in range(len(path), -1, -1):
            found = places.get(path[:length])
            if found is not None:
                marks[index] = found
                break
    return marks
