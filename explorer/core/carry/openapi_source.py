"""Where an OpenAPI document comes from: a file, or a URL whose answer is the document or
links to it (``rel="service-desc"``, RFC 8631, as the mock server's root does), or whose
server's root links to it.

:func:`find_service_desc` is the one search, for ``restwalk openapi URL`` and the
TUI's ``O``; the caller does the fetching, through its own client and credentials.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link

__all__ = ["DOCUMENT_ACCEPT", "MAX_DOCUMENT", "LinksAt", "find_service_desc", "service_desc"]

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
