"""Offset, limit and total: an answer that says where its window stands in the whole.

The next page starts where this one ends (``offset + limit``) while that is
before the total; the last starts at the last multiple of ``limit`` before it.
They are the request's URL with its offset and limit parameters set: the names
the request already uses, else ``offset`` and ``limit``. Each reader follows one
documentation:

* Litestar's ``OffsetPagination`` (https://docs.litestar.dev/latest/usage/responses.html,
  "Pagination"): ``{"items", "limit", "offset", "total"}``;
* restwalk's mock (its envelope: ``{"count", "total", "limit", "offset", ...}``),
  fastapi-pagination's ``LimitOffsetPage``, Spotify's paging object
  (https://developer.spotify.com/documentation/web-api/concepts/api-calls, "Paging"),
  which write their links too: then these are not needed;
* django-tastypie's ``meta`` (https://django-tastypie.readthedocs.io/en/latest/paginator.html):
  ``{"limit", "offset", "total_count", "next", "previous"}``;
* Django Ninja's ``LimitOffsetPagination``, its default
  (https://django-ninja.dev/guides/response/pagination/): ``{"items", "count"}``
  only, the window in the request's ``limit`` and ``offset`` (0 and this page's
  item count when it names neither).
"""

from __future__ import annotations

from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.paging.answer import Answer, Made, number

__all__ = ["READERS", "window_links"]

#: Members that say how many items there are in all, in the order they are believed.
_TOTALS = ("total", "total_count", "totalCount", "count")
_OFFSETS = ("offset", "skip", "start")
_LIMITS = ("limit", "per_page", "page_size", "size", "take")


def window_links(
    answer: Answer, offset: int, limit: int, total: int, where: str, source: str
) -> list[Made]:
    """first, prev, next and last of the window ``offset``..``offset + limit`` of ``total``
    items; ``where`` says what gave the numbers, for "made from"."""
    if limit <= 0:
        return []
    offset_name = answer.parameter(*_OFFSETS) or "offset"
    limit_name = answer.parameter(*_LIMITS) or "limit"
    last = max(0, (total - 1) // limit * limit)
    offsets = {
        "first": 0,
        "prev": max(0, offset - limit) if offset > 0 else None,
        "next": offset + limit if offset + limit < total else None,
        "last": last,
    }
    made = []
    for rel, start in offsets.items():
        if start is None:
            continue
        href = answer.with_query(**{limit_name: str(limit), offset_name: str(start)})
        shown = f"{where} (an offset: ?{offset_name}={start})"
        made.append(Made(rel, href, source, shown))
    return made


def offset_total(answer: Answer) -> list[Made]:
    """``offset``, ``limit`` and a total, at the top of the body or in its ``meta``."""
    for path in ((), ("meta",)):
        holder = answer.member(*path) if path else answer.body
        if not isinstance(holder, dict):
            continue
        offset, limit = number(holder.get("offset")), number(holder.get("limit"))
        total_name = next((name for name in _TOTALS if number(holder.get(name)) is not None), None)
        if offset is None or not limit or total_name is None:
            continue
        total = number(holder.get(total_name)) or 0
        prefix = "/" + "/".join(path) if path else ""
        where = f"the body's offset {offset}, limit {limit} and {total_name} {total}"
        return window_links(answer, offset, limit, total, where, f"{prefix}/offset")
    return []


def ninja_offsets(answer: Answer) -> list[Made]:
    """Django Ninja's ``{"items", "count"}``, the window in the request's query."""
    body = answer.body
    count, items = number(body.get("count")), page_items(answer.doc)
    if set(body) != {"items", "count"} or count is None or items is None:
        return []
    if answer.parameter("page", "page_size"):
        return []  # its page-number paginator: paging.page_numbers reads it
    offset = number(answer.value("offset")) or 0
    limit = number(answer.value("limit")) or len(items)
    where = f"the body's count {count} and this page's offset {offset} and limit {limit}"
    return window_links(answer, offset, limit, count, where, "/count")


#: The offset readers, in the order they are tried.
READERS = (offset_total, ninja_offsets)
