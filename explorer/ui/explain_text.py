"""Knowledge entries written out as Markdown for the explain dialog and the learn screen.

The knowledge itself (every status code, header, method and REST constraint) lives
in :mod:`explorer.core.knowledge`; this module only lays it out for a screen.
"""

from __future__ import annotations

from explorer.core.knowledge.headers import header_info
from explorer.core.knowledge.methods import method_info
from explorer.core.knowledge.model import ConstraintInfo, HeaderInfo, MethodInfo, StatusInfo
from explorer.core.knowledge.statuses import fallback_for, status_class, status_info


def status_markdown(code: int) -> str:
    """The explanation of status ``code``; an unknown code is explained by its class."""
    info = status_info(code)
    if info is not None:
        return status_entry_markdown(info)
    cls = status_class(code)
    if cls is None:
        return f"# {code}\n\nNot an HTTP status code: codes run from 100 to 599."
    text = f"# {code} (unknown code, class {cls.label})\n\n{cls.meaning}\n\n{cls.advice}\n"
    fallback = fallback_for(code)
    if fallback is not None:
        text += f"\nA client treats it like **{fallback.title}**, but must not cache it.\n"
    return text


def status_entry_markdown(info: StatusInfo) -> str:
    """One status code entry: rule, meaning, next steps, headers, caching."""
    steps = "\n".join(f"- {step}" for step in info.next_steps)
    parts = [
        f"# {info.title}",
        f"**What it means now:** {info.meaning}",
        f"**The rule** ({info.reference}): {info.rule}",
        f"**What to do next:**\n\n{steps}" if steps else "",
        f"**Headers that go with it:** {', '.join(info.headers)}" if info.headers else "",
        f"**Caching:** {info.cacheability.value}.",
    ]
    if info.other_names:
        parts.append(f"**Also called:** {', '.join(info.other_names)}")
    return "\n\n".join(part for part in parts if part)


def header_markdown(name: str) -> str:
    """The explanation of header ``name``, or a note that it is not one we describe."""
    info = header_info(name)
    if info is None:
        return (
            f"# {name}\n\nrestwalk has no entry for this header. Names starting with `X-` "
            "are private conventions of one server or vendor; look in its documentation."
        )
    return header_entry_markdown(info)


def header_entry_markdown(info: HeaderInfo) -> str:
    """One header entry: where it goes, rule, meaning, example."""
    parts = [
        f"# {info.name}",
        "**Deprecated**: do not rely on it in new work." if info.deprecated else "",
        f"**Sent in:** {info.usage.value}s · **topic:** {info.topic}",
        f"**What it means:** {info.meaning}",
        f"**The rule** ({info.reference}): {info.rule}",
        f"**When composing:** {info.hint}" if info.hint else "",
        f"**Example:**\n\n```\n{info.example}\n```",
        (
            f"**Goes with status:** {', '.join(str(code) for code in info.statuses)}"
            if info.statuses
            else ""
        ),
    ]
    return "\n\n".join(part for part in parts if part)


def method_markdown(name: str) -> str:
    """The explanation of method ``name``; a custom token is explained as such."""
    info = method_info(name)
    if info is None:
        return (
            f"# {name}\n\nNot one of the standard methods: a custom method token. A server "
            "that does not know it answers 501 Not Implemented."
        )
    return method_entry_markdown(info)


def method_entry_markdown(info: MethodInfo) -> str:
    """One method entry: safe, idempotent, cacheable, bodies, rule, next steps."""

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    steps = "\n".join(f"- {step}" for step in info.next_steps)
    return "\n\n".join(
        [
            f"# {info.name}",
            f"**Safe:** {yes(info.safe)} · **idempotent:** {yes(info.idempotent)} · "
            f"**cacheable:** {yes(info.cacheable)}",
            f"**What it means:** {info.meaning}",
            f"**The rule** ({info.reference}): {info.rule}",
            f"**Request body:** {info.request_body}",
            f"**Response body:** {info.response_body}",
            f"**What to do next:**\n\n{steps}",
        ]
    )


def constraint_markdown(info: ConstraintInfo) -> str:
    """One REST constraint: rule, meaning, how HTTP does it, how to see it here."""
    optional = " (optional)" if info.optional else ""
    return "\n\n".join(
        [
            f"# {info.name}{optional}",
            f"**The rule:** {info.rule}",
            f"**What it means:** {info.meaning}",
            f"**In HTTP:** {info.in_http}",
            f"**See it in restwalk:** {info.how_to_see}",
        ]
    )


def topic_markdown(topic: str) -> str:
    """Explain ``topic``: a status code, a method, or a header name."""
    text = topic.strip()
    if text.isdigit() and len(text) == 3:
        return status_markdown(int(text))
    if method_info(text.upper()) is not None:
        return method_markdown(text.upper())
    return header_markdown(text)
