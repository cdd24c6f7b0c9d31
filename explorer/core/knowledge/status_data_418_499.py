"""Status codes 418 to 499: the client errors named after HTTP/1.1's first list.

RFC 9110's later ones (418, 421, 422, 426), WebDAV's (423, 424, RFC 4918), Too Early
(425, RFC 8470), RFC 6585's (428, 429, 431), 451 (RFC 7725), and nginx's 499. The
first list, 400 to 417, is :mod:`explorer.core.knowledge.status_data_400_417`'s.
"""

from __future__ import annotations

from explorer.core.knowledge.model import Cacheability, StatusInfo

_HEURISTIC = Cacheability.HEURISTIC
_EXPLICIT = Cacheability.EXPLICIT
_NEVER = Cacheability.NEVER

STATUSES: tuple[StatusInfo, ...] = (
    StatusInfo(
        code=418,
        phrase="I'm a teapot",
        reference="RFC 9110 §15.5.19; RFC 2324",
        cacheability=_EXPLICIT,
        other_names=("(Unused)",),
        rule=(
            "A joke: the April Fools' RFC 2324 (Hyper Text Coffee Pot Control Protocol, "
            "1998) says a teapot asked to brew coffee answers it. So many servers copied the "
            "joke that RFC 9110 reserves the code: no other use may be given to it now, "
            "though it could be reassigned if the 4xx codes ever ran out."
        ),
        meaning="The server is joking (or uses it as an easter egg or a bot rebuff); your "
        "HTTP is not at fault.",
        next_steps=(
            "Nothing to fix: read the body, enjoy, and ask a coffee pot next time.",
            "On restwalk-mock, `GET /status/418` shows it.",
        ),
    ),
    StatusInfo(
        code=421,
        phrase="Misdirected Request",
        reference="RFC 9110 §15.5.20",
        cacheability=_EXPLICIT,
        rule=(
            "The request reached a server that cannot answer for the URL's scheme and host, "
            "typically because an HTTP/2 or HTTP/3 connection opened for one host was "
            "reused for another that shares its certificate. The client may retry on a "
            "different connection."
        ),
        meaning="Right server name, wrong connection.",
        next_steps=("Send the request again on a new connection to that host.",),
        headers=("Host",),
    ),
    StatusInfo(
        code=422,
        phrase="Unprocessable Content",
        reference="RFC 9110 §15.5.21",
        cacheability=_EXPLICIT,
        other_names=("Unprocessable Entity",),
        rule=(
            "The server understands the content type and the syntax is correct, but it "
            "cannot process the instructions inside, e.g. JSON that parses but breaks the "
            "resource's rules."
        ),
        meaning="Well-formed body, invalid data.",
        next_steps=(
            "Read the field errors in the problem body, fix those fields, send again.",
            "On restwalk-mock, the `errors` member lists each field and what is wrong.",
        ),
        headers=("Content-Type",),
    ),
    StatusInfo(
        code=423,
        phrase="Locked",
        reference="RFC 4918 §11.3",
        cacheability=_EXPLICIT,
        rule="WebDAV: the source or destination resource of the method is locked.",
        meaning="Someone holds a lock on this resource.",
        next_steps=(
            "Wait and retry, ask the lock holder, or send the lock token (WebDAV `If` header).",
        ),
    ),
    StatusInfo(
        code=424,
        phrase="Failed Dependency",
        reference="RFC 4918 §11.4",
        cacheability=_EXPLICIT,
        rule=(
            "The method could not be performed because it depended on another action that "
            "failed, e.g. one failed property update fails the whole PROPPATCH."
        ),
        meaning="This part was fine; something it depended on was not.",
        next_steps=(
            "Find the failed action (usually reported in the same 207 response), fix it, "
            "and retry the whole request.",
        ),
    ),
    StatusInfo(
        code=425,
        phrase="Too Early",
        reference="RFC 8470 §5.2",
        cacheability=_EXPLICIT,
        in_spec=False,
        rule=(
            "The server will not risk processing a request that could be replayed: it came "
            "in TLS 1.3 early data (0-RTT)."
        ),
        meaning="Sent too soon in the connection's life to be safe.",
        next_steps=("Retry once the TLS handshake has finished (clients do this themselves).",),
        headers=("Early-Data",),
    ),
    StatusInfo(
        code=426,
        phrase="Upgrade Required",
        reference="RFC 9110 §15.5.22",
        cacheability=_EXPLICIT,
        rule=(
            "The server refuses to answer over the current protocol but may after the client "
            "upgrades. It must send `Upgrade` naming the protocol(s) it requires."
        ),
        meaning="This server wants another protocol than the one you used.",
        next_steps=(
            "Repeat the request over a protocol from `Upgrade` (e.g. HTTP/2, or TLS: use "
            "https://).",
        ),
        headers=("Upgrade", "Connection"),
    ),
    StatusInfo(
        code=428,
        phrase="Precondition Required",
        reference="RFC 6585 §3",
        cacheability=_NEVER,
        rule=(
            "The origin server requires the request to be conditional, to prevent lost "
            "updates: two clients reading, changing and writing back the same resource. "
            "Caches must not store it."
        ),
        meaning="Writes here must prove you saw the current version.",
        next_steps=(
            "GET the resource for its `ETag`, then send the write with `If-Match: <ETag>`.",
            "restwalk-mock does this with `--require-preconditions`.",
        ),
        headers=("If-Match", "ETag", "If-Unmodified-Since"),
    ),
    StatusInfo(
        code=429,
        phrase="Too Many Requests",
        reference="RFC 6585 §4",
        cacheability=_NEVER,
        rule=(
            "The client sent too many requests in a given time (rate limiting). The answer "
            "may carry `Retry-After`; how requests are counted is the server's business. "
            "Caches must not store it."
        ),
        meaning="You are being slowed down; requests now will keep failing.",
        next_steps=(
            "Wait as long as `Retry-After` (or `RateLimit-Reset`) says, then go on more slowly.",
            "Watch `RateLimit-Remaining` to stay under the limit.",
            "On restwalk-mock the limit is 100 requests per 10 s per client (`--rate-limit`).",
        ),
        headers=("Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"),
    ),
    StatusInfo(
        code=431,
        phrase="Request Header Fields Too Large",
        reference="RFC 6585 §5",
        cacheability=_NEVER,
        rule=(
            "The server will not process the request because its header fields are too "
            "large, all together or one of them. It may be sent again with smaller ones. "
            "Caches must not store it."
        ),
        meaning="Your headers (often cookies or a huge token) are too big.",
        next_steps=(
            "Drop or shrink large headers and cookies, then send again.",
            "On restwalk-mock the limits are 8 KiB in total and 4 KiB for any one field.",
        ),
        headers=("Cookie",),
    ),
    StatusInfo(
        code=451,
        phrase="Unavailable For Legal Reasons",
        reference="RFC 7725 §3",
        cacheability=_HEURISTIC,
        rule=(
            "The server refuses access because of a legal demand. It should explain in the "
            'body and send `Link` with rel="blocked-by" naming who applies the block. '
            "Cacheable by default. (451 nods to Bradbury's Fahrenheit 451.)"
        ),
        meaning="The resource exists, but the law keeps it from you here.",
        next_steps=(
            "Read the body for the reason, and the `blocked-by` link for who blocks it.",
            "Nothing in your request can fix it. On restwalk-mock one seeded customer is "
            "under legal hold.",
        ),
        headers=("Link",),
    ),
    StatusInfo(
        code=499,
        phrase="Client Closed Request",
        reference="non-standard (nginx)",
        cacheability=_NEVER,
        in_spec=False,
        rule=(
            "Not a real response: nginx writes it in its log when the client closed the "
            "connection before the answer was ready. No client ever receives it."
        ),
        meaning="If you see it in server logs, your client gave up (usually a timeout).",
        next_steps=("Raise the client's timeout, or find out why the server is slow.",),
    ),
)
