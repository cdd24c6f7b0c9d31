"""The library served by flask-smorest: ``flask_smorest_app.py PORT`` (see README.md).

An ``Api`` with one ``Blueprint`` as flask-smorest's quickstart writes it: ``/books/``
paged by ``@blp.paginate()`` over a list (its defaults: ``page`` and ``page_size``
query arguments, 10 a page, the paging said only in the ``X-Pagination``
header), and ``/books/<id>``; 25 books by 5 authors in memory, marshmallow
schemas. Run it with the Python of a venv that has flask-smorest.
"""

import sys

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint, abort

BOOKS = [{"id": n, "title": f"Book {n}", "author_id": (n - 1) % 5 + 1} for n in range(1, 26)]

app = Flask(__name__)
app.config.update(
    API_TITLE="Library",
    API_VERSION="v1",
    OPENAPI_VERSION="3.0.2",
    OPENAPI_URL_PREFIX="/",
)
api = Api(app)
blp = Blueprint("books", "books", url_prefix="/books", description="Books")


class BookSchema(ma.Schema):
    id = ma.fields.Int(dump_only=True)
    title = ma.fields.String()
    author_id = ma.fields.Int()


@blp.route("/")
class Books(MethodView):
    @blp.response(200, BookSchema(many=True))
    @blp.paginate()
    def get(self, pagination_parameters):
        pagination_parameters.item_count = len(BOOKS)
        return BOOKS[pagination_parameters.first_item : pagination_parameters.last_item + 1]


@blp.route("/<int:book_id>")
class BookById(MethodView):
    @blp.response(200, BookSchema)
    def get(self, book_id):
        for book in BOOKS:
            if book["id"] == book_id:
                return book
        abort(404, message="Book not found.")


api.register_blueprint(blp)

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]))
