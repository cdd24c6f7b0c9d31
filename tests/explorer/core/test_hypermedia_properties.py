"""Documents built from known links are found exactly: HAL, Siren, JSON:API, Link headers.

Each test draws links (relation, href, method, title, template or not), writes
them the way the format says, and checks that ``find_links`` gives back exactly
those links: the relation, the href resolved against the request URL, the
method, the title, ``templated``, where each was found, and nothing more, in
document order. (That arbitrary input never raises is
``test_hypermedia_fuzz.py``'s part.)
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.collector import Collector, escape
from explorer.core.hypermedia.hal import add_hal_links
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import Resolver
from explorer.core.hypermedia.walk import Candidates, url_candidates

BASE = "http://api.test/v1/page?x=1"
ORIGIN = "http://api.test"
PROPERTIES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.~", min_size=1, max_size=8)
PATH = st.lists(SEGMENT.filter(lambda s: s not in (".", "..")), min_size=1, max_size=4).map(
    lambda segments: "/" + "/".join(segments)
)


@dataclass(frozen=True)
class Href:
    """An href as a document writes it, and as restwalk must give it back."""

    written: str
    resolved: str
    templated: bool


@st.composite
def hrefs(draw: st.DrawFn, templates: bool = True) -> Href:
    """A root-relative path, an absolute URL elsewhere, or (maybe) a URI template."""
    path = draw(PATH)
    kind = draw(st.sampled_from(["path", "absolute", "template"] if templates else ["path"]))
    if kind == "absolute":
        url = f"https://other.test{path}"
        return Href(url, url, False)
    if kind == "template":
        written = f"{path}{{?q,page}}"
        return Href(written, f"{ORIGIN}{written}", True)
    return Href(path, f"{ORIGIN}{path}", False)


#: Any text a server may put in a title: quotes, backslashes, commas, non-ASCII.
TITLES = st.none() | st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20
)
REGISTERED = st.sampled_from(
    ["next", "prev", "first", "last", "item", "collection", "edit", "author", "search", "up"]
)
RELATIONS = REGISTERED | st.builds(lambda p: f"https://rels.test{p}", PATH)
METHODS = st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "post", "Put"])
MEDIA_TYPES = st.none() | st.sampled_from(["application/json", "text/html", "image/png"])


def found(doc: object, media_type: str) -> list[Link]:
    return find_links(BASE, 200, [], orjson.dumps(doc), media_type)


# --- HAL -------------------------------------------------------------------------------


@st.composite
def hal_link(draw: st.DrawFn) -> tuple[dict[str, object], Href, str | None, str | None]:
    href = draw(hrefs())
    title, media_type = draw(TITLES), draw(MEDIA_TYPES)
    obj: dict[str, object] = {"href": href.written}
    if href.templated:
        obj["templated"] = True
    if title is not None:
        obj["title"] = title
    if media_type is not None:
        obj["type"] = media_type
    return obj, href, title, media_type


@st.composite
def hal_resource(draw: st.DrawFn, pointer: str, depth: int) -> tuple[dict[str, object], list[Link]]:
    """A HAL resource (``_links``, maybe ``_embedded`` and ``_templates``) and its links."""
    resource: dict[str, object] = {}
    expected: list[Link] = []
    rels = draw(st.lists(RELATIONS, unique=True, max_size=4))
    links: dict[str, object] = {}
    for rel in rels:
        here = f"{pointer}/_links/{escape(rel)}"
        several = draw(st.booleans())
        drawn = draw(st.lists(hal_link(), min_size=1, max_size=3 if several else 1))
        links[rel] = [obj for obj, *_ in drawn] if several else drawn[0][0]
        for index, (_, href, title, media_type) in enumerate(drawn):
            expected.append(
                Link(
                    rel=rel,
                    href=href.resolved,
                    title=title,
                    media_type=media_type,
                    templated=href.templated,
                    source=f"{here}/{index}" if several else here,
                )
            )
    resource["_links"] = links
    if depth < 2 and draw(st.booleans()):
        name = draw(st.sampled_from(["orders", "items", "a/b"]))
        items = []
        for index in range(draw(st.integers(0, 3))):
            item, item_links = draw(
                hal_resource(f"{pointer}/_embedded/{escape(name)}/{index}", depth + 1)
            )
            items.append(item)
            expected += item_links
        resource["_embedded"] = {name: items}
    templates: dict[str, object] = {}
    for key in draw(st.lists(st.sampled_from(["default", "cancel", "edit"]), unique=True)):
        href, method, title = draw(hrefs(templates=False)), draw(METHODS), draw(TITLES)
        template: dict[str, object] = {"method": method, "target": href.written}
        if title is not None:
            template["title"] = title
        templates[key] = template
        expected.append(
            Link(
                rel=key,
                href=href.resolved,
                method=method.upper(),
                title=title,
                source=f"{pointer}/_templates/{key}",
                content_type="application/json",
                name=key,
            )
        )
    if templates:
        resource["_templates"] = templates
    return resource, expected


@PROPERTIES
@given(data=st.data())
def test_hal_links_are_found_exactly(data: st.DataObject) -> None:
    doc, expected = data.draw(hal_resource("", 0))
    assert found(doc, "application/hal+json") == expected
    assert found(doc, "application/json") == expected  # sniffed the same


# --- Siren -----------------------------------------------------------------------------


@st.composite
def siren_entity(draw: st.DrawFn, pointer: str, depth: int) -> tuple[dict[str, object], list[Link]]:
    """A Siren entity (links, actions, sub-entities) and its links."""
    entity: dict[str, object] = {"class": ["thing"]}
    expected: list[Link] = []
    links = []
    for index in range(draw(st.integers(0, 3))):
        rels = draw(st.lists(RELATIONS, min_size=1, max_size=3))
        href, title, media_type = draw(hrefs()), draw(TITLES), draw(MEDIA_TYPES)
        link: dict[str, object] = {"rel": rels, "href": href.written}
        if title is not None:
            link["title"] = title
        if media_type is not None:
            link["type"] = media_type
        links.append(link)
        expected += [
            Link(
                rel=rel,
                href=href.resolved,
                title=title,
                media_type=media_type,
                templated=href.templated,
                source=f"{pointer}/links/{index}",
            )
            for rel in dict.fromkeys(rels)
        ]
    entity["links"] = links
    actions = []
    for index, name in enumerate(draw(st.lists(st.sampled_from(["add", "go"]), unique=True))):
        href, method, title = draw(hrefs()), draw(METHODS), draw(TITLES)
        action: dict[str, object] = {"name": name, "href": href.written, "method": method}
        if title is not None:
            action["title"] = title
        actions.append(action)
        expected.append(
            Link(
                rel=name,
                href=href.resolved,
                method=method.upper(),
                title=title,
                templated=href.templated,
                source=f"{pointer}/actions/{index}",
                content_type="application/x-www-form-urlencoded",
                name=name,
            )
        )
    entity["actions"] = actions
    if depth < 2:
        entities = []
        for index in range(draw(st.integers(0, 2))):
            here = f"{pointer}/entities/{index}"
            if draw(st.booleans()):  # an embedded link
                rels = draw(st.lists(REGISTERED, min_size=1, max_size=2))
                href = draw(hrefs())
                entities.append({"rel": rels, "href": href.written})
                expected += [
                    Link(rel=rel, href=href.resolved, templated=href.templated, source=here)
                    for rel in dict.fromkeys(rels)
                ]
            else:  # an embedded representation
                sub, sub_links = draw(siren_entity(here, depth + 1))
                entities.append({"rel": ["item"], **sub})
                expected += sub_links
        entity["entities"] = entities
    return entity, expected


@PROPERTIES
@given(data=st.data())
def test_siren_links_and_actions_are_found_exactly(data: st.DataObject) -> None:
    doc, expected = data.draw(siren_entity("", 0))
    assert found(doc, "application/vnd.siren+json") == expected


# --- JSON:API --------------------------------------------------------------------------


@st.composite
def jsonapi_links(
    draw: st.DrawFn, pointer: str, members: list[str], relationship: str | None = None
) -> tuple[dict[str, object], list[Link]]:
    """A JSON:API ``links`` object with some of ``members``, as strings or link objects."""
    links: dict[str, object] = {}
    expected: list[Link] = []
    for member in draw(st.lists(st.sampled_from(members), unique=True)):
        href, title = draw(hrefs(templates=False)), draw(TITLES)
        rel = relationship if relationship is not None and member == "related" else member
        if draw(st.booleans()):
            links[member] = href.written
            title = None
        else:
            links[member] = {"href": href.written, **({"title": title} if title else {})}
        expected.append(
            Link(
                rel=rel,
                href=href.resolved,
                title=title,
                source=f"{pointer}/{member}",
                name=relationship,
            )
        )
    return links, expected


@st.composite
def jsonapi_document(draw: st.DrawFn) -> tuple[dict[str, object], list[Link]]:
    """A JSON:API collection document: its links, then each resource's and relationships'."""
    top, expected = draw(jsonapi_links("/links", ["self", "next", "prev", "first", "last"]))
    doc: dict[str, object] = {"links": top}
    data = []
    for index in range(draw(st.integers(0, 3))):
        here = f"/data/{index}"
        links, resource_links = draw(jsonapi_links(f"{here}/links", ["self"]))
        resource: dict[str, object] = {"type": "books", "id": str(index), "links": links}
        expected += resource_links
        relationships: dict[str, object] = {}
        for name in draw(st.lists(st.sampled_from(["author", "publisher"]), unique=True)):
            rel_links, found_links = draw(
                jsonapi_links(f"{here}/relationships/{name}/links", ["self", "related"], name)
            )
            relationships[name] = {"links": rel_links}
            expected += found_links
        if relationships:
            resource["relationships"] = relationships
        data.append(resource)
    doc["data"] = data
    return doc, expected


@PROPERTIES
@given(data=st.data())
def test_jsonapi_links_are_found_exactly(data: st.DataObject) -> None:
    doc, expected = data.draw(jsonapi_document())
    assert found(doc, "application/vnd.api+json") == expected


# --- RFC 8288 Link header --------------------------------------------------------------


def quoted(value: str) -> str:
    """An RFC 9110 quoted-string."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def link_values(draw: st.DrawFn) -> tuple[str, list[Link]]:
    """A ``Link`` field value of a few link-values, and the links it holds."""
    values: list[str] = []
    expected: list[Link] = []
    for _ in range(draw(st.integers(1, 4))):
        href = draw(hrefs(templates=False))
        rels = draw(st.lists(RELATIONS, min_size=1, max_size=3))
        title, media_type = draw(TITLES), draw(MEDIA_TYPES)
        star = draw(st.booleans()) and title is not None
        params = [f"rel={quoted(' '.join(rels))}"]
        if title is not None:
            params.append(
                f"title*=UTF-8''{quote(title, safe='')}" if star else f"title={quoted(title)}"
            )
        if media_type is not None:
            params.append(f"type={quoted(media_type) if draw(st.booleans()) else media_type}")
        values.append(f"<{href.written}>; " + "; ".join(params))
        expected += [
            Link(
                rel=rel,
                href=href.resolved,
                title=title,
                media_type=media_type,
                source="header:Link",
            )
            for rel in dict.fromkeys(rels)
        ]
    return ", ".join(values), expected


@PROPERTIES
@given(header=link_values())
def test_link_header_links_are_found_exactly(header: tuple[str, list[Link]]) -> None:
    value, expected = header
    assert find_links(BASE, 200, [("Link", value)], b"") == expected


# --- the HAL reader's walk is the generic walk ------------------------------------------

HAL_KEYS = st.sampled_from(
    ["_links", "_embedded", "_templates", "_items", "href", "url", "self_url", "a/b", "~x", "n"]
)
HAL_VALUES = st.sampled_from(["/x", "http://h/y", "https://h/z", "plain", "", "h", "{?q}"])
HALISH = st.recursive(
    st.none() | st.booleans() | st.integers() | HAL_VALUES | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(HAL_KEYS, children, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.dictionaries(HAL_KEYS, HALISH, max_size=5))
def test_the_hal_readers_strings_are_those_the_generic_walk_finds(doc: dict[str, object]) -> None:
    # find_links lets the HAL reader hand over the members it does not read, instead of
    # walking the document a second time: what it hands over must be what that walk finds.
    walked_by_hal = Collector(Resolver(BASE))
    strings = Candidates(walked_by_hal.claimed)
    add_hal_links(doc, walked_by_hal, strings)
    alone = Collector(Resolver(BASE))
    add_hal_links(doc, alone)
    assert walked_by_hal.links == alone.links
    assert strings.hits == url_candidates(doc, alone.claimed)
