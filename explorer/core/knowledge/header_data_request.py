"""Header fields a client sends: negotiation, credentials, conditions, context."""

from __future__ import annotations

from explorer.core.knowledge.model import HeaderInfo, Usage

_REQUEST = Usage.REQUEST
_BOTH = Usage.BOTH

HEADERS: tuple[HeaderInfo, ...] = (
    HeaderInfo(
        name="Host",
        usage=_REQUEST,
        topic="routing",
        reference="RFC 9110 §7.2",
        in_spec=True,
        rule=(
            "The host and port of the target URL. Required in every HTTP/1.1 request; it "
            "lets many sites share one IP address. HTTP/2 carries it as `:authority`. "
            "(Some lists put it among the headers of both requests and responses; RFC 9110 "
            "§7.2 makes it a request header only.)"
        ),
        meaning="Which site on the server the request is for.",
        example="Host: api.example.com:8443",
        hint="Set from the URL by the client; override only to test virtual hosts.",
        statuses=(400, 421),
    ),
    HeaderInfo(
        name="Accept",
        usage=_REQUEST,
        topic="negotiation",
        reference="RFC 9110 §12.5.1",
        in_spec=True,
        rule=(
            "The media types the client takes in the response, each with an optional "
            "weight `q` from 0 to 1. `*/*` and `type/*` are wildcards; the most specific "
            "match wins."
        ),
        meaning="Which formats you want back.",
        example="Accept: application/hal+json, application/json;q=0.9, */*;q=0.1",
        hint="Ask for a format, e.g. application/vnd.siren+json; a mismatch gives 406.",
        statuses=(406,),
    ),
    HeaderInfo(
        name="Accept-Charset",
        usage=_REQUEST,
        topic="negotiation",
        reference="RFC 9110 §12.5.2",
        deprecated=True,
        rule=(
            "Character encodings the client takes. RFC 9110 deprecates it: nearly "
            "everything is UTF-8 now, and the list only helps fingerprinting."
        ),
        meaning="Obsolete in practice.",
        example="Accept-Charset: utf-8",
        hint="Not needed: send UTF-8 and expect UTF-8.",
        statuses=(406,),
    ),
    HeaderInfo(
        name="Accept-Encoding",
        usage=_BOTH,
        topic="negotiation",
        reference="RFC 9110 §12.5.3",
        rule=(
            "In a request: the content codings (compression) the client can decode, with "
            "weights; `identity` means none. In a 415 response: the codings the server "
            "takes in requests."
        ),
        meaning="Which compressions are fine for the body.",
        example="Accept-Encoding: gzip, br;q=0.9",
        hint="Let the client library set it; it decodes the body for you.",
        statuses=(406, 415),
    ),
    HeaderInfo(
        name="Accept-Language",
        usage=_REQUEST,
        topic="negotiation",
        reference="RFC 9110 §12.5.4",
        rule="The natural languages the user prefers, as language tags with weights.",
        meaning="Which human language you want the text in.",
        example="Accept-Language: fr-CH, fr;q=0.9, en;q=0.5",
        hint="Preferred languages, best first.",
        statuses=(406,),
    ),
    HeaderInfo(
        name="Authorization",
        usage=_REQUEST,
        topic="auth",
        reference="RFC 9110 §11.6.2",
        in_spec=True,
        rule=(
            "The client's credentials for the origin server: an authentication scheme, "
            "then the credentials, answering a `WWW-Authenticate` challenge. A shared "
            "cache will not reuse a response to such a request unless it says so."
        ),
        meaning="Who you are, proven.",
        example="Authorization: Bearer eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl",
        hint="`Bearer <token>` (get one from POST /auth/token) or `Basic base64(user:pass)`.",
        statuses=(401, 403),
    ),
    HeaderInfo(
        name="Proxy-Authorization",
        usage=_REQUEST,
        topic="auth",
        reference="RFC 9110 §11.7.2",
        rule=(
            "Credentials for the proxy on the way, answering its `Proxy-Authenticate`. "
            "The proxy consumes it; it is not forwarded."
        ),
        meaning="Who you are, for the proxy.",
        example="Proxy-Authorization: Basic YWxpY2U6d29uZGVybGFuZA==",
        hint="Only when a proxy answers 407.",
        statuses=(407,),
    ),
    HeaderInfo(
        name="Cookie",
        usage=_REQUEST,
        topic="cookies",
        reference="RFC 6265 §5.4",
        rule=(
            "The cookies the client stored from `Set-Cookie` for this site and path, as "
            "`name=value` pairs separated by `; `."
        ),
        meaning="Your session and other state the server asked you to keep.",
        example="Cookie: session=3f9a1c",
        hint="`session=<value>` from a login's Set-Cookie (POST /auth/session on the mock).",
        statuses=(431,),
    ),
    HeaderInfo(
        name="Expect",
        usage=_REQUEST,
        topic="content",
        reference="RFC 9110 §10.1.1",
        in_spec=True,
        rule=(
            "Behaviour the client expects before it goes on. The only defined value is "
            "`100-continue`: wait for a 100 (or a final refusal) before sending the body."
        ),
        meaning="Ask the server to approve a large body before you send it.",
        example="Expect: 100-continue",
        hint="`100-continue` for large bodies; any other value gets 417.",
        statuses=(100, 417),
    ),
    HeaderInfo(
        name="From",
        usage=_REQUEST,
        topic="context",
        reference="RFC 9110 §10.1.2",
        in_spec=True,
        rule=(
            "An email address for the human or robot behind the request, so a server "
            "operator can reach them. Must not be sent without the user's consent."
        ),
        meaning="Who to contact about this client (mostly crawlers set it).",
        example="From: webmaster@example.org",
        hint="Your contact address, for automated clients.",
    ),
    HeaderInfo(
        name="Referer",
        usage=_REQUEST,
        topic="context",
        reference="RFC 9110 §10.1.3",
        in_spec=True,
        rule=(
            "The URL of the resource the target URL was obtained from (the misspelling is "
            "historical). It never carries the fragment or credentials."
        ),
        meaning="Where you came from.",
        example="Referer: https://api.example.com/customers",
        hint="The page that linked here; restwalk does not send it by default.",
    ),
    HeaderInfo(
        name="User-Agent",
        usage=_REQUEST,
        topic="context",
        reference="RFC 9110 §10.1.5",
        in_spec=True,
        rule="The client software: product tokens with versions, most significant first.",
        meaning="Which program sent the request.",
        example="User-Agent: restwalk/0.1.0 python-httpx/0.28.1",
        hint="Identify your client; some APIs reject requests without it.",
    ),
    HeaderInfo(
        name="If-Match",
        usage=_REQUEST,
        topic="conditional",
        reference="RFC 9110 §13.1.1",
        rule=(
            "Apply the method only if the resource's current ETag is one of those listed "
            "(strong comparison), or exists at all for `*`. Otherwise 412. Prevents lost "
            "updates."
        ),
        meaning="Only change it if it is still the version I saw.",
        example='If-Match: "a1b2c3"',
        hint="The ETag from your last GET; the write fails with 412 if someone changed it.",
        statuses=(412, 428),
    ),
    HeaderInfo(
        name="If-None-Match",
        usage=_REQUEST,
        topic="conditional",
        reference="RFC 9110 §13.1.2",
        rule=(
            "Apply the method only if no current ETag matches (weak comparison). On GET or "
            "HEAD a match answers 304; on writes it answers 412, so `If-None-Match: *` "
            "means create only if absent."
        ),
        meaning="Send it only if it changed since my copy.",
        example='If-None-Match: "a1b2c3"',
        hint="The ETag of your cached copy: 304 means it is still current.",
        statuses=(304, 412),
    ),
    HeaderInfo(
        name="If-Modified-Since",
        usage=_REQUEST,
        topic="conditional",
        reference="RFC 9110 §13.1.3",
        in_spec=True,
        rule=(
            "A conditional GET or HEAD by date: send the representation only if it changed "
            "after this HTTP-date, else 304. Ignored when `If-None-Match` is present."
        ),
        meaning="Send it only if it changed since this time.",
        example="If-Modified-Since: Sun, 22 Nov 2026 02:00:00 GMT",
        hint="The Last-Modified of your cached copy.",
        statuses=(304,),
    ),
    HeaderInfo(
        name="If-Unmodified-Since",
        usage=_REQUEST,
        topic="conditional",
        reference="RFC 9110 §13.1.4",
        rule=(
            "Apply the method only if the resource has not changed since this HTTP-date; "
            "otherwise 412. The date-based cousin of `If-Match`, ignored when `If-Match` "
            "is present."
        ),
        meaning="Only change it if nobody changed it after this time.",
        example="If-Unmodified-Since: Sun, 22 Nov 2026 02:00:00 GMT",
        hint="The Last-Modified from your last GET; prefer If-Match with the ETag.",
        statuses=(412, 428),
    ),
    HeaderInfo(
        name="If-Range",
        usage=_REQUEST,
        topic="range",
        reference="RFC 9110 §13.1.5",
        rule=(
            "Makes `Range` conditional: if the ETag (or date) still matches, send the "
            "range (206); if not, send the whole new representation (200)."
        ),
        meaning="Resume only if the file has not changed.",
        example='If-Range: "a1b2c3"',
        hint="The ETag of the partial copy you are completing.",
        statuses=(206,),
    ),
    HeaderInfo(
        name="Range",
        usage=_REQUEST,
        topic="range",
        reference="RFC 9110 §14.2",
        in_spec=True,
        rule=(
            "Ask for part(s) of the representation: `bytes=0-499`, `bytes=500-`, "
            "`bytes=-500` (the last 500). Only GET defines range handling; a server may "
            "ignore it and send everything."
        ),
        meaning="Send only these bytes.",
        example="Range: bytes=0-1023",
        hint="`bytes=start-end` (inclusive); see Accept-Ranges on the response.",
        statuses=(206, 416),
    ),
    HeaderInfo(
        name="Max-Forwards",
        usage=_REQUEST,
        topic="proxies",
        reference="RFC 9110 §7.6.2",
        rule=(
            "For TRACE and OPTIONS: how many more proxies may forward the request; each "
            "one decrements it, and the one that finds 0 answers itself."
        ),
        meaning="Probe the chain of proxies hop by hop.",
        example="Max-Forwards: 0",
        hint="With TRACE: 0 makes the first proxy answer.",
    ),
    HeaderInfo(
        name="TE",
        usage=_REQUEST,
        topic="connection",
        reference="RFC 9110 §10.1.4",
        rule=(
            "Transfer codings the client accepts in the response, and `trailers` to say it "
            "handles trailer fields. Hop-by-hop; in HTTP/2 only `TE: trailers` is allowed."
        ),
        meaning="Which transfer codings you can take (rarely needed).",
        example="TE: trailers",
        hint="`trailers` if your client reads trailer fields (gRPC needs it).",
    ),
    HeaderInfo(
        name="Origin",
        usage=_REQUEST,
        topic="cors",
        reference="RFC 6454 §7; Fetch standard",
        rule=(
            "The scheme, host and port of the page that started the request. Browsers send "
            "it on cross-origin requests; the server's CORS answer decides whether the "
            "page may read the response."
        ),
        meaning="Which web site's script is asking.",
        example="Origin: https://app.example.com",
        hint="Set it to test the server's CORS answers.",
    ),
    HeaderInfo(
        name="Access-Control-Request-Method",
        usage=_REQUEST,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="In a CORS preflight (OPTIONS): the method the real request will use.",
        meaning="A browser asks whether it may send this method cross-origin.",
        example="Access-Control-Request-Method: PATCH",
        hint="With OPTIONS and Origin, to test a CORS preflight.",
    ),
    HeaderInfo(
        name="Access-Control-Request-Headers",
        usage=_REQUEST,
        topic="cors",
        reference="Fetch standard (CORS)",
        rule="In a CORS preflight: the non-simple headers the real request will carry.",
        meaning="A browser asks whether it may send these headers cross-origin.",
        example="Access-Control-Request-Headers: authorization, content-type",
        hint="With OPTIONS and Origin, to test a CORS preflight.",
    ),
    HeaderInfo(
        name="Forwarded",
        usage=_REQUEST,
        topic="proxies",
        reference="RFC 7239",
        rule=(
            "Added by proxies: who the original client was and how it connected "
            "(`for=`, `by=`, `host=`, `proto=`). The standard form of the `X-Forwarded-*` "
            "family."
        ),
        meaning="The client and protocol as the first proxy saw them.",
        example="Forwarded: for=192.0.2.60;proto=https;by=203.0.113.43",
        hint="Added by proxies; do not trust it unless your own proxy set it.",
    ),
    HeaderInfo(
        name="X-Forwarded-For",
        usage=_REQUEST,
        topic="proxies",
        reference="de facto; standardised as Forwarded (RFC 7239)",
        deprecated=True,
        rule=(
            "The client's address as seen by each proxy, comma-separated, oldest first. "
            "A de facto field (hence `X-`, a prefix RFC 6648 deprecates); `Forwarded` "
            "replaces it."
        ),
        meaning="The addresses the request came through.",
        example="X-Forwarded-For: 203.0.113.7, 198.51.100.2",
        hint="Added by proxies; easy to forge.",
    ),
    HeaderInfo(
        name="DNT",
        usage=_REQUEST,
        topic="context",
        reference="W3C Tracking Preference Expression (discontinued)",
        deprecated=True,
        rule="`DNT: 1` asked sites not to track the user. The W3C work stopped in 2019.",
        meaning="A privacy wish almost no server honours.",
        example="DNT: 1",
        hint="Obsolete.",
    ),
    HeaderInfo(
        name="Custom-Header",
        usage=_REQUEST,
        topic="versioning",
        reference="restwalk's mock (header versioning; no RFC)",
        in_spec=True,
        rule=(
            "restwalk's mock's own choice of a version header: `Custom-Header: "
            "api-version=N` selects version N "
            "of the resource schema; absent means version 1. A URI segment or `version=` "
            "query wins over it, and markers that disagree get 400."
        ),
        meaning="Which schema version you want, without changing the URL.",
        example="Custom-Header: api-version=2",
        hint="`api-version=2` for the v2 schema (structured address).",
        statuses=(400,),
    ),
    HeaderInfo(
        name="Prefer",
        usage=_REQUEST,
        topic="negotiation",
        reference="RFC 7240",
        rule=(
            "Optional wishes the server may honour: `return=minimal` or "
            "`return=representation` after a write, `respond-async`, `wait=10`. "
            "`Preference-Applied` says which were honoured."
        ),
        meaning="How you would like the server to answer, if it can.",
        example="Prefer: return=representation",
        hint="`return=minimal` for a bare 204 after writes.",
    ),
    HeaderInfo(
        name="Idempotency-Key",
        usage=_REQUEST,
        topic="conditional",
        reference="IETF draft (httpapi idempotency-key)",
        rule=(
            "A unique key the client attaches to a POST or PATCH so the server runs it at "
            "most once: a retry with the same key returns the first result."
        ),
        meaning="Makes a non-idempotent request safe to retry, if the API supports it.",
        example="Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324",
        hint="A fresh UUID per operation, reused only for retries of it.",
    ),
    HeaderInfo(
        name="A-IM",
        usage=_REQUEST,
        topic="caching",
        reference="RFC 3229",
        rule="The instance manipulations (e.g. delta encodings) the client accepts.",
        meaning="Ask for only the changes since the version you have.",
        example="A-IM: vcdiff",
        hint="Delta encoding; rarely supported.",
        statuses=(226,),
    ),
    HeaderInfo(
        name="Early-Data",
        usage=_REQUEST,
        topic="connection",
        reference="RFC 8470 §5.1",
        rule=(
            "Added by an intermediary: `1` means the request came in TLS early data "
            "(0-RTT) and could be a replay."
        ),
        meaning="This request may have been replayed.",
        example="Early-Data: 1",
        hint="Set by proxies, not clients.",
        statuses=(425,),
    ),
    HeaderInfo(
        name="Last-Event-ID",
        usage=_REQUEST,
        topic="events",
        reference="WHATWG HTML §9.2 (server-sent events)",
        rule=(
            "Sent by a client reconnecting to a `text/event-stream`: the `id:` of the last "
            "event it got, so the server sends the events after it. A client waits the "
            "stream's `retry:` milliseconds before it reconnects."
        ),
        meaning="Resume this event stream after the event you last saw.",
        example="Last-Event-ID: 42-5f3a9c1e",
        hint="Set by an event-stream client when it reconnects; restwalk does it for you.",
    ),
    HeaderInfo(
        name="Webhook-Id",
        usage=_REQUEST,
        topic="events",
        reference="Standard Webhooks",
        rule=(
            "The id of a webhook message, the same on every retry of it: a receiver that "
            "has seen it already drops the duplicate. It is part of what is signed."
        ),
        meaning="Which message this delivery is; a retry carries the same id.",
        example="Webhook-Id: 42-5f3a9c1e",
        hint="Sent by a webhook sender; `restwalk listen --secret` checks it with the rest.",
    ),
    HeaderInfo(
        name="Webhook-Timestamp",
        usage=_REQUEST,
        topic="events",
        reference="Standard Webhooks",
        rule=(
            "When this attempt was signed, in whole seconds since the epoch. A receiver "
            "refuses one more than five minutes from its own clock: a replayed delivery."
        ),
        meaning="When the sender signed this delivery.",
        example="Webhook-Timestamp: 1796547853",
        hint="Sent by a webhook sender; signed with the id and the body.",
    ),
    HeaderInfo(
        name="Webhook-Signature",
        usage=_REQUEST,
        topic="events",
        reference="Standard Webhooks",
        rule=(
            "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` "
            "under the secret shared when the webhook was made (several, space-separated, "
            "while a secret is rotated). A receiver recomputes it and refuses a mismatch."
        ),
        meaning="Proof that the sender who holds the secret sent exactly this body.",
        example="Webhook-Signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        hint="Check it with the sender's secret: `restwalk listen --secret whsec_...`.",
    ),
)
