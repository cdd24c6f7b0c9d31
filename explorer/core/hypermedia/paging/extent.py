"""What one page says of the whole series: how many items, how many pages, whether more.

A walk that stops (no ``next`` link, ``--max-pages``, a loop, an error) compares
what it read with what the pages said, so that a partial walk is never silent:
"the answer says 25 items; 20 were read". The first page that says something
is believed. Where each framework says it:

==========================================  ========================================
said                                        by
==========================================  ========================================
``count`` (items in all)                    Django REST Framework, PokeAPI, Django
                                            Ninja (beside ``results`` or ``items``)
``total``                                   the mock, Litestar, fastapi-pagination,
                                            Spotify, Laravel
``meta.total_count``                        django-tastypie
``items`` (a number) and ``pages``          json-server 1.x
``pages``, ``total_pages``, ``last_page``,  fastapi-pagination, Litestar, Laravel,
``totalPages``, ``totalElements``           Spring Data
``pageInfo.totalResults``                   Google's YouTube Data API
``has_more``                                Stripe
``X-Pagination`` ``total``, ``total_pages``  flask-smorest
``X-Total-Count``, ``X-Total``,             json-server 0.17, GitLab
``X-Total-Pages``
``Content-Range: 0-9/25``                   PostgREST
==========================================  ========================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.paging.answer import Answer, number
from explorer.core.hypermedia.paging.headers import x_pagination
from explorer.core.text.lazy_pattern import LazyPattern

__all__ = ["Extent", "page_extent"]

#: Where a body says how many items there are in all, in the order they are believed.
_TOTALS: tuple[tuple[str, ...], ...] = (
    ("total",),
    ("total_count",),
    ("totalCount",),
    ("totalElements",),
    ("totalResults",),
    ("meta", "total_count"),
    ("meta", "total"),
    ("meta", "pagination", "total"),
    ("pagination", "total"),
    ("pageInfo", "totalResults"),
)
#: Where a body says how many pages there are.
_PAGES: tuple[tuple[str, ...], ...] = (
    ("pages",),
    ("total_pages",),
    ("totalPages",),
    ("last_page",),
    ("meta", "last_page"),
    ("meta", "pagination", "total_pages"),
)
_CONTENT_RANGE_TOTAL = LazyPattern(r"\s*(?:\w+\s+)?\d+-\d+/(\d+)\s*")


class Extent(NamedTuple):
    """What a page says of its series: ``total`` items, ``pages`` pages, whether there
    are ``more`` after it (None: not said), and where it said so, in words."""

    total: int | None = None
    pages: int | None = None
    more: bool | None = None
    said_by: str = ""

    @property
    def says_anything(self) -> bool:
        """True when the page said any of the three."""
        return self.total is not None or self.pages is not None or self.more is not None


def page_extent(url: str, headers: Sequence[tuple[str, str]], doc: object) -> Extent:
    """What the answer to ``url`` (its ``headers`` and parsed ``doc``) says of the whole."""
    answer = Answer.of(url, headers, doc)
    total, total_by = _total(answer)
    pages, pages_by = _pages(answer)
    more = answer.body.get("has_more", answer.body.get("hasMore"))
    said = [by for by in (total_by, pages_by) if by]
    if isinstance(more, bool):
        said.append("the body's has_more")
    return Extent(
        total=total,
        pages=pages,
        more=more if isinstance(more, bool) else None,
        said_by=" and ".join(said),
    )


def _total(answer: Answer) -> tuple[int | None, str]:
    for path in _TOTALS:
        found = number(answer.member(*path))
        if found is not None:
            return found, f"the body's {'.'.join(path)}"
    body = answer.body
    items = page_items(answer.doc)
    count = number(body.get("count"))
    if count is not None and items is not None and count >= len(items) and "total" not in body:
        return count, "the body's count"
    json_server = number(body.get("items"))
    if json_server is not None and isinstance(body.get("data"), list):
        return json_server, "the body's items"
    document = x_pagination(answer)
    if document is not None:
        for name in ("total", "TotalCount", "totalCount"):
            found = number(document.get(name))
            if found is not None:
                return found, f"X-Pagination's {name}"
    for header, shown in (("x-total-count", "X-Total-Count"), ("x-total", "X-Total")):
        found = number(answer.headers.get(header))
        if found is not None:
            return found, shown
    match = _CONTENT_RANGE_TOTAL.fullmatch(answer.headers.get("content-range", ""))
    if match is not None and not answer.headers["content-range"].lstrip().startswith("bytes"):
        return int(match[1]), "Content-Range"
    return None, ""


def _pages(answer: Answer) -> tuple[int | None, str]:
    for path in _PAGES:
        found = number(answer.member(*path))
        if found is not None:
            return found, f"the body's {'.'.join(path)}"
    document = x_pagination(answer)
    if document is not None:
        for name in ("total_pages", "TotalPages"):
            found = number(document.get(name))
            if found is not None:
                return found, f"X-Pagination's {name}"
    found = number(answer.headers.get("x-total-pages"))
    if found is not None:
        return found, "X-Total-Pages"
    return None, ""
