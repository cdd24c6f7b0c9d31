"""The structural difference of two JSON bodies, and which changes break a client.

Two answers of "the same" resource (two API versions, or two pages of the
history) are compared field by field. What changed is said by kind, following
the spec's versioning section (adding a field is not a breaking change; a
field removed or retyped is):

==============  ==========================================================  ========
kind            what                                                        breaks?
==============  ==========================================================  ========
added           a field the left has not                                    no
removed         a field the right has not                                   yes
retyped         another JSON type (``"7"`` → ``7``; null → a value is not)  yes
restructured    a scalar became an object or array (v1 ``address`` string    yes
                → v2 ``address`` object), or the other way
moved           a field gone from one place appears under another parent    yes
renamed         a field gone appears beside it under another name, same     yes
                value, and a like name (``zip``, ``zipCode``) or a value
                too particular to be chance (text of a few words)
items           members of a collection only on one side (matched by id)    no
value           the same field with another value                          no
==============  ==========================================================  ========

Arrays of objects are compared member by member, matched by their id (``id``,
``_id``, ``uuid``, ``@id``, ``key``, their ``self`` link, or else a ``name``, as
HAL-FORMS properties have) when every member has one, else by position. The
members' changes are folded into one per field, written with ``[*]``
(``_embedded.customers[*].address``) and counted. Integers and decimals are
both numbers. Each change keeps the places it was met (``left``, ``right``),
for a side-by-side view to mark them. Bounded: nesting past
:data:`MAX_DEPTH` is compared as whole values, and at most :data:`MAX_CHANGES`
changes are kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "BREAKING_KINDS",
    "MAX_CHANGES",
    "MAX_DEPTH",
    "Change",
    "ChangeKind",
    "diff_json",
    "json_type",
    "path_text",
]

ChangeKind = Literal[
    "added", "removed", "retyped", "restructured", "moved", "renamed", "items", "value"
]
#: The kinds that break a client reading the left side's shape.
BREAKING_KINDS = frozenset({"removed", "retyped", "restructured", "moved", "renamed"})
#: Nesting compared field by field; deeper, values are compared whole.
MAX_DEPTH = 64
#: Changes kept (folded ones count once).
MAX_CHANGES = 5_000
#: Places kept per change, for marking.
MAX_LOCATIONS = 200
_ID_KEYS = ("id", "_id", "uuid", "@id", "key", "name")

#: A path inside a document: object keys and array indexes, ``"*"`` for any member.
Path = tuple[str | int, ...]


def json_type(value: object) -> str:
    """The JSON type of ``value``: object, array, string, number, boolean or null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def path_text(path: Path) -> str:
    """A path as people read it: ``_embedded.customers[*].address``; ``(the body)`` when empty."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part == "*":
            text += "[*]"
        elif part and all(c.isalnum() or c in "_-@$" for c in part):
            text += f".{part}" if text else part
        else:
            text += '["' + part.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return text or "(the body)"


@dataclass
class Change:
    """One change between the left and the right body (folded over a collection's members)."""

    kind: ChangeKind
    path: str
    old: str | None = None
    new: str | None = None
    #: Members of a collection it was met in (1 outside collections).
    count: int = 1
    #: For a move or a rename: where the field is now.
    to_path: str | None = None
    #: Concrete places in the left and the right body (``customers[3].address``).
    left: list[Path] = field(default_factory=list)
    right: list[Path] = field(default_factory=list)
    #: For ``items``: the members only on one side, as "id 7 (left)".
    members: list[str] = field(default_factory=list)

    @property
    def breaking(self) -> bool:
        """True when a client reading the left side's shape breaks on the right's."""
        if self.kind == "retyped" and self.old == "null":
            return False  # a field that was always null now has a value
        return self.kind in BREAKING_KINDS

    def describe(self) -> str:
        """The change in words, one line."""
        where = self.path
        times = f" (in {self.count} members)" if self.count > 1 and self.kind != "items" else ""
        text = {
            "added": f"{where} added ({self.new})",
            "removed": f"{where} removed (was {self.old})",
            "retyped": f"{where}: {self.old} → {self.new}",
            "restructured": f"{where} restructured: {self.old} → {self.new}",
            "moved": f"{where} moved to {self.to_path}",
            "renamed": f"{where} renamed {self.to_path}",
            "items": f"{where}: {self._members()}",
            "value": f"{where}: {self.old} → {self.new}",
        }[self.kind]
        return text + times

    def detail(self) -> str:
        """The change in words after its kind, as the lists print it (``✗ restructured
        address: string … → object …``): the kind said once."""
        if self.kind in ("retyped", "items", "value"):
            return self.describe()  # (these sentences do not name their kind)
        where = self.path
        times = f" (in {self.count} members)" if self.count > 1 else ""
        text = {
            "added": f"{where} ({self.new})",
            "removed": f"{where} (was {self.old})",
            "restructured": f"{where}: {self.old} → {self.new}",
            "moved": f"{where} to {self.to_path}",
            "renamed": f"{where} to {self.to_path}",
        }[self.kind]
        return text + times

    def _members(self) -> str:
        shown = ", ".join(self.members[:_MEMBERS_SHOWN])
        more = len(self.members) - _MEMBERS_SHOWN
        if self.count == 1:
            return f"a member only on one side: {shown}"
        return f"{self.count} members only on one side: {shown}" + (
            f", and {more} more" if more > 0 else ""
        )


#: Members named in an ``items`` change before "and N more".
_MEMBERS_SHOWN = 4


@dataclass
class _Raw:
    """A change met at one concrete place, before folding."""

    kind: ChangeKind
    left: Path | None
    right: Path | None
    old: object = None
    new: object = None


def diff_json(left: object, right: object) -> list[Change]:
    """Every change from ``left`` to ``right`` (parsed JSON), breaking ones first."""
    raws: list[_Raw] = []
    _walk(left, right, (), (), raws, 0)
    raws = _find_moves(raws)
    changes = _fold(raws)
    changes.sort(key=lambda c: (not c.breaking, _KIND_ORDER.index(c.kind)))
    return changes


#: The order changes are listed in (a stable sort keeps document order within a kind).
_KIND_ORDER: tuple[ChangeKind, ...] = (
    "removed",
    "retyped",
    "restructured",
    "moved",
    "renamed",
    "added",
    "items",
    "value",
)


def _walk(a: object, b: object, at_a: Path, at_b: Path, out: list[_Raw], depth: int) -> None:
    if len(out) >= MAX_CHANGES:
        return
    type_a, type_b = json_type(a), json_type(b)
    if depth >= MAX_DEPTH:
        if a != b:
            out.append(_Raw("value" if type_a == type_b else "retyped", at_a, at_b, a, b))
        return
    if type_a != type_b:
        containers = ("object", "array")
        kind: ChangeKind = "retyped"
        if (type_a in containers) != (type_b in containers) and "null" not in (type_a, type_b):
            kind = "restructured"
        out.append(_Raw(kind, at_a, at_b, a, b))
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key in b:
                _walk(a[key], b[key], (*at_a, key), (*at_b, key), out, depth + 1)
            else:
                out.append(_Raw("removed", (*at_a, key), None, a[key], None))
        for key in b:
            if key not in a:
                out.append(_Raw("added", None, (*at_b, key), None, b[key]))
        return
    if isinstance(a, list) and isinstance(b, list):
        _walk_array(a, b, at_a, at_b, out, depth)
        return
    if a != b:
        out.append(_Raw("value", at_a, at_b, a, b))


def _member_id(item: object) -> object:
    """A collection member's id: an id field, else its self link; None when it has none."""
    if not isinstance(item, dict):
        return None
    for key in _ID_KEYS[:-1]:
        value = item.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool):
            return (key, value)
    links = item.get("_links")
    if isinstance(links, dict):
        self_link = links.get("self")
        if isinstance(self_link, dict) and isinstance(self_link.get("href"), str):
            return ("self", _last_segments(self_link["href"]))
    name = item.get(_ID_KEYS[-1])
    return (_ID_KEYS[-1], name) if isinstance(name, str) else None


def _last_segments(href: str) -> str:
    """The last path segment of a link: ``/v2/customers/7`` and ``/customers/7`` agree."""
    return href.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _walk_array(
    a: list[object], b: list[object], at_a: Path, at_b: Path, out: list[_Raw], depth: int
) -> None:
    ids_a = [_member_id(item) for item in a]
    ids_b = [_member_id(item) for item in b]
    by_id = all(i is not None for i in ids_a + ids_b) and len(set(map(repr, ids_a))) == len(a)
    if by_id and (a or b):
        index_b = {repr(i): n for n, i in enumerate(ids_b)}
        matched = set()
        for n, ident in enumerate(ids_a):
            m = index_b.get(repr(ident))
            if m is None:
                out.append(_Raw("items", (*at_a, n), None, ident, None))
                continue
            matched.add(m)
            _walk(a[n], b[m], (*at_a, n), (*at_b, m), out, depth + 1)
        for m, ident in enumerate(ids_b):
            if m not in matched:
                out.append(_Raw("items", None, (*at_b, m), None, ident))
        return
    for n in range(min(len(a), len(b))):
        _walk(a[n], b[n], (*at_a, n), (*at_b, n), out, depth + 1)
    for n in range(len(b), len(a)):
        out.append(_Raw("items", (*at_a, n), None, a[n], None))
    for n in range(len(a), len(b)):
        out.append(_Raw("items", None, (*at_b, n), None, b[n]))


def _name_words(name: str | int) -> str:
    """A field's name as its letters and digits, lower case, without a CURIE's prefix:
    ``customerName``, ``customer_name`` and ``rw:customer-name`` agree."""
    text = str(name)
    if ":" in text and "/" not in text:
        text = text.rsplit(":", 1)[1]
    return "".join(c for c in text.lower() if c.isalnum())


def _like_names(a: str | int, b: str | int) -> bool:
    """True when two names are one spelt otherwise, or one begins the other (``zip``,
    ``zipCode``; ``phone``, ``phoneNumber``)."""
    one, other = sorted((_name_words(a), _name_words(b)), key=len)
    return bool(one) and (one == other or (len(one) >= _NAME_PREFIX and other.startswith(one)))


def _telling(value: object) -> bool:
    """True for a value two unrelated fields do not share by chance: text of a few words
    (not a URL, a date or a code), an object that is not a link and holds text or
    numbers, an array holding one.
    Numbers, booleans, null, short strings, URLs and link objects are common values."""
    if isinstance(value, str):
        letters = sum(c.isalpha() for c in value)
        return (
            len(value) >= _TELLING_TEXT
            and letters >= _TELLING_LETTERS
            and "://" not in value
            and not value.startswith("/")
        )
    if isinstance(value, dict):
        return "href" not in value and any(map(_has_content, value.values()))
    if isinstance(value, list):
        return any(map(_telling, value))
    return False


def _has_content(value: object) -> bool:
    """True for a member that says something: text, a number, or a telling value."""
    if isinstance(value, str):
        return bool(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return True
    return _telling(value)


#: The shortest name that may begin another (``zip``), the least text that tells.
_NAME_PREFIX = 3
_TELLING_TEXT = 8
_TELLING_LETTERS = 4


def _renamed(gone: _Raw, came: _Raw) -> bool:
    """A removed and an added field beside it are one renamed: the same value, and either
    like names or a value too particular to be shared by chance (``count`` 12 and
    ``total`` 12 are two fields; ``zip`` and ``zipCode``, or ``name`` and ``fullName``
    both "Ada Lovelace", are one)."""
    assert gone.left is not None
    assert came.right is not None
    if gone.left[:-1] != came.right[:-1] or gone.old != came.new:
        return False
    if json_type(gone.old) != json_type(came.new):
        return False  # 1 and 1.0, or 1 and true, are equal in Python alone
    return _like_names(gone.left[-1], came.right[-1]) or _telling(gone.old)


def _find_moves(raws: list[_Raw]) -> list[_Raw]:
    """Pair a removed field with an added one: same name elsewhere (moved), or same value
    under another name beside it with more to tell it was renamed (see :func:`_renamed`)."""
    removed = [r for r in raws if r.kind == "removed"]
    added = [r for r in raws if r.kind == "added"]
    if not removed or not added:
        return raws
    used: set[int] = set()
    paired: dict[int, _Raw] = {}
    for gone in removed:
        assert gone.left is not None
        for came in added:
            if id(came) in used:
                continue
            assert came.right is not None
            same_name = gone.left[-1] == came.right[-1] and gone.left[:-1] != came.right[:-1]
            if (same_name and json_type(gone.old) == json_type(came.new)) or _renamed(gone, came):
                used.add(id(came))
                kind: ChangeKind = "moved" if same_name else "renamed"
                paired[id(gone)] = _Raw(kind, gone.left, came.right, gone.old, came.new)
                break
    return [paired.get(id(r), r) for r in raws if id(r) not in used]


def _generic(path: Path | None) -> Path:
    """``path`` with every array index as ``*``: where members' changes fold together."""
    return tuple("*" if isinstance(part, int) else part for part in (path or ()))


def _fold(raws: list[_Raw]) -> list[Change]:
    folded: dict[tuple[object, ...], Change] = {}
    for raw in raws:
        change = _change_of(raw)
        value_kind = raw.kind in ("value", "items")
        key: tuple[object, ...] = (raw.kind, change.path, change.to_path)
        if not value_kind:
            key += (change.old, change.new)
        known = folded.get(key)
        if known is None:
            folded[key] = change
            continue
        known.count += 1
        known.members += change.members
        if raw.kind == "value":
            known.old, known.new = "…", f"{known.count} values differ"
        if raw.left is not None and len(known.left) < MAX_LOCATIONS:
            known.left.append(raw.left)
        if raw.right is not None and len(known.right) < MAX_LOCATIONS:
            known.right.append(raw.right)
    return list(folded.values())


def _change_of(raw: _Raw) -> Change:
    place = raw.left if raw.left is not None else raw.right
    path = path_text(_generic(place))
    change = Change(raw.kind, path)
    if raw.left is not None:
        change.left.append(raw.left)
    if raw.right is not None:
        change.right.append(raw.right)
    if raw.kind in ("added",):
        change.new = _shape(raw.new)
    elif raw.kind == "removed":
        change.old = _shape(raw.old)
    elif raw.kind in ("retyped", "restructured"):
        change.old, change.new = _shape(raw.old), _shape(raw.new)
    elif raw.kind in ("moved", "renamed"):
        change.to_path = path_text(_generic(raw.right))
        change.old = change.new = _shape(raw.old)
    elif raw.kind == "items":
        side = "left" if raw.left is not None else "right"
        ident = raw.old if raw.left is not None else raw.new
        index = place[-1] if place else 0
        named = _ident_text(ident) if isinstance(ident, tuple) else f"[{index}]"
        change.members.append(f"{named} ({side})")
        change.path = path_text(_generic(place))
    else:
        change.old, change.new = _scalar(raw.old), _scalar(raw.new)
    return change


def _ident_text(ident: tuple[object, ...]) -> str:
    key, value = ident
    return f"{key} {_scalar(value, 40)}"


def _shape(value: object) -> str:
    """A value's type, with an object's field names or an array's length."""
    kind = json_type(value)
    if isinstance(value, dict):
        names = list(value)[:6]
        more = ", …" if len(value) > len(names) else ""
        return f"object {{{', '.join(str(n) for n in names)}{more}}}"
    if isinstance(value, list):
        return f"array of {len(value)}"
    if kind == "string" and isinstance(value, str):
        return "string " + _scalar(value)
    return f"{kind} {_scalar(value)}" if kind != "null" else "null"


def _scalar(value: object, limit: int = 60) -> str:
    """A scalar as JSON writes it, cut to ``limit`` characters."""
    if isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = repr(value)
    else:
        text = json_type(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
