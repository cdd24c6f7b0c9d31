"""The library served by FastAPI with fastapi-pagination: ``fastapi_pagination_app.py PORT``.

25 books by 5 authors in memory, 10 a page (each page class customised with
``UseParamsFields``, as fastapi-pagination's docs show; its default size is 50),
``add_pagination(app)`` and ``paginate()`` from its docs' first example:

- ``/books``: ``fastapi_pagination.links.Page`` (``{"items", "total", "page",
  "size", "pages", "links": {"first", "last", "self", "next", "prev"}}``);
- ``/pages/books``: ``fastapi_pagination.Page`` (page numbers, no links);
- ``/offsets/books``: ``fastapi_pagination.links.LimitOffsetPage`` (``limit``/``offset``);
- ``/headers/books``: ``Page`` with ``UseHeaderLinks()`` (an RFC 8288 ``Link`` header);
- ``/books/{id}``: a book.

Run it with the Python of a venv that has fastapi, fastapi-pagination and uvicorn.
"""

import sys
from typing import TypeVar

import uvicorn
from fastapi import FastAPI, HTTPException
from fastapi_pagination import Page, add_pagination, paginate
from fastapi_pagination.customization import CustomizedPage, UseParamsFields
from fastapi_pagination.links import LimitOffsetPage as LinksLimitOffsetPage
from fastapi_pagination.links import Page as LinksPage
from fastapi_pagination.links import UseHeaderLinks
from pydantic import BaseModel

T = TypeVar("T")


class Book(BaseModel):
    id: int
    title: str
    author_id: int


BOOKS = [Book(id=n, title=f"Book {n}", author_id=(n - 1) % 5 + 1) for n in range(1, 26)]

TenLinks = CustomizedPage[LinksPage[T], UseParamsFields(size=10)]
TenPages = CustomizedPage[Page[T], UseParamsFields(size=10)]
TenOffsets = CustomizedPage[LinksLimitOffsetPage[T], UseParamsFields(limit=10)]
TenHeaders = CustomizedPage[Page[T], UseParamsFields(size=10), UseHeaderLinks()]

app = FastAPI()


@app.get("/books")
def books() -> TenLinks[Book]:
    return paginate(BOOKS)


@app.get("/pages/books")
def book_pages() -> TenPages[Book]:
    return paginate(BOOKS)


@app.get("/offsets/books")
def book_offsets() -> TenOffsets[Book]:
    return paginate(BOOKS)


@app.get("/headers/books")
def book_headers() -> TenHeaders[Book]:
    return paginate(BOOKS)


@app.get("/books/{book_id}")
def book(book_id: int) -> Book:
    for found in BOOKS:
        if found.id == book_id:
            return found
    raise HTTPException(status_code=404, detail="Book not found")


add_pagination(app)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
