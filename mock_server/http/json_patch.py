"""JSON Patch (RFC 6902) and the JSON Pointers it addresses (RFC 6901).

Errors follow RFC 5789, section 2.2, which RFC 6902 defers to:

- a patch document that is not a list of well-formed operations (unknown
  ``op``, missing ``path``/``value``/``from``, a pointer without its leading
  ``/`` or with a bad ``~`` escape, ``move`` into its own child) is a
  *malformed patch document*: **400 Bad Request**;
- a patch that is well formed but does not fit the resource as it is now (a
  ``test`` that fails, a path whose parent does not exist, an array index out
  of range) is a *conflicting state*: **409 Conflict**, because the same patch
  may succeed against another state of the resource;
- a patch whose result is not a valid entity is the caller's business
  (validated like a PUT body: 422).

The whole patch applies or nothing does: operations run on a copy.
"""

from __future__ import annotations

import copy
import re
from http import HTTPStatus
from typing import Any

OPERATIONS = frozenset({"add", "remove", "replace", "move", "copy", "test"})
_INDEX = re.compile(r"^(0|[1-9][0-9]*)$")
_BAD_ESCAPE = re.compile(r"~(?![01])")


class PatchError(Exception):
    """A patch that cannot be applied; ``status`` is 400 (malformed) or 409 (conflict)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def _malformed(detail: str) -> PatchError:
    return PatchError(HTTPStatus.BAD_REQUEST, detail)


def _conflict(detail: str) -> PatchError:
    return PatchError(HTTPStatus.CONFLICT, detail)


def parse_pointer(pointer: object) -> list[str]:
    """The reference tokens of a JSON Pointer: ``"/a~1b/0"`` -> ``["a/b", "0"]``.

    ``""`` is the whole document (no tokens). ``~1`` decodes to ``/`` and then
    ``~0`` to ``~``, in that order, as RFC 6901 requires.
    """
    if not isinstance(pointer, str):
        raise _malformed(f"A JSON Pointer must be a string, got {pointer!r}.")
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise _malformed(f"The JSON Pointer {pointer!r} must start with '/'.")
    if _BAD_ESCAPE.search(pointer):
        raise _malformed(f"The JSON Pointer {pointer!r} has a '~' not followed by 0 or 1.")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality (RFC 6902, ``test``): 1 equals 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _array_index(token: str, array: list[Any], pointer: str, *, for_add: bool) -> int:
    if for_add and token == "-":
        return len(array)
    if not _INDEX.match(token):
        raise _conflict(f"{pointer!r}: {token!r} is not an index into an array.")
    index = int(token)
    limit = len(array) if for_add else len(array) - 1
    if index > limit:
        raise _conflict(f"{pointer!r}: index {index} is past the end of an array of {len(array)}.")
    return index


def _parent(doc: Any, tokens: list[str], pointer: str) -> Any:
    """The container that holds the last token of ``tokens``."""
    current = doc
    for token in tokens[:-1]:
        if isinstance(current, dict):
            if token not in current:
                raise _conflict(f"{pointer!r}: there is no member {token!r}.")
            current = current[token]
        elif isinstance(current, list):
            current = current[_array_index(token, current, pointer, for_add=False)]
        else:
            raise _conflict(f"{pointer!r}: {token!r} goes into a value that is not a container.")
    if not isinstance(current, (dict, list)):
        raise _conflict(f"{pointer!r}: the parent is not an object or an array.")
    return current


def get_value(doc: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``doc``; 409 when there is none."""
    tokens = parse_pointer(pointer)
    if not tokens:
        return doc
    parent = _parent(doc, tokens, pointer)
    token = tokens[-1]
    if isinstance(parent, dict):
        if token not in parent:
            raise _conflict(f"{pointer!r}: there is no member {token!r}.")
        return parent[token]
    return parent[_array_index(token, parent, pointer, for_add=False)]


def _add(doc: Any, pointer: str, value: Any) -> Any:
    tokens = parse_pointer(pointer)
    if not tokens:
        return value
    parent = _parent(doc, tokens, pointer)
    if isinstance(parent, dict):
        parent[tokens[-1]] = value
    else:
        parent.insert(_array_index(tokens[-1], parent, pointer, for_add=True), value)
    return doc


def _remove(doc: Any, pointer: str) -> tuple[Any, Any]:
    """``doc`` without the value at ``pointer``, and that value."""
    tokens = parse_pointer(pointer)
    if not tokens:
        raise _conflict("Removing the whole document ('') leaves nothing to store.")
    parent = _parent(doc, tokens, pointer)
    token = tokens[-1]
    if isinstance(parent, dict):
        if token not in parent:
            raise _conflict(f"{pointer!r}: there is no member {token!r} to remove.")
        return doc, parent.pop(token)
    return doc, parent.pop(_array_index(token, parent, pointer, for_add=False))


def _member(operation: dict[str, Any], name: str, index: int) -> Any:
    if name not in operation:
        raise _malformed(f"Operation {index} ({operation.get('op')!r}) needs a {name!r} member.")
    return operation[name]


def _apply_one(doc: Any, operation: dict[str, Any], index: int) -> Any:
    op = operation["op"]
    path = operation["path"]
    if op == "add":
        return _add(doc, path, copy.deepcopy(_member(operation, "value", index)))
    if op == "remove":
        return _remove(doc, path)[0]
    if op == "replace":
        value = copy.deepcopy(_member(operation, "value", index))
        get_value(doc, path)
        if not parse_pointer(path):
            return value
        doc, _ = _remove(doc, path)
        return _add(doc, path, value)
    if op == "test":
        expected = _member(operation, "value", index)
        if not json_equal(get_value(doc, path), expected):
            raise _conflict(f"Operation {index}: test failed: the value at {path!r} differs.")
        return doc
    source = _member(operation, "from", index)
    parse_pointer(source)
    if op == "move":
        if path != source and path.startswith(source + "/"):
            raise _malformed(f"Operation {index}: cannot move {source!r} into its own child.")
        doc, value = _remove(doc, source)
        return _add(doc, path, value)
    return _add(doc, path, copy.deepcopy(get_value(doc, source)))


def apply_json_patch(document: Any, patch: Any) -> Any:
    """The result of applying ``patch`` (a list of operations) to ``document``.

    ``document`` is not changed. Raises :class:`PatchError` (400 or 409).
    """
    if not isinstance(patch, list):
        raise _malformed("A JSON Patch document must be an array of operations.")
    for index, operation in enumerate(patch):
        if not isinstance(operation, dict):
            raise _malformed(f"Operation {index} must be an object.")
        op = operation.get("op")
        if not isinstance(op, str) or op not in OPERATIONS:
            raise _malformed(
                f"Operation {index}: 'op' must be one of {', '.join(sorted(OPERATIONS))}, "
                f"got {operation.get('op')!r}."
            )
        parse_pointer(_member(operation, "path", index))
    result = copy.deepcopy(document)
    for index, operation in enumerate(patch):
        result = _apply_one(result, operation, index)
    return result
