"""Status codes 5xx: the server failed; the request may well be fine."""

from __future__ import annotations

from explorer.core.knowledge.model import Cacheability, StatusInfo

_HEURISTIC = Cacheability.HEURISTIC
_EXPLICIT = Cacheability.EXPLICIT
_NEVER = Cacheability.NEVER

STATUSES: tuple[StatusInfo, ...] = (
    StatusInfo(
        code=500,
        phrase="Internal Server Error",
        reference="RFC 9110 §15.6.1",
        cacheability=_EXPLICIT,
        rule=(
            "The server met an unexpected condition that kept it from fulfilling the "
            "request: the catch-all for server failures."
        ),
        meaning="A bug or failure on the server, not (usually) your request.",
        next_steps=(
            "Retry later if the request is idempotent (GET, PUT, DELETE).",
            "Report it with the time and any `X-Request-ID` the response carries.",
            "restwalk-mock injects 500s with `--fault-rate`.",
        ),
        headers=("X-Request-ID",),
    ),
    StatusInfo(
        code=501,
        phrase="Not Implemented",
        reference="RFC 9110 §15.6.2",
        cacheability=_HEURISTIC,
        rule=(
            "The server does not support what the request needs, typically a method it "
            "does not recognise for any resource. Cacheable by default."
        ),
        meaning="The server does not know your method at all (unlike 405: known, not here).",
        next_steps=(
            "Use a standard method; `OPTIONS` lists what the target supports.",
            "On restwalk-mock an unknown token such as `BREW` answers 501.",
        ),
        headers=("Allow",),
    ),
    StatusInfo(
        code=502,
        phrase="Bad Gateway",
        reference="RFC 9110 §15.6.3",
        cacheability=_EXPLICIT,
        rule=(
            "A gateway or proxy got an invalid response from the server behind it while "
            "trying to fulfil the request."
        ),
        meaning="The proxy is up; the application server behind it crashed or spoke garbage.",
        next_steps=(
            "Retry in a little while; if it persists, the upstream service is down.",
            "Check `Via` and `Server` to see which layer answered.",
        ),
        headers=("Via", "Server"),
    ),
    StatusInfo(
        code=503,
        phrase="Service Unavailable",
        reference="RFC 9110 §15.6.4",
        cacheability=_EXPLICIT,
        rule=(
            "The server cannot handle the request now because of overload or maintenance, "
            "which will likely pass. It may send `Retry-After` with the expected delay. "
            "A 503 is not heuristically cacheable (RFC 9110 §15.1): a cache stores and "
            "reuses one only when it says so, with `Cache-Control: max-age`, `Expires` or "
            "`public` (RFC 9111 §3, §4.2). restwalk's mock sends its 503s with "
            "`Cache-Control: no-store`."
        ),
        meaning="Temporarily closed; the same request should work later.",
        next_steps=(
            "Wait as long as `Retry-After` says; without it, back off (1 s, 2 s, 4 s, ...).",
            "On restwalk-mock, `--maintenance` answers 503 to everything but `/admin`.",
        ),
        headers=("Retry-After",),
    ),
    StatusInfo(
        code=504,
        phrase="Gateway Timeout",
        reference="RFC 9110 §15.6.5",
        cacheability=_EXPLICIT,
        rule=("A gateway or proxy did not get a timely answer from the server behind it."),
        meaning=(
            "The application was too slow for the proxy. Careful: it may still have done the work."
        ),
        next_steps=(
            "Retry later; before repeating a POST, check whether it took effect.",
            "If you run the service, raise the proxy's upstream timeout or speed up the handler.",
        ),
        headers=("Via",),
    ),
    StatusInfo(
        code=505,
        phrase="HTTP Version Not Supported",
        reference="RFC 9110 §15.6.6",
        cacheability=_EXPLICIT,
        rule=(
            "The server does not support, or refuses, the major HTTP version of the "
            "request. It should say which versions it does support."
        ),
        meaning="Wrong protocol version on the request line.",
        next_steps=(
            "Use HTTP/1.1 (or HTTP/2 when the server offers it through TLS ALPN).",
            "On restwalk-mock, `HTTP/2.5` on the request line answers 505.",
        ),
    ),
    StatusInfo(
        code=506,
        phrase="Variant Also Negotiates",
        reference="RFC 2295 §8.1",
        cacheability=_EXPLICIT,
        rule=(
            "A configuration error in transparent content negotiation: the variant the "
            "server chose is itself set up to negotiate, a circular reference."
        ),
        meaning="The server's negotiation setup is broken; your request is fine.",
        next_steps=("Report it; a more specific `Accept` may avoid the broken path.",),
        headers=("Accept",),
    ),
    StatusInfo(
        code=507,
        phrase="Insufficient Storage",
        reference="RFC 4918 §11.5",
        cacheability=_EXPLICIT,
        rule=(
            "WebDAV: the server cannot store what it needs to complete the method. The "
            "condition is considered temporary. (Some tables call it a configuration "
            "error, as for 506; RFC 4918 speaks of storage.)"
        ),
        meaning="The server is out of space for this.",
        next_steps=("Retry later or with less data; tell the owners the disk is full.",),
    ),
    StatusInfo(
        code=508,
        phrase="Loop Detected",
        reference="RFC 5842 §7.2",
        cacheability=_EXPLICIT,
        rule=(
            "WebDAV: the server stopped because it found an infinite loop while handling a "
            "request with `Depth: infinity` over bindings."
        ),
        meaning="The server's resources form a cycle it refuses to walk.",
        next_steps=("Report it; ask with a finite depth instead.",),
    ),
    StatusInfo(
        code=510,
        phrase="Not Extended",
        reference="RFC 2774 §7",
        cacheability=_EXPLICIT,
        rule=(
            "The request did not meet the policy for reaching the resource under the HTTP "
            "Extension Framework; the server should say which extension to declare. That "
            "framework is now Historic, so the code is obsolete."
        ),
        meaning="The server wants an extension declared that almost no client knows.",
        next_steps=("Read the body for what it wants; in practice, ask the API's owners.",),
    ),
    StatusInfo(
        code=511,
        phrase="Network Authentication Required",
        reference="RFC 6585 §6",
        cacheability=_NEVER,
        rule=(
            "The client must authenticate to get network access. Intercepting proxies send "
            "it (captive portals on hotel or airport Wi-Fi), never origin servers; it "
            "should link to a login page. Caches must not store it."
        ),
        meaning="This answer is not from the API: the network in between wants a login.",
        next_steps=("Log in to the network in a browser, then send the request again.",),
    ),
)
