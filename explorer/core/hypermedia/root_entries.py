"""An API root that lists its collections as objects named by their keys: django-tastypie's.

tastypie's top level (https://django-tastypie.readthedocs.io/en/latest/interacting.html,
"Api-Wide") answers ``{"book": {"list_endpoint": "/api/v1/book/", "schema":
"/api/v1/book/schema/"}, ...}``. Each entry is a link named by its key
(``book``: what a person types to follow it), labelled with the field it came
from (``list_endpoint``); its schema a ``describedby`` link titled by the key
(``--follow 'describedby[title=book]'``), labelled ``schema``.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, child
from explorer.core.hypermedia.link import Link

__all__ = ["add_root_entries", "looks_like_root_entries"]


def looks_like_root_entries(doc: object) -> bool:
    """True for an object every member of which is an object with a ``list_endpoint``."""
    return (
        isinstance(doc, dict)
        and bool(doc)
        and all(
            isinstance(entry, dict) and isinstance(entry.get("list_endpoint"), str)
            for entry in doc.values()
        )
    )


def add_root_entries(doc: object, collector: Collector) -> None:
    """Add each entry's collection and schema links (see the module docstring)."""
    if not looks_like_root_entries(doc):
        return
    assert isinstance(doc, dict)
    resolve = collector.resolver.resolve
    for name, entry in doc.items():
        here = child("", name)
        collector.add(
            Link(
                rel=name,
                href=resolve(entry["list_endpoint"]),
                source=child(here, "list_endpoint"),
                label="list_endpoint",
            )
        )
        schema = entry.get("schema")
        if isinstance(schema, str) and schema:
            collector.add(
                Link(
                    rel="describedby",
                    href=resolve(schema),
                    title=name,
                    source=child(here, "schema"),
                    label="schema",
                )
            )
        collector.claim(here)
