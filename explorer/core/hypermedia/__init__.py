"""Find every hypermedia link in a response: headers first, then the body.

:func:`find_links` is the one entry point. Headers are read in wire order
(``Link``, ``Link-Template``, ``Location``, ``Content-Location``). The body is
read by what its media type says, or, when the type is missing or generic
(``application/json``, ``text/plain``, ``application/octet-stream``...), by
what it looks like:

* JSON (``*/json``, ``*+json``): each format whose shape the document has is
  read, in this order: HAL, JSON:API, Siren, Collection+JSON, JSON-LD/Hydra,
  OData, RFC 9457 problem details (a declared format is always read, whatever
  the shape; JSON:API and Siren both use ``links``, so only one of them is
  sniffed). A body in no format is plain JSON: its root entries (tastypie's
  ``{"book": {"list_endpoint": ...}}``) and the paging URLs it writes
  (``next``, ``links.prev``, ``meta.previous``...) are read by their names. Then
  ``*_url`` fields, then bare URL guesses, both skipping what was explained;
  then, for a body with no link of its own, the item links a collection's
  convention implies (json-server's ``/books/{id}``).
* HTML (``text/html``, ``application/xhtml+xml``) and XML (``*/xml``, ``*+xml``).

Last come the page links an answer does not write but says in its own terms (a
page number, an offset and a total, a cursor, ``X-Pagination``...: see
:mod:`~explorer.core.hypermedia.paging`), each marked with what it was made from.
Every link carries the IANA relation it means (``previous`` is ``prev``, labelled
``previous``: :mod:`~explorer.core.hypermedia.vocabulary`), and a link the body
and a header both give is one link naming both places
(:mod:`~explorer.core.hypermedia.repeats`).

Within each format links come in document order; the body's links are
therefore grouped by format, then the generic passes. Nothing here raises: a body
that cannot be parsed, or that is refused (an XML document declaring entities),
gives the links found so far (the headers') and no more.

The search is bounded: at most :data:`MAX_LINKS` links, no more than
:data:`MAX_SECONDS` of work, and bodies up to :data:`MAX_PARSED` bytes.
:func:`search_links` says why, when it did not read the whole response. Its links
are built as they are read (:mod:`~explorer.core.hypermedia.found`): a page's
reading keeps a tenth of a large page's links, and builds those.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Sequence
from functools import cached_property

import orjson

from explorer.core import gc_pause
from explorer.core.bodies.json_error import json_refused
from explorer.core.bodies.json_texts import json_texts
from explorer.core.hypermedia.collection_json import (
    add_collection_json_links,
    looks_like_collection_json,
)
from explorer.core.hypermedia.collector import Collector, SearchStopped
from explorer.core.hypermedia.conventions import add_convention_links
from explorer.core.hypermedia.found import FoundLinks, Unrecorded
from explorer.core.hypermedia.guesses import add_guesses
from explorer.core.hypermedia.hal import add_hal_links, looks_like_hal
from explorer.core.hypermedia.jsonapi import add_jsonapi_links, looks_like_jsonapi
from explorer.core.hypermedia.jsonld import add_jsonld_links, looks_like_jsonld
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.link_header import add_header_links
from explorer.core.hypermedia.location import add_location
from explorer.core.hypermedia.odata import add_odata_links, looks_like_odata
from explorer.core.hypermedia.paging import add_body_page_links, add_made_links
from explorer.core.hypermedia.problem import add_problem_links, looks_like_problem
from explorer.core.hypermedia.repeats import fold_repeats
from explorer.core.hypermedia.resolve import Resolver
from explorer.core.hypermedia.root_entries import add_root_entries
from explorer.core.hypermedia.siren import add_siren_links, looks_like_siren
from explorer.core.hypermedia.url_fields import add_url_fields
from explorer.core.hypermedia.walk import Candidates, url_candidates

__all__ = ["MAX_LINKS", "MAX_SECONDS", "FoundLinks", "LinkSearch", "find_links", "search_links"]

#: Links found at most in one response (a page of a million anchors gives this many).
MAX_LINKS = 100_000
#: Seconds of link finding at most for one response.
MAX_SECONDS = 3.0
#: Bodies larger than this are not parsed for links: a 50 MB array of numbers
#: becomes some 900 MB of Python objects.
MAX_PARSED = 32 * 1024 * 1024
#: Young tracked objects past which a search's leftovers (its links, mostly) go
#: straight to the collector's oldest generation (see :func:`_promote_young`).
PROMOTE_AT = 50_000

_log = logging.getLogger(__name__)

JsonFormat = tuple[str, Callable[[object], bool], Callable[[object, Collector], None]]

#: JSON formats in the order they are read: (name, sniff, reader).
JSON_FORMATS: tuple[JsonFormat, ...] = (
    ("hal", looks_like_hal, add_hal_links),
    ("jsonapi", looks_like_jsonapi, add_jsonapi_links),
    ("siren", looks_like_siren, add_siren_links),
    ("collection+json", looks_like_collection_json, add_collection_json_links),
    ("jsonld", looks_like_jsonld, add_jsonld_links),
    ("odata", looks_like_odata, add_odata_links),
    ("problem", looks_like_problem, add_problem_links),
)

#: Media types that name one JSON format.
DECLARED_FORMATS: dict[str, str] = {
    "application/hal+json": "hal",
    "application/prs.hal-forms+json": "hal",
    "application/vnd.hal+json": "hal",
    "application/vnd.api+json": "jsonapi",
    "application/vnd.siren+json": "siren",
    "application/vnd.collection+json": "collection+json",
    "application/ld+json": "jsonld",
    "application/problem+json": "problem",
}

_GENERIC = frozenset(
    {"", "text/plain", "application/octet-stream", "binary/octet-stream", "application/unknown"}
)
_HTML = frozenset({"text/html", "application/xhtml+xml"})


class LinkSearch:
    """The links found in a response, and why not every link of it was found (None:
    the whole response was read).

    ``found`` holds them as found, each built the first time it is read
    (:mod:`~explorer.core.hypermedia.found`): a reader that keeps a few of a large
    page's links builds those few. :attr:`links` is all of them, built. Made once per
    search and only read: a plain class (a dataclass's generated methods would go
    unused, and cost the TUI's start).
    """

    def __init__(self, found: FoundLinks, stopped: str | None = None) -> None:
        self.found = found
        #: Why the search stopped early or left the body unread, in words that read after
        #: "not every link is listed: " ("the search stops at 100,000 links", "the XML
        #: declares entities (a DTD), which restwalk does not read").
        self.stopped = stopped

    @cached_property
    def links(self) -> list[Link]:
        """Every link found, in the order found."""
        return list(self.found)


def find_links(
    url: str,
    status: int,
    headers: Sequence[tuple[str, str]],
    body: bytes,
    media_type: str | None = None,
) -> list[Link]:
    """Every link of a response: headers in wire order, then the body's, as Link values.

    ``url`` is the request URL (the base for relative references), ``headers``
    the response headers in wire order, ``media_type`` the Content-Type without
    parameters (the body is sniffed when it is None or generic). Never raises.
    At most :data:`MAX_LINKS`, found in at most :data:`MAX_SECONDS`
    (:func:`search_links` says whether the search stopped there).
    """
    return search_links(url, status, headers, body, media_type, build=True).links


def search_links(
    url: str,
    status: int,
    headers: Sequence[tuple[str, str]],
    body: bytes,
    media_type: str | None = None,
    *,
    max_links: int = MAX_LINKS,
    max_seconds: float = MAX_SECONDS,
    build: bool = False,
    keep: int | None = None,
) -> LinkSearch:
    """:func:`find_links`, with its bounds given, and why not every link was found.

    Its links are built as they are read; with ``build``, for a caller that reads them
    all, every one is built before the search returns (while the collector rests).

    With ``keep``, for a caller that keeps at most the first ``keep`` links in the
    session's order (:func:`~explorer.core.session.ordering.first_ordered`, which ranks
    the links of embedded resources but their ``self`` ones after all others but
    guesses, in the order found), the HAL reader records the first ``keep`` of those
    and only counts the rest (:data:`~explorer.core.hypermedia.found.NOT_KEPT`): the
    count, the order and the links kept are the same, and such a link cannot be read.
    """
    collector = Collector(
        Resolver(url),
        limit=max_links,
        deadline=time.monotonic() + max_seconds,
        seconds=max_seconds,
    )
    collector.eager = build
    if keep is not None and not build:
        collector.links.room = keep
    for name, value in headers:
        try:
            _header(name.lower(), value, status, collector)
        except SearchStopped as stop:
            collector.stopped = collector.stopped or str(stop)
            break
        except Exception:  # a bad header must not hide the others' links
            _log.debug("link finding skipped header %s", name, exc_info=True)
    # Parsing a large body allocates millions of objects that all stay alive:
    # the cyclic collector would scan them again and again for nothing (it
    # costs over a third of the time on a 10 MB document), so it pauses here.
    gc_pause.pause()
    if len(body) > MAX_PARSED:
        collector.not_read(
            f"the body is larger than {MAX_PARSED >> 20} MiB, so its links were not looked for"
        )
    doc: object = None
    unrecorded = False
    try:
        if collector.stopped is None:
            doc = _body(body, (media_type or "").split(";", 1)[0].strip().lower(), collector)
            add_made_links(url, headers, doc, collector)
    except SearchStopped as stop:
        collector.stopped = collector.stopped or str(stop)
    except Unrecorded:  # a pass needs a link the bounded search only counted
        unrecorded = True
    except Exception:
        # The finder reports what it could read and never raises; a parser bug
        # still leaves a trace for whoever turns debug logging on.
        _log.debug("link finding stopped in the body of %s", url, exc_info=True)
    finally:
        del doc  # (freed here, while the cyclic collector still rests)
        if build:
            collector.links.build()
        if gc.get_count()[0] > PROMOTE_AT:
            _promote_young()
        gc_pause.resume()
    if unrecorded:  # (rare: a URL in a resource's data named as a link only counted;
        # searched again with every link recorded, its time bound anew)
        return search_links(
            url, status, headers, body, media_type, max_links=max_links, max_seconds=max_seconds
        )
    fold_repeats(collector.links)
    return LinkSearch(collector.links, collector.stopped)


def _promote_young() -> None:
    """Move every object the collector tracks into its oldest generation, unexamined.

    A large page's links are tracked objects (a Link is a tuple subclass, which the
    collector never untracks as it does a plain tuple of strings; a link not built yet
    holds the search's resolver) that live as long as the page. The young collection due
    the moment collection resumes, and the middle one ten of those later, would each
    examine all of them for nothing: some 40 ms each for the 100,000 links of a 10 MB
    page, on whichever thread allocates next, the UI's as likely as not. ``gc.freeze()``
    then ``gc.unfreeze()`` moves every tracked object to the permanent generation and
    back into the oldest (as the ``gc`` documentation says of ``unfreeze``): then only a
    full collection, run once long-lived objects have grown by a quarter, examines them.
    Nothing is leaked: garbage among what was moved, and what an earlier ``gc.freeze()``
    set aside (restwalk's start-up modules), is examined again by the next full collection.
    """
    gc.freeze()
    gc.unfreeze()


def _header(name: str, value: str, status: int, collector: Collector) -> None:
    if name == "link":
        add_header_links(value, collector)
    elif name == "link-template":
        add_header_links(value, collector, source="header:Link-Template", templated=True)
    elif name in ("location", "content-location"):
        add_location(name, value, status, collector)


def _kind(body: bytes, media_type: str) -> str:
    """``json``, ``html``, ``xml`` or ``""`` (nothing to read) for a body."""
    if media_type.endswith(("/json", "+json")) or media_type in DECLARED_FORMATS:
        return "json"
    if media_type in _HTML:
        return "html"
    if media_type.endswith(("/xml", "+xml")):
        return "xml"
    if media_type not in _GENERIC:
        return ""
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head[:1] in (b"{", b"["):
        return "json"
    if head.startswith(b"<"):
        if b"<html" in head or head.startswith(b"<!doctype html"):
            return "html"
        return "xml"
    return ""


def _body(body: bytes, media_type: str, collector: Collector) -> object:
    """Add the body's links; its parsed JSON, or None when it is not JSON."""
    kind = _kind(body, media_type)
    # A body only sniffed as JSON or XML ("[INFO] ..." as text/plain) that does not
    # parse was no such document: nothing is said of it.
    declared = media_type not in _GENERIC
    if kind == "json":
        text = body.removeprefix(b"\xef\xbb\xbf")
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            texts = json_texts(text)  # JSON lines sent as one document: each text read
            if texts is not None:
                _json(texts, None, collector)
                return texts
            if declared and text.strip():  # an empty body (a HEAD, a 204) misses no link
                collector.not_read(f"the body is {json_refused(text, error)}")
            return None
        _json(doc, DECLARED_FORMATS.get(media_type), collector)
        return doc
    # The HTML and XML readers (html.parser, defusedxml and ElementTree) are
    # imported the first time a body needs them: most APIs answer in JSON, and
    # restwalk's start does not wait for them.
    elif kind == "html":
        from explorer.core.hypermedia.html import add_html_links

        add_html_links(body.decode("utf-8", errors="replace"), collector)
    elif kind == "xml":
        from explorer.core.hypermedia.xml import add_xml_links

        add_xml_links(body, collector, declared=declared)
    return None


def _json(doc: object, declared: str | None, collector: Collector) -> None:
    formats = _formats(doc, declared)
    # A HAL reader alone walks the whole document, handing the generic passes
    # what it does not read, and may drop each resource once read (the document
    # is this search's own); after any other format they walk it themselves.
    hal_alone = isinstance(doc, dict) and [name for name, _, _ in formats] == ["hal"]
    strings = Candidates(collector.claimed, collector.check_time)
    for name, _, reader in formats:
        if name == "hal":
            add_hal_links(doc, collector, strings if hal_alone else None, consume=hal_alone)
        else:
            reader(doc, collector)
    if not formats:  # plain JSON: what its names say
        add_root_entries(doc, collector)
        add_body_page_links(doc, collector)
    if hal_alone:
        hits = strings.hits
    else:
        hits = url_candidates(doc, collector.claimed, collector.check_time)
    add_url_fields(doc, collector, hits)
    add_guesses(doc, collector, hits)
    add_convention_links(doc, collector)


def _formats(doc: object, declared: str | None) -> list[JsonFormat]:
    """The formats ``doc`` is read as, in :data:`JSON_FORMATS` order: the declared one
    and each whose shape it has (JSON:API and Siren both use ``links``: only one of
    them is sniffed)."""
    formats: list[JsonFormat] = []
    for json_format in JSON_FORMATS:
        name, sniff, _ = json_format
        if name != declared:
            if name in ("jsonapi", "siren") and (
                declared in ("jsonapi", "siren")
                or any(other in ("jsonapi", "siren") for other, _, _ in formats)
            ):
                continue
            if not sniff(doc):
                continue
        formats.append(json_format)
    return formats
