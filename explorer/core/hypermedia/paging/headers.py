"""Paging headers: an answer whose body is the items alone, its paging said in headers.

Each reader follows one documentation:

* ``X-Pagination``, a JSON object, as flask-smorest sends it
  (https://flask-smorest.readthedocs.io/en/latest/pagination.html):
  ``{"total": 25, "total_pages": 3, "first_page": 1, "last_page": 3, "page": 2,
  "previous_page": 1, "next_page": 3}``; the pages by ``page``. The
  ``TotalPages``/``CurrentPage``/``HasNext`` spelling of many ASP.NET APIs reads too.
* GitLab's ``X-Next-Page``, ``X-Prev-Page``, ``X-Page``, ``X-Total-Pages``
  (https://docs.gitlab.com/api/rest/#other-pagination-headers); ``page``.
* ``X-Total-Count`` (json-server 0.17, https://github.com/typicode/json-server/tree/v0.17.4,
  "Paginate"; and many others): the total alone, so pages are made only from the
  window the request names (``_page`` and ``_limit``, ``page`` and ``per_page``,
  ``offset`` and ``limit``...).
* ``Content-Range`` on a list, as PostgREST sends it
  (https://docs.postgrest.org/en/stable/references/api/pagination_count.html):
  ``0-9/25`` (or ``items 0-9/25``): the next window by ``offset`` and ``limit``.
  A byte range (``bytes 0-99/1000``, a 206 of a file) is not a page.
"""

from __future__ import annotations

import re

import orjson

from explorer.core.hypermedia.paging.answer import Answer, Made, number
from explorer.core.hypermedia.paging.offsets import window_links
from explorer.core.hypermedia.paging.page_numbers import (
    PAGE_PARAMETERS,
    page_links,
    series_links,
)

__all__ = ["READERS", "x_pagination"]

#: X-Pagination's members (either spelling), and the relation each page number gives.
_X_PAGES = {
    "next_page": "next",
    "NextPage": "next",
    "previous_page": "prev",
    "PreviousPage": "prev",
    "first_page": "first",
    "last_page": "last",
}
#: ``[unit SP] first-last/total``, the total a number or ``*`` (unknown).
_CONTENT_RANGE = re.compile(r"\s*(?:(\w+)\s+)?(\d+)-(\d+)/(\d+|\*)\s*")
_PAGE_SIZES = ("_limit", "per_page", "page_size", "_per_page", "size", "limit", "pageSize")


def x_pagination(answer: Answer) -> dict[str, object] | None:
    """The ``X-Pagination`` header's JSON object, or None."""
    value = answer.headers.get("x-pagination")
    if value is None or len(value) > 4096:
        return None
    try:
        document = orjson.loads(value)
    except orjson.JSONDecodeError:
        return None
    return document if isinstance(document, dict) else None


def flask_smorest(answer: Answer) -> list[Made]:
    """``X-Pagination``: page numbers by name (flask-smorest), or ``CurrentPage`` and
    ``TotalPages`` (ASP.NET)."""
    document = x_pagination(answer)
    if document is None:
        return []
    made = []
    for member, rel in _X_PAGES.items():
        page = number(document.get(member))
        if page is not None:
            where = f"X-Pagination's {member}: {page}"
            made += page_links(answer, "page", {rel: page}, where, source="header:X-Pagination")
    current, total = number(document.get("CurrentPage")), number(document.get("TotalPages"))
    if not made and current is not None and total is not None:
        where = f"X-Pagination's CurrentPage {current} of TotalPages {total}"
        made = series_links(answer, current, total, "page", where, "header:X-Pagination")
    return made


def gitlab(answer: Answer) -> list[Made]:
    """GitLab's ``X-Next-Page`` and ``X-Prev-Page`` (empty on the last and first pages)."""
    made = []
    for header, rel in (("x-next-page", "next"), ("x-prev-page", "prev")):
        page = number(answer.headers.get(header))
        if page is not None:
            shown = header.title()
            made += page_links(
                answer, "page", {rel: page}, f"{shown}: {page}", source=f"header:{shown}"
            )
    last = number(answer.headers.get("x-total-pages"))
    if made and last:
        made += page_links(
            answer, "page", {"last": last}, f"X-Total-Pages: {last}", source="header:X-Total-Pages"
        )
    return made


def total_count(answer: Answer) -> list[Made]:
    """``X-Total-Count`` with the window the request names (a page and its size, or an
    offset and a limit)."""
    total = number(answer.headers.get("x-total-count"))
    if total is None:
        return []
    page_name = answer.parameter(*PAGE_PARAMETERS)
    size_name = answer.parameter(*_PAGE_SIZES)
    size = number(answer.value(size_name)) if size_name else None
    if page_name is not None and size:
        page = number(answer.value(page_name)) or 1
        last = max(1, -(-total // size))
        where = f"X-Total-Count {total} in pages of {size}"
        return series_links(answer, page, last, page_name, where, "header:X-Total-Count")
    offset, limit = number(answer.value("offset")), number(answer.value("limit"))
    if offset is not None and limit:
        where = f"X-Total-Count {total} and this page's offset {offset} and limit {limit}"
        return window_links(answer, offset, limit, total, where, "header:X-Total-Count")
    return []


def content_range(answer: Answer) -> list[Made]:
    """``Content-Range: 0-9/25`` on a list (PostgREST): the next window."""
    match = _CONTENT_RANGE.fullmatch(answer.headers.get("content-range", ""))
    if match is None or (match[1] or "items").lower() == "bytes" or match[4] == "*":
        return []
    if not isinstance(answer.doc, list):
        return []
    first, last, total = int(match[2]), int(match[3]), int(match[4])
    if last < first:
        return []
    limit = number(answer.value("limit")) or last - first + 1  # (a last page is shorter)
    where = f"Content-Range {match[0].strip()}"
    return window_links(answer, first, limit, total, where, "header:Content-Range")


#: The paging-header readers, in the order they are tried.
READERS = (flask_smorest, gitlab, total_count, content_range)
