"""Explanations from the knowledge base, laid out as Markdown for the screens.

The knowledge itself (status codes, headers, methods, REST constraints, what to do
next) lives in :mod:`explorer.core.knowledge`; this module only turns its
:class:`~explorer.core.knowledge.Explanation` values and advice into Markdown.
Server text put into that Markdown (a header name, a reason phrase, a URL, an
error's detail) goes in as :func:`literal` text: never a link, never formatting.
"""

from __future__ import annotations

import re

from explorer.core.errors import RestwalkError
from explorer.core.knowledge import (
    Explanation,
    advise,
    explain,
    explain_response,
    status_in_response,
)
from explorer.core.session.history import Page

# The characters that start Markdown inline syntax: code, emphasis, links, images,
# autolinks and HTML, entities, strikethrough, tables; and the backslash itself.
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>!&~|])")


def literal(text: str) -> str:
    """``text`` as Markdown that shows it exactly, on one line: each character that
    could start Markdown syntax backslash-escaped (CommonMark allows it for any)."""
    return _PUNCTUATION.sub(r"\\\1", " ".join(text.split()))


def explanation_markdown(entry: Explanation) -> str:
    """One entry: title, summary, each section (bullets as a list), the reference."""
    parts = [f"# {entry.title}", entry.summary]
    for section in entry.sections:
        if section.bullets:
            body = "\n".join(f"- {line}" for line in section.lines)
        else:
            body = "\n\n".join(section.lines)
        parts.append(f"**{section.heading}**\n\n{body}")
    if entry.reference:
        parts.append(f"*{entry.reference}*")
    return "\n\n".join(part for part in parts if part)


def topic_markdown(topic: str) -> str:
    """Explain ``topic`` (a status code, header, method, constraint...), or say it is unknown."""
    entry = explain(topic)
    if entry is not None:
        return explanation_markdown(entry)
    if topic.lower().startswith("x-"):
        return (
            f"# {literal(topic)}\n\nrestwalk has no entry for this header. Names starting "
            "with `X-` are private conventions of one server or vendor; look in its "
            "documentation."
        )
    return (
        f"# {literal(topic)}\n\nrestwalk has no entry for {literal(repr(topic))}. "
        "Press l to browse everything."
    )


def status_markdown(code: int) -> str:
    """The explanation of status ``code``; an unknown code is explained by its class."""
    return topic_markdown(str(code))


def header_markdown(name: str) -> str:
    """The explanation of header ``name``."""
    return topic_markdown(name)


def error_markdown(error: RestwalkError) -> str:
    """A failed request: what happened, what to try, and the low-level detail."""
    text = f"# The request failed\n\n**{type(error).__name__}**: {literal(error.explanation)}"
    if error.hint:
        text += f"\n\n**What to try:** {error.hint}"
    if error.detail:
        text += f"\n\n**Detail from the network library:** {literal(error.detail)}"
    return text


def page_markdown(page: Page, key_hint: str = "") -> str:
    """Everything about ``page``: what to do next (``key_hint`` first), REST here, the code."""
    in_restwalk = f"**In restwalk:** {key_hint}" if key_hint else ""
    if page.error is not None:
        return error_markdown(page.error) + (f"\n\n{in_restwalk}" if in_restwalk else "")
    assert page.exchange is not None
    response = page.exchange.response
    request = page.exchange.final
    steps = advise(
        response.status,
        response.headers,
        request.method,
        body=response.body,
        request_headers=request.headers,
    )
    facts = explain_response(
        response.status,
        response.headers,
        [link.rel for link in page.links],
        method=request.method,
        request_headers=request.headers,
    )
    status = status_in_response(
        response.status, response.headers, method=request.method, request_headers=request.headers
    )
    parts = [
        f"# {response.status} {literal(response.reason)} for {request.method} "
        f"{literal(response.url)}",
        in_restwalk,
        "**What to do next, from this response:**\n\n" + "\n".join(f"- {s}" for s in steps),
        "**REST in this response:**\n\n" + "\n".join(f"- {f}" for f in facts),
        "---",
        (
            explanation_markdown(status) if status is not None else status_markdown(response.status)
        ).replace("# ", "## ", 1),
    ]
    return "\n\n".join(part for part in parts if part)
