"""``/api/``: books paged three ways by Django Ninja's own paginators, and a book."""

from django.shortcuts import get_object_or_404
from django.urls import path
from library.models import Book
from ninja import NinjaAPI, Schema
from ninja.pagination import CursorPagination, PageNumberPagination, paginate

api = NinjaAPI()


class BookOut(Schema):
    id: int
    title: str
    author_id: int


@api.get("/books", response=list[BookOut])
@paginate
def books(request):
    return Book.objects.all()


@api.get("/pages/books", response=list[BookOut])
@paginate(PageNumberPagination)
def book_pages(request):
    return Book.objects.all()


@api.get("/cursor/books", response=list[BookOut])
@paginate(CursorPagination, ordering=("id",))
def book_cursor(request):
    return Book.objects.all()


@api.get("/books/{book_id}", response=BookOut)
def book(request, book_id: int):
    return get_object_or_404(Book, id=book_id)


urlpatterns = [path("api/", api.urls)]
