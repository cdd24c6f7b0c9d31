"""Where an OpenAPI document comes from: a file, or a URL whose answer is the document or
links to it (``rel="service-desc"``, RFC 8631, as the mock server's root does).

These are pure decisions; the command line and the TUI do the fetching.
"""

from __future__ import annotations

from explorer.core.link import Link

__all__ = ["DOCUMENT_ACCEPT", "MAX_DOCUMENT", "service_desc"]

#: What is asked for when fetching a description.
DOCUMENT_ACCEPT = (
    "application/openapi+json, application/vnd.oai.openapi+json, application/json;q=0.9, "
    "application/openapi+yaml;q=0.8, application/yaml;q=0.8, */*;q=0.1"
)
#: The largest document read from a file, in bytes (GitHub's full description is 12 MB).
MAX_DOCUMENT = 50 * 1000 * 1000


def service_desc(links: tuple[Link, ...] | list[Link]) -> Link | None:
    """The link to the API's description among ``links`` (``service-desc``), if any."""
    return next((link for link in links if link.rel == "service-desc"), None)
