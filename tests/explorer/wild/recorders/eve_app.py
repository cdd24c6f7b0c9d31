"""An Eve API with books and authors, on an in-memory MongoDB (mongomock).

Eve needs MongoDB, and no mongod installs here (Debian dropped it; PyPI and npm
only ship downloaders of its binaries): mongomock stands in for the database,
and every answer is Eve's own (its HATEOAS links, ``_items``, ``_meta``,
pagination), with Eve's defaults but PAGINATION_DEFAULT 10.
Run: ``eve_app.py PORT`` with the Python of a venv that has eve and mongomock.
"""

import sys

import mongomock
import pymongo

pymongo.MongoClient = mongomock.MongoClient  # before Eve imports it

from eve import Eve  # noqa: E402
from eve.io.mongo import flask_pymongo  # noqa: E402

flask_pymongo.MongoClient = mongomock.MongoClient

SETTINGS = {
    "MONGO_URI": "mongodb://localhost:27017/library",
    "PAGINATION_DEFAULT": 10,
    "DOMAIN": {
        "books": {
            "schema": {
                "title": {"type": "string"},
                "author": {
                    "type": "objectid",
                    "data_relation": {"resource": "authors", "embeddable": True},
                },
            }
        },
        "authors": {"schema": {"name": {"type": "string"}}},
    },
}

app = Eve(settings=SETTINGS)
with app.app_context():
    db = app.data.driver.db
    authors = [db.authors.insert_one({"name": f"Author {n}"}).inserted_id for n in range(1, 6)]
    for n in range(1, 26):
        db.books.insert_one({"title": f"Book {n}", "author": authors[(n - 1) % 5]})
app.run(host="127.0.0.1", port=int(sys.argv[1]))
