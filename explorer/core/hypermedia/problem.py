"""RFC 9457 problem details: ``type`` and ``instance`` are links, in JSON and XML.

A problem's ``type`` is a URI reference that, dereferenced, should document
the problem type; ``instance`` identifies this occurrence. Both are links the
format declares, not guesses: relations ``type`` (titled by the problem's
``title``) and ``instance``. ``about:blank`` (the default type) goes nowhere
and is left out. The XML form (``urn:ietf:rfc:7807`` namespace) is read by
:mod:`explorer.core.hypermedia.xml` through :func:`problem_xml_link`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.core.hypermedia.collector import Collector, text
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import Resolver

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

NAMESPACE = "urn:ietf:rfc:7807"
_XML_TAGS = {f"{{{NAMESPACE}}}type": "type", f"{{{NAMESPACE}}}instance": "instance"}
_NOWHERE = "about:blank"


def looks_like_problem(doc: object) -> bool:
    """True for an object with ``type`` or ``instance`` and a ``title`` or ``status``."""
    return (
        isinstance(doc, dict)
        and ("type" in doc or "instance" in doc)
        and ("title" in doc or "status" in doc)
    )


def add_problem_links(doc: object, collector: Collector) -> None:
    """Add the ``type`` and ``instance`` links of a problem details object."""
    if not isinstance(doc, dict):
        return
    for key in ("type", "instance"):
        value = text(doc.get(key))
        if value is None or value.strip() == _NOWHERE or any(ch.isspace() for ch in value):
            continue
        title = text(doc.get("title")) if key == "type" else None
        collector.add(
            Link(rel=key, href=collector.resolver.resolve(value), title=title, source=f"/{key}")
        )


def problem_xml_link(element: Element, source: str, resolver: Resolver) -> Link | None:
    """The link of a ``<type>`` or ``<instance>`` element of an XML problem, else None."""
    rel = _XML_TAGS.get(element.tag) if isinstance(element.tag, str) else None
    value = (element.text or "").strip()
    if rel is None or not value or value == _NOWHERE or any(ch.isspace() for ch in value):
        return None
    return Link(rel=rel, href=resolver.resolve(value), source=source)
