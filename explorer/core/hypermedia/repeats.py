"""The same link said twice, in a header and in the body, is one link listed once.

Many servers write their paging both ways: restwalk's mock writes ``self``,
``first``, ``next`` and ``last`` in the body's ``_links`` and in an RFC 8288
``Link`` header; fastapi-pagination, GitHub and json-server write one or the
other. A header link with the same relation, URL and method as one of the
body's own links (not one of an embedded resource's) is that link: the body's is
kept, where it stands, and names the header in ``also`` (the links panel's
"found at" shows both); a title or a media type only the header gives is kept
too. Two links with the same URL and different relations stay two links (the
second-to-last page's ``next`` is its ``last``).
"""

from __future__ import annotations

from itertools import compress

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.found import FoundLinks
from explorer.core.hypermedia.link import Link

__all__ = ["fold_repeats"]


def fold_repeats(links: FoundLinks) -> None:
    """Fold, in place, each header link of ``links`` (the headers' first, in the finder's
    order) that the body repeats into the body's (see the module docstring)."""
    header: dict[tuple[str, str, str], int] = {}
    count = 0
    for index, link in enumerate(links.entries):  # the headers' links come first
        # (each a Link: a body's link not built yet, or only counted, is none of them)
        if type(link) is not Link or not link.source.startswith("header:"):
            break
        header.setdefault((link.rel, link.href, link.method), index)
        count = index + 1
    if not header:
        return
    rels = {rel for rel, _, _ in header}
    # (a page may hold 100,000 links: their relations are compared in C, none built)
    candidates = compress(range(count, len(links)), map(rels.__contains__, links.rels(count)))
    dropped: set[int] = set()
    for index in candidates:  # (lazily: the look ends once every header link is found)
        link = links[index]
        at = header.get((link.rel, link.href, link.method))
        if at is None or at in dropped or is_embedded(link):
            continue
        said = links[at]
        dropped.add(at)
        links[index] = link._replace(
            also=(*link.also, said.source),
            title=link.title or said.title,
            media_type=link.media_type or said.media_type,
        )
        if len(dropped) == len(header):
            break
    for index in sorted(dropped, reverse=True):
        del links[index]
