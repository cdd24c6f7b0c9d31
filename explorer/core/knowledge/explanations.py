"""One explanation shape for every topic, for ``restwalk explain`` and the TUI.

An :class:`Explanation` keeps its parts structured (title, summary, sections) so a
screen can lay them out, and :meth:`Explanation.to_text` renders them as plain text
for the command line. :func:`explain` finds the topic a person typed; :func:`search`
finds every entry that mentions some words.
"""

from __future__ import annotations

import enum
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from explorer.core.knowledge.caching import explain_caching
from explorer.core.knowledge.constraints import ConstraintInfo, all_constraints, constraint_info
from explorer.core.knowledge.headers import all_headers, header_info
from explorer.core.knowledge.methods import all_methods, method_info
from explorer.core.knowledge.model import (
    Cacheability,
    HeaderInfo,
    MethodInfo,
    StatusClass,
    StatusInfo,
    Usage,
)
from explorer.core.knowledge.protocols import ProtocolInfo, all_protocols, protocol_info
from explorer.core.knowledge.statuses import (
    all_classes,
    all_statuses,
    fallback_for,
    same_again,
    status_class,
    status_info,
)
from explorer.core.knowledge.versioning import (
    OVERVIEW,
    VERSIONING_REFERENCE,
    VersioningInfo,
    all_versioning,
    versioning_info,
)

_CODE_RE = re.compile(r"(?:http|status|code)?\s*(\d{3})", re.IGNORECASE)
_CLASS_RE = re.compile(r"([1-5])xx", re.IGNORECASE)
_WIDTH = 78


class Kind(enum.Enum):
    """What an explanation is about."""

    STATUS = "status code"
    STATUS_CLASS = "status class"
    HEADER = "header"
    METHOD = "method"
    CONSTRAINT = "REST constraint"
    PROTOCOL = "protocol version"
    VERSIONING = "API versioning"


@dataclass(frozen=True)
class Section:
    """A heading and its lines; ``bullets`` renders the lines as a list."""

    heading: str
    lines: tuple[str, ...]
    bullets: bool = False


@dataclass(frozen=True)
class Explanation:
    """Everything we know about one topic, structured for display.

    ``summary`` is the one line to show first: what the topic means for the user (for a
    constraint, its rule); ``sections`` hold the rest in reading order.
    """

    kind: Kind
    key: str
    title: str
    summary: str
    sections: tuple[Section, ...]
    reference: str

    def section(self, heading: str) -> Section | None:
        """The section called ``heading``, if present."""
        return next((s for s in self.sections if s.heading == heading), None)

    def to_text(self, width: int = _WIDTH) -> str:
        """Plain multi-line text: title, summary, then each section, wrapped to ``width``."""
        out = [self.title, "=" * min(len(self.title), width)]
        out.extend(textwrap.wrap(self.summary, width, break_on_hyphens=False) or [""])
        for section in self.sections:
            out.append("")
            out.append(section.heading)
            for line in section.lines:
                if section.bullets:
                    out.extend(
                        textwrap.wrap(
                            line,
                            width,
                            initial_indent="  - ",
                            subsequent_indent="    ",
                            break_on_hyphens=False,
                        )
                    )
                else:
                    out.extend(
                        textwrap.wrap(
                            line,
                            width,
                            initial_indent="  ",
                            subsequent_indent="  ",
                            break_on_hyphens=False,
                        )
                    )
        if self.reference:
            out.extend(["", f"Reference: {self.reference}"])
        return "\n".join(out) + "\n"

    @property
    def text(self) -> str:
        """All the words, lower-case, for searching."""
        parts = [self.key, self.title, self.summary, self.reference]
        for section in self.sections:
            parts.append(section.heading)
            parts.extend(section.lines)
        return "\n".join(parts).lower()


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


_CACHE_TEXT = {
    Cacheability.HEURISTIC: (
        "Cacheable by default (RFC 9110 §15.1): without Cache-Control or Expires a cache "
        "may still store it and guess a lifetime."
    ),
    Cacheability.EXPLICIT: (
        "Stored only when the response says so (Cache-Control max-age, s-maxage, public, or "
        "Expires)."
    ),
    Cacheability.NEVER: "Never stored by caches.",
    Cacheability.UPDATES: ("Not stored itself: it refreshes the response a cache already holds."),
}


def status_explanation(info: StatusInfo) -> Explanation:
    """The explanation of a known status code."""
    cls = status_class(info.code)
    again = same_again(info.code)
    sections = [
        Section("Class", (f"{cls.label}: {cls.meaning} {again}".rstrip(),) if cls else ()),
        Section("Rule", (info.rule,)),
        Section("What to do next", info.next_steps, bullets=True),
    ]
    if info.headers:
        sections.append(Section("Related headers", (", ".join(info.headers),)))
    sections.append(Section("Caching", (_CACHE_TEXT[info.cacheability],)))
    if info.other_names:
        sections.append(Section("Also called", (", ".join(info.other_names),)))
    if not info.in_spec:
        sections.append(
            Section(
                "Note", ("Not in restwalk's own table of codes; real servers and tools use it.",)
            )
        )
    return Explanation(
        Kind.STATUS, str(info.code), info.title, info.meaning, tuple(sections), info.reference
    )


def status_in_response(
    code: int,
    headers: Sequence[tuple[str, str]],
    *,
    method: str = "GET",
    request_headers: Sequence[tuple[str, str]] = (),
) -> Explanation | None:
    """Status ``code``'s entry as it applies to one response (None: no such code).

    Its general next steps are left out: the response's own advice (:func:`advise`)
    gives those that apply to it. Its caching rule, a default, is followed by what this
    response decides: a 200 is "cacheable by default", and one with ``no-store`` is not.
    """
    entry = explain(str(code))
    if entry is None or entry.kind is not Kind.STATUS:
        return entry
    verdict = explain_caching(code, headers, method=method, request_headers=request_headers)
    sections = []
    for section in entry.sections:
        if section.heading == "What to do next":
            continue
        if section.heading == "Caching":
            here = f"This answer to {method.upper()}: {verdict.summary}"
            section = replace(section, lines=(*section.lines, here))
        sections.append(section)
    return replace(entry, sections=tuple(sections))


def unknown_status_explanation(code: int, cls: StatusClass) -> Explanation:
    """An unregistered code in 100..599: its class, and the x00 code it stands for."""
    fallback = fallback_for(code)
    sections = [
        Section("Class", (f"{cls.label}: {cls.meaning} {same_again(code)}".rstrip(),)),
        Section(
            "Rule",
            (
                "RFC 9110 §15: a client that does not know a status code reads it by its "
                f"first digit, as {cls.digit}00, and does not cache the response.",
            ),
        ),
        Section("What to do next", (cls.advice,), bullets=True),
    ]
    if fallback is not None:
        sections.append(Section(f"Read it as {fallback.title}", (fallback.meaning,)))
    return Explanation(
        Kind.STATUS,
        str(code),
        f"{code} (unknown {cls.label} code)",
        f"Not a code we know; it belongs to {cls.label}. {cls.meaning}",
        tuple(sections),
        "RFC 9110 §15",
    )


def class_explanation(cls: StatusClass) -> Explanation:
    """The explanation of a whole class, listing its codes."""
    codes = tuple(info.title for info in all_statuses() if info.class_digit == cls.digit)
    sections = (
        Section("What to do next", (cls.advice,), bullets=True),
        Section("Codes", codes, bullets=True),
    )
    return Explanation(
        Kind.STATUS_CLASS, f"{cls.digit}xx", cls.label, cls.meaning, sections, "RFC 9110 §15"
    )


_USAGE_TEXT = {
    Usage.REQUEST: "requests (sent by the client)",
    Usage.RESPONSE: "responses (sent by the server)",
    Usage.BOTH: "requests and responses",
}


def header_explanation(info: HeaderInfo) -> Explanation:
    """The explanation of a header field."""
    sections = [Section("Used in", (_USAGE_TEXT[info.usage],))]
    if info.deprecated:
        sections.append(Section("Deprecated", ("Obsolete or deprecated: avoid sending it.",)))
    sections += [
        Section("Rule", (info.rule,)),
        Section("Example", (info.example,)),
    ]
    if info.hint:
        sections.append(Section("When you send it", (info.hint,)))
    if info.name.lower().startswith("x-"):
        sections.append(
            Section(
                "About the X- prefix",
                ("RFC 6648 (2012) deprecates `X-` names for new fields; old ones keep them.",),
            )
        )
    if info.statuses:
        titles = []
        for code in info.statuses:
            status = status_info(code)
            titles.append(status.title if status else str(code))
        sections.append(Section("Goes with", (", ".join(titles),)))
    return Explanation(
        Kind.HEADER, info.name.lower(), info.name, info.meaning, tuple(sections), info.reference
    )


def method_explanation(info: MethodInfo) -> Explanation:
    """The explanation of a request method."""
    properties = (
        f"Safe: {_yes(info.safe)} · Idempotent: {_yes(info.idempotent)} · "
        f"Cacheable: {_yes(info.cacheable)}"
    )
    sections = (
        Section("Properties", (properties,)),
        Section("Request body", (info.request_body,)),
        Section("Response body", (info.response_body,)),
        Section("Rule", (info.rule,)),
        Section("What to do next", info.next_steps, bullets=True),
    )
    return Explanation(Kind.METHOD, info.name, info.name, info.meaning, sections, info.reference)


def constraint_explanation(info: ConstraintInfo) -> Explanation:
    """The explanation of a REST constraint."""
    sections = (
        Section("What it gives you", (info.meaning,)),
        Section("In HTTP", (info.in_http,)),
        Section("Where to see it", (info.how_to_see,)),
    )
    return Explanation(
        Kind.CONSTRAINT,
        info.key,
        f"REST constraint: {info.name}",
        info.rule,
        sections,
        "Fielding, Architectural Styles (2000), ch. 5",
    )


def protocol_explanation(info: ProtocolInfo) -> Explanation:
    """The explanation of an HTTP protocol version."""
    sections = (
        Section("Rule", (info.rule,)),
        Section("What it brought", info.features, bullets=True),
        Section("In restwalk", (info.in_restwalk,)),
    )
    return Explanation(
        Kind.PROTOCOL, info.name.lower(), info.name, info.meaning, sections, info.reference
    )


def versioning_explanation(info: VersioningInfo) -> Explanation:
    """The explanation of one API versioning approach."""
    sections = (
        Section("Where the version goes", (info.shape,)),
        Section("Without a marker", (info.default,)),
        Section("Rule", (info.rule,)),
        Section("Example", (info.example,)),
    )
    return Explanation(
        Kind.VERSIONING, info.key, info.name, info.meaning, sections, VERSIONING_REFERENCE
    )


def versioning_overview() -> Explanation:
    """All four versioning approaches on one page."""
    approaches = tuple(
        f"{info.name}: {info.shape} (e.g. {info.example})" for info in all_versioning()
    )
    return Explanation(
        Kind.VERSIONING,
        "versioning",
        "API versioning",
        OVERVIEW,
        (Section("Approaches", approaches, bullets=True),),
        VERSIONING_REFERENCE,
    )


@cache
def all_explanations() -> tuple[Explanation, ...]:
    """Every entry: classes, codes, methods, headers, constraints, versions, versioning."""
    return (
        tuple(class_explanation(cls) for cls in all_classes())
        + tuple(status_explanation(info) for info in all_statuses())
        + tuple(method_explanation(info) for info in all_methods())
        + tuple(header_explanation(info) for info in all_headers())
        + tuple(constraint_explanation(info) for info in all_constraints())
        + tuple(protocol_explanation(info) for info in all_protocols())
        + (versioning_overview(),)
        + tuple(versioning_explanation(info) for info in all_versioning())
    )


@cache
def _by_phrase() -> dict[str, StatusInfo]:
    phrases: dict[str, StatusInfo] = {}
    for info in all_statuses():
        for name in (info.phrase, *info.other_names):
            phrases.setdefault(name.lower().strip("()"), info)
    return phrases


def explain(topic: str) -> Explanation | None:
    """Explain a status code or class, a method, a header, a constraint or an HTTP version.

    Topics look like ``"418"``, ``"4xx"``, ``"PATCH"``, ``"Retry-After"``,
    ``"stateless"`` or ``"HTTP/2"``, in any letter case. An unknown code in 100..599
    still gets its class's meaning; a reason phrase (``"not found"``) finds its code.
    None when nothing matches.
    """
    text = " ".join(topic.split())
    if not text:
        return None
    code_match = _CODE_RE.fullmatch(text)
    if code_match is not None:
        code = int(code_match.group(1))
        info = status_info(code)
        if info is not None:
            return status_explanation(info)
        cls = status_class(code)
        return unknown_status_explanation(code, cls) if cls is not None else None
    class_match = _CLASS_RE.fullmatch(text)
    if class_match is not None:
        cls = status_class(int(class_match.group(1)) * 100)
        return class_explanation(cls) if cls is not None else None
    method = method_info(text)
    if method is not None:
        return method_explanation(method)
    header = header_info(text)
    if header is not None:
        return header_explanation(header)
    constraint = constraint_info(text)
    if constraint is not None:
        return constraint_explanation(constraint)
    protocol = protocol_info(text)
    if protocol is not None:
        return protocol_explanation(protocol)
    if text.lower() in ("versioning", "api versioning", "version", "api-versioning"):
        return versioning_overview()
    approach = versioning_info(text)
    if approach is not None:
        return versioning_explanation(approach)
    phrase = _by_phrase().get(text.lower())
    return status_explanation(phrase) if phrase is not None else None


def search(text: str) -> list[Explanation]:
    """Entries that contain every word of ``text``, best matches first.

    An entry whose key or title equals the text comes first, then titles containing
    it, then titles holding all the words, then entries mentioning them anywhere.
    """
    query = " ".join(text.lower().split())
    if not query:
        return []
    words = query.split()
    ranked: list[tuple[int, int, Explanation]] = []
    for order, entry in enumerate(all_explanations()):
        if not all(word in entry.text for word in words):
            continue
        title = entry.title.lower()
        if query in (entry.key.lower(), title):
            rank = 0
        elif query in title:
            rank = 1
        elif all(word in title for word in words):
            rank = 2
        else:
            rank = 3
        ranked.append((rank, order, entry))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [entry for _, _, entry in ranked]
