"""From a response to the next request: the pure steps behind the browser screen.

Reading a response (its links and advice, off the UI thread), turning an action
link into a pre-filled request, and the small labels the screen shows. No
Textual here, so each step is tested without a terminal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

import httpx

from explorer.core.exchange import Exchange, ReceivedResponse
from explorer.core.hypermedia import find_links
from explorer.core.knowledge import advise
from explorer.core.link import FormField, Link
from explorer.core.memory import one_large_parse
from explorer.core.request import Auth, BasicAuth, BearerAuth, CookieSession, LoginFlow, RequestSpec
from explorer.ui.widgets.links_panel import panel_order


def origin_of(url: str) -> str:
    """``scheme://host:port`` of ``url`` (empty when it is not a URL)."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return ""
    if not parsed.scheme or not parsed.host:
        return ""
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.scheme}://{parsed.host}{port}"


def _nested(values: dict[str, object]) -> dict[str, object]:
    """Fields named by dotted paths (``address.city``, as HAL-FORMS servers such as
    Spring HATEOAS name nested properties) become nested objects; a name that clashes
    with another's path (``a`` beside ``a.b``) stays flat."""
    nested: dict[str, object] = {}
    # Plain names first, so that one a path clashes with is kept as it is.
    for name, value in sorted(values.items(), key=lambda item: "." in item[0]):
        *parents, last = name.split(".")
        target = nested
        for part in parents:
            child = target.setdefault(part, {}) if part else None
            if not isinstance(child, dict):
                break
            target = child
        else:
            if last and last not in target:
                target[last] = value
                continue
        nested[name] = value
    return nested


def action_spec(link: Link) -> RequestSpec:
    """The request an action or form link describes: method, target, fields as JSON."""
    body: str | None = None
    content_type = link.content_type
    if link.fields or link.method in ("POST", "PUT", "PATCH"):
        values = _nested({field.name: _initial_value(field) for field in link.fields})
        body = json.dumps(values, indent=2)
        content_type = (
            content_type if content_type and "json" in content_type else "application/json"
        )
    if body is None:
        content_type = None  # a DELETE's form may name a type, but nothing is sent
    return RequestSpec(method=link.method, url=link.href, body=body, content_type=content_type)


#: Bytes of a body shown in the raw view; the body tab shows all of it at any size.
RAW_BODY_LIMIT = 256 * 1024


def _raw_response(response: ReceivedResponse, limit: int) -> str:
    if len(response.body) <= limit:
        return response.text
    shown = replace(response, body=response.body[:limit])
    rest = len(response.body) - limit
    return f"{shown.text}\n\n[… {rest:,} more bytes of body: the Body tab (b) shows all of it]"


def raw_text(exchange: Exchange, limit: int = RAW_BODY_LIMIT) -> str:
    """Every message of ``exchange`` as wire text: each hop, then the final pair.

    A body longer than ``limit`` bytes is cut there, with a note, so the raw view
    of a 20 MB response costs no more than that of a small one.
    """
    parts: list[str] = []
    for hop in exchange.hops:
        parts += [hop.request.text, _raw_response(hop.response, limit)]
    parts += [exchange.final.text, _raw_response(exchange.response, limit)]
    return "\n\n".join(parts)


#: Links kept per page (in panel order): 180,000 links of a 20 MB body would hold ~75 MB.
MAX_LINKS = 10_000


@dataclass(frozen=True)
class Reading:
    """What was read from a response: its links in panel order (at most
    :data:`MAX_LINKS` of them), how many were found, and the advice for it."""

    links: tuple[Link, ...]
    found: int
    advice: tuple[str, ...]


def read_response(exchange: Exchange) -> Reading:
    """Find the links of a response, put them in panel order, and advise on it.

    Run it off the UI thread: a 20 MB body can hold hundreds of thousands of links.
    """
    response = exchange.response
    with one_large_parse(len(response.body)):
        found = find_links(
            response.url, response.status, response.headers, response.body, response.media_type
        )
    ordered = panel_order(tuple(found))
    advice = advise(
        response.status,
        response.headers,
        exchange.final.method,
        body=response.body,
        request_headers=exchange.final.headers,
    )
    return Reading(ordered[:MAX_LINKS], len(found), tuple(advice))


def _initial_value(field: FormField) -> object:
    """A field's preset value, or an empty one of its type for the person to fill."""
    if field.value is not None and field.value != ():
        return field.value
    return "" if field.type in ("text", "textarea", "email", "url", "password") else None


def fields_note(link: Link) -> str:
    """One line per field of an action: name (* when required) and its prompt."""
    lines = [
        f"{field.name}{'*' if field.required else ''}: {field.prompt or field.type}"
        for field in link.fields
    ]
    title = f"{link.title}. " if link.title else ""
    if not lines:
        return f"{title}No fields: send it as it is."
    return f"{title}Fill in the body (* required):\n" + "\n".join(lines)


def auth_label(auth: Auth | None) -> str:
    """A short, credential-free description of ``auth`` for the URL bar."""
    if isinstance(auth, LoginFlow):
        return f"🔑 {auth.user} (token)"
    if isinstance(auth, BasicAuth):
        return f"🔑 {auth.user} (basic)"
    if isinstance(auth, BearerAuth):
        return "🔑 bearer"
    if isinstance(auth, CookieSession):
        return "🔑 cookies"
    return ""
