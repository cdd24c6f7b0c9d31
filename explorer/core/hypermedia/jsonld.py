"""JSON-LD node identifiers and the Hydra Core vocabulary.

Without fetching contexts, a JSON-LD document still says which values are
links: every node object's ``@id``. The relation of a node's ``@id`` is
``self`` for the top node, ``item`` for a node of ``@graph``, and otherwise
the property that holds the node (``"author": {"@id": ...}`` → ``author``).
Blank nodes (``_:b0``) are not links. A ``@base`` in the top ``@context`` sets
the base URL.

Hydra terms are read with or without the ``hydra:`` prefix, and the relation
drops the prefix:

* ``view`` (a partial collection view): its ``@id`` (``view``) and its
  ``first`` / ``next`` / ``previous`` / ``last`` (strings or node references);
* ``member``: each member node's ``@id`` or each IRI string (``member``);
* ``search``: an ``IriTemplate``: a templated ``search`` link whose
  ``mapping`` variables are the form fields;
* ``operation``: each operation is an action (relation ``operation``, name its
  ``@type``, method from ``method``) on the node that carries it.
"""

from __future__ import annotations

from collections.abc import Iterator

from explorer.core.hypermedia.collector import Collector, child, text
from explorer.core.hypermedia.link import FormField, Link

_IRI_PROPERTIES = frozenset(
    {"first", "next", "previous", "last", "view", "member", "entrypoint", "apiDocumentation"}
)


def looks_like_jsonld(doc: object) -> bool:
    """True when ``doc`` (or its first element) carries ``@context``, ``@id`` or ``@graph``."""
    if isinstance(doc, list) and doc:
        doc = doc[0]
    return isinstance(doc, dict) and ("@context" in doc or "@id" in doc or "@graph" in doc)


def _term(key: str) -> str:
    return key[6:] if key.startswith("hydra:") else key


def add_jsonld_links(doc: object, collector: Collector) -> None:
    """Add every node ``@id`` and Hydra view, member, search and operation link."""
    if not isinstance(doc, (dict, list)):
        return
    c = collector
    base = _context_base(doc)
    if base is not None:
        c = Collector(
            collector.resolver.with_base(base),
            limit=collector.limit,
            deadline=collector.deadline,
            seconds=collector.seconds,
        )
        c.links, c.claimed = collector.links, collector.claimed
    top_rel = "self" if isinstance(doc, dict) else "item"
    stack: list[tuple[Iterator[tuple[str | int, object]], str, str]] = []
    _enter(doc, "", top_rel, c, stack)
    while stack:
        members, pointer, node_href = stack[-1]
        for key, value in members:
            if isinstance(key, int):
                rel = _array_rel(pointer)
                if isinstance(value, (dict, list)):
                    here = f"{pointer}/{key}"
                    _enter(value, here, rel, c, stack)
                    break
                if isinstance(value, str) and rel == "member":
                    _iri(value, rel, f"{pointer}/{key}", c)
                continue
            term = _term(key)
            if key in ("@context", "@id", "@type"):
                continue
            if term == "search" and isinstance(value, dict):
                _search(value, child(pointer, key), c)
            elif term == "operation":
                _operations(value, child(pointer, key), node_href, c)
            elif isinstance(value, str):
                if term in _IRI_PROPERTIES:
                    _iri(value, term, child(pointer, key), c)
            elif isinstance(value, (dict, list)):
                _enter(value, child(pointer, key), "item" if key == "@graph" else term, c, stack)
                break
        else:
            stack.pop()


def _array_rel(pointer: str) -> str:
    """The relation for elements of the array at ``pointer``: its key, else ``item``."""
    key = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    return "item" if key in ("@graph", "") or key.isdigit() else _term(key)


def _enter(
    value: object,
    pointer: str,
    rel: str,
    c: Collector,
    stack: list[tuple[Iterator[tuple[str | int, object]], str, str]],
) -> None:
    if isinstance(value, list):
        stack.append((enumerate(value), pointer, c.resolver.base))
        return
    if not isinstance(value, dict):
        return
    node_href = c.resolver.base
    node_id = value.get("@id")
    if isinstance(node_id, str) and node_id and not node_id.startswith("_:"):
        node_href = c.resolver.resolve(node_id)
        c.add(Link(rel=rel, href=node_href, source=f"{pointer}/@id"))
    stack.append((iter(value.items()), pointer, node_href))


def _iri(value: str, rel: str, source: str, c: Collector) -> None:
    if value and not value.startswith("_:"):
        c.add(Link(rel=rel, href=c.resolver.resolve(value), source=source))


def _search(value: dict[str, object], source: str, c: Collector) -> None:
    template = text(value.get("template", value.get("hydra:template")))
    if template is None:
        return
    mapping = value.get("mapping", value.get("hydra:mapping"))
    fields = []
    for entry in mapping if isinstance(mapping, list) else []:
        if not isinstance(entry, dict):
            continue
        variable = text(entry.get("variable", entry.get("hydra:variable")))
        if variable:
            required = entry.get("required", entry.get("hydra:required")) is True
            fields.append(FormField(name=variable, required=required))
    c.add(
        Link(
            rel="search",
            href=c.resolver.resolve(template, True),
            templated=True,
            source=source,
            fields=tuple(fields),
        )
    )


def _operations(value: object, pointer: str, target: str, c: Collector) -> None:
    operations = value if isinstance(value, list) else [value]
    is_list = isinstance(value, list)
    for index, operation in enumerate(operations):
        if not isinstance(operation, dict):
            continue
        method = text(operation.get("method", operation.get("hydra:method"))) or "GET"
        title = text(operation.get("title", operation.get("hydra:title")))
        kind = operation.get("@type")
        if isinstance(kind, list):
            kind = next((k for k in kind if isinstance(k, str)), None)
        c.add(
            Link(
                rel="operation",
                href=target,
                method=method.upper(),
                title=title,
                source=f"{pointer}/{index}" if is_list else pointer,
                name=kind if isinstance(kind, str) else None,
            )
        )


def _context_base(doc: object) -> str | None:
    if not isinstance(doc, dict):
        return None
    context = doc.get("@context")
    for entry in context if isinstance(context, list) else [context]:
        if isinstance(entry, dict) and isinstance(entry.get("@base"), str):
            return str(entry["@base"])
    return None
