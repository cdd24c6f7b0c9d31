"""The map of an API as text: a tree (for people), JSON (for scripts), Mermaid and DOT (to draw).

Every function returns a string; server text in it (templates, relations,
media types, header values) is written as data of the format: quoted and
escaped in JSON, Mermaid and DOT, so a relation named ``"];`` cannot end a label.
The caller still prints it through the terminal filter
(:func:`explorer.core.text.terminal_text.visible`), which makes control characters
visible on every path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import orjson

from explorer.core.session.api_map import ApiMap
from explorer.core.session.map_resources import Resource
from explorer.core.survey.crawl import CrawlResult
from explorer.core.survey.map_summary import (
    SHOWN,
    crawl_ending,
    map_counts,
    not_followed,
    summarize,
)
from explorer.core.text.plural import counted, noun
from explorer.core.text.terminal_text import json_visible

__all__ = ["FORMATS", "map_dot", "map_json", "map_mermaid", "map_tree", "render_map"]

FORMATS = ("tree", "json", "mermaid", "dot")
#: Relations listed per resource in the tree before "and N more".
_MAX_RELS = 4


def render_map(result: CrawlResult, form: str) -> str:
    """The crawl's map in ``form``: one of :data:`FORMATS`."""
    renderers: dict[str, Callable[[CrawlResult], str]] = {
        "tree": map_tree,
        "json": map_json,
        "mermaid": map_mermaid,
        "dot": map_dot,
    }
    return renderers[form](result)


# --- the tree -----------------------------------------------------------------------------


@dataclass
class _Node:
    """A place in the path tree: a resource there, or only a step to those below."""

    name: str
    resource: Resource | None = None
    children: dict[str, _Node] = field(default_factory=dict)


def _tree_of(resources: Iterable[Resource]) -> _Node:
    root = _Node("/")
    for resource in resources:
        node = root
        for segment in [s for s in resource.template.split("/") if s]:
            node = node.children.setdefault(segment, _Node(segment))
        if node.resource is None:  # /books and /books/ are one place; the first stays
            node.resource = resource
    return root


def _compress(node: _Node) -> _Node:
    """Join a chain of places that are no resource (``docs`` → ``docs/rels``)."""
    for key, child in list(node.children.items()):
        node.children[key] = _compress(child)
    if node.resource is None and len(node.children) == 1 and node.name != "/":
        (only,) = node.children.values()
        return _Node(f"{node.name}/{only.name}", only.resource, only.children)
    return node


def _summary(resource: Resource) -> str:
    """One line: statuses, media types, how many URLs, and the relations that lead here."""
    parts: list[str] = []
    if resource.statuses:
        parts.append(" ".join(str(status) for status, _ in resource.statuses))
    else:
        parts.append("no answer" if resource.failed else "not visited")
    parts.extend(resource.media_types)
    if resource.known > 1:
        parts.append(f"{resource.visited} of {resource.known} URLs visited")
    if resource.rels:
        rels = [rel for rel, _ in resource.rels[:_MAX_RELS]]
        more = len(resource.rels) - _MAX_RELS
        parts.append("← " + ", ".join(rels) + (f" and {more} more" if more > 0 else ""))
    if not resource.declared:
        parts.append("only guessed")
    return " · ".join(parts)


def _details(resource: Resource) -> list[str]:
    lines: list[str] = []
    if resource.methods:
        lines.append("methods: " + " ".join(method for method, _ in resource.methods))
    if resource.uri_templates:
        lines.append("templates: " + ", ".join(resource.uri_templates))
    if resource.queries:
        lines.append("query: " + ", ".join(resource.queries))
    if resource.cache:
        lines.append("cache: " + "; ".join(resource.cache))
    return lines


def map_tree(result: CrawlResult) -> str:
    """The map as a text tree of paths, each resource with its facts."""
    resources = result.api_map.resources()
    lines = [_headline(result)]
    by_origin: dict[str, list[Resource]] = {}
    for resource in resources:
        by_origin.setdefault(resource.origin, []).append(resource)
    for origin, group in by_origin.items():
        lines.append("")
        lines.append(origin)
        root = _compress(_tree_of(group))
        _draw(root, "", lines, top=True)
    lines.extend(_footer(result))
    return "\n".join(lines) + "\n"


def _draw(
    node: _Node, prefix: str, lines: list[str], *, top: bool = False, last: bool = True
) -> None:
    if top:
        head, below = "", ""
    else:
        head, below = ("└── " if last else "├── "), ("    " if last else "│   ")
    name = node.name if not top else "/"
    resource = node.resource
    children = list(node.children.values())
    lines.append(f"{prefix}{head}{name}" + (f"  {_summary(resource)}" if resource else ""))
    if resource is not None:
        rail = "│ " if children else "  "
        lines.extend(f"{prefix}{below}{rail}    {detail}" for detail in _details(resource))
    for index, child in enumerate(children):
        _draw(child, prefix + below, lines, last=index == len(children) - 1)


def _headline(result: CrawlResult) -> str:
    counts = map_counts(result.api_map, result.entry)
    return (
        f"Map of {result.entry}: {counts.resources_line()}, {counted(counts.pages, 'page')}, "
        f"{counted(result.requests, 'request')} in {result.seconds:.1f} s"
    )


def _footer(result: CrawlResult) -> list[str]:
    summary = summarize(result.api_map)
    ending = crawl_ending(result)
    lines: list[str] = ["", ending[0].upper() + ending[1:] + "."]
    refused = not_followed(result)
    if refused is not None:
        lines.append(refused)
    for wait in result.waits:
        lines.append(f"Waited {wait.seconds:g} s at {wait.url}: {wait.why}.")
    for failure in summary.no_answer:
        lines.append(f"No answer from {failure.url}: {failure.reason}")
    for link in summary.not_http[:SHOWN]:
        lines.append(f"Not http(s), not followed: {link.href} ← {link.rel}")
    if len(summary.not_http) > SHOWN:
        lines.append(f"… and {len(summary.not_http) - SHOWN} more links that are not http(s).")
    if result.api_map.dropped:
        dropped = result.api_map.dropped
        lines.append(
            f"{counted(dropped, 'link')} past the map's bound {noun(dropped, 'was', 'were')} "
            "counted only."
        )
    return lines


# --- JSON --------------------------------------------------------------------------------


def resource_json(resource: Resource) -> dict[str, object]:
    """One resource as a JSON object."""
    return {
        "origin": resource.origin,
        "template": resource.template,
        "visited": resource.visited,
        "known": resource.known,
        "depth": resource.depth,
        "declared": resource.declared,
        "rels": dict(resource.rels),
        "statuses": {str(status): count for status, count in resource.statuses},
        "media_types": list(resource.media_types),
        "methods": {method: list(where) for method, where in resource.methods},
        "uri_templates": list(resource.uri_templates),
        "cache": list(resource.cache),
        "query": list(resource.queries),
        "examples": list(resource.examples),
        "failed": resource.failed,
    }


def map_json(result: CrawlResult) -> str:
    """The map as one JSON document: resources, edges, and how the crawl went."""
    document = {
        "entry": result.entry,
        "resources": [resource_json(r) for r in result.api_map.resources()],
        "edges": [
            {"source": e.source, "rel": e.rel, "target": e.target} for e in result.api_map.edges()
        ],
        "pages": len(result.visits),
        "requests": result.requests,
        "seconds": round(result.seconds, 3),
        "stopped": result.stopped,
        "skipped": dict(result.skipped),
        "waits": [{"url": w.url, "seconds": w.seconds, "why": w.why} for w in result.waits],
        "failures": [{"url": f.url, "message": f.message} for f in result.failures],
        "not_http": [
            {"href": link.href, "rel": link.rel} for link in result.api_map.not_http.values()
        ],
    }
    return json_visible(orjson.dumps(document, option=orjson.OPT_INDENT_2)).decode() + "\n"


# --- graphs ------------------------------------------------------------------------------


def _graph(
    api_map: ApiMap,
) -> tuple[list[Resource], dict[str, str], dict[tuple[str, str], list[str]]]:
    """Resources, an id per resource key, and the relations between each pair of ids."""
    resources = api_map.resources()
    ids = {r.key: f"n{index}" for index, r in enumerate(resources)}
    pairs: dict[tuple[str, str], list[str]] = {}
    for edge in api_map.edges():
        source, target = ids.get(edge.source), ids.get(edge.target)
        if source is None or target is None:
            continue
        rels = pairs.setdefault((source, target), [])
        if edge.rel not in rels:
            rels.append(edge.rel)
    return resources, ids, pairs


def _label(resource: Resource, many_origins: bool) -> str:
    return resource.key if many_origins else resource.template


def _edge_label(rels: list[str]) -> str:
    shown = rels[:3]
    return ", ".join(shown) + (f" +{len(rels) - 3}" if len(rels) > 3 else "")


#: What may not stand as itself in a quoted Mermaid label: the quote, ``#`` (which starts
#: an entity code), and what Mermaid reads as HTML.
_MERMAID_UNSAFE = re.compile(r'["#<>&]')


def _mermaid_text(text: str) -> str:
    """Text for a quoted Mermaid label: its special characters as entity codes."""
    return _MERMAID_UNSAFE.sub(lambda m: f"#{ord(m.group())};", text)


def map_mermaid(result: CrawlResult) -> str:
    """The map as a Mermaid flowchart: a box per resource, an arrow per relation."""
    resources, ids, pairs = _graph(result.api_map)
    many = len({r.origin for r in resources}) > 1
    lines = ["flowchart LR"]
    for resource in resources:
        label = _mermaid_text(_label(resource, many))
        lines.append(f'    {ids[resource.key]}["{label}"]')
    for (source, target), rels in pairs.items():
        lines.append(f'    {source} -->|"{_mermaid_text(_edge_label(rels))}"| {target}')
    unvisited = [ids[r.key] for r in resources if not r.visited]
    if unvisited:
        lines.append("    classDef unvisited stroke-dasharray: 5 5")
        lines.append(f"    class {','.join(unvisited)} unvisited")
    return "\n".join(lines) + "\n"


def _dot_text(text: str) -> str:
    """Text for a quoted DOT string: backslashes and quotes escaped, no line breaks."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def map_dot(result: CrawlResult) -> str:
    """The map as a Graphviz DOT digraph: a box per resource, an arrow per relation."""
    resources, ids, pairs = _graph(result.api_map)
    many = len({r.origin for r in resources}) > 1
    lines = [
        "digraph api {",
        "    rankdir=LR;",
        '    node [shape=box, fontname="monospace"];',
        '    edge [fontname="monospace", fontsize=10];',
    ]
    for resource in resources:
        style = "" if resource.visited else ", style=dashed"
        label = _dot_text(_label(resource, many))
        lines.append(f'    {ids[resource.key]} [label="{label}"{style}];')
    for (source, target), rels in pairs.items():
        lines.append(f'    {source} -> {target} [label="{_dot_text(_edge_label(rels))}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
