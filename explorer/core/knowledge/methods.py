"""The nine standard request methods and what each promises (RFC 9110 §9, RFC 5789).

*Safe* means read-only in intent: the client asks for no change on the server.
*Idempotent* means sending the request twice has the same intended effect as once, so a
client may repeat it after a lost answer. *Cacheable* means a response to it may be
stored and reused.
"""

from __future__ import annotations

from explorer.core.knowledge.model import MethodInfo

_METHODS: tuple[MethodInfo, ...] = (
    MethodInfo(
        name="GET",
        safe=True,
        idempotent=True,
        cacheable=True,
        request_body="none: content in a GET has no defined meaning and some servers refuse it",
        response_body="the target's current representation",
        reference="RFC 9110 §9.3.1",
        rule=(
            "Transfer a current representation of the target resource. The main way to "
            "read and to discover: retrieval of information, with no change asked of the "
            "server. A server must always support it."
        ),
        meaning="Read this URL. Safe to send any number of times.",
        next_steps=(
            "Follow the links in the response to walk the API.",
            "Repeat later with `If-None-Match: <ETag>` to get a cheap 304 if nothing changed.",
            "Add `Range` to fetch only part of a large representation.",
        ),
    ),
    MethodInfo(
        name="HEAD",
        safe=True,
        idempotent=True,
        cacheable=True,
        request_body="none",
        response_body="none: exactly the headers a GET would get, without content",
        reference="RFC 9110 §9.3.2",
        rule=(
            "Identical to GET except that the server sends no content. The headers should "
            "be those a GET would receive. A server must always support it."
        ),
        meaning="Check a resource without downloading it: does it exist, how big, changed?",
        next_steps=(
            "Read `Content-Length`, `Content-Type`, `ETag` and `Last-Modified`.",
            "Send GET when you want the content itself.",
        ),
    ),
    MethodInfo(
        name="POST",
        safe=False,
        idempotent=False,
        cacheable=False,
        request_body="yes: the data the target resource processes",
        response_body="the result of the processing, or a pointer to it",
        reference="RFC 9110 §9.3.3",
        rule=(
            "Ask the target to process the enclosed content by its own rules: create a "
            "member of a collection, submit a form, run an action. Its response is "
            "cacheable only with explicit freshness and a matching `Content-Location`, "
            "which few caches implement."
        ),
        meaning="Do something: create, submit, trigger. Sending it twice may do it twice.",
        next_steps=(
            "Expect 201 with `Location` for a new resource, 202 for queued work, 303 to "
            "fetch the result elsewhere.",
            "Do not resend blindly after a timeout: check first whether it took effect "
            "(or use an `Idempotency-Key` if the API supports one).",
        ),
    ),
    MethodInfo(
        name="PUT",
        safe=False,
        idempotent=True,
        cacheable=False,
        request_body="yes: the complete new state of the resource",
        response_body="optional: the new state or a status",
        reference="RFC 9110 §9.3.4",
        rule=(
            "Create the target resource, or replace its state entirely, with the enclosed "
            "representation. Fields you leave out are gone afterwards. Answers 201 when it "
            "created, 200 or 204 when it replaced."
        ),
        meaning="Store exactly this at this URL. Idempotent, not safe: it changes the "
        "resource, and sending it twice leaves the same result as once.",
        next_steps=(
            "Send the whole resource, not only the changed fields (use PATCH for that).",
            "Add `If-Match: <ETag>` so you do not overwrite someone else's change.",
        ),
    ),
    MethodInfo(
        name="PATCH",
        safe=False,
        idempotent=False,
        cacheable=False,
        request_body="yes: a patch document saying what to change",
        response_body="optional: the new state or a status",
        reference="RFC 5789",
        rule=(
            "Apply a set of changes, described in a patch document, to the target. The "
            "media type says how to read it: `application/merge-patch+json` (RFC 7396) "
            "or `application/json-patch+json` (RFC 6902). Not idempotent in general; "
            "`If-Match` makes a repeat harmless."
        ),
        meaning="Change part of a resource and leave the rest alone.",
        next_steps=(
            "Set `Content-Type` to the patch format; a 415 answer names the accepted ones "
            "in `Accept-Patch`.",
            "Send `If-Match: <ETag>` to apply the patch only to the version you saw.",
        ),
    ),
    MethodInfo(
        name="DELETE",
        safe=False,
        idempotent=True,
        cacheable=False,
        request_body="none: content has no defined meaning",
        response_body="optional: 204 with none, 200 with a status, 202 when queued",
        reference="RFC 9110 §9.3.5",
        rule=(
            "Remove the association between the target URL and its current resource. "
            "Repeating it has the same intended effect, though the second answer may be "
            "404 or 410."
        ),
        meaning="Remove this resource.",
        next_steps=("Expect 204 No Content; a later GET of the URL gives 404 or 410.",),
    ),
    MethodInfo(
        name="OPTIONS",
        safe=True,
        idempotent=True,
        cacheable=False,
        request_body="rarely: no standard use",
        response_body="usually none; the answer is in `Allow`",
        reference="RFC 9110 §9.3.7",
        rule=(
            "Ask which communication options the target supports, above all the methods "
            "(in `Allow`). `OPTIONS *` asks about the server as a whole. Browsers also "
            "send it as the CORS preflight."
        ),
        meaning="What may I do with this URL?",
        next_steps=("Read `Allow` in the answer, then pick a listed method.",),
    ),
    MethodInfo(
        name="TRACE",
        safe=True,
        idempotent=True,
        cacheable=False,
        request_body="none: a TRACE must not carry content",
        response_body="the request as the server received it (`message/http`)",
        reference="RFC 9110 §9.3.8",
        rule=(
            "A loop-back test: the final recipient echoes the request message it received. "
            "It shows what the proxies on the way changed (`Via`, `Max-Forwards` limits "
            "the hops). Do not put secrets in it; many servers turn it off."
        ),
        meaning="See your request as the server saw it.",
        next_steps=(
            "Compare the echo with what you sent; restwalk-mock masks `Authorization` and "
            "`Cookie` values in it.",
        ),
    ),
    MethodInfo(
        name="CONNECT",
        safe=False,
        idempotent=False,
        cacheable=False,
        request_body="none; the target is only host:port",
        response_body="after a 2xx, the connection becomes a raw tunnel",
        reference="RFC 9110 §9.3.6",
        rule=(
            "Ask a proxy to open a TCP tunnel to the host and port in the target "
            "(`CONNECT api.example:443`), mainly to carry HTTPS through a proxy."
        ),
        meaning="Proxy business; an API server answers 405 or 501.",
        next_steps=(
            "Use it only when talking to a proxy; restwalk-mock answers 405 (it is not a proxy).",
        ),
    ),
)

_BY_NAME = {info.name: info for info in _METHODS}

#: Characters allowed in a method token (RFC 9110 §5.6.2 `tchar`).
_TCHAR = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def method_info(name: str) -> MethodInfo | None:
    """The entry for a standard method, case-insensitively (``"patch"`` finds PATCH).

    Methods are case-sensitive on the wire; the lookup is lenient so a person typing
    ``explain patch`` still gets an answer.
    """
    return _BY_NAME.get(name.strip().upper())


def all_methods() -> tuple[MethodInfo, ...]:
    """The nine standard methods, most used first."""
    return _METHODS


def method_names() -> tuple[str, ...]:
    """The nine standard method names."""
    return tuple(info.name for info in _METHODS)


def is_method_token(name: str) -> bool:
    """True when ``name`` may be sent as a method: a non-empty token (RFC 9110 §9.1)."""
    return bool(name) and all(char in _TCHAR for char in name)
