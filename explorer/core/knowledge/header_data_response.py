"""Header fields a server sends: control data, validators, challenges, limits, policies."""

from __future__ import annotations

from explorer.core.knowledge.model import HeaderInfo, Usage

_RESPONSE = Usage.RESPONSE

HEADERS: tuple[HeaderInfo, ...] = (
    HeaderInfo(
        name="Allow",
        usage=_RESPONSE,
        topic="methods",
        reference="RFC 9110 §10.2.1",
        in_spec=True,
        rule=(
            "The methods the target resource supports. A 405 must carry it; OPTIONS "
            "answers with it. An empty value means no method is allowed right now."
        ),
        meaning="What you may do with this URL.",
        example="Allow: GET, HEAD, PUT, PATCH, DELETE, OPTIONS",
        statuses=(405, 204),
    ),
    HeaderInfo(
        name="Location",
        usage=_RESPONSE,
        topic="redirection",
        reference="RFC 9110 §10.2.2",
        in_spec=True,
        rule=(
            "A URL, possibly relative to the request's, that names: the new resource "
            "after 201, the place to go after a 3xx, or the status monitor after 202."
        ),
        meaning="Where to go next, or where your new resource is.",
        example="Location: /customers/42",
        statuses=(201, 202, 301, 302, 303, 307, 308),
    ),
    HeaderInfo(
        name="Retry-After",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="RFC 9110 §10.2.3",
        in_spec=True,
        rule=(
            "How long to wait before the next request: delay-seconds (`120`) or an "
            "HTTP-date. With 503 the expected downtime, with 429 or 413 when to retry, "
            "with 3xx the minimum wait before following."
        ),
        meaning="When you may try again.",
        example="Retry-After: 120",
        statuses=(413, 429, 503, 202),
    ),
    HeaderInfo(
        name="Server",
        usage=_RESPONSE,
        topic="context",
        reference="RFC 9110 §10.2.4",
        in_spec=True,
        rule=(
            "The software of the origin server, as product tokens. Too much detail helps "
            "attackers, so many servers keep it short."
        ),
        meaning="Which program answered.",
        example="Server: uvicorn",
        statuses=(502,),
    ),
    HeaderInfo(
        name="Expires",
        usage=_RESPONSE,
        topic="caching",
        reference="RFC 9111 §5.3",
        in_spec=True,
        rule=(
            "The HTTP-date after which the response is stale. Caches compare it with "
            "`Date`. Ignored when `Cache-Control` has `max-age` or `s-maxage`; an invalid "
            "value such as `0` means already expired."
        ),
        meaning="Until when this copy may be reused.",
        example="Expires: Sun, 22 Nov 2026 03:01:00 GMT",
        statuses=(200, 304),
    ),
    HeaderInfo(
        name="Last-Modified",
        usage=_RESPONSE,
        topic="conditional",
        reference="RFC 9110 §8.8.2",
        in_spec=True,
        rule=(
            "When the origin believes the representation last changed. A weak validator: "
            "send it back in `If-Modified-Since` or `If-Unmodified-Since`. Without explicit "
            "freshness, caches may guess a lifetime from it."
        ),
        meaning="When this resource last changed.",
        example="Last-Modified: Sun, 22 Nov 2026 02:00:00 GMT",
        statuses=(200, 304),
    ),
    HeaderInfo(
        name="ETag",
        usage=_RESPONSE,
        topic="conditional",
        reference="RFC 9110 §8.8.3",
        rule=(
            "An opaque tag for this version of the representation, in quotes; `W/` marks a "
            "weak tag (same meaning, maybe not the same bytes). It changes when the "
            "resource changes."
        ),
        meaning="The version id to send back in `If-None-Match` (reads) or `If-Match` (writes).",
        example='ETag: "33a64df5"',
        statuses=(200, 201, 304, 412),
    ),
    HeaderInfo(
        name="Vary",
        usage=_RESPONSE,
        topic="caching",
        reference="RFC 9110 §12.5.5",
        rule=(
            "The request headers that chose this representation. A cache may reuse it only "
            "for requests with the same values of those headers; `*` means it cannot reuse "
            "it without asking the server."
        ),
        meaning="The answer would differ if you changed these request headers.",
        example="Vary: Accept, Accept-Encoding, Custom-Header",
        statuses=(200, 304, 406),
    ),
    HeaderInfo(
        name="Age",
        usage=_RESPONSE,
        topic="caching",
        reference="RFC 9111 §5.1",
        rule=(
            "Seconds since the origin generated (or revalidated) the response, as estimated "
            "by the cache that served it. Its presence means a cache answered."
        ),
        meaning="How old this cached copy is.",
        example="Age: 24",
    ),
    HeaderInfo(
        name="WWW-Authenticate",
        usage=_RESPONSE,
        topic="auth",
        reference="RFC 9110 §11.6.1",
        in_spec=True,
        rule=(
            "One or more challenges, each a scheme with parameters (`realm`, and for "
            "Bearer `error`, `error_description`, `scope`). A 401 must carry it; several "
            "challenges may share one value."
        ),
        meaning="How the server wants you to prove who you are.",
        example='WWW-Authenticate: Bearer realm="restwalk", Basic realm="restwalk"',
        statuses=(401, 403),
    ),
    HeaderInfo(
        name="Proxy-Authenticate",
        usage=_RESPONSE,
        topic="auth",
        reference="RFC 9110 §11.7.1",
        rule="The proxy's challenge(s), like `WWW-Authenticate`; a 407 must carry it.",
        meaning="How the proxy wants you to prove who you are.",
        example='Proxy-Authenticate: Basic realm="corporate proxy"',
        statuses=(407,),
    ),
    HeaderInfo(
        name="Authentication-Info",
        usage=_RESPONSE,
        topic="auth",
        reference="RFC 9110 §11.6.3",
        rule="Extra data about a successful authentication, defined by the scheme (Digest).",
        meaning="The server confirms your credentials and may hand the next nonce.",
        example='Authentication-Info: nextnonce="4f1e2c"',
    ),
    HeaderInfo(
        name="Set-Cookie",
        usage=_RESPONSE,
        topic="cookies",
        reference="RFC 6265 §4.1",
        rule=(
            "Asks the client to store a cookie and send it back in `Cookie`. Attributes "
            "set the scope and life: `Path`, `Domain`, `Expires`/`Max-Age`, `Secure`, "
            "`HttpOnly` (no script access), `SameSite`. One cookie per field line."
        ),
        meaning="The server hands you state to return, e.g. a session after login.",
        example="Set-Cookie: session=3f9a1c; HttpOnly; SameSite=Lax; Path=/",
    ),
    HeaderInfo(
        name="Content-Range",
        usage=_RESPONSE,
        topic="range",
        reference="RFC 9110 §14.4",
        rule=(
            "Which part a 206 carries and the complete length: `bytes 0-1023/4096`. In a "
            "416: `bytes */4096`, the complete length only."
        ),
        meaning="Where this slice sits in the whole, and how big the whole is.",
        example="Content-Range: bytes 0-1023/4096",
        statuses=(206, 416),
    ),
    HeaderInfo(
        name="Accept-Ranges",
        usage=_RESPONSE,
        topic="range",
        reference="RFC 9110 §14.3",
        rule="The range units the server supports for the target: `bytes`, or `none`.",
        meaning="Whether you may ask for parts of this resource.",
        example="Accept-Ranges: bytes",
        statuses=(206,),
    ),
    HeaderInfo(
        name="Accept-Patch",
        usage=_RESPONSE,
        topic="negotiation",
        reference="RFC 5789 §3.1",
        rule=(
            "The patch document types the resource accepts in PATCH. Sent with OPTIONS "
            "answers and with 415 after a PATCH of the wrong type."
        ),
        meaning="Which Content-Type your PATCH body must have.",
        example="Accept-Patch: application/merge-patch+json, application/json-patch+json",
        statuses=(415,),
    ),
    HeaderInfo(
        name="Accept-Post",
        usage=_RESPONSE,
        topic="negotiation",
        reference="W3C Linked Data Platform 1.0 §7.1",
        rule="The media types the resource accepts in POST; sent with OPTIONS and 415.",
        meaning="Which Content-Type your POST body must have.",
        example="Accept-Post: application/json",
        statuses=(415,),
    ),
    HeaderInfo(
        name="Content-Disposition",
        usage=_RESPONSE,
        topic="content",
        reference="RFC 6266",
        rule=(
            "`inline` (show it) or `attachment` (save it), with a suggested `filename` "
            "(`filename*` for non-ASCII names)."
        ),
        meaning="Whether the body is meant as a download, and its file name.",
        example='Content-Disposition: attachment; filename="report-7.csv"',
    ),
    HeaderInfo(
        name="RateLimit-Limit",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="IETF draft ratelimit-headers (early versions)",
        rule=(
            "The request quota of the current window. Early drafts of the IETF rate-limit "
            "fields; later drafts fold the three into `RateLimit` and `RateLimit-Policy`. "
            "Many APIs send `X-RateLimit-*` variants."
        ),
        meaning="How many requests you may make per window.",
        example="RateLimit-Limit: 100",
        statuses=(429,),
    ),
    HeaderInfo(
        name="RateLimit-Remaining",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="IETF draft ratelimit-headers (early versions)",
        rule="The requests left in the current window.",
        meaning="How many requests you have left before 429.",
        example="RateLimit-Remaining: 37",
        statuses=(429,),
    ),
    HeaderInfo(
        name="RateLimit-Reset",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="IETF draft ratelimit-headers (early versions)",
        rule=(
            "Seconds until the quota resets. (Some `X-RateLimit-Reset` fields, GitHub's "
            "for one, give a Unix time instead.)"
        ),
        meaning="When your quota fills up again.",
        example="RateLimit-Reset: 7",
        statuses=(429,),
    ),
    HeaderInfo(
        name="RateLimit",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="IETF draft ratelimit-headers",
        rule=(
            "The later drafts' single field: a policy name with `r` (remaining) and `t` "
            '(seconds to reset), e.g. `"default";r=50;t=30`.'
        ),
        meaning="How much quota is left and when it resets.",
        example='RateLimit: "default";r=50;t=30',
        statuses=(429,),
    ),
    HeaderInfo(
        name="RateLimit-Policy",
        usage=_RESPONSE,
        topic="rate limiting",
        reference="IETF draft ratelimit-headers",
        rule="The quota policies: `q` (quota) per `w` (window seconds).",
        meaning="The rules you are counted by.",
        example='RateLimit-Policy: "default";q=100;w=10',
        statuses=(429,),
    ),
    HeaderInfo(
        name="API-Version",
        usage=_RESPONSE,
        topic="versioning",
        reference="restwalk-mock (no RFC)",
        rule=(
            "restwalk-mock names the schema version the response uses: `2` when v2 was "
            "selected by URI, query or `Custom-Header`, `1` when none was asked for."
        ),
        meaning="Which version of the resource's schema you are looking at.",
        example="API-Version: 2",
    ),
    HeaderInfo(
        name="Deprecation",
        usage=_RESPONSE,
        topic="deprecation",
        reference="RFC 9745",
        rule=(
            "The resource is or will be deprecated from this date, a structured date "
            '`@<Unix seconds>`. It still works; a `Link` with rel="deprecation" may '
            "point to details."
        ),
        meaning="Plan to move away from this URL.",
        example="Deprecation: @1796083200",
    ),
    HeaderInfo(
        name="Sunset",
        usage=_RESPONSE,
        topic="deprecation",
        reference="RFC 8594",
        rule="The HTTP-date after which the resource is likely to stop responding.",
        meaning="The date this URL goes away.",
        example="Sunset: Thu, 31 Dec 2026 23:59:59 GMT",
    ),
    HeaderInfo(
        name="Preference-Applied",
        usage=_RESPONSE,
        topic="negotiation",
        reference="RFC 7240 §3",
        rule="Which of the request's `Prefer` wishes the server honoured.",
        meaning="The server did what you preferred.",
        example="Preference-Applied: return=minimal",
    ),
    HeaderInfo(
        name="IM",
        usage=_RESPONSE,
        topic="caching",
        reference="RFC 3229",
        rule="With 226: the instance manipulations applied to produce this response.",
        meaning="How to apply this delta to your copy.",
        example="IM: vcdiff",
        statuses=(226,),
    ),
    HeaderInfo(
        name="Alt-Svc",
        usage=_RESPONSE,
        topic="connection",
        reference="RFC 7838",
        rule=(
            "Other places and protocols serving the same origin, e.g. HTTP/3 on a UDP port, "
            "with how long the offer lasts (`ma`)."
        ),
        meaning="The server could also talk to you over another protocol.",
        example='Alt-Svc: h3=":443"; ma=86400',
    ),
    HeaderInfo(
        name="Strict-Transport-Security",
        usage=_RESPONSE,
        topic="security",
        reference="RFC 6797",
        rule=(
            "Over HTTPS only: for `max-age` seconds the client must use HTTPS for this host "
            "(and its subdomains with `includeSubDomains`). Ignored over plain HTTP."
        ),
        meaning="Never reach this host over plain http:// again.",
        example="Strict-Transport-Security: max-age=31536000; includeSubDomains",
    ),
    HeaderInfo(
        name="X-Content-Type-Options",
        usage=_RESPONSE,
        topic="security",
        reference="Fetch standard",
        rule=(
            "`nosniff`: browsers must trust `Content-Type` and not guess the type from the "
            "bytes. An `X-` name from before RFC 6648, kept for compatibility."
        ),
        meaning="The Content-Type is authoritative.",
        example="X-Content-Type-Options: nosniff",
    ),
    HeaderInfo(
        name="Access-Control-Allow-Origin",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule=(
            "Which origin's scripts may read the response: one origin, or `*` for any "
            "(not with credentials). Browsers enforce it; other clients ignore it."
        ),
        meaning="Whether a web page on another site may read this.",
        example="Access-Control-Allow-Origin: https://app.example.com",
    ),
    HeaderInfo(
        name="Access-Control-Allow-Methods",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="In a preflight answer: the methods a cross-origin script may use.",
        meaning="Which methods a browser page may send here.",
        example="Access-Control-Allow-Methods: GET, POST, PATCH",
    ),
    HeaderInfo(
        name="Access-Control-Allow-Headers",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="In a preflight answer: the request headers a cross-origin script may send.",
        meaning="Which headers a browser page may send here.",
        example="Access-Control-Allow-Headers: authorization, content-type",
    ),
    HeaderInfo(
        name="Access-Control-Allow-Credentials",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="`true`: a cross-origin request with cookies or credentials may be read.",
        meaning="Browser pages may call this with the user's cookies.",
        example="Access-Control-Allow-Credentials: true",
    ),
    HeaderInfo(
        name="Access-Control-Expose-Headers",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="Response headers, beyond the basic safe ones, that a cross-origin script may read.",
        meaning="Which headers a browser page can see.",
        example="Access-Control-Expose-Headers: ETag, Link, Location",
    ),
    HeaderInfo(
        name="Access-Control-Max-Age",
        usage=_RESPONSE,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="Seconds a browser may cache this preflight answer.",
        meaning="How long before the browser asks again.",
        example="Access-Control-Max-Age: 600",
    ),
)
