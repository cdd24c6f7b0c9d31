"""Explanations from the knowledge base, laid out as Markdown for the screens.

The knowledge itself (status codes, headers, methods, REST constraints, what to do
next) lives in :mod:`explorer.core.knowledge`; this module only turns its
:class:`~explorer.core.knowledge.Explanation` values and advice into Markdown.
Server text put into that Markdown (a header name, a reason phrase, a URL, an
error's detail) goes in as :func:`literal` text: never a link, never formatting,
shown exactly as :func:`~explorer.core.text.terminal_text.visible_line` makes it. So does
every line the knowledge writes about one response (its advice, its REST facts, what
its headers say about caching): those quote the response's header values (a realm,
a Location, an ETag), so their own backticks show as backticks there, as on the
command line.
"""

from __future__ import annotations

import re

from explorer.core.http.errors import RestwalkError
from explorer.core.knowledge import (
    Explanation,
    advise,
    explain,
    explain_response,
    status_in_response,
)
from explorer.core.session.trail import Page
from explorer.core.text.terminal_text import visible_line

# Every ASCII punctuation character: CommonMark lets a backslash escape any of them,
# and escaped, none starts syntax. Escaping only the inline openers is not enough:
# ":" and "/" let linkify (on in Textual's "gfm-like" parser) make a link of
# "http://...", inside which escapes are not read (a "\\" then shows as two), and
# "#", "-", "+", "1." or ">" open a heading, a list or a quote at a line's start.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def literal(text: str) -> str:
    """``text`` as Markdown that shows exactly what :func:`visible_line` makes of it
    (control characters visible, one line): every ASCII punctuation character
    backslash-escaped, so nothing in it is a link, formatting or a block."""
    return _PUNCTUATION.sub(r"\\\1", visible_line(text))


def explanation_markdown(entry: Explanation, quoted: frozenset[str] = frozenset()) -> str:
    """One entry: title, summary, each section (bullets as a list), the reference.

    The section lines in ``quoted`` (written for one response, quoting it) go in
    as :func:`literal` text; the others are the knowledge's own Markdown.
    """
    parts = [f"# {entry.title}", entry.summary]
    for section in entry.sections:
        lines = [literal(line) if line in quoted else line for line in section.lines]
        body = "\n".join(f"- {line}" for line in lines) if section.bullets else "\n\n".join(lines)
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
    if error.hint_in_browser:  # it may quote the URL
        text += f"\n\n**What to try:** {literal(error.hint_in_browser)}"
    if error.detail:
        text += f"\n\n**Detail from the network library:** {literal(error.detail)}"
    return text


def page_markdown(page: Page, key_hint: str = "") -> str:
    """Everything about ``page``: what to do next (``key_hint`` first), REST here, the code."""
    in_restwalk = f"**In restwalk:** {literal(key_hint)}" if key_hint else ""
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
        links=None if response.stream else len(page.links),
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
        f"# {response.status} {literal(response.reason)} for {literal(request.method)} "
        f"{literal(response.url)}",
        in_restwalk,
        "**What to do next, from this response:**\n\n"
        + "\n".join(f"- {literal(s)}" for s in steps),
        "**REST in this response:**\n\n" + "\n".join(f"- {literal(f)}" for f in facts),
        "---",
        (
            explanation_markdown(status, _about_this_response(status, response.status))
            if status is not None
            else status_markdown(response.status)
        ).replace("# ", "## ", 1),
    ]
    return "\n\n".join(part for part in parts if part)


def _about_this_response(entry: Explanation, code: int) -> frozenset[str]:
    """The lines of ``entry`` (status ``code``'s, as it applies to one response) that
    its general entry lacks: written for this response, they may quote its headers."""
    general = explain(str(code))
    known = {line for section in general.sections for line in section.lines} if general else set()
    return frozenset(
        line for section in entry.sections for line in section.lines if line not in known
    )
