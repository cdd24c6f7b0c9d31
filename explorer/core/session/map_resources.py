"""The resources of an API's map: what :meth:`ApiMap.resources
<explorer.core.session.api_map.ApiMap.resources>` folds the URLs met into, and the
relations between them (:meth:`~explorer.core.session.api_map.ApiMap.edges`).

Apart from :mod:`~explorer.core.session.api_map`, which a browser tab imports for its
first page, so that the TUI's start does not build these classes (a frozen dataclass's
methods are compiled as its module is imported) before the map is first shown.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Edge", "Resource"]


@dataclass(frozen=True)
class Resource:
    """One resource of the map: the URLs of one template folded together."""

    origin: str
    template: str
    #: URLs answered, and URLs known (answered or only linked to).
    visited: int
    known: int
    rels: tuple[tuple[str, int], ...]
    statuses: tuple[tuple[int, int], ...]
    media_types: tuple[str, ...]
    #: (method, where it was learnt), in the order RFC 9110 lists methods.
    methods: tuple[tuple[str, tuple[str, ...]], ...]
    uri_templates: tuple[str, ...]
    cache: tuple[str, ...]
    queries: tuple[str, ...]
    depth: int
    declared: bool
    examples: tuple[str, ...]
    #: URLs asked that got no answer (and none answered since).
    failed: int = 0

    @property
    def key(self) -> str:
        """The origin and template: what names the resource across origins."""
        return self.origin + self.template


@dataclass(frozen=True)
class Edge:
    """A link relation from one resource to another (or to itself)."""

    source: str
    rel: str
    target: str
