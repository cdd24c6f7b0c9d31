"""JSON Merge Patch (RFC 7396): a partial document; ``null`` removes a member."""

from __future__ import annotations

import copy
from typing import Any


def merge_patch(target: Any, patch: Any) -> Any:
    """The result of applying merge ``patch`` to ``target`` (neither is changed).

    An object patch merges member by member, recursively; a ``null`` member
    removes that member; any other patch value (array, string, number...)
    replaces the target whole. This is the algorithm of RFC 7396, section 2.
    """
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result: dict[str, Any] = copy.deepcopy(target) if isinstance(target, dict) else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = merge_patch(result.get(name), value)
    return result
