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
#: Lines (their ends kept), and the words and single other characters of one line.
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_WORD = re.compile(r"\w+|\W")


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
    None when ``old`` is not what the template gives.

    Literal text and known values are matched in turn; a value that changes at each
    use reaches to the next literal text (the first place it is found), or to the end.
    """
    spans: list[tuple[int, int, str]] = []
    at = 0
    for index, part in enumerate(parts):
        value = part.text if part.reference is None else values.get(part.reference)
        if value is None:  # known by what follows it
            after = next((p for p in parts[index + 1 :] if p.reference is None), None)
            if after is None:
                end = len(old) if index == len(parts) - 1 else -1
            else:
                end = old.find(after.text, at)
            if end < 0:
                return None
            spans.append((at, end, part.text))
            at = end
            continue
        if not old.startswith(value, at):
            return None
        if part.reference is not None:
            spans.append((at, at + len(value), part.text))
        at += len(value)
    return spans if at == len(old) else None


def _equal_blocks(old: str, new: str) -> list[tuple[int, int, int]]:
    """Stretches of ``old`` found unchanged in ``new``: (start in old, end, start in new).

    What both start and end with is unchanged (linear time: most edits are in one
    place); the rest is compared by character when small, else by line (by word in
    one long line), then by character within the changed parts that are small.
    """
    blocks: list[tuple[int, int, int]] = []

    def add(i1: int, i2: int, j1: int) -> None:
        if i2 <= i1:
            return
        if blocks and blocks[-1][1] == i1 and blocks[-1][2] + (i1 - blocks[-1][0]) == j1:
            start, _, at = blocks[-1]
            blocks[-1] = (start, i2, at)  # contiguous in both: one block
        else:
            blocks.append((i1, i2, j1))

    def by_character(a1: int, a2: int, b1: int, b2: int) -> None:
        head = _common_prefix(old[a1:a2], new[b1:b2])
        tail = _common_prefix(old[a1 + head : a2][::-1], new[b1 + head : b2][::-1])
        add(a1, a1 + head, b1)
        m1, m2, n1, n2 = a1 + head, a2 - tail, b1 + head, b2 - tail
        if (m2 - m1) + (n2 - n1) <= _CHARACTER_DIFF_LIMIT:
            characters = SequenceMatcher(None, old[m1:m2], new[n1:n2], autojunk=False)
            for tag, c1, c2, d1, _ in characters.get_opcodes():
                if tag == "equal":
                    add(m1 + c1, m1 + c2, n1 + d1)
        else:
            by_part(m1, m2, n1, n2)
        add(m2, a2, n2)

    def by_part(a1: int, a2: int, b1: int, b2: int) -> None:
        """Compared by line; a text of one long line, by word."""
        cut = _LINE if "\n" in old[a1:a2] or "\n" in new[b1:b2] else _WORD
        old_lines = cut.findall(old[a1:a2])
        new_lines = cut.findall(new[b1:b2])
        old_at, new_at = [a1], [b1]
        for line in old_lines:
            old_at.append(old_at[-1] + len(line))
        for line in new_lines:
            new_at.append(new_at[-1] + len(line))
        # autojunk: lines repeated everywhere (a JSON list's "}," ...) do not make the
        # comparison quadratic; unchanged runs are still found around them.
        lines = SequenceMatcher(None, old_lines, new_lines)
        for tag, i1, i2, j1, j2 in lines.get_opcodes():
            c1, c2, d1, d2 = old_at[i1], old_at[i2], new_at[j1], new_at[j2]
            if tag == "equal":
                add(c1, c2, d1)
            elif tag == "replace" and (c2 - c1) + (d2 - d1) <= _CHARACTER_DIFF_LIMIT:
                by_character(c1, c2, d1, d2)

    by_character(0, len(old), 0, len(new))
    return blocks


def _common_prefix(one: str, other: str) -> int:
    """How many characters ``one`` and ``other`` start with in common."""
    limit = min(len(one), len(other))
    low, high = 0, limit
    while low < high:  # bisection on slices: C speed, not a Python loop per character
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


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
