"""What to do next, read from the response itself.

:func:`advise` starts from what the response's own headers say (which schemes the
challenge offers, when ``Retry-After`` allows a retry, what ``Allow`` lists, where
``Location`` points) and ends with the status code's general next steps. The
per-status readers live in a table, not an if-chain, and each is a small pure function.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Sequence
from http import HTTPStatus

from explorer.core.knowledge import (
    advice_auth,
    advice_cors,
    advice_headers,
    advice_options,
    advice_success,
)
from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.methods import method_info, method_names
from explorer.core.knowledge.response_facts import ResponseFacts
from explorer.core.knowledge.statuses import status_class, status_info
from explorer.core.text.lazy_pattern import LazyPattern

_BODY_SCAN_LIMIT = 65536
_BACKTICKED_RE = re.compile(r"`([A-Za-z][A-Za-z0-9-]*)")
_IF_HEADER_SAYS = re.compile(r"If `([A-Za-z][A-Za-z0-9-]*)` says")
#: The most field errors a 400 or 422's advice names (the body has them all).
_FIELD_ERRORS_SHOWN = 5
#: What the general steps say of the bundled mock server: a step of its own, a last
#: sentence, a parenthesis; all left out for another server.
_MOCK_STEP = LazyPattern(r"(?:On )?restwalk-mock\b")
_MOCK_ASIDE = LazyPattern(r" \(on restwalk-mock\b[^()]*\)| On restwalk-mock\b.*$")
#: How a 2xx's general step to follow the answer's links begins, and what it becomes
#: when the answer has none.
_FOLLOW_LINKS = "Read the body and follow its links"
_NO_LINKS = (
    "Read the body: it links nowhere, so where to go next comes from the API's "
    "documentation or its OpenAPI description, not from the answer (REST's hypermedia "
    "constraint asks an answer to carry its links)."
)


def advise(
    status: int,
    headers: Sequence[tuple[str, str]],
    method: str | None = None,
    *,
    body: bytes | None = None,
    request_headers: Sequence[tuple[str, str]] = (),
    links: int | None = None,
) -> list[str]:
    """Next steps for this response: its headers' specifics first, then the code's advice.

    ``method`` is the request's method (redirects and 405 depend on it); ``body`` lets a
    406 say which formats its body offers; ``request_headers`` tell a refused credential
    from a missing one; ``links`` is how many links were found in it (None: not looked
    for): with none, "follow its links" would send the person looking for nothing.
    """
    response = ResponseFacts(
        status, headers, method.upper() if method else None, body, request_headers
    )
    steps: list[str] = []
    consumed: set[str] = set()
    general = True
    reader, covers = _READERS.get(status, (None, ()))
    if reader is None and HTTPStatus.MULTIPLE_CHOICES <= status < HTTPStatus.BAD_REQUEST:
        reader, covers = advice_success.redirect, ("Location",)
    if reader is not None:
        specific = reader(response)
        steps.extend(specific)
        if covers and response.first(covers[0]) is not None:
            consumed.update(name.lower() for name in covers)
        # the fields named, the method placed: the code's general words would repeat it
        general = not (specific and reader in _SAID_FOR_THE_CODE)
    for header_reader, names in _HEADER_READERS:
        found = header_reader(response)
        steps.extend(found)
        if found:
            consumed.update(name.lower() for name in names)
            general = general and header_reader not in _SAID_FOR_THE_CODE
    later, spoken_for = _LATER_READERS.get(status, (None, ()))
    consumed.update(name.lower() for name in (*spoken_for, *_SPOKEN_FOR.get(status, ())))
    general_steps = _general_steps(status) if general else []
    if response.another_server:
        general_steps = [
            _MOCK_ASIDE.sub("", step) for step in general_steps if not _MOCK_STEP.match(step)
        ]
    general_steps = [step for step in general_steps if _applies(step, response)]
    if links == 0:
        general_steps = [_NO_LINKS if s.startswith(_FOLLOW_LINKS) else s for s in general_steps]
    steps.extend(step for step in general_steps if not _mentions(step, consumed))
    if later is not None:
        steps.extend(later(response))
    return list(dict.fromkeys(steps))


def _general_steps(status: int) -> list[str]:
    """The code's own next steps; for an unknown code, its class's advice (RFC 9110 §15)."""
    info = status_info(status)
    if info is not None:
        return list(info.next_steps)
    cls = status_class(status)
    if cls is None:
        return [f"{status} is not a valid status code (they run from 100 to 599)."]
    return [
        f"{status} is not a code we know; treat it as {cls.digit}00 ({cls.label}). {cls.advice}"
    ]


def _applies(step: str, response: ResponseFacts) -> bool:
    """False for a step about what a header says ("If `WWW-Authenticate` says ...") when
    the response has no such header."""
    match = _IF_HEADER_SAYS.match(step)
    return match is None or response.first(match.group(1)) is not None


def _mentions(step: str, headers: set[str]) -> bool:
    """True when a general step is about a header the specific advice already covered."""
    return any(name.lower() in headers for name in _BACKTICKED_RE.findall(step))


# -- methods and formats --------------------------------------------------------------


def _allow(response: ResponseFacts) -> list[str]:
    allowed = fv.values(response.headers, "Allow")
    sent = f" You sent {response.method}." if response.method else ""
    if not allowed:
        return [
            "No Allow header, though RFC 9110 requires one with 405: send OPTIONS to ask "
            f"which methods the URL takes.{sent}"
        ]
    methods = fv.list_values(response.headers, "Allow")
    if not methods:
        return [f"Allow is empty: no method is allowed on this URL right now.{sent}"]
    if response.method and response.method.upper() in (m.upper() for m in methods):
        return [
            f"Allow lists {', '.join(methods)}, the {response.method} you sent among them, "
            "yet the answer is 405: a demo of the status (as /status/405 is) or a server "
            "at odds with itself."
        ]
    return [f"This URL allows {', '.join(methods)}.{sent} Use one of those."]


def _not_implemented(response: ResponseFacts) -> list[str]:
    if not response.method:
        return []
    if method_info(response.method) is None:
        return [
            f"{response.method} is not a standard method; the standard ones are "
            f"{', '.join(method_names())}."
        ]
    if response.method in ("GET", "HEAD"):
        return [
            f"{response.method} is a method every general-purpose server must support "
            "(RFC 9110 §9.1), yet the answer is 501: a demo of the status (as /status/501 "
            "is) or a server at odds with itself."
        ]
    return [
        f"{response.method} is a standard method, but this server does not implement it "
        "for any URL (a static file server, for one, only reads): send `OPTIONS` to ask "
        "what it offers, or change the resource another way the API documents."
    ]


def _not_acceptable(response: ResponseFacts) -> list[str]:
    alternates = [
        (link.param("type") or "", link.target)
        for link in fv.parse_links(fv.values(response.headers, "Link"))
        if "alternate" in link.rels and link.param("type")
    ]
    if alternates:
        targets = {target for _, target in alternates}
        offered = (
            [media for media, _ in alternates]
            if len(targets) == 1
            else [f"{media} at {target}" for media, target in alternates]
        )
        source = 'Link rel="alternate"'
    else:  # no header says it: look for media types named in the body
        own = (response.first("Content-Type") or "").split(";")[0].strip().lower()
        asked = {
            item.split(";")[0].strip().lower()
            for item in fv.list_values(response.request_headers, "Accept")
        }
        offered = [
            media
            for media in _media_types_in(response.body)
            if media.lower() != own and media.lower() not in asked
        ]
        source = "named in the body"
    steps = []
    if offered:
        steps.append(
            f"The server offers: {', '.join(dict.fromkeys(offered))} ({source}). "
            "Ask for one in Accept."
        )
    vary = fv.list_values(response.headers, "Vary")
    if vary:
        steps.append(f"The choice depends on {', '.join(vary)} (Vary).")
    return steps


@functools.cache
def _media_type_re() -> re.Pattern[str]:
    """A media type named in a text (compiled when a 406's body is first read: its
    case-blind classes cost restwalk's start more than the rest of this module's)."""
    return re.compile(
        r"\b(?:application|text|image|audio|video|multipart|message|font|model)/"
        r"[a-z0-9](?:[a-z0-9.+\-]*[a-z0-9])?",
        re.IGNORECASE,
    )


def _media_types_in(body: bytes | None) -> list[str]:
    if not body:
        return []
    import json  # only a 406 body needs it: keep it off the import path

    text = body[:_BODY_SCAN_LIMIT].decode("utf-8", "replace")
    with contextlib.suppress(
        ValueError, RecursionError
    ):  # JSON may escape "/" as "\/": normalise it
        text = json.dumps(json.loads(text))
    return list(dict.fromkeys(_media_type_re().findall(text)))


def _unsupported_media(response: ResponseFacts) -> list[str]:
    steps = []
    post = fv.list_values(response.headers, "Accept-Post")
    patch = fv.list_values(response.headers, "Accept-Patch")
    encodings = fv.list_values(response.headers, "Accept-Encoding")
    if post:
        steps.append(f"POST bodies may be: {', '.join(post)} (Accept-Post); set Content-Type.")
    if patch:
        steps.append(f"PATCH bodies may be: {', '.join(patch)} (Accept-Patch); set Content-Type.")
    if encodings:
        steps.append(
            f"The server takes these content codings only: {', '.join(encodings)} "
            "(Accept-Encoding); send the body uncompressed or coded that way."
        )
    if not steps:
        steps.append(
            "The response names no accepted types (Accept-Post, Accept-Patch); try "
            "application/json and check the API's documentation."
        )
    return steps


def _refused_fields(response: ResponseFacts) -> list[str]:
    """The fields a 400 or 422 body names, and why each was refused.

    The readers of field errors are imported here, by the first 400 or 422 advised on:
    most pages are no refusal (the TUI's first screen is none).
    """
    from explorer.core.knowledge.field_errors import field_errors

    errors = field_errors(response.body)
    if not errors:
        return []
    # Django REST Framework's messages end with a full stop: one, not ".." nor ".;".
    shown = "; ".join(str(error).rstrip(".") for error in errors[:_FIELD_ERRORS_SHOWN])
    more = len(errors) - _FIELD_ERRORS_SHOWN
    rest = f"; and {more} more in the body" if more > 0 else ""
    return [f"The server refused: {shown}{rest}. Fix those and send again."]


# -- conditions and ranges ------------------------------------------------------------


def _precondition(response: ResponseFacts) -> list[str]:
    etag = response.first("ETag")
    if etag:
        return [
            f"The current ETag is {etag}: check that your change still makes sense, then "
            f"send it again with If-Match: {etag}."
        ]
    return []  # the code's general steps say to GET it for its ETag: not said twice


def _range_not_satisfiable(response: ResponseFacts) -> list[str]:
    parsed = fv.parse_content_range(response.first("Content-Range") or "")
    if parsed is None or parsed.complete_length is None:
        return ["No usable Content-Range: drop the Range header to get the whole thing."]
    length = parsed.complete_length
    if length == 0:
        return ["The representation is empty (0 bytes): drop the Range header."]
    end = min(length, 1024) - 1
    return [
        f"The complete length is {length} {parsed.unit}: valid positions are 0-{length - 1}; "
        f"e.g. Range: {parsed.unit}=0-{end}."
    ]


def _partial(response: ResponseFacts) -> list[str]:
    value = response.first("Content-Range")
    parsed = fv.parse_content_range(value or "")
    if value is not None and fv.content_range_invalid(value):
        return [
            f"Content-Range: {value} is invalid: its last position is before its first, or "
            "not inside the complete length (RFC 9110, section 14.4), so these bytes "
            "cannot be placed; GET it without Range for the whole."
        ]
    if parsed is None or parsed.first is None or parsed.last is None:
        return []
    total = f" of {parsed.complete_length}" if parsed.complete_length is not None else ""
    text = f"These are {parsed.unit} {parsed.first}-{parsed.last}{total}."
    if parsed.complete_length is None or parsed.last + 1 < parsed.complete_length:
        text += f" Next: Range: {parsed.unit}={parsed.last + 1}-"
        etag = response.first("ETag")
        if etag:
            text += f" with If-Range: {etag}, so the pieces are of one version."
    else:
        text += " That was the last part."
    return [text]


# -- protocols, legal ---------------------------------------------------------------


def _upgrade(response: ResponseFacts) -> list[str]:
    protocols = fv.list_values(response.headers, "Upgrade")
    if not protocols:
        return [f"No Upgrade header, though a {response.status} must name the protocol(s)."]
    if response.status == HTTPStatus.SWITCHING_PROTOCOLS:
        return [f"The connection now speaks {', '.join(protocols)}."]
    return [f"The server requires {', '.join(protocols)} (Upgrade): repeat the request over it."]


def _legal(response: ResponseFacts) -> list[str]:
    links = fv.parse_links(fv.values(response.headers, "Link"))
    blockers = [link.target for link in links if "blocked-by" in link.rels]
    if blockers:
        return [f'Blocked by {", ".join(blockers)} (Link rel="blocked-by").']
    return ['No Link rel="blocked-by": RFC 7725 asks the server to name who blocks it.']


def _payload_too_large(response: ResponseFacts) -> list[str]:
    if "close" in (value.lower() for value in fv.list_values(response.headers, "Connection")):
        return ["The server closed the connection: send a smaller body on a new one."]
    return []


def _backoff(response: ResponseFacts) -> list[str]:
    if advice_headers.says_when_to_retry(response):
        return []  # the Retry-After or rate-limit step says when
    return [
        "The server gave no hint of when to retry (no Retry-After, no rate-limit reset): "
        "back off, doubling the wait each time (1 s, 2 s, 4 s, ...)."
    ]


_Reader = Callable[[ResponseFacts], list[str]]

#: Per status: the reader, and the headers it explains. When the first of those is
#: present, the code's general steps that mention any of them are left out as repeats.
_READERS: dict[int, tuple[_Reader, tuple[str, ...]]] = {
    HTTPStatus.SWITCHING_PROTOCOLS: (_upgrade, ("Upgrade",)),
    HTTPStatus.CREATED: (advice_success.created, ("Location", "ETag")),
    HTTPStatus.ACCEPTED: (advice_success.accepted, ("Location", "Content-Location")),
    HTTPStatus.PARTIAL_CONTENT: (_partial, ("Content-Range", "If-Range", "ETag")),
    HTTPStatus.NOT_MODIFIED: (advice_success.not_modified, ()),
    HTTPStatus.BAD_REQUEST: (_refused_fields, ()),
    HTTPStatus.UNAUTHORIZED: (advice_auth.www_authenticate, ("WWW-Authenticate", "Authorization")),
    HTTPStatus.FORBIDDEN: (advice_auth.forbidden, ()),
    HTTPStatus.METHOD_NOT_ALLOWED: (_allow, ("Allow",)),
    HTTPStatus.NOT_ACCEPTABLE: (_not_acceptable, ()),
    HTTPStatus.PROXY_AUTHENTICATION_REQUIRED: (
        advice_auth.proxy_authenticate,
        ("Proxy-Authenticate", "Proxy-Authorization"),
    ),
    HTTPStatus.PRECONDITION_FAILED: (_precondition, ("ETag",)),
    HTTPStatus.REQUEST_ENTITY_TOO_LARGE: (_payload_too_large, ()),
    HTTPStatus.UNSUPPORTED_MEDIA_TYPE: (_unsupported_media, ("Accept-Post", "Accept-Patch")),
    HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE: (_range_not_satisfiable, ("Content-Range",)),
    HTTPStatus.UNPROCESSABLE_ENTITY: (_refused_fields, ()),
    HTTPStatus.UPGRADE_REQUIRED: (_upgrade, ("Upgrade",)),
    HTTPStatus.PRECONDITION_REQUIRED: (_precondition, ()),
    HTTPStatus.TOO_MANY_REQUESTS: (_backoff, ()),
    HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS: (_legal, ()),
    HTTPStatus.NOT_IMPLEMENTED: (_not_implemented, ()),
    HTTPStatus.SERVICE_UNAVAILABLE: (_backoff, ()),
}

#: Per status: a reader whose steps follow the code's general ones (on a 200, "read the
#: body and follow its links" comes first), and the headers it speaks for, present or
#: not: the general steps naming them ("note `ETag`") are left out rather than name what
#: the response does not carry.
_LATER_READERS: dict[int, tuple[_Reader, tuple[str, ...]]] = {
    HTTPStatus.OK: (
        advice_headers.validators_and_freshness,
        ("ETag", "Last-Modified", "Cache-Control", "Expires"),
    ),
}

#: Readers whose steps, when they have any, say all the code's general steps would.
_SAID_FOR_THE_CODE = (
    advice_auth.forbidden,
    advice_success.created,
    _refused_fields,
    _not_implemented,
    advice_cors.preflight,
    advice_options.options,
)

_RATE_LIMIT_FIELDS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit")

#: Per status: the headers its readers speak for, present or not. The code's general
#: steps naming them ("watch `RateLimit-Remaining`") are left out: advice comes from what
#: the response carries, and the readers say what it lacks.
_SPOKEN_FOR: dict[int, tuple[str, ...]] = {
    HTTPStatus.TOO_MANY_REQUESTS: ("Retry-After", *_RATE_LIMIT_FIELDS),
    HTTPStatus.SERVICE_UNAVAILABLE: ("Retry-After",),
    # the types it lists, or that it names none: "a type the response offers" is not said
    HTTPStatus.UNSUPPORTED_MEDIA_TYPE: ("Accept-Post", "Accept-Patch"),
}

#: Readers of headers any response may carry, and the headers they explain.
_HEADER_READERS: tuple[tuple[_Reader, tuple[str, ...]], ...] = (
    (advice_headers.retry_after, ("Retry-After",)),
    (advice_headers.rate_limit, _RATE_LIMIT_FIELDS),
    (advice_headers.deprecation, ("Deprecation", "Sunset")),
    (advice_cors.preflight, advice_cors.FIELDS),
    (advice_options.options, ("Allow",)),
)
