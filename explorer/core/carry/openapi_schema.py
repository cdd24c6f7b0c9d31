"""The schema side of an OpenAPI document: local references, and example values.

References (``"$ref": "#/components/schemas/Pet"``) are followed where they
are read, never all at once: a chain that comes back to a reference already on
the way stops there, and no chain goes deeper than :data:`MAX_DEPTH`, so a
hostile document cannot make restwalk loop or fill memory. A reference to
another file or URL is not fetched; the :class:`Resolver` notes it.

An example is the document's own (``example``, the first of ``examples``),
else one built from the schema: an object's properties (read-only ones left
out), an array of one item, the ``default``, ``const`` or first ``enum``
value, a typical value of a ``format`` (``date-time``, ``email``, ``uuid``...).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_DEPTH", "Resolver", "example_of", "example_text", "first_example"]

#: How deep references and schemas are followed: deeper is cut (a cycle, or a trap).
MAX_DEPTH = 24


#: The most properties of one object put in an example body.
MAX_PROPERTIES = 40


_FORMAT_EXAMPLES = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "12:00:00",
    "email": "user@example.com",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "password": "secret",
    "byte": "U3dhZ2dlciByb2Nrcw==",
}


class Resolver:
    """Local ``$ref`` resolution with a depth bound; remembers what it could not follow."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.notes: list[str] = []

    def pointer(self, ref: str) -> Any:
        if not ref.startswith("#"):
            self.notes.append(f"the reference {ref!r} is to another document: not read")
            return None
        node: Any = self.document
        for raw in ref[1:].split("/")[1:]:
            key = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                self.notes.append(f"the reference {ref!r} leads nowhere")
                return None
        return node

    def resolve(self, node: Any, seen: tuple[str, ...] = ()) -> tuple[Any, tuple[str, ...]]:
        """``node`` with its ``$ref`` chain followed, and the references on the way."""
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in seen or len(seen) >= MAX_DEPTH:
                return None, seen
            seen = (*seen, ref)
            node = self.pointer(ref)
        return node, seen


def first_example(node: Mapping[str, Any], resolver: Resolver) -> tuple[bool, Any]:
    """The node's own example: ``example``, else the first of ``examples``."""
    if "example" in node:
        return True, node["example"]
    examples = node.get("examples")
    if isinstance(examples, list) and examples:
        return True, examples[0]  # a schema's examples (3.1, JSON Schema)
    if isinstance(examples, Mapping):
        for value in examples.values():
            example, _ = resolver.resolve(value)
            if isinstance(example, Mapping) and "value" in example:
                return True, example["value"]
    return False, None


def example_of(schema: Any, resolver: Resolver, seen: tuple[str, ...] = (), depth: int = 0) -> Any:
    """A value that fits ``schema``, as a person would type one; None when none can be made."""
    schema, seen = resolver.resolve(schema, seen)
    if not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return None
    found, example = first_example(schema, resolver)
    if found:
        return example
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return example_of(options[0], resolver, seen, depth + 1)
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = example_of(part, resolver, seen, depth + 1)
            if isinstance(value, dict):
                merged.update(value)
        if merged:
            return merged
    kind = schema.get("type")
    if isinstance(kind, list):  # 3.1: ["string", "null"]
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping)):
        properties = schema.get("properties")
        result: dict[str, Any] = {}
        if isinstance(properties, Mapping):
            for name, sub in list(properties.items())[:MAX_PROPERTIES]:
                sub_schema, _ = resolver.resolve(sub, seen)
                if isinstance(sub_schema, Mapping) and sub_schema.get("readOnly"):
                    continue  # the server sets it: not sent
                result[str(name)] = example_of(sub, resolver, seen, depth + 1)
        return result
    if kind == "array":
        item = example_of(schema.get("items"), resolver, seen, depth + 1)
        return [] if item is None else [item]
    if kind == "string":
        fmt = schema.get("format")
        if fmt == "binary":
            return None
        return _FORMAT_EXAMPLES.get(str(fmt), "string")
    if kind in ("integer", "number"):
        low = schema.get("minimum")
        return low if isinstance(low, int | float) and not isinstance(low, bool) else 0
    if kind == "boolean":
        return True
    return None


def example_text(value: Any) -> str:
    """An example value as text: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
