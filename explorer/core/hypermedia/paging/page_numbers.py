"""Page numbers: an answer that numbers its pages, read as the links to them.

The next page is the request's URL with its page parameter set to the next
number: the parameter the request already has (``?page=2``, ``?_page=2``,
``?current_page=2``), else the one the framework documents. Each reader follows
one framework's documentation:

* json-server 1.x (https://github.com/typicode/json-server, "Paginate"):
  ``GET /posts?_page=1&_per_page=25`` answers ``{"first": 1, "prev": null,
  "next": 2, "last": 4, "pages": 4, "items": 100, "data": [...]}``; ``_page``.
* Laravel's length-aware paginator (https://laravel.com/docs/12.x/pagination,
  "Converting Results to JSON"): ``current_page`` and ``last_page`` beside the
  ``*_page_url`` fields (read as links when it writes them); ``page``.
* fastapi-pagination's ``Page`` (https://uriyyo-fastapi-pagination.netlify.app/):
  ``{"items", "total", "page", "size", "pages"}``; ``page``.
* Litestar's ``ClassicPagination`` (https://docs.litestar.dev/latest/usage/responses.html,
  "Pagination"): ``{"items", "page_size", "current_page", "total_pages"}``; the
  handler's parameter, ``current_page`` in the docs.
* Spring Data's ``Page`` (https://docs.spring.io/spring-data/commons/reference/repositories/core-extensions.html,
  "Paging and Sorting"): ``number`` counted from 0 and ``totalPages``; ``page``,
  from 0 too.
* Django Ninja's ``PageNumberPagination`` (https://django-ninja.dev/guides/response/pagination/):
  ``{"items", "count"}`` for ``?page=N``: the next page while ``N`` pages of
  ``page_size`` hold fewer than ``count``; without a ``page_size``, this page's
  items are the size, and the links made say it (``?page=2&page_size=10``).
"""

from __future__ import annotations

from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.paging.answer import Answer, Made, number

__all__ = ["PAGE_PARAMETERS", "READERS", "page_links", "series_links"]

#: Query parameters that carry a page number, as frameworks name them.
PAGE_PARAMETERS = ("page", "_page", "current_page", "p", "pageNumber", "page_number")


def page_links(
    answer: Answer,
    parameter: str,
    pages: dict[str, int | None],
    where: str,
    *,
    source: str,
    base: int = 1,
    extra: dict[str, str] | None = None,
) -> list[Made]:
    """The links to the pages numbered in ``pages`` (relation → number as the answer
    writes it, counted from ``base``), each set as ``parameter`` (and the ``extra``
    parameters); ``where`` says what gave the numbers, for "made from"."""
    parameter = answer.parameter(*PAGE_PARAMETERS) or parameter
    made = []
    for rel, page in pages.items():
        if page is None or page < base:
            continue
        href = answer.with_query(**{parameter: str(page)}, **(extra or {}))
        if rel in ("next", "prev") and href == answer.url.partition("#")[0]:
            continue  # a page is not its own next
        made.append(Made(rel, href, source, f"{where} (a page number: ?{parameter}={page})"))
    return made


def series_links(
    answer: Answer,
    current: int,
    last: int,
    parameter: str,
    where: str,
    source: str,
    base: int = 1,
    extra: dict[str, str] | None = None,
) -> list[Made]:
    """first, prev, next and last of page ``current`` of pages ``base`` to ``last``."""
    pages = {
        "first": base,
        "prev": current - 1 if current > base else None,
        "next": current + 1 if current < last else None,
        "last": last,
    }
    return page_links(answer, parameter, pages, where, source=source, base=base, extra=extra)


def _current_of_last(
    answer: Answer, current_member: str, last_member: str, parameter: str, needs: str = ""
) -> list[Made]:
    """The series of a body that says its page (``current_member``) and its last page
    (``last_member``), and has the member ``needs``, if any."""
    body = answer.body
    current, last = number(body.get(current_member)), number(body.get(last_member))
    if current is None or last is None or (needs and needs not in body):
        return []
    where = f"the body's {current_member} {current} of {last_member} {last}"
    return series_links(answer, current, last, parameter, where, f"/{current_member}")


def json_server(answer: Answer) -> list[Made]:
    """json-server 1.x: ``first``, ``prev``, ``next`` and ``last`` as page numbers."""
    body = answer.body
    numbered = {rel: number(body.get(rel)) for rel in ("first", "prev", "next", "last")}
    if not isinstance(body.get("data"), list) or all(n is None for n in numbered.values()):
        return []
    made = []
    for rel, page in numbered.items():
        made += page_links(
            answer, "_page", {rel: page}, f"the body's {rel}: {page}", source=f"/{rel}"
        )
    return made


def laravel(answer: Answer) -> list[Made]:
    """Laravel: ``current_page`` of ``last_page``."""
    return _current_of_last(answer, "current_page", "last_page", "page")


def fastapi_pagination(answer: Answer) -> list[Made]:
    """fastapi-pagination's ``Page``: ``page`` of ``pages``, beside its ``items``."""
    return _current_of_last(answer, "page", "pages", "page", needs="items")


def litestar(answer: Answer) -> list[Made]:
    """Litestar's ``ClassicPagination``: ``current_page`` of ``total_pages``."""
    return _current_of_last(answer, "current_page", "total_pages", "current_page")


def spring(answer: Answer) -> list[Made]:
    """Spring Data's ``Page``: ``number`` (from 0) of ``totalPages``."""
    body = answer.body
    current, total = number(body.get("number")), number(body.get("totalPages"))
    if current is None or not total or not isinstance(body.get("content"), list):
        return []
    where = f"the body's number {current} of totalPages {total}, counted from 0"
    return series_links(answer, current, total - 1, "page", where, "/number", base=0)


def ninja_pages(answer: Answer) -> list[Made]:
    """Django Ninja's ``PageNumberPagination``: ``count`` items, this request's ``page``."""
    body = answer.body
    count, page = number(body.get("count")), number(answer.value("page"))
    items = page_items(answer.doc)
    if set(body) != {"items", "count"} or count is None or not page or items is None:
        return []
    size = number(answer.value("page_size"))
    sized = {}
    if size is None:  # this page's items are its size, said in the links made
        size = len(items)
        sized = {"page_size": str(size)}
    if not size:
        return []
    last = max(1, -(-count // size))
    where = f"the body's count {count} in pages of {size} (this is page {page})"
    return series_links(answer, page, last, "page", where, "/count", extra=sized)


#: The page-number readers, in the order they are tried.
READERS = (json_server, laravel, fastapi_pagination, litestar, spring, ninja_pages)
