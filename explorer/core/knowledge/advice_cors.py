"""Advice on a CORS preflight: an ``OPTIONS`` with ``Origin`` and
``Access-Control-Request-Method``, as a browser sends before a cross-origin request
(the Fetch standard, "CORS protocol"). The answer says whether a page at that origin may
send the request; its body says nothing, so the code's general advice ("read the body
and follow its links") is beside the point."""

from __future__ import annotations

from http import HTTPStatus

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.response_facts import ResponseFacts

__all__ = ["FIELDS", "preflight"]

#: The response fields a preflight's answer is read from.
FIELDS = (
    "Access-Control-Allow-Origin",
    "Access-Control-Allow-Methods",
    "Access-Control-Allow-Headers",
    "Access-Control-Allow-Credentials",
    "Access-Control-Max-Age",
)
#: What a browser sends without asking (CORS-safelisted methods).
_SAFELISTED = frozenset({"GET", "HEAD", "POST"})


def preflight(response: ResponseFacts) -> list[str]:
    """What the answer to a CORS preflight lets a browser do; [] for any other exchange."""
    asked = fv.first(response.request_headers, "Access-Control-Request-Method")
    if response.method != "OPTIONS" or asked is None:
        return []
    origin = fv.first(response.request_headers, "Origin") or "(no Origin sent)"
    page = f"a page at {origin}"
    if not HTTPStatus.OK <= response.status < HTTPStatus.MULTIPLE_CHOICES:
        return [
            f"A CORS preflight answered {response.status}: the browser will not send the "
            f"{asked} of {page} (a preflight must answer 2xx)."
        ]
    allowed_origin = response.first("Access-Control-Allow-Origin")
    if allowed_origin is None:
        return [
            f"A CORS preflight without Access-Control-Allow-Origin: the browser will not "
            f"send the {asked} of {page}."
        ]
    if allowed_origin not in ("*", origin):
        return [
            f"A CORS preflight: Access-Control-Allow-Origin is {allowed_origin}, not "
            f"{origin}: the browser will not send the {asked} of {page}."
        ]
    methods = {m.upper() for m in fv.list_values(response.headers, "Access-Control-Allow-Methods")}
    if asked.upper() not in methods | _SAFELISTED and "*" not in methods:
        return [
            f"A CORS preflight: {asked} is not among Access-Control-Allow-Methods "
            f"({', '.join(sorted(methods)) or 'none'}): the browser will not send it."
        ]
    wanted = fv.list_values(response.request_headers, "Access-Control-Request-Headers")
    allowed = {h.lower() for h in fv.list_values(response.headers, "Access-Control-Allow-Headers")}
    missing = [h for h in wanted if h.lower() not in allowed and "*" not in allowed]
    if missing:
        return [
            f"A CORS preflight: {', '.join(missing)} not among "
            "Access-Control-Allow-Headers: the browser will not send the request with them."
        ]
    steps = [f"A CORS preflight that passes: {page} may send {asked} here."]
    if allowed_origin == "*" and response.first("Access-Control-Allow-Credentials") == "true":
        steps.append(
            "But Access-Control-Allow-Origin: * with credentials allowed: browsers refuse "
            "credentials with *; the server must name the origin."
        )
    age = fv.parse_delta_seconds(response.first("Access-Control-Max-Age") or "")
    if age:
        steps.append(
            f"The browser may reuse this answer for {fv.format_duration(age)} "
            "(Access-Control-Max-Age) before it asks again."
        )
    return steps
