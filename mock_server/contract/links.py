"""Links for an API that has none: so restwalk can browse what the document describes.

Each answer links, as the teaching API's answers do:

- ``self``: the request's own target;
- ``collection``: a member's collection (when the document lets one GET it);
- ``item``: each member on a page of a collection;
- ``first``, ``prev``, ``next``: the pages of a collection, with the document's
  own paging parameters (:mod:`.shapes`);
- the document's paths one level down that a GET reads (``/pets/1`` links
  ``/pets/1/photos``), named by their last segment;
- the document's own Link objects of the answer (OpenAPI's ``links``), whose
  parameters are filled from the request and the answer (``$request.path.petId``,
  ``$response.body#/id``), when the operation they name is a GET.

**Where the links go.** A JSON object answer gets them as HAL ``_links`` only
when the answer's schema still accepts the object with that property added
(checked, not guessed: additional properties allowed, no ``unevaluatedProperties:
false``); an answer whose schema is closed, or that is an array or not JSON,
carries them in the RFC 8288 ``Link`` header only, so the document's response
schema always holds. The ``Link`` header carries them in every case, but for the
``item`` links, which stay in the body when it can hold them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from mock_server.contract.operations import LinkSpec, Operation, path_variables
from mock_server.representations.model import Link

#: The most ``item`` links a ``Link`` header carries (the body carries them all).
MAX_HEADER_ITEMS = 50
_EXPRESSION = re.compile(r"^\$(request|response)\.(path|query|header|body)(?:\.([^#]+))?(#.*)?$")


def fill(template: str, values: Mapping[str, Any]) -> str | None:
    """``template`` with its variables filled (percent-encoded), or None if one is missing."""
    names = path_variables(template)
    if any(name not in values for name in names):
        return None
    path = template
    for name in names:
        path = path.replace("{" + name + "}", quote(str(values[name]), safe=""))
    return path


class LinkMap:
    """The links of every path of the document, worked out once at start."""

    def __init__(self, operations: list[Operation]) -> None:
        self.readable = {op.path for op in operations if op.method == "GET"}
        self.by_id = {op.operation_id: op for op in operations if op.operation_id}
        self.summaries = {op.path: op.summary for op in operations if op.method == "GET"}
        #: template → its readable templates one or more literal segments down.
        self.children: dict[str, list[tuple[str, str]]] = {}
        for template in sorted(self.readable):
            for other in sorted(self.readable):
                if other == template or not other.startswith(template.rstrip("/") + "/"):
                    continue
                rest = other[len(template.rstrip("/")) + 1 :]
                if "{" in rest:
                    continue
                self.children.setdefault(template, []).append((rest.split("/")[-1], other))

    def entry_points(self) -> list[Link]:
        """What ``GET /`` links when the document has no root of its own: its GET paths,
        those with variables as RFC 6570 templates (HAL ``templated``) named by their
        last plain segment."""
        found = []
        for path in sorted(self.readable):
            if path == "/":
                continue
            plain = [s for s in path.strip("/").split("/") if "{" not in s]
            rel = plain[-1] if plain else "item"
            found.append(Link(rel, path, title=self.summaries.get(path), templated="{" in path))
        return found

    def related(self, template: str, values: Mapping[str, Any]) -> list[Link]:
        """The links from an answer of ``template`` to the paths below it."""
        found = []
        for rel, child in self.children.get(template, ()):
            href = fill(child, values)
            if href is not None:
                found.append(Link(rel, href, title=self.summaries.get(child)))
        return found

    def document_links(
        self,
        specs: tuple[LinkSpec, ...],
        request: RequestValues,
        body: Any,
    ) -> list[Link]:
        """The answer's OpenAPI Link objects that lead to a GET, filled in."""
        found = []
        for spec in specs:
            target = self.by_id.get(spec.operation_id) if spec.operation_id else None
            if target is None or target.method != "GET":
                continue
            values = {
                name: evaluate(expression, request, body)
                for name, expression in spec.parameters.items()
            }
            values = {name.rsplit(".", 1)[-1]: v for name, v in values.items() if v is not None}
            href = fill(target.path, values)
            if href is not None:
                found.append(Link(spec.name, href, title=spec.description or target.summary))
        return found


class RequestValues:
    """The parts of a request a runtime expression may name."""

    def __init__(
        self,
        path: Mapping[str, Any],
        query: Mapping[str, str],
        headers: Mapping[str, str],
        body: Any,
    ) -> None:
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body


def _pointer(document: Any, pointer: str) -> Any:
    node = document
    for raw in pointer.lstrip("/").split("/") if pointer.strip("/") else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def evaluate(expression: Any, request: RequestValues, body: Any) -> Any:
    """An OpenAPI runtime expression's value (a constant stays itself); None if it has none."""
    if not isinstance(expression, str) or not expression.startswith("$"):
        return expression
    match = _EXPRESSION.match(expression)
    if match is None:
        return None
    side, part, name, pointer = match.groups()
    if part == "body":
        source = body if side == "response" else request.body
        value = _pointer(source, (pointer or "#")[1:])
    elif side == "response":
        return None  # a response header: not known before the answer is made
    elif part == "path":
        value = request.path.get(name or "")
    elif part == "query":
        value = request.query.get(name or "")
    else:
        value = request.headers.get((name or "").lower())
    return value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None


def hal_links(links: list[Link]) -> dict[str, Any]:
    """``links`` as HAL's ``_links``: one object per rel, a list where a rel repeats."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for link in links:
        entry: dict[str, Any] = {"href": link.href}
        if link.templated:
            entry["templated"] = True
        if link.title:
            entry["title"] = link.title
        grouped.setdefault(link.rel, []).append(entry)
    return {
        rel: entries if len(entries) > 1 or rel == "item" else entries[0]
        for rel, entries in grouped.items()
    }
