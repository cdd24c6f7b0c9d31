"""Where an OpenAPI document comes from: a file, or a URL whose answer is the document or
links to it (``rel="service-desc"``, RFC 8631, as the mock server's root does), or whose
server's root links to it, or, when nothing links to one, where the frameworks serve it
(:func:`guessed_locations`: FastAPI's ``/openapi.json``, springdoc's ``/v3/api-docs``...).

:func:`find_service_desc` is the one search for a link, for ``restwalk openapi URL`` and
the TUI's ``O``; the caller does the fetching, through its own client and credentials,
and tries the guesses after it, in order, until one answers with a description.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import urlsplit

from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link

__all__ = [
    "DOCUMENT_ACCEPT",
    "MAX_DOCUMENT",
    "POLITE",
    "WELL_KNOWN",
    "LinksAt",
    "find_service_desc",
    "guessed_locations",
    "not_found_note",
    "polite_locations",
    "service_desc",
]

#: What is asked for when fetching a description.
DOCUMENT_ACCEPT = (
    "application/openapi+json, application/vnd.oai.openapi+json, application/json;q=0.9, "
    "application/openapi+yaml;q=0.8, application/yaml;q=0.8, */*;q=0.1"
)
#: The largest document read from a file, in bytes (GitHub's full description is 12 MB).
MAX_DOCUMENT = 50 * 1000 * 1000

#: Fetches a URL and gives the links of its answer.
LinksAt = Callable[[str], Awaitable[Sequence[Link]]]


def service_desc(links: Sequence[Link]) -> Link | None:
    """The link to the API's description among ``links`` (``service-desc``), if any."""
    return next((link for link in links if link.rel == "service-desc"), None)


async def find_service_desc(url: str, links: Sequence[Link], links_at: LinksAt) -> Link | None:
    """The service-desc link among ``links`` (those of ``url``'s answer), else among those
    of the server's root (``scheme://host/``), fetched with ``links_at``.

    An API links its description from its root, seldom from every resource: a
    person at ``/customers/1`` asking for the operations means that API's.
    """
    link = service_desc(links)
    origin = origin_of(url)
    if link is not None or not origin or url == origin + "/":
        return link
    return service_desc(await links_at(origin + "/"))


#: Where frameworks serve an API's description by default, at the server's root, each
#: tried when nothing links to one: FastAPI, Flask-smorest and Django Ninja's
#: ``openapi.json`` (also under the page's first path segments, where an API is mounted:
#: ``/api/v1/openapi.json``), springdoc (Spring Boot), Swashbuckle (ASP.NET Core),
#: Litestar, drf-spectacular, and Swagger's old name.
WELL_KNOWN: tuple[str, ...] = (
    "/openapi.json",
    "/v3/api-docs",
    "/swagger/v1/swagger.json",
    "/schema/openapi.json",
    "/api/schema/",
    "/swagger.json",
)
#: How many of the page's first path segments are tried as where the API is mounted.
_MOUNT_DEPTH = 2


def guessed_locations(url: str) -> tuple[str, ...]:
    """Where ``url``'s API may serve its description though nothing links to it, most
    specific first: ``openapi.json`` under the page's first folders, then
    :data:`WELL_KNOWN` at its server's root. Empty for a URL with no origin."""
    origin = origin_of(url)
    if not origin:
        return ()
    folders = [segment for segment in urlsplit(url).path.split("/")[1:-1] if segment]
    mounted = [
        "/" + "/".join(folders[:depth]) + "/openapi.json"
        for depth in range(min(len(folders), _MOUNT_DEPTH), 0, -1)
    ]
    paths = dict.fromkeys([*mounted, *WELL_KNOWN])
    return tuple(origin + path for path in paths)


#: The places a search nobody asked for tries (``a`` looks for the API's login URL on its
#: own while the login dialog is open): FastAPI's (Flask-smorest's, Django Ninja's) and
#: springdoc's, the two most common. A person who presses ``a`` expects a login dialog,
#: not a volley of GETs at paths their server may log as probes; ``O`` asks for the
#: description itself and tries all of :func:`guessed_locations`.
POLITE: tuple[str, ...] = WELL_KNOWN[:2]


def polite_locations(url: str) -> tuple[str, ...]:
    """:data:`POLITE` at ``url``'s server root; empty for a URL with no origin."""
    origin = origin_of(url)
    return tuple(origin + path for path in POLITE) if origin else ()


def not_found_note(url: str) -> str:
    """What was looked for, when ``url``'s API has no description restwalk could find."""
    tried = ", ".join(urlsplit(place).path for place in guessed_locations(url))
    return (
        "Neither this page nor its server's root links an OpenAPI description "
        f"(rel=service-desc), and none is at {tried}. restwalk openapi FILE lists a "
        "file's operations; an OPTIONS request may describe a URL instead (Django REST "
        "Framework answers with the fields a POST or PUT takes)."
    )
