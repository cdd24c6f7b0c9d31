"""The REST constraints, and what one response shows of each.

Roy Fielding's dissertation (2000, chapter 5) derives REST from a null style by adding
constraints one at a time; the spec names the same ones. Each entry says the rule, what
it buys, how HTTP carries it, and where a user sees it in a response.
:func:`explain_response` turns a response's status, headers and link relations into
short facts, one per constraint it says something about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.caching import CachingVerdict, explain_caching
from explorer.core.knowledge.methods import method_info
from explorer.core.knowledge.statuses import status_info
from explorer.core.text.plural import counted, noun

__all__ = [
    "CONSTRAINTS",
    "CachingVerdict",
    "ConstraintInfo",
    "all_constraints",
    "constraint_info",
    "explain_caching",
    "explain_hypermedia",
    "explain_response",
]


@dataclass(frozen=True)
class ConstraintInfo:
    """One REST architectural constraint (Fielding 2000, ch. 5), in plain words."""

    key: str
    name: str
    rule: str
    meaning: str
    in_http: str
    how_to_see: str
    optional: bool = False
    aliases: tuple[str, ...] = ()


CONSTRAINTS: tuple[ConstraintInfo, ...] = (
    ConstraintInfo(
        key="client-server",
        name="Client-server",
        rule=(
            "User interface and data storage are separated: the client asks, the server "
            "answers, and each side evolves on its own as long as the interface holds."
        ),
        meaning="restwalk and the server share nothing but HTTP messages.",
        in_http="Every exchange is a request from a client and a response from a server.",
        how_to_see="Any response: the server never calls you; you always ask first.",
    ),
    ConstraintInfo(
        key="stateless",
        name="Stateless",
        rule=(
            "Each request carries everything needed to understand it; the server keeps no "
            "conversation state between requests. Session state lives in the client."
        ),
        meaning=(
            "Any request can be sent on its own, retried, or served by another server "
            "instance: credentials travel with every request."
        ),
        in_http=(
            "`Authorization` on every request (e.g. a signed Bearer token, checked by "
            "recomputing its signature). A cookie session bends the rule: the server keeps a "
            "session store."
        ),
        how_to_see="A request that works alone, with its token; a 401 when you leave it out.",
    ),
    ConstraintInfo(
        key="cacheable",
        name="Cacheable",
        rule=(
            "Responses say whether they may be reused. A cacheable answer can serve later "
            "equivalent requests without asking the server."
        ),
        meaning="Fewer round trips and less load, at the price of possibly stale data.",
        in_http=(
            "`Cache-Control`, `Expires`, `Age`, validators (`ETag`, `Last-Modified`) and "
            "conditional requests answered by 304 (RFC 9111)."
        ),
        how_to_see="The response's Cache-Control and validators; a 304 on a conditional GET.",
        aliases=("cache", "caching"),
    ),
    ConstraintInfo(
        key="uniform-interface",
        name="Uniform interface",
        rule=(
            "One generic interface for every resource: resources named by URIs, changed "
            "through representations, messages that describe themselves, and hypermedia "
            "as the engine of application state."
        ),
        meaning=(
            "The same few methods (GET, POST, PUT, PATCH, DELETE, HEAD) and status codes "
            "work on every URL, so a generic client like restwalk can use any API."
        ),
        in_http=(
            "Standard methods with known properties (safe, idempotent), standard status "
            "codes, and `Content-Type` saying how to read each body."
        ),
        how_to_see="The method, the status line and the Content-Type of every exchange.",
        aliases=("uniform", "self-descriptive messages"),
    ),
    ConstraintInfo(
        key="layered-system",
        name="Layered system",
        rule=(
            "Components see only the layer next to them. Proxies, gateways, caches and load "
            "balancers can sit between client and server unseen."
        ),
        meaning="You cannot tell whether the origin server or a layer in between answered.",
        in_http=(
            "`Via`, `Forwarded`, `Age` (a cache answered), and 502/504 when a gateway's "
            "upstream fails. restwalk-mock stacks one middleware layer per rule."
        ),
        how_to_see="Via or Age headers; 502, 504 and 511 answers come from intermediaries.",
        aliases=("layered", "layers"),
    ),
    ConstraintInfo(
        key="hateoas",
        name="Hypermedia (HATEOAS)",
        rule=(
            "Hypermedia as the engine of application state: the client finds what it may do "
            "next in the links and forms of each response, starting from one entry URL, "
            "instead of building URLs from out-of-band knowledge."
        ),
        meaning=(
            "Follow links, do not guess URLs. The available actions change with the "
            "resource's state (an order in draft offers `place`, a placed one does not)."
        ),
        in_http=(
            "`Link` headers (RFC 8288), `Location`, and links in the body: HAL `_links`, "
            "Siren actions, JSON:API links, HTML forms."
        ),
        how_to_see="The links panel: every link found in the response, numbered.",
        aliases=("hypermedia", "links"),
    ),
    ConstraintInfo(
        key="code-on-demand",
        name="Code on demand (optional)",
        rule=(
            "Servers may extend clients by sending code to run (JavaScript, WebAssembly). "
            "The only optional constraint."
        ),
        meaning="Rare in JSON APIs; the web's scripts are the everyday example.",
        in_http="A body of type `text/javascript` or `application/wasm`.",
        how_to_see="A script body; JSON APIs normally send none.",
        optional=True,
        aliases=("code on demand",),
    ),
)

_BY_KEY = {
    name.lower(): info
    for info in CONSTRAINTS
    for name in (info.key, info.name, *info.aliases, info.key.replace("-", " "))
}

_PAGING = frozenset({"next", "prev", "previous", "first", "last"})
_STRUCTURE = frozenset({"collection", "item", "up", "index", "start", "related", "alternate"})
_DOCS = frozenset({"curies", "describedby", "help", "profile", "service-desc", "service-doc"})
_FORMS = frozenset({"edit", "edit-form", "create-form", "search"})
_CODE_TYPES = ("javascript", "ecmascript", "application/wasm")


def constraint_info(name: str) -> ConstraintInfo | None:
    """The constraint called ``name`` (``"stateless"``, ``"HATEOAS"``, ``"layered"``...)."""
    return _BY_KEY.get(name.strip().lower())


def all_constraints() -> tuple[ConstraintInfo, ...]:
    """Fielding's constraints, in his order.

    Hypermedia is part of the uniform interface; it has an entry of its own because a
    response shows it directly.
    """
    return CONSTRAINTS


def explain_hypermedia(link_count: int, rels: Sequence[str]) -> str:
    """Say which links make a response hypermedia, or that there are none."""
    if link_count <= 0:
        return (
            "Hypermedia: no links. The client must know URLs out of band (from docs or "
            "by building them), which is what REST's hypermedia constraint avoids."
        )
    unique = list(dict.fromkeys(rel.lower() for rel in rels if rel))
    links = counted(link_count, "link")
    if unique == ["self"]:
        return (
            f"Hypermedia, barely: {links}, all rel=self. The response names "
            "itself but offers nowhere to go next."
        )
    groups = [
        ("paging", [rel for rel in unique if rel in _PAGING]),
        ("structure", [rel for rel in unique if rel in _STRUCTURE]),
        ("forms and search", [rel for rel in unique if rel in _FORMS]),
        ("documentation", [rel for rel in unique if rel in _DOCS]),
    ]
    known = _PAGING | _STRUCTURE | _FORMS | _DOCS | {"self"}
    groups.append(("actions and relations", [rel for rel in unique if rel not in known]))
    parts = [f"{label} ({', '.join(found)})" for label, found in groups if found]
    tell = noun(link_count, "tells", "tell")
    text = f"Hypermedia: {links} {tell} the client where it can go next"
    return text + (": " + "; ".join(parts) + "." if parts else ".")


def explain_response(
    status: int,
    headers: Sequence[tuple[str, str]],
    rels: Sequence[str],
    *,
    method: str = "GET",
    request_headers: Sequence[tuple[str, str]] = (),
    now: datetime | None = None,
) -> list[str]:
    """Short facts tying one response to the REST constraints, one line each."""
    facts = [_stateless_fact(headers, request_headers)]
    caching = explain_caching(
        status, headers, method=method, request_headers=request_headers, now=now
    )
    facts.append(caching.summary)
    facts.append(_uniform_fact(status, headers, method))
    facts.append(_layered_fact(headers))
    facts.append(explain_hypermedia(len(rels), rels))
    content_type = (fv.first(headers, "Content-Type") or "").lower()
    if any(kind in content_type for kind in _CODE_TYPES):
        facts.append("Code on demand: the body is code for the client to run.")
    version = fv.first(headers, "API-Version")
    if version:
        facts.append(
            f"Versioned resource: this is schema version {version} (API-Version); old URIs "
            "keep returning the version they always did."
        )
    return facts


def _stateless_fact(
    headers: Sequence[tuple[str, str]], request_headers: Sequence[tuple[str, str]]
) -> str:
    if fv.first(headers, "Set-Cookie") is not None:
        return (
            "Stateless, bent: the server sets a cookie, so it may keep a session about you; "
            "a token sent with every request needs no server-side state."
        )
    if fv.first(request_headers, "Authorization") is not None:
        return (
            "Stateless: the request carried its own credentials (Authorization), so the "
            "server needed nothing from earlier requests."
        )
    if fv.first(request_headers, "Cookie") is not None:
        return (
            "Stateless, bent: the request relied on a session cookie, state the server "
            "keeps between requests."
        )
    return (
        "Stateless: the server answered from this request alone; every request must carry "
        "everything it needs, credentials included."
    )


def _uniform_fact(status: int, headers: Sequence[tuple[str, str]], method: str) -> str:
    content_type = fv.first(headers, "Content-Type")
    described = (
        f"Content-Type: {content_type} says how to read the body"
        if content_type
        else "no Content-Type, so the body (if any) does not describe itself"
    )
    verb = method.strip().upper()
    kind = "a standard method" if method_info(verb) is not None else "a non-standard method"
    info = status_info(status)
    code = info.title if info is not None else f"{status}, read by its class"
    return f"Uniform interface: {kind} ({verb}) and status ({code}); {described}."


def _layered_fact(headers: Sequence[tuple[str, str]]) -> str:
    via = fv.first(headers, "Via")
    age = fv.first(headers, "Age")
    if via or age:
        shown = ", ".join(
            part for part in (f"Via: {via}" if via else "", f"Age: {age}" if age else "") if part
        )
        return f"Layered system: an intermediary handled this response ({shown})."
    return (
        "Layered system: nothing shows a proxy or cache; a client cannot tell whether it "
        "talks to the origin or a layer in between, and need not."
    )
