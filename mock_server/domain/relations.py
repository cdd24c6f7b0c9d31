"""What each link relation this server uses means: the text behind ``/docs/rels/{rel}``.

Relations without a prefix are registered with IANA (RFC 8288's registry);
``rw:`` ones are this server's own, and HAL's curie maps ``rw:x`` to
``/docs/rels/x``. One table, so the docs and the links cannot drift apart.
"""

from __future__ import annotations

#: Relation name (without ``rw:``) -> what following a link of that relation gives.
RELATIONS: dict[str, str] = {
    # This server's own (rw:...)
    "customers": "The customers collection: people who order, with a name and an address. "
    "Paged with limit/offset, filtered by name and city, sortable.",
    "products": "The products collection: things to order, with a cost (and a currency in "
    "version 2). Filtered by minCost, maxCost and name, sortable.",
    "orders": "Orders: a customer's items, with a status moving draft -> placed -> shipped, "
    "or to cancelled. From a customer, the link lists that customer's orders.",
    "customer": "The customer an order belongs to.",
    "product": "A product named by one of an order's items (one link per item).",
    "customer-search": "A URI template for searching the customers collection.",
    "product-search": "A URI template for searching the products collection.",
    "order-search": "A URI template for searching the orders collection.",
    "token": "POST credentials here to get a bearer token (DELETE revokes it in stored mode).",
    "session": "POST credentials here to start a cookie session; DELETE ends it.",
    "auth": "How to log in: forms for getting a bearer token and for starting or ending a "
    "cookie session.",
    "oauth": "The OAuth 2.0 authorization server's metadata (RFC 8414): its endpoints, "
    "grant types, scopes and clients' documentation. Log in there for a token that acts "
    "for a user with the scopes the user approves.",
    "whoami": "Who the credential you sent belongs to: user name, role, and how it was proved.",
    "root": "The entry point of the API.",
    "admin": "The operator's actions (admin role only), such as restoring the seed data.",
    "status": "A URI template: /status/{code} answers with that status code and the headers "
    "it implies, explaining it.",
    "rels": "The list of link relations this server uses, each explained.",
    "events": "Every change to the data as it happens, as server-sent events "
    "(text/event-stream): from the entry point all of them, from a collection its own. "
    "Each event has an id, a type (customer.created, order.placed, job.progress...), the "
    "time, the resource's URL and its representation; reconnecting with Last-Event-ID "
    "resumes after the last one received.",
    "webhooks": "Webhook subscriptions: POST a callback URL and event types, and each "
    "event is POSTed to it, signed as Standard Webhooks says; each subscription lists its "
    "delivery attempts. Needs a credential.",
    "statuses": "Every status code restwalk teaches, each linking to its demo.",
    "reports": "Order reports: POST starts a job (202); the job says Retry-After until it "
    "is done, then 303 to the report.",
    "report": "The finished report, as CSV; byte ranges (Range) are honoured.",
    "redirect": "A URI template: /redirect/{n} redirects n times before answering; "
    "/redirect/307 (or 301, 302, 303, 308) redirects once to /echo, showing which "
    "codes keep the method.",
    "clients": "Where customers used to live: answers 301 Moved Permanently to /customers.",
    "faults": "Connection-level faults: each link answers by breaking the connection "
    "(reset, close mid-body, wrong Content-Length) or by being slow (trickle, hang).",
    "journal": "The request journal: every request this server received, filterable by "
    "method, path and header; DELETE clears it. Admin only.",
    "httpbin": "httpbin's endpoints, with httpbin's paths and JSON field names: echo, "
    "headers, cookies, auth, caching, delays, streams and random bytes.",
    "anything": "Echoes the request as httpbin does: method, url, args, headers, data, "
    "json, form, files, origin. Any method; any path below it.",
    "headers": "The request's headers, as httpbin shows them.",
    "ip": "The client's address (httpbin's origin).",
    "user-agent": "The request's User-Agent.",
    "cookies": "The cookies the request sent; /cookies/set?name=value and "
    "/cookies/delete?name change them and redirect back.",
    "basic-auth": "A URI template: /basic-auth/{user}/{passwd} accepts exactly those Basic "
    "credentials (200), anything else is a 401.",
    "bearer": "Accepts any bearer token (200, showing it); none is a 401.",
    "delay": "A URI template: /delay/{n} answers after n seconds (at most 10).",
    "drip": "A URI template: numbytes bytes dripped over duration seconds, after delay, "
    "with status code.",
    "bytes": "A URI template: /bytes/{n} answers n random bytes (seed makes them repeatable).",
    "stream": "A URI template: /stream/{n} streams n JSON lines.",
    "cache": "A URI template: /cache/{n} answers with Cache-Control: public, max-age=n; "
    "/cache answers 304 to any conditional request.",
    "etag": "A URI template: /etag/{etag} answers with that ETag, 304 for a matching "
    "If-None-Match, 412 for a failing If-Match.",
    "response-headers": "A URI template: every query parameter becomes a response header.",
    # Registered relations (IANA), as used here
    "self": "The resource itself: the URI to use for it.",
    "collection": "The collection this member belongs to (RFC 6573).",
    "item": "A member of this collection (RFC 6573).",
    "first": "The first page of this collection, with the same filters and sort.",
    "prev": "The page before this one.",
    "next": "The page after this one.",
    "last": "The last page of this collection.",
    "search": "A URI template (RFC 6570) for searching this collection: fill in filters, "
    "sort, limit and offset.",
    "up": "The resource one level up; here, the entry point.",
    "blocked-by": "The entity that blocks access to this resource (RFC 7725, with 451).",
    "related": "A resource related to this one.",
    "describedby": "A resource describing this one (here: a problem type's explanation).",
    "alternate": "The same resource in another media type (the type attribute says which).",
    "start": "The first resource of a series (here: the start of a redirect chain).",
    "service-desc": "A machine-readable description of the API (OpenAPI, RFC 8631).",
    "service-doc": "Documentation of the API for people (RFC 8631).",
    "curies": "HAL's compact URIs: how 'rw:x' expands to the documentation of relation x.",
}

#: Explanations of other documentation pages: name -> (title, text).
PAGES: dict[str, tuple[str, str]] = {
    "legal-hold": (
        "Legal hold",
        "A court order blocks publishing this customer's data. Requests for it answer "
        '451 Unavailable For Legal Reasons (RFC 7725), with a Link rel="blocked-by" '
        "pointing here.",
    ),
}
