"""``/api/v1/``: tastypie's top level, ``book`` and ``author`` (as its tutorial's ``urls.py``)."""

from django.urls import include, path
from library.models import Author, Book
from tastypie import fields
from tastypie.api import Api
from tastypie.resources import ModelResource


class AuthorResource(ModelResource):
    class Meta:
        queryset = Author.objects.all()
        resource_name = "author"
        limit = 10


class BookResource(ModelResource):
    author = fields.ForeignKey(AuthorResource, "author")

    class Meta:
        queryset = Book.objects.all()
        resource_name = "book"
        limit = 10


v1 = Api(api_name="v1")
v1.register(BookResource())
v1.register(AuthorResource())
urlpatterns = [path("api/", include(v1.urls))]
