"""Media types a browser runs as code: an echo endpoint never serves them.

``/response-headers?Content-Type=text/html&x=<script>...`` answered the script
as a page: any web site could link a visitor there and run its script as the
mock's own origin, next to ``/_journal``. The type is refused when it is
(WHATWG MIME Sniffing §4.6, "MIME type groups"):

- a **scriptable** type: HTML (``text/html``), XML (``text/xml``,
  ``application/xml``, any ``+xml``: XHTML, SVG, XSLT, RSS...; and ``text/xsl``,
  which Chromium renders as XML too) and ``application/pdf``, which a browser
  renders as a document that can run script;
- a **multipart** type a browser shows part by part (``multipart/x-mixed-replace``:
  Firefox renders each part as a document of the type the part names);
- a **JavaScript** type (``text/javascript`` and its eleven older spellings),
  which a worker or a ``<script>`` runs as code (``nosniff`` makes those
  refuse any other type);
- no single media type at all: empty, a list (a browser takes the last of
  ``text/plain, text/html``, Fetch's "extract a MIME type"), unparsable, or one
  of the types that make a browser guess from the body (``*/*``,
  ``unknown/unknown``, ``application/unknown``: §7.1).

**Refused rather than served in a sandbox.** The other way, sending
``Content-Security-Policy: sandbox`` and ``X-Content-Type-Options: nosniff``
with whatever was asked, leaves the safety to each browser's handling of two
headers (and to the echo not letting a request add headers that undo them);
refusing keeps every answer of the echo inert in any browser, at the cost of
httpbin's leave to echo a page, which no client test needs from a server that
serves no HTML anywhere. Everything else (JSON, text, CSV, images, octet
streams) is echoed as before.
"""

from __future__ import annotations

import re

#: A media type's ``type/subtype``: two tokens (RFC 9110 §8.3.1).
_ESSENCE = re.compile(r"^[!#$%&'*+.^_`|~0-9a-z-]+/[!#$%&'*+.^_`|~0-9a-z-]+$")
HTML_TYPES = frozenset({"text/html"})
XML_TYPES = frozenset({"text/xml", "application/xml", "text/xsl"})
#: Multipart types whose parts a browser renders, each as the type it names.
RENDERED_MULTIPART = frozenset({"multipart/x-mixed-replace"})
#: The JavaScript MIME type essences of the MIME Sniffing standard.
JAVASCRIPT_TYPES = frozenset(
    {
        "application/ecmascript",
        "application/javascript",
        "application/x-ecmascript",
        "application/x-javascript",
        "text/ecmascript",
        "text/javascript",
        "text/javascript1.0",
        "text/javascript1.1",
        "text/javascript1.2",
        "text/javascript1.3",
        "text/javascript1.4",
        "text/javascript1.5",
        "text/jscript",
        "text/livescript",
        "text/x-ecmascript",
        "text/x-javascript",
    }
)
#: Types that make a browser sniff the body for the type it really is.
SNIFFED_TYPES = frozenset({"*/*", "unknown/unknown", "application/unknown"})


def essence(value: str) -> str | None:
    """The ``type/subtype`` of a ``Content-Type`` value holding one media type, lower-cased.

    None when it holds none (empty, unparsable) or a list of them.
    """
    if "," in value:
        return None
    found = value.partition(";")[0].strip().lower()
    return found if _ESSENCE.match(found) else None


def active_kind(value: str) -> str | None:
    """What makes the ``Content-Type`` value ``value`` run as code, or None if nothing does.

    The answer completes "a browser would ...": it names the group of the type.
    """
    found = essence(value)
    if found is None or found in SNIFFED_TYPES:
        return "choose the type itself (the value is not one media type it takes as given)"
    if found in HTML_TYPES:
        return "render it as an HTML page, scripts and all"
    if found in XML_TYPES or found.endswith("+xml"):
        return "render it as an XML document (XHTML, SVG...), which can run script"
    if found in RENDERED_MULTIPART:
        return "render each of its parts as a document of the type the part names"
    if found == "application/pdf":
        return "render it as a PDF document, which can run script"
    if found in JAVASCRIPT_TYPES:
        return "run it as JavaScript"
    return None
