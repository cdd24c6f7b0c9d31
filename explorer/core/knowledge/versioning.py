"""The four ways the spec lets an API version its resources, and how to pick one.

Existing URIs keep working and keep their original schema whichever way is used; a new
version is a new schema (the spec's example: one address string split into
streetAddress, city, state and zipCode).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VersioningInfo:
    """One versioning approach: where the version goes, and what happens without it."""

    key: str
    name: str
    shape: str
    default: str
    rule: str
    meaning: str
    example: str


APPROACHES: tuple[VersioningInfo, ...] = (
    VersioningInfo(
        key="none",
        name="No versioning",
        shape="no version marker anywhere",
        default="not applicable",
        rule=(
            "Breaking changes appear as new resources or new links; added fields are not "
            "breaking, since clients ignore fields they do not expect."
        ),
        meaning="Follow links and ignore unknown fields; the API evolves without numbers.",
        example="GET /customers/7",
    ),
    VersioningInfo(
        key="uri",
        name="URI versioning",
        shape="a version segment in the path: {base_url}/v<number>/<collection>/<id>",
        default="the unversioned path (version 1 on restwalk-mock)",
        rule=(
            "Each version is a different URI, so it can be bookmarked, cached and linked "
            "like any resource. An unknown version segment is an unknown resource: 404."
        ),
        meaning="Change the path to change the version.",
        example="GET /v2/customers/7",
    ),
    VersioningInfo(
        key="query",
        name="Query string versioning",
        shape="a parameter version=<number> in the query",
        default="version 1",
        rule=(
            "The version rides in the query; the path stays the same. An unsupported "
            "version is a bad request: 400."
        ),
        meaning="Add `?version=2` to ask for version 2.",
        example="GET /customers/7?version=2",
    ),
    VersioningInfo(
        key="header",
        name="Header versioning",
        shape="a request header Custom-Header: api-version=<number>",
        default="version 1",
        rule=(
            "The URL stays the same for every version; the header selects one. Caches must "
            "know, so the response carries `Vary: Custom-Header`. An unsupported version "
            "is a bad request: 400."
        ),
        meaning="Send `Custom-Header: api-version=2` to ask for version 2.",
        example="Custom-Header: api-version=2",
    ),
)

#: Where versioning is defined: by the API; these four are restwalk's mock's.
VERSIONING_REFERENCE = "restwalk's mock (no RFC covers API versioning)"

OVERVIEW = (
    "No RFC defines API versioning: each API chooses. restwalk's mock offers four "
    "approaches: none, URI, query string and header. Use a new version when a "
    "resource's schema changes in a breaking way. On restwalk-mock the URI "
    "wins over the query, the query over the header, and two explicit markers that "
    "disagree answer 400; every versioned response says its version in `API-Version`."
)

_BY_KEY = {
    alias: info
    for info in APPROACHES
    for alias in (info.name.lower(), f"{info.key} versioning", info.key)
    if alias != "none"  # "explain none" should not answer about versioning
}


def versioning_info(name: str) -> VersioningInfo | None:
    """The approach called ``name`` (``"uri"``, ``"header versioning"``...)."""
    return _BY_KEY.get(" ".join(name.lower().split()))


def all_versioning() -> tuple[VersioningInfo, ...]:
    """The four approaches, in the spec's order."""
    return APPROACHES
