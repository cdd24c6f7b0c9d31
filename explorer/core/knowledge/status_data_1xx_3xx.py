"""Status codes 1xx to 3xx: informational, successful, redirection."""

from __future__ import annotations

from explorer.core.knowledge.model import Cacheability, StatusInfo

_HEURISTIC = Cacheability.HEURISTIC
_EXPLICIT = Cacheability.EXPLICIT
_NEVER = Cacheability.NEVER

STATUSES: tuple[StatusInfo, ...] = (
    StatusInfo(
        code=100,
        phrase="Continue",
        reference="RFC 9110 §15.2.1",
        cacheability=_NEVER,
        rule=(
            "An interim answer: the server has the request's header section and is willing "
            "to take the body. A client that sent `Expect: 100-continue` waits for it before "
            "uploading; a client that has already sent everything ignores it."
        ),
        meaning=(
            "Not the final answer. The server has not refused your request early, so the "
            "body goes out and a final status follows."
        ),
        next_steps=(
            "Nothing to do: the client sends the body and waits for the final status.",
            "For large uploads send `Expect: 100-continue`, so the server can refuse "
            "(401, 413, 417) before the bytes travel.",
        ),
        headers=("Expect",),
    ),
    StatusInfo(
        code=101,
        phrase="Switching Protocols",
        reference="RFC 9110 §15.2.2",
        cacheability=_NEVER,
        other_names=("Switching Protocol",),
        rule=(
            "The server agrees to the client's `Upgrade` request. It names the new protocol "
            "in its own `Upgrade` header and switches right after the blank line that ends "
            "this response."
        ),
        meaning=(
            "The connection no longer speaks HTTP/1.1 after this point: it carries the new "
            "protocol, for example WebSocket or cleartext HTTP/2 (h2c)."
        ),
        next_steps=(
            "Continue in the protocol the `Upgrade` header names; there are no more HTTP "
            "responses on this connection.",
            "restwalk shows HTTP exchanges only; use a WebSocket client for the rest.",
        ),
        headers=("Upgrade", "Connection"),
    ),
    StatusInfo(
        code=102,
        phrase="Processing",
        reference="RFC 2518 §10.1",
        cacheability=_NEVER,
        rule=(
            "A WebDAV interim answer: the request arrived and is still being worked on, "
            "no final response yet. It keeps a client from timing out during a long "
            "operation. RFC 4918 dropped it, but the code stays registered."
        ),
        meaning="The server is busy with your request; the final status is still to come.",
        next_steps=(
            "Keep waiting for the final response; do not resend the request.",
            "For long work, APIs do better with 202 Accepted and a status URL to poll.",
        ),
    ),
    StatusInfo(
        code=103,
        phrase="Early Hints",
        reference="RFC 8297",
        cacheability=_NEVER,
        in_spec=False,
        rule=(
            "An interim answer that carries `Link` headers (rel=preload, preconnect) the "
            "final response will probably have, so a client can start fetching them "
            "while the server still works."
        ),
        meaning="A hint, not the answer: the final status follows on the same request.",
        next_steps=(
            "Wait for the final response; a browser may preload the linked resources meanwhile.",
        ),
        headers=("Link",),
    ),
    StatusInfo(
        code=200,
        phrase="OK",
        reference="RFC 9110 §15.3.1",
        cacheability=_HEURISTIC,
        rule=(
            "The request succeeded. What the content holds depends on the method: GET "
            "returns the target's representation, HEAD the same headers without content, "
            "POST the result of the action, PUT/PATCH/DELETE the status of the action, "
            "OPTIONS the communication options, TRACE the request as the server received it."
        ),
        meaning="It worked; the body is what your method asked for.",
        next_steps=(
            "Read the body and follow its links to go further (that is the hypermedia way).",
            "Note `ETag` or `Last-Modified`: a later GET with `If-None-Match` or "
            "`If-Modified-Since` costs only a 304 when nothing changed.",
            "Check `Cache-Control` to know how long this copy stays fresh.",
        ),
        headers=("Content-Type", "ETag", "Last-Modified", "Cache-Control"),
    ),
    StatusInfo(
        code=201,
        phrase="Created",
        reference="RFC 9110 §15.3.2",
        cacheability=_EXPLICIT,
        rule=(
            "The request was fulfilled and created one or more resources. The main new "
            "resource is named by `Location`, or is the request's target when there is no "
            "`Location`. It follows POST to a collection or PUT to an unused URL."
        ),
        meaning="Your new resource exists now; `Location`, when sent, says where.",
        next_steps=(
            "GET the `Location` URL to see the resource as the server stored it.",
            "Keep its `ETag`: send it back in `If-Match` when you update the resource.",
        ),
        headers=("Location", "ETag", "Content-Location"),
    ),
    StatusInfo(
        code=202,
        phrase="Accepted",
        reference="RFC 9110 §15.3.3",
        cacheability=_EXPLICIT,
        rule=(
            "The request was accepted for processing, which has not finished and may still "
            "fail. HTTP has no way to send the outcome later, so the response should say "
            "where to check on it."
        ),
        meaning="The work is queued or running; the result is not ready yet.",
        next_steps=(
            "Poll the status URL the response points to (`Location`, `Content-Location` or "
            "a link in the body), waiting as long as `Retry-After` says between polls.",
            "On restwalk-mock, `POST /reports` answers 202 with `Location: /jobs/{id}`; the "
            "job answers 303 See Other once the report is ready.",
        ),
        headers=("Location", "Content-Location", "Retry-After"),
    ),
    StatusInfo(
        code=203,
        phrase="Non-Authoritative Information",
        reference="RFC 9110 §15.3.4",
        cacheability=_HEURISTIC,
        rule=(
            "Success, but a transforming proxy changed the content from the origin "
            "server's 200 response (for example recompressed images or added notices)."
        ),
        meaning="You are not seeing exactly what the origin server sent: something in between "
        "rewrote it.",
        next_steps=(
            "If you need the original bytes, send `Cache-Control: no-transform` or avoid "
            "that proxy.",
        ),
        headers=("Via", "Cache-Control"),
    ),
    StatusInfo(
        code=204,
        phrase="No Content",
        reference="RFC 9110 §15.3.5",
        cacheability=_HEURISTIC,
        rule=(
            "Success with no content: the message ends with the header section, and a 204 "
            "can never carry a body. Its headers still count, e.g. the `ETag` of the new "
            "state after a PUT, or `Allow` after OPTIONS."
        ),
        meaning="Done; there is nothing to show, by design.",
        next_steps=(
            "Look at the headers: `ETag` for the updated resource, `Allow` after OPTIONS.",
            "After a DELETE, a GET of the same URL should now give 404 or 410.",
        ),
        headers=("ETag", "Allow"),
    ),
    StatusInfo(
        code=205,
        phrase="Reset Content",
        reference="RFC 9110 §15.3.6",
        cacheability=_EXPLICIT,
        rule=(
            "Success; the client should reset the view that sent the request (clear the "
            "form) so the user can enter the next item. No content is allowed."
        ),
        meaning="Your input was taken; start over with an empty form.",
        next_steps=("Clear the request body and enter the next item.",),
    ),
    StatusInfo(
        code=206,
        phrase="Partial Content",
        reference="RFC 9110 §15.3.7",
        cacheability=_HEURISTIC,
        rule=(
            "The server sends only the part(s) the `Range` header asked for. One part comes "
            "with `Content-Range`; several parts come as `multipart/byteranges`."
        ),
        meaning="You got a slice of the representation, not all of it.",
        next_steps=(
            "Read `Content-Range` for which bytes these are and the total length.",
            "Ask for the next range to go on; add `If-Range` with the `ETag` so you never "
            "join pieces of two different versions.",
        ),
        headers=("Content-Range", "Range", "Accept-Ranges", "If-Range"),
    ),
    StatusInfo(
        code=207,
        phrase="Multi-Status",
        reference="RFC 4918 §11.1",
        cacheability=_EXPLICIT,
        rule=(
            "The body carries a separate status for each of several resources or "
            "operations. WebDAV defines it as an XML `multistatus` document; APIs reuse "
            "the code for batch results."
        ),
        meaning="The request as a whole was processed, but each item has its own outcome: "
        "some may have failed.",
        next_steps=(
            "Read each item's status in the body; retry only the ones that failed.",
            "On restwalk-mock, `POST /customers/batch` answers 207 with one status per item.",
        ),
    ),
    StatusInfo(
        code=208,
        phrase="Already Reported",
        reference="RFC 5842 §7.1",
        cacheability=_EXPLICIT,
        other_names=("Multi-Status",),
        rule=(
            "Used inside a 207 body: members of a WebDAV binding that were already listed "
            "earlier in the same response are not listed again. (Some tables repeat the "
            "name Multi-Status, 207's; the phrase RFC 5842 registers is Already Reported.)"
        ),
        meaning="The same resource was reachable twice; the server lists it only once.",
        next_steps=("Look for that member earlier in the same multistatus response.",),
    ),
    StatusInfo(
        code=226,
        phrase="IM Used",
        reference="RFC 3229 §10.4.1",
        cacheability=_EXPLICIT,
        rule=(
            "A GET was fulfilled and the content is the result of instance manipulations "
            "(such as a delta against a version the client has) that the client asked for "
            "with `A-IM`."
        ),
        meaning="The body is a change set to apply to your copy, not the full representation.",
        next_steps=(
            "Apply the delta to the copy you hold; if you cannot, repeat the GET without `A-IM`.",
        ),
        headers=("A-IM", "IM", "ETag"),
    ),
    StatusInfo(
        code=300,
        phrase="Multiple Choices",
        reference="RFC 9110 §15.4.1",
        cacheability=_HEURISTIC,
        other_names=("Multiple Choice",),
        rule=(
            "The target has several representations, each with its own more specific URL, "
            "and the server wants the client to pick. It may name a preferred one in "
            "`Location`. HTTP defines no format for the list of choices."
        ),
        meaning="The server could not pick for you.",
        next_steps=(
            "Pick one from the body or the `Link` headers, or follow `Location` if given.",
            "Send a precise `Accept` (or `Accept-Language`) so the server can choose itself.",
        ),
        headers=("Location", "Link", "Accept"),
    ),
    StatusInfo(
        code=301,
        phrase="Moved Permanently",
        reference="RFC 9110 §15.4.2",
        cacheability=_HEURISTIC,
        rule=(
            "The target has a new permanent URL, given in `Location`; references to the old "
            "one should be updated. For historical reasons a client may turn a POST into a "
            "GET when following it; 308 exists for when the method must stay."
        ),
        meaning="The resource lives elsewhere for good.",
        next_steps=(
            "Follow `Location` and update your bookmarks and saved requests to the new URL.",
            "If you sent a POST, send it again to the new URL yourself: the redirect may "
            "have been followed as a GET.",
            "On restwalk-mock, `/clients/{id}` moved to `/customers/{id}` this way.",
        ),
        headers=("Location",),
    ),
    StatusInfo(
        code=302,
        phrase="Found",
        reference="RFC 9110 §15.4.3",
        cacheability=_EXPLICIT,
        other_names=("Moved Temporarily",),
        rule=(
            "The target is temporarily at the URL in `Location`; keep using the original URL "
            "later. Like 301, a client may historically turn a POST into a GET when "
            "following it; 307 keeps the method."
        ),
        meaning="Go to `Location` this time only.",
        next_steps=(
            "Follow `Location`, but keep the original URL in bookmarks.",
            "If the method matters, the server should use 307 instead.",
        ),
        headers=("Location",),
    ),
    StatusInfo(
        code=303,
        phrase="See Other",
        reference="RFC 9110 §15.4.4",
        cacheability=_EXPLICIT,
        rule=(
            "The server sends the client to another resource, named in `Location`, to be "
            "fetched with GET. Typical after a POST: the result or a status page lives at "
            "another URL, which is not a new home of the target."
        ),
        meaning="Your request was handled; the answer is at `Location`, read it with GET.",
        next_steps=(
            "GET the `Location` URL; do not repeat the POST.",
            "On restwalk-mock, a finished report job answers 303 to the report.",
        ),
        headers=("Location",),
    ),
    StatusInfo(
        code=304,
        phrase="Not Modified",
        reference="RFC 9110 §15.4.5",
        cacheability=Cacheability.UPDATES,
        rule=(
            "A conditional GET or HEAD (`If-None-Match`, `If-Modified-Since`) found its "
            "condition false: the copy the client holds is still current. There is no "
            "content; the server repeats the headers a 200 would carry that matter to "
            "caches (Cache-Control, Content-Location, Date, ETag, Expires, Vary)."
        ),
        meaning="Your cached copy is still good; nothing was transferred again.",
        next_steps=(
            "Use the copy you already have, and refresh its stored headers from this response.",
            "If you hold no copy, repeat the request without `If-None-Match` and "
            "`If-Modified-Since`.",
        ),
        headers=("ETag", "Cache-Control", "Expires", "Date", "Vary", "If-None-Match"),
    ),
    StatusInfo(
        code=305,
        phrase="Use Proxy",
        reference="RFC 9110 §15.4.6",
        cacheability=_EXPLICIT,
        rule=(
            "Deprecated. It once told the client to repeat the request through the proxy "
            "in `Location`; for security reasons clients no longer obey it."
        ),
        meaning="An obsolete code: a sign of a very old or misconfigured server.",
        next_steps=("Do not follow it; if you need a proxy, configure it yourself.",),
        headers=("Location",),
    ),
    StatusInfo(
        code=306,
        phrase="Unused",
        reference="RFC 9110 §15.4.7",
        cacheability=_EXPLICIT,
        other_names=("(Unused)", "Switch Proxy"),
        rule=(
            "Defined in an early draft (Switch Proxy) and now reserved: no server should send it."
        ),
        meaning="The server is broken or playing; treat it like 300, the generic 3xx.",
        next_steps=("Treat it as 300 Multiple Choices and tell the API's owners.",),
    ),
    StatusInfo(
        code=307,
        phrase="Temporary Redirect",
        reference="RFC 9110 §15.4.8",
        cacheability=_EXPLICIT,
        rule=(
            "The target is temporarily at the URL in `Location`. The client must not change "
            "the method: a POST is sent again as a POST, with its body. Later requests go to "
            "the original URL."
        ),
        meaning="Repeat the same request, unchanged, at `Location` this time.",
        next_steps=(
            "Send the same method and body to `Location`; keep the original URL for later.",
        ),
        headers=("Location",),
    ),
    StatusInfo(
        code=308,
        phrase="Permanent Redirect",
        reference="RFC 9110 §15.4.9",
        cacheability=_HEURISTIC,
        rule=(
            "The target has moved for good to the URL in `Location`, and the method and "
            "body must not change when following. References should be updated."
        ),
        meaning="The resource moved permanently; repeat the same request there.",
        next_steps=(
            "Send the same method and body to `Location`.",
            "Update bookmarks and saved requests to the new URL.",
        ),
        headers=("Location",),
    ),
)
