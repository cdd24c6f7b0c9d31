"""The library served by Litestar: ``litestar_app.py PORT`` (see README.md).

25 books by 5 authors in memory, paged by Litestar's own paginators as its
"Pagination" docs write them (each handler's query parameters named as there,
given defaults here so that a bare URL answers too):

- ``/books``: ``AbstractSyncOffsetPaginator`` → ``OffsetPagination`` (``{"items",
  "limit", "offset", "total"}``; ``limit`` 10, ``offset`` 0);
- ``/pages/books``: ``AbstractSyncClassicPaginator`` → ``ClassicPagination``
  (``{"items", "page_size", "current_page", "total_pages"}``; ``page_size`` 10,
  ``current_page`` 1);
- ``/cursor/books``: ``AbstractSyncCursorPaginator`` → ``CursorPagination``
  (``{"items", "results_per_page", "cursor"}``; the cursor is the next book's id);
- ``/books/{book_id}``: a book.

Run it with the Python of a venv that has litestar and uvicorn.
"""

import sys
from dataclasses import dataclass

import uvicorn
from litestar import Litestar, get
from litestar.exceptions import NotFoundException
from litestar.pagination import (
    AbstractSyncClassicPaginator,
    AbstractSyncCursorPaginator,
    AbstractSyncOffsetPaginator,
    ClassicPagination,
    CursorPagination,
    OffsetPagination,
)


@dataclass
class Book:
    id: int
    title: str
    author_id: int


BOOKS = [Book(id=n, title=f"Book {n}", author_id=(n - 1) % 5 + 1) for n in range(1, 26)]


class BookOffsets(AbstractSyncOffsetPaginator[Book]):
    def get_total(self) -> int:
        return len(BOOKS)

    def get_items(self, limit: int, offset: int) -> list[Book]:
        return BOOKS[offset : offset + limit]


class BookPages(AbstractSyncClassicPaginator[Book]):
    def get_total(self, page_size: int) -> int:
        return -(-len(BOOKS) // page_size)

    def get_items(self, page_size: int, current_page: int) -> list[Book]:
        start = (current_page - 1) * page_size
        return BOOKS[start : start + page_size]


class BookCursor(AbstractSyncCursorPaginator[str, Book]):
    def get_items(self, cursor: str | None, results_per_page: int) -> tuple[list[Book], str | None]:
        start = int(cursor) - 1 if cursor else 0
        items = BOOKS[start : start + results_per_page]
        after = start + results_per_page
        return items, (str(after + 1) if after < len(BOOKS) else None)


@get("/books", sync_to_thread=False)
def books(limit: int = 10, offset: int = 0) -> OffsetPagination[Book]:
    return BookOffsets()(limit=limit, offset=offset)


@get("/pages/books", sync_to_thread=False)
def book_pages(page_size: int = 10, current_page: int = 1) -> ClassicPagination[Book]:
    return BookPages()(page_size=page_size, current_page=current_page)


@get("/cursor/books", sync_to_thread=False)
def book_cursor(
    cursor: str | None = None, results_per_page: int = 10
) -> CursorPagination[str, Book]:
    return BookCursor()(cursor=cursor, results_per_page=results_per_page)


@get("/books/{book_id:int}", sync_to_thread=False)
def book(book_id: int) -> Book:
    for found in BOOKS:
        if found.id == book_id:
            return found
    raise NotFoundException("Book not found")


app = Litestar([books, book_pages, book_cursor, book])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
