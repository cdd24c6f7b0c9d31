"""XML links: Atom and AtomPub ``<link>``, RSS ``<link>``, and any ``<link rel href>``.

Parsed with ``defusedxml`` only (no entity expansion, no external fetches). A
document that declares entities (a DTD with ``<!ENTITY``: the billion laughs
and external-entity attacks both need one), or that is not well-formed, gives no
links rather than an error, and the collector is told why
(:meth:`~explorer.core.hypermedia.collector.Collector.not_read`): a real feed
with a DOCTYPE must not look like a feed without links.

Any element whose local name is ``link`` (whatever its namespace: ``atom:link``
in RSS, Atom's own, our mock's plain ``<link rel="" href=""/>``) with an
``href`` is a link: relation from ``rel`` (Atom's default ``alternate`` when
absent), ``title``, ``type``, ``hreflang``. An RSS ``<link>`` has its URL as
text instead; that is an ``alternate`` link too. ``xml:base`` attributes
(cumulative, each resolved against the one above) set the base URL. A
``templated="true"`` attribute marks an RFC 6570 template.

``<action name method href title type>`` elements with ``<field name type
required value title options>`` children (our mock's form of actions, as in
Siren) become action Links, method GET when absent. An RFC 9457 problem's
``<type>`` and ``<instance>`` are links too (see :mod:`.problem`).

Sources are element paths of local names, ``feed/entry[2]/link[1]``: ``[n]``
counts same-name siblings from 1, is left out of an inner step when it is 1,
and is always on the last step. Elements nested more than 1000 deep are not
read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from defusedxml import DefusedXmlException, EntitiesForbidden
from defusedxml.ElementTree import ParseError, fromstring

from explorer.core.hypermedia.collector import Collector, is_template
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.hypermedia.problem import problem_xml_link
from explorer.core.hypermedia.resolve import Resolver

if TYPE_CHECKING:  # the type only: parsing is defusedxml's, never the stdlib's directly
    from xml.etree.ElementTree import Element

#: Elements nested deeper than this are not read: paths are copied per level, and
#: no real document nests this deep.
_MAX_DEPTH = 1000
_XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


#: Why a document declaring entities gives no links.
ENTITIES_REFUSED = "the XML declares entities (a DTD), which restwalk does not read"


def refusal(error: Exception) -> str:
    """Why an XML body was not read, for ``error`` raised by the parser."""
    if isinstance(error, EntitiesForbidden):
        return ENTITIES_REFUSED
    if isinstance(error, DefusedXmlException):  # external references, processing it forbids
        return f"the XML has what restwalk does not read ({type(error).__name__})"
    # ParseError's text is expat's: "mismatched tag: line 3, column 2".
    return f"the body is not well-formed XML ({error})"


def add_xml_links(body: bytes, collector: Collector, *, declared: bool = True) -> None:
    """Add every ``<link>`` of an XML document; none, saying why, if it cannot be read.

    ``declared`` is False for a body only sniffed as XML (``<`` first in a
    ``text/plain`` answer): that it is not well-formed says nothing then.
    """
    try:
        root = fromstring(body)
    except (ParseError, DefusedXmlException, ValueError, SyntaxError) as error:
        refused = isinstance(error, DefusedXmlException)
        if (declared or refused) and body.strip():  # an empty body misses no link
            collector.not_read(refusal(error))
        return
    # Pre-order walk, so links come out in document order. Each entry holds the
    # element, the steps to its parent, its own last step, and its parent's base.
    stack: list[tuple[Element, list[str], str, Resolver]] = [
        (root, [], f"{_local(root.tag)}[1]", collector.resolver)
    ]
    while stack:
        element, steps, last, resolver = stack.pop()
        collector.tick()
        base = element.get(_XML_BASE)
        if base is not None:
            resolver = resolver.with_base(base)
        _element(element, steps, last, resolver, collector)
        if not len(element):
            continue
        if len(steps) >= _MAX_DEPTH:
            collector.not_read(f"elements nested over {_MAX_DEPTH:,} deep were not read")
            continue
        name = _local(element.tag)
        index = last[last.rindex("[") + 1 : -1]
        inner = [*steps, name if index == "1" else last]
        counts: dict[str, int] = {}
        children: list[tuple[Element, list[str], str, Resolver]] = []
        for sub in element:
            sub_name = _local(sub.tag)
            if not sub_name:
                continue
            count = counts.get(sub_name, 0) + 1
            counts[sub_name] = count
            children.append((sub, inner, f"{sub_name}[{count}]", resolver))
        stack.extend(reversed(children))


def _element(
    element: Element, steps: list[str], last: str, resolver: Resolver, collector: Collector
) -> None:
    name = _local(element.tag)
    if name in ("type", "instance"):
        problem_link = problem_xml_link(element, "/".join([*steps, last]), resolver)
        if problem_link is not None:
            collector.add(problem_link, claim=False)
        return
    if name == "action" and element.get("href") is not None:
        _action(element, "/".join([*steps, last]), resolver, collector)
        return
    if name != "link":
        return
    href = element.get("href")
    if href is None:
        text = (element.text or "").strip()
        if len(element) or not text or any(ch.isspace() for ch in text):
            return
        href = text
    rel = element.get("rel") or "alternate"
    templated = element.get("templated") == "true"
    collector.add(
        Link(
            rel=rel,
            href=resolver.resolve(href, templated),
            templated=templated,
            title=element.get("title") or None,
            media_type=element.get("type") or None,
            source="/".join([*steps, last]),
            hreflang=element.get("hreflang") or None,
        ),
        claim=False,
    )


def _action(element: Element, source: str, resolver: Resolver, collector: Collector) -> None:
    href = element.get("href", "")
    templated = is_template(href)
    fields = tuple(
        FormField(
            name=field.get("name", ""),
            type=field.get("type") or "text",
            required=field.get("required") == "true",
            value=field.get("value"),
            prompt=field.get("title") or None,
            options=tuple(field.get("options", "").split()),
        )
        for field in element
        if _local(field.tag) == "field" and field.get("name")
    )
    collector.add(
        Link(
            rel=element.get("name") or "action",
            href=resolver.resolve(href, templated),
            method=(element.get("method") or "GET").upper(),
            title=element.get("title") or None,
            templated=templated,
            source=source,
            fields=fields,
            content_type=element.get("type") or None,
            name=element.get("name") or None,
        ),
        claim=False,
    )
