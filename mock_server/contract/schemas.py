"""The document's schemas as self-contained JSON Schema 2020-12, one per use.

A schema in an OpenAPI document is not quite a JSON Schema: it may ``$ref``
other files, in OpenAPI 3.0 it speaks a dialect of its own (``nullable``,
boolean ``exclusiveMinimum``), and its integer formats (``int32``, ``int64``)
are ranges, which a JSON Schema validator checks only when said as bounds.
:meth:`Schemas.bundle` turns one into a plain 2020-12 schema that carries
what it refers to under ``$defs``, so a validator (jsonschema-rs) and the
generator (:mod:`.generate`) read the same thing with no document around it.
Recursive schemas stay recursive: a ``$ref`` becomes ``#/$defs/<name>``.

Each schema is made for one direction (:data:`View`): in a request, a
``readOnly`` property is never required (the server sets it); in a response,
a ``writeOnly`` one never is (the server never shows it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from mock_server.contract.document import Document, Located

View = Literal["request", "response"]
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: Keywords whose value is one schema.
_ONE = frozenset(
    {
        "additionalProperties",
        "items",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
        "additionalItems",
    }
)
#: Keywords whose value is a list of schemas.
_MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
#: Keywords whose value maps names to schemas.
_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas"})
#: Keywords left out of the bundle: definitions are reached through ``$ref`` instead.
_DROPPED = frozenset({"$defs", "definitions", "$id", "$schema", "$anchor", "$dynamicAnchor"})
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


class Schemas:
    """Bundles the document's schemas, converting each definition once per view."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.legacy = document.version == "3.0"
        #: (view, target) → (name in $defs, converted schema or None while converting).
        self._defs: dict[tuple[View, tuple[Path, str]], str] = {}
        self._converted: dict[tuple[View, str], Any] = {}
        self._deps: dict[tuple[View, str], set[str]] = {}
        self._taken: set[str] = set()

    def bundle(self, located: Located, view: View) -> dict[str, Any]:
        """The schema at ``located`` as one self-contained JSON Schema 2020-12."""
        deps: set[str] = set()
        root = self._convert(located.node, located.file, view, deps)
        schema: dict[str, Any] = root if isinstance(root, dict) else {"allOf": [root]}
        schema = {"$schema": DIALECT, **schema}
        reached: dict[str, Any] = {}
        pending = list(deps)
        while pending:
            name = pending.pop()
            if name in reached:
                continue
            reached[name] = self._converted[(view, name)]
            pending.extend(self._deps[(view, name)])
        if reached:
            schema["$defs"] = reached
        return schema

    # Converting -----------------------------------------------------------------------

    def _name(self, target: tuple[Path, str]) -> str:
        base = _NAME.sub("_", target[1].rsplit("/", 1)[-1] or target[0].stem) or "schema"
        name, number = base, 1
        while name in self._taken:
            number += 1
            name = f"{base}_{number}"
        self._taken.add(name)
        return name

    def _reference(self, ref: str, file: Path, view: View) -> str:
        """The ``$defs`` name of what ``ref`` points at, converted for ``view``."""
        key = (view, self.document.ref_key(ref, file))
        name = self._defs.get(key)
        if name is not None:
            return name
        name = self._name(key[1])
        self._defs[key] = name
        target = self.document.target(ref, file)
        deps: set[str] = set()
        self._deps[(view, name)] = deps
        self._converted[(view, name)] = True  # recursion meets the name, not this value
        self._converted[(view, name)] = self._convert(target.node, target.file, view, deps)
        return name

    def _convert(self, node: Any, file: Path, view: View, deps: set[str]) -> Any:
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = self._reference(ref, file, view)
            deps.add(name)
            pointer = {"$ref": f"#/$defs/{name}"}
            if self.legacy:
                return pointer  # OpenAPI 3.0: whatever stands beside a $ref is ignored
            rest = {k: v for k, v in node.items() if k != "$ref"}
            if not rest:
                return pointer
            return {**self._convert(rest, file, view, deps), **pointer}
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED:
                continue
            if key in _ONE:
                out[key] = self._convert(value, file, view, deps)
            elif key in _MANY and isinstance(value, list):
                out[key] = [self._convert(inner, file, view, deps) for inner in value]
            elif key in _NAMED and isinstance(value, dict):
                out[key] = {
                    name: self._convert(inner, file, view, deps) for name, inner in value.items()
                }
            else:
                out[key] = value
        if self.legacy or "nullable" in out:
            # 3.1 dropped nullable, yet documents written for 3.0 keep it, and tools (and
            # their users) still read it as 3.0 did.
            out = _from_legacy(out)
        _integer_bounds(out)
        return self._visible(out, node, file, view)

    def _visible(self, out: dict[str, Any], node: dict[str, Any], file: Path, view: View) -> Any:
        """``out`` without the required properties the other direction owns."""
        required = out.get("required")
        properties = node.get("properties")
        if not isinstance(required, list) or not isinstance(properties, dict):
            return out
        hidden = "readOnly" if view == "request" else "writeOnly"
        kept = []
        for name in required:
            inner = properties.get(name)
            if inner is not None:
                inner = self.document.resolve(Located(inner, file)).node
            if not (isinstance(inner, dict) and inner.get(hidden) is True):
                kept.append(name)
        if len(kept) != len(required):
            if kept:
                out["required"] = kept
            else:
                del out["required"]
        return out


#: The range of OpenAPI's integer formats, said as bounds (JSON Schema formats are for strings).
INTEGER_FORMATS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


def referred(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """A part of a bundled schema with its ``$ref`` chain followed into ``defs`` (the
    bundle's ``$defs``); {} for what is no schema object."""
    for _ in range(16):
        if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str):
            break
        schema = defs.get(schema["$ref"].removeprefix("#/$defs/"), {})
    return schema if isinstance(schema, dict) else {}


def _integer_bounds(schema: dict[str, Any]) -> None:
    """``format: int32`` (or ``int64``) as the ``minimum`` and ``maximum`` it implies."""
    bounds = INTEGER_FORMATS.get(schema.get("format"))  # type: ignore[arg-type]
    if bounds is None:
        return
    low, high = bounds
    minimum = schema.get("minimum")
    if not isinstance(minimum, (int, float)) or minimum < low:
        schema["minimum"] = low
    maximum = schema.get("maximum")
    if not isinstance(maximum, (int, float)) or maximum > high:
        schema["maximum"] = high


def _from_legacy(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI 3.0 schema object's own keywords as JSON Schema 2020-12 says them."""
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = schema.get(exclusive)
        if isinstance(flag, bool):
            if flag and bound in schema:
                schema[exclusive] = schema.pop(bound)
            else:
                del schema[exclusive]
    if schema.pop("nullable", False) is True:
        kind = schema.get("type")
        if isinstance(kind, str):
            # With an enum, null is allowed only when the enum lists it (OpenAPI 3.0.3).
            schema["type"] = [kind, "null"]
        elif kind is None and any(k in schema for k in ("allOf", "anyOf", "oneOf", "$ref")):
            return {"anyOf": [{"type": "null"}, schema]}
    return schema
