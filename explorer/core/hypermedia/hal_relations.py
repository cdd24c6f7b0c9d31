"""What a HAL document repeats, worked out once per document: its curies (each
compact relation's ``rel-uri``), each relation name's pointer token, relation and
label per curies mapping, and the HAL-FORMS ``properties`` arrays met
(:mod:`~explorer.core.hypermedia.hal_forms`'s :class:`FieldCache`). The reader,
:mod:`~explorer.core.hypermedia.hal`, keeps one :class:`ReadCaches` per document.
"""

from __future__ import annotations

from functools import lru_cache

from explorer.core.hypermedia.collector import Collector, escape
from explorer.core.hypermedia.hal_forms import FieldCache
from explorer.core.hypermedia.templates import TemplateError, expand_template
from explorer.core.hypermedia.vocabulary import STANDARD
from explorer.core.hypermedia.walk import Candidates

__all__ = [
    "Attributes",
    "ReadCaches",
    "Relation",
    "read_curies",
    "read_relation",
    "relations_under",
]

Attributes = tuple[tuple[str, str], ...]
#: What a relation name gives under one curies mapping: its JSON Pointer token
#: (with its leading slash), its attributes (a curie's ``rel-uri``, or none), the
#: relation it means and its label (``previous``: ``prev``, labelled ``previous``;
#: see :mod:`~explorer.core.hypermedia.vocabulary`).
Relation = tuple[str, Attributes, str, "str | None"]


class ReadCaches:
    """What one document repeats (curie expansions, relations, HAL-FORMS properties),
    and where the members the reader does not read go (``strings``, or None)."""

    __slots__ = ("consume", "curies", "fields", "last", "relations", "strings")

    def __init__(self, strings: Candidates | None, consume: bool) -> None:
        self.curies: dict[tuple[str, str], str | None] = {}
        #: Per curies mapping (by identity; the mapping is kept alive by its entry,
        #: so the identity is not reused): each relation name met under it.
        self.relations: dict[int, tuple[dict[str, str], dict[str, Relation]]] = {}
        #: The entry of :attr:`relations` read last (the items of a page share theirs).
        self.last: tuple[dict[str, str], dict[str, Relation]] = ({}, {})
        self.fields = FieldCache()
        self.strings = strings
        #: Whether each resource of an array is dropped from it once read.
        self.consume = consume


def read_curies(value: object, inherited: dict[str, str]) -> dict[str, str]:
    """The curies of a resource's ``curies`` link (one or an array) over those it
    inherits (its own win)."""
    entries = value if isinstance(value, list) else [value]
    found = {
        entry["name"]: entry["href"]
        for entry in entries
        if isinstance(entry, dict)
        and isinstance(entry.get("name"), str)
        and isinstance(entry.get("href"), str)
    }
    if not found:
        return inherited
    return {**inherited, **found}


def _expand_curie(
    rel: str, curies: dict[str, str], collector: Collector, cache: ReadCaches
) -> str | None:
    prefix, _, reference = rel.partition(":")
    template = curies.get(prefix)
    if template is None or reference.startswith("//"):
        return None
    key = (template, reference)
    if key in cache.curies:
        return cache.curies[key]
    try:
        expanded: str | None = collector.resolver.resolve(_curie_uri(template, reference))
    except TemplateError:
        expanded = None
    cache.curies[key] = expanded
    return expanded


@lru_cache(maxsize=1024)
def _curie_uri(template: str, reference: str) -> str:
    """``template`` expanded with ``reference`` as its ``rel``: kept across documents (a
    server's pages share their curies; the expansion was a tenth of a followed root's
    link finding). TemplateError, not kept, when it is malformed."""
    return expand_template(template, {"rel": reference})


def relations_under(curies: dict[str, str], cache: ReadCaches) -> dict[str, Relation]:
    """The relations met under ``curies`` so far (filled by :func:`read_relation`)."""
    entry = cache.relations.get(id(curies))
    if entry is None:
        entry = cache.relations[id(curies)] = (curies, {})
    cache.last = entry
    return entry[1]


def read_relation(rel: str, curies: dict[str, str], c: Collector, cache: ReadCaches) -> Relation:
    """What ``rel`` gives under ``curies`` (see :data:`Relation`)."""
    extra: Attributes = ()
    if curies and ":" in rel:
        rel_uri = _expand_curie(rel, curies, c, cache)
        if rel_uri is not None:
            extra = (("rel-uri", rel_uri),)
    standard = STANDARD.get(rel)
    if standard is not None:
        return f"/{escape(rel)}", extra, standard, rel
    return f"/{escape(rel)}", extra, rel, None
