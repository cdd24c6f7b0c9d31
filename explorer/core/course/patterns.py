"""The text a check expects: wildcards, and ``${step.field}`` references to earlier exchanges.

A pattern is matched against the whole of a value. ``*`` stands for any text; in
a path or URL (``path``, ``final_path``, ``url``) it stays within one segment
and ``**`` crosses slashes. ``\\*`` is a star itself. ``${read.response.ETag}``
is the text of that field of the exchange the step named ``read`` matched,
taken literally (its own stars are not wildcards); a pattern whose reference
has no value (the header was not there) matches nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from explorer.core.course.errors import FormatError
from explorer.core.course.facts import REF_FIELDS, REF_PREFIXES, ExchangeFacts

__all__ = ["Pattern", "Ref", "parse_pattern"]

_REF = re.compile(r"\$\{([^}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Ref:
    """``${step.field}``: a field of the exchange a named step matched."""

    step: str
    field: str


Part = str | Ref


@dataclass(frozen=True)
class Pattern:
    """A compiled pattern: literal text (with wildcards) and references, in order."""

    parts: tuple[Part, ...]
    segments: bool  # True for paths and URLs: ``*`` stays within a segment
    source: str

    @cached_property
    def refs(self) -> tuple[Ref, ...]:
        return tuple(part for part in self.parts if isinstance(part, Ref))

    @cached_property
    def _fixed(self) -> re.Pattern[str]:
        """The expression of a pattern without references, made once."""
        return re.compile(
            "".join(_wildcards(str(part), self.segments) for part in self.parts), re.DOTALL
        )

    def regex(self, bound: Mapping[str, ExchangeFacts]) -> re.Pattern[str] | None:
        """The regular expression this pattern is with ``bound``'s values put in; None when a
        reference has no value."""
        if not self.refs:
            return self._fixed
        pieces: list[str] = []
        for part in self.parts:
            if isinstance(part, Ref):
                facts = bound.get(part.step)
                value = facts.ref(part.field) if facts is not None else None
                if value is None:
                    return None
                pieces.append(re.escape(value))
            else:
                pieces.append(_wildcards(part, self.segments))
        return re.compile("".join(pieces), re.DOTALL)

    @cached_property
    def literal(self) -> bool:
        """True when the pattern has no wildcard: it matches one text only."""
        return not any(isinstance(part, str) and "*" in part for part in self.parts)

    def matches(self, value: str, bound: Mapping[str, ExchangeFacts]) -> bool:
        """True when ``value`` is all of what this pattern says."""
        if self.source == "*":  # (present: any value)
            return True
        if self.literal:  # compared as text: no expression to make (an ETag against another)

            def resolve(ref: Ref) -> str | None:
                facts = bound.get(ref.step)
                return facts.ref(ref.field) if facts is not None else None

            return self.text(resolve) == value
        regex = self.regex(bound)
        return regex is not None and regex.fullmatch(value) is not None

    def text(self, resolve: Callable[[Ref], str | None]) -> str | None:
        """The pattern as plain text, each reference given by ``resolve`` (None when one
        has no value); wildcards stay as written (for a request "show me" fills in)."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, Ref):
                value = resolve(part)
                if value is None:
                    return None
                out.append(value)
            else:
                out.append(part.replace("\\*", "*"))
        return "".join(out)


def _wildcards(text: str, segments: bool) -> str:
    """``text``'s literal characters escaped and its stars made wildcards."""
    out: list[str] = []
    index = 0
    while index < len(text):
        if text.startswith("\\*", index):
            out.append(re.escape("*"))
            index += 2
        elif text.startswith("**", index):
            out.append(".*")
            index += 2
        elif text[index] == "*":
            out.append("[^/]*" if segments else ".*")
            index += 1
        else:
            out.append(re.escape(text[index]))
            index += 1
    return "".join(out)


def parse_ref(inner: str, where: str) -> Ref:
    """``step.field`` of a ``${...}``, checked: a step's name, then a field the vocabulary has."""
    step, dot, field = inner.partition(".")
    if not dot or not _NAME.match(step):
        raise FormatError(
            f"${{{inner}}} is not a reference: write ${{STEP.FIELD}}, as ${{read.response.ETag}}",
            where,
        )
    prefix, dot, name = field.partition(".")
    if field in REF_FIELDS or (prefix in REF_PREFIXES and dot and name):
        return Ref(step, field)
    fields = ", ".join(sorted(REF_FIELDS))
    prefixes = ", ".join(f"{p}.NAME" for p in sorted(REF_PREFIXES))
    raise FormatError(
        f"${{{inner}}}: {field!r} is not a field a reference names; the fields are "
        f"{fields}, {prefixes}",
        where,
    )


def parse_pattern(text: str, where: str, *, segments: bool = False) -> Pattern:
    """``text`` as a :class:`Pattern`; a :class:`FormatError` for a reference that is not one."""
    parts: list[Part] = []
    at = 0
    for found in _REF.finditer(text):
        if found.start() > at:
            parts.append(text[at : found.start()])
        parts.append(parse_ref(found.group(1), where))
        at = found.end()
    rest = text[at:]
    if "${" in rest:
        raise FormatError(f"{text!r} opens a reference with ${{ and never closes it", where)
    if rest:
        parts.append(rest)
    return Pattern(tuple(parts), segments, text)
