"""Header fields both requests and responses carry: content, framing, connection, caching."""

from __future__ import annotations

from explorer.core.knowledge.model import HeaderInfo, Usage

_BOTH = Usage.BOTH

HEADERS: tuple[HeaderInfo, ...] = (
    HeaderInfo(
        name="Content-Type",
        usage=_BOTH,
        topic="content",
        reference="RFC 9110 §8.3",
        in_spec=True,
        rule=(
            "The media type of the content: `type/subtype` plus parameters such as "
            "`charset`. The recipient reads the bytes by it; the file name does not count."
        ),
        meaning="What kind of data the body is (JSON, HAL, XML, HTML, CSV...).",
        example="Content-Type: application/json; charset=utf-8",
        hint="Say what your body is, e.g. application/json; needed on POST, PUT and PATCH.",
        statuses=(415,),
    ),
    HeaderInfo(
        name="Content-Length",
        usage=_BOTH,
        topic="content",
        reference="RFC 9110 §8.6; RFC 9112 §6.2",
        in_spec=True,
        rule=(
            "The length of the content in bytes, as a decimal number. In HTTP/1.1 it frames "
            "the message: the recipient reads exactly that many bytes. It is not sent "
            "together with `Transfer-Encoding`."
        ),
        meaning="How many bytes the body has.",
        example="Content-Length: 348",
        hint="Usually set by the client from the body; a body without it may get 411.",
        statuses=(411, 413),
    ),
    HeaderInfo(
        name="Content-Encoding",
        usage=_BOTH,
        topic="content",
        reference="RFC 9110 §8.4",
        in_spec=True,
        rule=(
            "The codings (usually compression: gzip, br, zstd, deflate) applied to the "
            "representation, in the order applied. The media type is that of the data "
            "before coding."
        ),
        meaning="The body is compressed this way; the client decodes it before showing it.",
        example="Content-Encoding: gzip",
        hint="Only if you compressed the body yourself.",
        statuses=(415,),
    ),
    HeaderInfo(
        name="Content-Language",
        usage=_BOTH,
        topic="content",
        reference="RFC 9110 §8.5",
        rule="The natural language(s) of the intended audience, as language tags.",
        meaning="Which human language the text is in.",
        example="Content-Language: en-GB",
        hint="The language of the text you send.",
    ),
    HeaderInfo(
        name="Content-Location",
        usage=_BOTH,
        topic="content",
        reference="RFC 9110 §8.7",
        rule=(
            "A URL of the specific resource that matches this representation. When it "
            "equals the target URL, the content is the target's current state; after a "
            "POST it may name the result of the action."
        ),
        meaning="Where this exact representation lives (e.g. the negotiated version).",
        example="Content-Location: /v2/customers/7",
        hint="Rarely sent in requests.",
        statuses=(200, 201, 202),
    ),
    HeaderInfo(
        name="Date",
        usage=_BOTH,
        topic="caching",
        reference="RFC 9110 §6.6.1",
        in_spec=True,
        rule=(
            "When the message was created, as an HTTP-date in GMT "
            "(`Sun, 06 Nov 1994 08:49:37 GMT`, the RFC 1123 form; recipients also accept "
            "the old RFC 850/1036 and asctime forms). An origin server with a clock must "
            "send it in 2xx, 3xx and 4xx responses."
        ),
        meaning="The server's clock when it answered; caches and Retry-After count from it.",
        example="Date: Sun, 22 Nov 2026 03:00:00 GMT",
        hint="Clients rarely send it.",
    ),
    HeaderInfo(
        name="Cache-Control",
        usage=_BOTH,
        topic="caching",
        reference="RFC 9111 §5.2",
        rule=(
            "Directives for caches. In responses: `max-age=N` (fresh for N seconds), "
            "`s-maxage=N` (for shared caches), `no-cache` (store, but check with the "
            "server before each reuse), `no-store` (never store), `private` (only the "
            "user's own cache), `public`, `must-revalidate`, `immutable`. In requests: "
            "`no-cache`, `max-age=0`, `only-if-cached`..."
        ),
        meaning="Whether and for how long this response may be reused without asking again.",
        example="Cache-Control: max-age=60, must-revalidate",
        hint="`no-cache` forces a fresh answer from the origin instead of a cached copy.",
        statuses=(200, 304),
    ),
    HeaderInfo(
        name="Pragma",
        usage=_BOTH,
        topic="caching",
        reference="RFC 9111 §5.4",
        in_spec=True,
        deprecated=True,
        rule=(
            "HTTP/1.0's cache directive: `Pragma: no-cache` in a request asks for a fresh "
            "copy. RFC 9111 deprecates it; `Cache-Control` wins when both are present, and "
            "nothing defines it in responses."
        ),
        meaning="An old way to say no-cache; only very old caches look at it.",
        example="Pragma: no-cache",
        hint="Send `Cache-Control: no-cache` instead (both, for HTTP/1.0 caches).",
    ),
    HeaderInfo(
        name="Connection",
        usage=_BOTH,
        topic="connection",
        reference="RFC 9110 §7.6.1",
        in_spec=True,
        rule=(
            "Options for this connection only, and the names of hop-by-hop headers a proxy "
            "must remove before forwarding. `close` ends the connection after this "
            "message; `keep-alive` asks an HTTP/1.0 peer to keep it open (HTTP/1.1 keeps it "
            "open by default). Forbidden in HTTP/2 and HTTP/3."
        ),
        meaning="Whether the TCP connection stays open for more requests.",
        example="Connection: close",
        hint="`close` to end the connection after this exchange.",
        statuses=(408, 413),
    ),
    HeaderInfo(
        name="Keep-Alive",
        usage=_BOTH,
        topic="connection",
        reference="RFC 2068 §19.7.1",
        deprecated=True,
        rule=(
            "An HTTP/1.0-era extension giving parameters for a persistent connection, "
            "e.g. `timeout=5, max=100`. Hop-by-hop; not allowed in HTTP/2."
        ),
        meaning="How long the server keeps an idle connection open.",
        example="Keep-Alive: timeout=5, max=100",
        hint="Not needed with HTTP/1.1.",
    ),
    HeaderInfo(
        name="Transfer-Encoding",
        usage=_BOTH,
        topic="connection",
        reference="RFC 9112 §6.1",
        rule=(
            "Codings applied to the message for transfer; `chunked` sends the body in "
            "pieces, each with its size, so the length need not be known up front. "
            "HTTP/1.1 only (HTTP/2 frames messages itself); never with `Content-Length`."
        ),
        meaning="The body came in chunks; the length was not known in advance.",
        example="Transfer-Encoding: chunked",
        hint="Set by the client library when it streams a body.",
        statuses=(411,),
    ),
    HeaderInfo(
        name="Trailer",
        usage=_BOTH,
        topic="connection",
        reference="RFC 9110 §6.6.2",
        rule=(
            "Names the fields that will come after the content, in the trailer section of "
            "a chunked message (e.g. a checksum computed while streaming)."
        ),
        meaning="More header fields arrive after the body.",
        example="Trailer: Content-Digest",
        hint="Only for chunked request bodies with trailer fields.",
    ),
    HeaderInfo(
        name="Upgrade",
        usage=_BOTH,
        topic="connection",
        reference="RFC 9110 §7.8",
        in_spec=True,
        rule=(
            "In a request: protocols the client would like to switch to on this "
            "connection. In a 101: the protocol the server switches to. In a 426: the "
            "protocol(s) the server requires. HTTP/1.1 only; listed in `Connection` too."
        ),
        meaning="Another protocol is offered or required (WebSocket, h2c, TLS).",
        example="Upgrade: websocket",
        hint="Ask to switch protocols; also needs `Connection: Upgrade`.",
        statuses=(101, 426),
    ),
    HeaderInfo(
        name="Via",
        usage=_BOTH,
        topic="proxies",
        reference="RFC 9110 §7.6.3",
        rule=(
            "Each proxy or gateway the message passed adds itself: protocol version and a "
            "name. It shows the layers between client and origin and helps find loops."
        ),
        meaning="Which intermediaries your message went through.",
        example="Via: 1.1 cache.example, 2 gateway",
        hint="Added by proxies, not by clients.",
        statuses=(203, 502, 504),
    ),
    HeaderInfo(
        name="Link",
        usage=_BOTH,
        topic="hypermedia",
        reference="RFC 8288",
        rule=(
            'Typed links in the header section: `<URL>; rel="next"`, with optional '
            "`title`, `type`, `anchor` and more. Several links go in one value, separated "
            "by commas. Relations are registered names (next, prev, self, alternate, "
            "blocked-by...) or URLs."
        ),
        meaning="Links the client can follow without parsing the body: paging, related.",
        example='Link: </customers?offset=20>; rel="next", </customers?offset=0>; rel="first"',
        hint="Rare in requests.",
        statuses=(103, 300, 451),
    ),
    HeaderInfo(
        name="X-Request-ID",
        usage=_BOTH,
        topic="tracing",
        reference="de facto (no RFC); RFC 6648 on X- names",
        rule=(
            "A unique id for one request, set by the client or the first proxy and echoed "
            "in logs and the response, to trace it across services. RFC 6648 deprecates "
            "the `X-` prefix for new fields, but this one is too common to rename."
        ),
        meaning="The id to quote when reporting a problem with this request.",
        example="X-Request-ID: 5f0c2b1e-5a83-4d7b-9b43-0c5c7d2fa1e2",
        hint="Set your own id to find this request in the server's logs.",
        statuses=(500,),
    ),
    HeaderInfo(
        name="Warning",
        usage=_BOTH,
        topic="caching",
        reference="RFC 7234 §5.5; obsoleted by RFC 9111",
        deprecated=True,
        rule=(
            "Carried extra status about a message, mostly cache staleness (`110 Response "
            "is Stale`). RFC 9111 made it obsolete; nothing should send it now."
        ),
        meaning="An obsolete note, usually from an old cache.",
        example='Warning: 110 - "Response is Stale"',
        hint="Do not send it.",
    ),
)
