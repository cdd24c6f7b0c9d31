"""Status codes 400 to 417: the request has a problem the client can fix; the client
errors HTTP/1.1 has named from the start (RFC 2616 §10.4, now RFC 9110 §15.5.1-18).

Those named since are :mod:`explorer.core.knowledge.status_data_418_499`'s.
"""

from __future__ import annotations

from explorer.core.knowledge.model import Cacheability, StatusInfo

_HEURISTIC = Cacheability.HEURISTIC
_EXPLICIT = Cacheability.EXPLICIT

STATUSES: tuple[StatusInfo, ...] = (
    StatusInfo(
        code=400,
        phrase="Bad Request",
        reference="RFC 9110 §15.5.1",
        cacheability=_EXPLICIT,
        rule=(
            "The server cannot or will not process the request because of something it sees "
            "as the client's fault: malformed syntax, bad framing, invalid parameters."
        ),
        meaning="Something in your request is wrong; sending it again unchanged will fail again.",
        next_steps=(
            "Read the problem body (`detail`, `errors`): it should name what is wrong.",
            "Check the query parameters and the JSON syntax of the body.",
            "On restwalk-mock: an unknown query parameter, `limit` over 100, bad JSON, or two "
            "version markers that disagree all answer 400.",
        ),
        headers=("Content-Type",),
    ),
    StatusInfo(
        code=401,
        phrase="Unauthorized",
        reference="RFC 9110 §15.5.2",
        cacheability=_EXPLICIT,
        other_names=("Unauthenticated",),
        rule=(
            "The request lacks valid credentials for the target. The server must send "
            "`WWW-Authenticate` with at least one challenge saying how to authenticate. "
            "If the request carried credentials, they were refused."
        ),
        meaning=(
            "The server does not know who you are (the name says unauthorized, the meaning "
            "is unauthenticated)."
        ),
        next_steps=(
            "Read `WWW-Authenticate`: each challenge names a scheme you may use.",
            "Get a token (on restwalk-mock: `POST /auth/token` with a user name and "
            "password) and send `Authorization: Bearer <token>`, or use the Basic "
            "credentials the challenge offers.",
            "If you sent `Authorization`, it was refused: get a fresh token.",
        ),
        headers=("WWW-Authenticate", "Authorization"),
    ),
    StatusInfo(
        code=402,
        phrase="Payment Required",
        reference="RFC 9110 §15.5.3",
        cacheability=_EXPLICIT,
        rule="Reserved for future use: HTTP gives it no meaning.",
        meaning="Some APIs use it for billing or quota trouble; only the body can say more.",
        next_steps=("Read the body, then check your account or plan with the API's owners.",),
    ),
    StatusInfo(
        code=403,
        phrase="Forbidden",
        reference="RFC 9110 §15.5.4",
        cacheability=_EXPLICIT,
        rule=(
            "The server understood the request and refuses it. If credentials were sent, "
            "they are not enough; sending the same ones again will not help. A server may "
            "answer 404 instead to hide that the resource exists."
        ),
        meaning="The server knows who you are, and you are not allowed to do this.",
        next_steps=(
            "Use an account with the needed rights (on restwalk-mock `bob` is a viewer and "
            "gets 403 on writes; `alice` may write; `admin` may use `/admin`).",
            'If `WWW-Authenticate` says `error="insufficient_scope"`, get a token with '
            "the scope it names.",
        ),
        headers=("WWW-Authenticate",),
    ),
    StatusInfo(
        code=404,
        phrase="Not Found",
        reference="RFC 9110 §15.5.5",
        cacheability=_HEURISTIC,
        rule=(
            "The origin server has no current representation for the target, or will not "
            "say that one exists. It does not say whether this is temporary or for good "
            "(410 says for good)."
        ),
        meaning="Nothing is at this URL: a typo, a wrong id, a wrong version, or hidden.",
        next_steps=(
            "Check the URL: the path and query are case-sensitive.",
            "Go back and follow a link instead of typing the URL.",
            "On restwalk-mock an unsupported version segment (`/v9/...`) or an id never "
            "used answers 404.",
        ),
    ),
    StatusInfo(
        code=405,
        phrase="Method Not Allowed",
        reference="RFC 9110 §15.5.6",
        cacheability=_HEURISTIC,
        rule=(
            "The server knows the method but the target does not support it. The server "
            "must send `Allow` listing the methods the target does support."
        ),
        meaning="This URL exists, but not for this method.",
        next_steps=(
            "Use one of the methods in `Allow`; `OPTIONS` asks for that list any time.",
            "On restwalk-mock, CONNECT and methods turned off with `--disable-method` answer 405.",
        ),
        headers=("Allow",),
    ),
    StatusInfo(
        code=406,
        phrase="Not Acceptable",
        reference="RFC 9110 §15.5.7",
        cacheability=_EXPLICIT,
        rule=(
            "The target has no representation that matches the request's negotiation "
            "headers (`Accept`, `Accept-Encoding`, `Accept-Language`) and the server will "
            "not send a default. It should list what is available."
        ),
        meaning="You asked for a format the server cannot produce.",
        next_steps=(
            "Relax `Accept`: name one of the offered types, or add `*/*` with a lower q.",
            "restwalk-mock offers application/hal+json, application/json, "
            "application/vnd.siren+json, application/vnd.api+json and application/xml.",
        ),
        headers=("Accept", "Accept-Encoding", "Accept-Language", "Vary"),
    ),
    StatusInfo(
        code=407,
        phrase="Proxy Authentication Required",
        reference="RFC 9110 §15.5.8",
        cacheability=_EXPLICIT,
        rule=(
            "Like 401, but a proxy between you and the server wants credentials. The proxy "
            "must send `Proxy-Authenticate` with its challenge(s)."
        ),
        meaning="Your request did not reach the API: a proxy stopped it.",
        next_steps=(
            "Send `Proxy-Authorization` with the proxy's credentials, e.g. set "
            "`HTTPS_PROXY=http://user:password@proxy:port`.",
        ),
        headers=("Proxy-Authenticate", "Proxy-Authorization"),
    ),
    StatusInfo(
        code=408,
        phrase="Request Timeout",
        reference="RFC 9110 §15.5.9",
        cacheability=_EXPLICIT,
        rule=(
            "The server did not get a complete request in the time it was willing to wait. "
            "It should close the connection (`Connection: close`); the client may repeat "
            "the request on a new connection. Some servers just close without answering."
        ),
        meaning="Your client was too slow to send, often on an idle reused connection.",
        next_steps=(
            "Send the request again on a fresh connection.",
            "For slow uploads, check the network or send a smaller body.",
        ),
        headers=("Connection",),
    ),
    StatusInfo(
        code=409,
        phrase="Conflict",
        reference="RFC 9110 §15.5.10",
        cacheability=_EXPLICIT,
        rule=(
            "The request conflicts with the current state of the target. The server should "
            "say enough for the user to resolve it, e.g. an edit against an old version."
        ),
        meaning="The resource's present state does not allow this change.",
        next_steps=(
            "GET the resource, see its state, resolve the clash, then try again.",
            "On restwalk-mock: an order action not valid in the order's state (shipping a "
            "draft) or a duplicate name answers 409; the order's links list only the "
            "actions valid now.",
        ),
    ),
    StatusInfo(
        code=410,
        phrase="Gone",
        reference="RFC 9110 §15.5.11",
        cacheability=_HEURISTIC,
        rule=(
            "The target is no longer at the origin server and this is likely permanent. "
            "Links to it should be removed."
        ),
        meaning="It existed once and was removed on purpose.",
        next_steps=(
            "Remove bookmarks and links to it; retrying will not bring it back.",
            "On restwalk-mock, reading a deleted id answers 410.",
        ),
    ),
    StatusInfo(
        code=411,
        phrase="Length Required",
        reference="RFC 9110 §15.5.12",
        cacheability=_EXPLICIT,
        rule=(
            "The server refuses a request without a `Content-Length`. The client may repeat "
            "it with a valid one."
        ),
        meaning="Your body came without a declared length (no Content-Length, no chunking).",
        next_steps=("Send the body with a `Content-Length` header.",),
        headers=("Content-Length", "Transfer-Encoding"),
    ),
    StatusInfo(
        code=412,
        phrase="Precondition Failed",
        reference="RFC 9110 §15.5.13",
        cacheability=_EXPLICIT,
        rule=(
            "One or more conditions in the request headers (`If-Match`, "
            "`If-Unmodified-Since`, `If-None-Match` on a write) were false on the server, so "
            "the method was not applied to a state the client did not expect."
        ),
        meaning="Usually the resource changed since you read it; your update would have "
        "overwritten someone else's (the lost-update check worked).",
        next_steps=(
            "GET the resource again for its current `ETag`, reapply your change, and send "
            "it with `If-Match: <new ETag>`.",
            'A weak tag (`W/"..."`) in `If-Match` never matches: `If-Match` uses the strong '
            "comparison (RFC 9110 §13.1.1). Send the strong `ETag` as the server gave it.",
        ),
        headers=("If-Match", "If-Unmodified-Since", "If-None-Match", "ETag"),
    ),
    StatusInfo(
        code=413,
        phrase="Content Too Large",
        reference="RFC 9110 §15.5.14",
        cacheability=_EXPLICIT,
        other_names=("Payload Too Large", "Request Entity Too Large"),
        rule=(
            "The request content is larger than the server is willing or able to process. "
            "The server may close the connection; if the limit is temporary it may send "
            "`Retry-After`."
        ),
        meaning="Your body is too big for this server.",
        next_steps=(
            "Send a smaller body, or split the data into several requests.",
            "On restwalk-mock the limit is 1 MiB (`--max-body-size`).",
        ),
        headers=("Retry-After", "Connection", "Content-Length"),
    ),
    StatusInfo(
        code=414,
        phrase="URI Too Long",
        reference="RFC 9110 §15.5.15",
        cacheability=_HEURISTIC,
        other_names=("Request-URI Too Long",),
        rule=(
            "The target URI is longer than the server will interpret. Rare: usually data "
            "that belongs in a POST body, a redirect loop that keeps growing the URL, or an "
            "attack."
        ),
        meaning="Your URL is too long for this server.",
        next_steps=(
            "Shorten the query, or move the data into a POST body.",
            "On restwalk-mock the limit is 2048 bytes (`--max-uri-length`).",
        ),
    ),
    StatusInfo(
        code=415,
        phrase="Unsupported Media Type",
        reference="RFC 9110 §15.5.16",
        cacheability=_EXPLICIT,
        rule=(
            "The server refuses the content because of its format: its `Content-Type` or "
            "`Content-Encoding`, or what it found inside. For an encoding problem the "
            "answer should carry `Accept-Encoding`; `Accept-Post` and `Accept-Patch` name "
            "the types POST and PATCH take."
        ),
        meaning="The server does not take a body of this type here.",
        next_steps=(
            "Set `Content-Type` to a type the response offers (`Accept-Post`, `Accept-Patch`).",
            "On restwalk-mock, PATCH takes application/merge-patch+json and "
            "application/json-patch+json; POST and PUT take application/json.",
        ),
        headers=("Content-Type", "Accept-Post", "Accept-Patch", "Accept-Encoding"),
    ),
    StatusInfo(
        code=416,
        phrase="Range Not Satisfiable",
        reference="RFC 9110 §15.5.17",
        cacheability=_EXPLICIT,
        other_names=("Requested Range Not Satisfiable",),
        rule=(
            "None of the ranges in `Range` overlap the representation (or the server "
            "refuses too many or overlapping ranges). For bytes it should send "
            "`Content-Range: bytes */<complete length>`."
        ),
        meaning="You asked for bytes that do not exist (past the end).",
        next_steps=(
            "Read the complete length in `Content-Range` and ask for a range inside it.",
            "Drop `Range` to get the whole representation.",
        ),
        headers=("Range", "Content-Range"),
    ),
    StatusInfo(
        code=417,
        phrase="Expectation Failed",
        reference="RFC 9110 §15.5.18",
        cacheability=_EXPLICIT,
        rule=(
            "A server on the way could not meet the expectation in `Expect`. The only "
            "expectation HTTP defines is `100-continue`."
        ),
        meaning="Your `Expect` header asked for something this server does not do.",
        next_steps=("Remove `Expect` (or use `Expect: 100-continue`) and send again.",),
        headers=("Expect",),
    ),
)
