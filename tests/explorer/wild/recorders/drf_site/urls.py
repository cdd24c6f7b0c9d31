"""Routes: a DefaultRouter root with ``books`` and ``authors``, in the flavor's own style."""

from django.conf import settings
from django.urls import include, path, re_path
from library.models import Author, Book
from rest_framework import routers, viewsets
from rest_framework.pagination import LimitOffsetPagination

if settings.FLAVOR == "jsonapi":
    from rest_framework_json_api import relations, serializers, views

    class AuthorSerializer(serializers.HyperlinkedModelSerializer):
        class Meta:
            model = Author
            fields = ("name", "url")

    class BookSerializer(serializers.HyperlinkedModelSerializer):
        author = relations.ResourceRelatedField(
            queryset=Author.objects,
            related_link_view_name="book-related",
            self_link_view_name="book-relationships",
        )
        related_serializers = {"author": AuthorSerializer}  # what book-related serves

        class Meta:
            model = Book
            fields = ("title", "author", "url")

    class BookViewSet(views.ModelViewSet):
        queryset = Book.objects.all()
        serializer_class = BookSerializer

    class AuthorViewSet(views.ModelViewSet):
        queryset = Author.objects.all()
        serializer_class = AuthorSerializer

    class BookRelationshipView(views.RelationshipView):
        queryset = Book.objects

    extra = [
        re_path(
            r"^books/(?P<pk>[^/.]+)/relationships/(?P<related_field>[-\w]+)/?$",
            BookRelationshipView.as_view(),
            name="book-relationships",
        ),
        re_path(
            r"^books/(?P<pk>[^/.]+)/(?P<related_field>[-\w]+)/?$",
            BookViewSet.as_view({"get": "retrieve_related"}),
            name="book-related",
        ),
    ]
elif settings.FLAVOR == "hal":
    from drf_hal_json.serializers import HalModelSerializer

    class AuthorSerializer(HalModelSerializer):
        class Meta:
            model = Author
            fields = ("self", "name")

    class BookSerializer(HalModelSerializer):
        class Meta:
            model = Book
            fields = ("self", "title", "author")

    class BookViewSet(viewsets.ModelViewSet):
        queryset = Book.objects.all()
        serializer_class = BookSerializer

    class AuthorViewSet(viewsets.ModelViewSet):
        queryset = Author.objects.all()
        serializer_class = AuthorSerializer

    extra = []
else:
    from rest_framework import serializers

    class AuthorSerializer(serializers.HyperlinkedModelSerializer):
        class Meta:
            model = Author
            fields = ("url", "name", "books")

    class BookSerializer(serializers.HyperlinkedModelSerializer):
        class Meta:
            model = Book
            fields = ("url", "title", "author")

    class BookViewSet(viewsets.ModelViewSet):
        queryset = Book.objects.all()
        serializer_class = BookSerializer

    class AuthorViewSet(viewsets.ModelViewSet):
        queryset = Author.objects.all()
        serializer_class = AuthorSerializer
        pagination_class = LimitOffsetPagination  # the other paginator DRF ships

    extra = []

router = routers.DefaultRouter()
router.register("books", BookViewSet)
router.register("authors", AuthorViewSet)

urlpatterns = [*extra, path("", include(router.urls))]
