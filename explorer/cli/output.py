"""How the ``restwalk`` commands print: exchanges and links as text or JSON lines.

Text is for people: the status line, the knowledge's explanation and advice as
``# `` lines, headers, then the body pretty-printed. JSON lines are for scripts.
Credentials are masked in both (:func:`explorer.core.http.wire.mask_header`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence

import orjson

from explorer.core.bodies.media import charset_of
from explorer.core.http.content_coding import too_many_codings
from explorer.core.http.exchange import Exchange
from explorer.core.http.wire import body_text, mask_header, request_text
from explorer.core.hypermedia.link import Link
from explorer.core.text.plural import counted, noun
from explorer.core.text.terminal_text import json_visible, visible, visible_line

__all__ = [
    "error_line",
    "exchange_json",
    "explanation_lines",
    "format_exchange",
    "format_links",
    "link_json",
    "measures_line",
    "pretty_body",
    "said_undecoded",
    "say_withheld",
    "write_out",
    "write_raw",
]


# --- where everything printed goes: server text never reaches the terminal as control ------


def write_out(text: str) -> None:
    """Print ``text`` on stdout, its control characters made visible (tabs and lines kept).

    Every command prints through here (or :func:`error_line`): what a server sent is
    shown, never obeyed by the terminal. JSON output is escaped before it comes here
    (:func:`~explorer.core.text.terminal_text.json_visible`), so it passes unchanged.
    """
    sys.stdout.write(visible(text))
    sys.stdout.flush()


def write_err(text: str) -> None:
    """Print ``text`` on stderr, its control characters made visible (as :func:`write_out`):
    what is said for a person while stdout carries a body's bytes."""
    sys.stdout.flush()
    sys.stderr.write(visible(text))
    sys.stderr.flush()


def to_terminal() -> bool:
    """True when stdout is a terminal (a person reads it), not a pipe or a file."""
    return sys.stdout.isatty()


def error_line(message: str) -> None:
    """``restwalk: MESSAGE`` on stderr as one line, its control characters made visible."""
    sys.stdout.flush()
    print(f"restwalk: {visible_line(' '.join(message.split()))}", file=sys.stderr)


def say_withheld(note: str, said: set[str]) -> None:
    """Say ``note`` (what a request derived from another went without, given for another
    origin) on stderr, once: a walk of many pages there says it for the first."""
    if note and note not in said:
        said.add(note)
        error_line(f"note: {note}")


def said_undecoded(exchange: Exchange) -> bool:
    """Say on stderr when ``exchange``'s body is as received because the server coded it
    more times than restwalk undoes; True then (the command exits 1, as for an answer
    that is not HTTP)."""
    count = exchange.response.undecoded_codings
    if count:
        error_line(too_many_codings(count))
    return bool(count)


def write_raw(body: bytes, content_type: str | None) -> None:
    """The body as received: its exact bytes to a pipe or a file, made visible on a terminal."""
    if not to_terminal():
        write_bytes(body)
        return
    write_out(body_text(body, content_type))


def write_bytes(body: bytes) -> None:
    """``body``'s exact bytes on stdout (a pipe or a file: nothing is made visible)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()


def explanation_lines(exchange: Exchange) -> list[str]:
    """The knowledge's words on this status, and its advice, as ``# `` lines."""
    from explorer.core.knowledge import status_info
    from explorer.core.session.reading import advice_for

    response = exchange.response
    lines: list[str] = []
    info = status_info(response.status)
    if info is not None:
        lines.append(f"# {info.title}: {info.meaning}")
    lines.extend(f"# next: {step}" for step in advice_for(exchange))
    return lines


def pretty_body(body: bytes, content_type: str | None) -> str:
    """The body for reading: JSON and XML indented as the TUI shows them
    (:func:`~explorer.core.bodies.pretty.indent_body`), other text decoded by its charset,
    binary summarised."""
    from explorer.core.bodies.pretty import indent_body

    indented = indent_body(body, content_type)
    return indented.decode("utf-8") if indented is not None else body_text(body, content_type)


def format_exchange(exchange: Exchange, *, verbose: bool = False) -> str:
    """A whole exchange as text: hops, status line explained, headers, body."""
    lines: list[str] = []
    for hop in exchange.hops:
        if verbose:
            lines += [request_text(hop.request).rstrip("\n"), ""]
        response = hop.response
        lines.append(
            f"{response.http_version} {response.status} {response.reason}  "
            f"({hop.request.method} {hop.request.url} -> {response.header('location')})"
        )
    if verbose:
        lines += [request_text(exchange.final).rstrip("\n"), ""]
    response = exchange.response
    lines.append(f"{response.http_version} {response.status} {response.reason}".rstrip())
    lines += explanation_lines(exchange)
    _, charset_note = charset_of(response.header("content-type"))
    if charset_note and response.body:
        lines.append(f"# note: {charset_note}")
    if verbose:
        lines.append(measures_line(exchange))
        lines += [f"# retried: {note}" for note in exchange.retries]
    lines += [f"{name}: {mask_header(name, value)}" for name, value in response.headers]
    text = "\n".join(lines)
    body = pretty_body(response.body, response.header("content-type"))
    return f"{text}\n\n{body}" if body else text


def measures_line(exchange: Exchange) -> str:
    """``# 3.1 ms to headers, 4.0 ms in all; 1229 bytes (512 on the wire)``."""
    timings, response = exchange.timings, exchange.response
    size = f"{len(response.body)} {noun(len(response.body), 'byte')}"
    if response.wire_size is not None and response.wire_size != len(response.body):
        size += f" ({response.wire_size} on the wire)"
    hops = f", {counted(len(exchange.hops), 'redirect')}" if exchange.hops else ""
    return (
        f"# {timings.headers * 1000:.1f} ms to headers, {timings.total * 1000:.1f} ms in all"
        f"{hops}; {size}"
    )


def exchange_json(exchange: Exchange) -> bytes:
    """An exchange as one JSON object (credentials masked; DEL and C1 controls escaped)."""

    from explorer.core.bodies.pretty import PRETTY_LIMIT

    def headers(pairs: tuple[tuple[str, str], ...]) -> list[list[str]]:
        return [[k, mask_header(k, v)] for k, v in pairs]

    response = exchange.response
    received: dict[str, object] = {
        "url": response.url,
        "http_version": response.http_version,
        "status": response.status,
        "reason": response.reason,
        "headers": headers(response.headers),
        "body": body_text(response.body, response.header("content-type")),
    }
    if response.stream:
        received["stream"] = response.stream  # its events follow, one a line
    with contextlib.suppress(orjson.JSONDecodeError):
        if response.body.lstrip()[:1] in (b"{", b"[") and len(response.body) <= PRETTY_LIMIT:
            received["json"] = orjson.loads(response.body)
    document = {
        "request": {
            "method": exchange.request.method,
            "url": exchange.request.url,
            "headers": headers(exchange.request.headers),
        },
        "hops": [
            {
                "method": hop.request.method,
                "url": hop.request.url,
                "status": hop.response.status,
                "location": hop.response.header("location"),
            }
            for hop in exchange.hops
        ],
        "response": received,
        "timings": {"headers": exchange.timings.headers, "total": exchange.timings.total},
        "retries": list(exchange.retries),
    }
    try:
        return json_visible(orjson.dumps(document))
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: the body text only
        del received["json"]
        return json_visible(orjson.dumps(document))


def format_links(links: Sequence[Link]) -> list[str]:
    """One line per link: relation (and the server's name for it), method, href, title,
    where found (every place, for a link the body and a header both give), and whether
    restwalk guessed or made it (columns aligned)."""
    if not links:
        return []
    rels = [f"{link.rel} ({link.label})" if link.label else link.rel for link in links]
    rel_width = max(len(rel) for rel in rels)
    method_width = max(len(link.method) for link in links)
    lines = []
    for link, rel in zip(links, rels, strict=True):
        title = f'"{link.title}"' if link.title else "-"
        where = " + ".join(link.places) + (", guessed" if link.guess else "")
        if link.made_from:
            where += f", made from {link.made_from}"
        lines.append(
            f"{rel:<{rel_width}}  {link.method:<{method_width}}  {link.href}  {title}  [{where}]"
        )
    return lines


def link_json(link: Link) -> str:
    """A link as one JSON object (every field of :class:`~explorer.core.hypermedia.link.Link`;
    DEL and C1 controls escaped; its form fields as objects too, orjson writing dataclasses)."""
    return json_visible(orjson.dumps(link._asdict(), default=str)).decode("utf-8")
