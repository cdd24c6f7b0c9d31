"""Put ``{{variables}}`` back into text that was edited after they were substituted.

A request opened from a ``.http`` file is shown and edited with its variables
put in; saving it back should give the file its ``{{variables}}`` again, not
their values. :func:`retemplate` takes a text as written (the template), the
text it became (old) and the text the person left (new):

- new equal to old: the template, as written;
- else a diff of old and new (:mod:`difflib`, line by line, then character by
  character within the changed lines): each variable whose value lies in a
  stretch the person did not touch is written as its ``{{...}}`` again, and
  what they typed is written as typed.

What it writes resolves to the new text (a variable is only put where its own
value stands), so the request saved is the request edited. A value that can
change at each use (``{{$uuid}}``, ``{{$timestamp}}``) is found by the text
around it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

from explorer.core.httpfile.variables import REFERENCE

__all__ = ["Piece", "pieces", "retemplate"]

#: Texts longer than this are compared line by line only (a character diff is quadratic).
_CHARACTER_DIFF_LIMIT = 4_000
#: More "any value" holes than this and the template is not matched (backtracking).
_MAX_WILDCARDS = 8


@dataclass(frozen=True)
class Piece:
    """A stretch of a template: literal text, or a ``{{...}}`` (``reference`` its inside)."""

    text: str
    reference: str | None = None


def pieces(template: str) -> list[Piece]:
    """``template`` cut into literal text and ``{{...}}`` references."""
    out: list[Piece] = []
    at = 0
    for match in REFERENCE.finditer(template):
        if match.start() > at:
            out.append(Piece(template[at : match.start()]))
        out.append(Piece(match.group(0), match.group(1).strip()))
        at = match.end()
    if at < len(template):
        out.append(Piece(template[at:]))
    return out


def _spans(
    parts: list[Piece], old: str, values: Mapping[str, str | None]
) -> list[tuple[int, int, str]] | None:
    """Where each reference's value stands in ``old`` (start, end, its ``{{...}}``);
    None when ``old`` is not what the template gives."""
    pattern = []
    wildcards = 0
    for part in parts:
        if part.reference is None:
            pattern.append(re.escape(part.text))
            continue
        value = values.get(part.reference)
        if value is None:
            wildcards += 1
            pattern.append("(.*?)")
        else:
            pattern.append(f"({re.escape(value)})")
    if wildcards > _MAX_WILDCARDS:
        return None
    match = re.fullmatch("".join(pattern), old, re.DOTALL)
    if match is None:
        return None
    references = [part.text for part in parts if part.reference is not None]
    return [
        (match.start(group), match.end(group), text)
        for group, text in enumerate(references, start=1)
    ]


def _equal_blocks(old: str, new: str) -> list[tuple[int, int, int]]:
    """Stretches of ``old`` found unchanged in ``new``: (start in old, end, start in new)."""
    blocks: list[tuple[int, int, int]] = []

    def add(i1: int, i2: int, j1: int) -> None:
        if i2 <= i1:
            return
        if blocks and blocks[-1][1] == i1 and blocks[-1][2] + (i1 - blocks[-1][0]) == j1:
            start, _, at = blocks[-1]
            blocks[-1] = (start, i2, at)  # contiguous in both: one block
        else:
            blocks.append((i1, i2, j1))

    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    old_at = [0]
    for line in old_lines:
        old_at.append(old_at[-1] + len(line))
    new_at = [0]
    for line in new_lines:
        new_at.append(new_at[-1] + len(line))
    lines = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        a1, a2, b1, b2 = old_at[i1], old_at[i2], new_at[j1], new_at[j2]
        if tag == "equal":
            add(a1, a2, b1)
        elif tag == "replace" and (a2 - a1) + (b2 - b1) <= _CHARACTER_DIFF_LIMIT:
            characters = SequenceMatcher(None, old[a1:a2], new[b1:b2], autojunk=False)
            for inner, c1, c2, d1, _ in characters.get_opcodes():
                if inner == "equal":
                    add(a1 + c1, a1 + c2, b1 + d1)
    return blocks


def _moved(span: tuple[int, int, str], blocks: list[tuple[int, int, int]]) -> int | None:
    """Where the value at ``span`` of old stands in new, if the person left it untouched."""
    start, end, _ = span
    for i1, i2, j1 in blocks:
        if i1 <= start and end <= i2:  # an empty value: at the edge of an unchanged stretch too
            return j1 + start - i1
    return None


def retemplate(
    template: str,
    old: str,
    new: str,
    values: Mapping[str, str | None],
    literal: Callable[[str], str] = str,
) -> str:
    """``new`` written with the template's ``{{variables}}`` where their values were left.

    ``old`` is what ``template`` gave with ``values`` (a reference's value, None
    for one that changes at each use); ``literal`` is applied to the text
    written as it stands (not to the ``{{...}}`` put back), e.g. to hide secrets.
    """
    if new == old:
        return template
    parts = pieces(template)
    spans = _spans(parts, old, values) if any(p.reference for p in parts) else None
    if not spans:
        return literal(new)
    blocks = _equal_blocks(old, new)
    kept: list[tuple[int, int, str]] = []
    for span in spans:
        at = _moved(span, blocks)
        if at is not None:
            kept.append((at, at + span[1] - span[0], span[2]))
    out: list[str] = []
    position = 0
    for start, end, text in sorted(kept):
        if start < position:
            continue
        out += [literal(new[position:start]), text]
        position = end
    out.append(literal(new[position:]))
    return "".join(out)
