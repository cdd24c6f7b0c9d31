"""fastapi-hypermodel's own examples, read-only: ``fastapi_hypermodel_app.py FLAVOR PORT``.

``FLAVOR`` is ``url_for`` (its "Level 0" plain JSON: each URL a ``UrlFor`` field,
``href`` and ``update``) or ``hal`` (``HALHyperModel``: ``_links``, curies to
schema.org). The models, data and routes are those of the examples in
fastapi-hypermodel's repository at its v2.1.0 tag (``examples/url_for/app.py``,
``examples/hal/app.py``, ``examples/*/data.py``), their GET routes only: items
and people, each a collection and its members. Run it with the Python of a venv
that has fastapi, fastapi-hypermodel and uvicorn.
"""

import sys
from collections.abc import Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi_hypermodel import (
    FrozenDict,
    HALFor,
    HALForType,
    HALHyperModel,
    HALLinks,
    HALResponse,
    HyperModel,
    UrlFor,
    UrlType,
)
from pydantic import Field

FLAVOR, PORT = sys.argv[1], int(sys.argv[2])
ITEMS = [
    {"id_": "item01", "name": "Foo", "price": 10.2},
    {"id_": "item02", "name": "Bar", "description": "The Bar fighters", "price": 62},
    {"id_": "item03", "name": "Baz", "description": "There goes my baz", "price": 50.2},
    {"id_": "item04", "name": "Doe", "description": "There goes my Doe", "price": 5},
]
PEOPLE = [
    {"id_": "person01", "name": "Alice", "is_locked": False, "items": ITEMS[:2]},
    {"id_": "person02", "name": "Bob", "is_locked": True, "items": ITEMS[2:]},
]
app = FastAPI()

if FLAVOR == "url_for":

    class Item(HyperModel):
        id_: str
        name: str
        description: str | None = None
        price: float
        href: UrlFor = UrlFor("read_item", {"id_": "<id_>"})
        update: UrlFor = UrlFor("update_item", {"id_": "<id_>"})

    class ItemCollection(HyperModel):
        items: Sequence[Item]
        href: UrlFor = UrlFor("read_items")
        find: UrlFor = UrlFor("read_item", templated=True)
        update: UrlFor = UrlFor("update_item", templated=True)

    class Person(HyperModel):
        id_: str
        name: str
        is_locked: bool
        items: Sequence[Item]
        href: UrlFor = UrlFor("read_person", {"id_": "<id_>"})
        update: UrlFor = UrlFor("update_person", {"id_": "<id_>"})
        add_item: UrlFor = UrlFor(
            "put_person_items", {"id_": "<id_>"}, condition=lambda v: not v["is_locked"]
        )

    class PeopleCollection(HyperModel):
        people: Sequence[Person]
        href: UrlFor = UrlFor("read_people")
        find: UrlFor = UrlFor("read_person", templated=True)
        update: UrlFor = UrlFor("update_person", templated=True)

    HyperModel.init_app(app)
    items: dict[str, Any] = {"items": ITEMS}
    people: dict[str, Any] = {"people": PEOPLE}
    kind: dict[str, Any] = {}
else:

    class Item(HALHyperModel):  # type: ignore[no-redef]
        id_: str
        name: str
        description: str | None = None
        price: float
        links: HALLinks = FrozenDict(
            {
                "self": HALFor("read_item", {"id_": "<id_>"}),
                "update": HALFor("update_item", {"id_": "<id_>"}),
            }
        )

    class ItemCollection(HALHyperModel):  # type: ignore[no-redef]
        items: Sequence[Item] = Field(alias="sc:items")
        links: HALLinks = FrozenDict(
            {
                "self": HALFor("read_items"),
                "find": HALFor("read_item", templated=True),
                "update": HALFor("update_item", templated=True),
            }
        )

    class Person(HALHyperModel):  # type: ignore[no-redef]
        id_: str
        name: str
        is_locked: bool
        items: Sequence[Item] = Field(alias="sc:items")
        links: HALLinks = FrozenDict(
            {
                "self": HALFor("read_person", {"id_": "<id_>"}),
                "update": HALFor("update_person", {"id_": "<id_>"}),
                "add_item": HALFor(
                    "put_person_items", {"id_": "<id_>"}, condition=lambda v: not v["is_locked"]
                ),
            }
        )

    class PeopleCollection(HALHyperModel):  # type: ignore[no-redef]
        people: Sequence[Person]
        links: HALLinks = FrozenDict(
            {
                "self": HALFor("read_people"),
                "find": HALFor("read_person", templated=True),
                "update": HALFor("update_person", templated=True),
            }
        )

    HALHyperModel.init_app(app)
    HALHyperModel.register_curies(
        [HALForType(href=UrlType("https://schema.org/{rel}"), name="sc", templated=True)]
    )
    PEOPLE = [{**person, "sc:items": person.pop("items")} for person in PEOPLE]
    items = {"sc:items": ITEMS}
    people = {"people": PEOPLE}
    kind = {"response_class": HALResponse}


@app.get("/items", response_model=ItemCollection, response_model_exclude_unset=True, **kind)
def read_items() -> Any:
    return items


@app.get("/items/{id_}", response_model=Item, response_model_exclude_unset=True, **kind)
def read_item(id_: str) -> Any:
    return next(item for item in ITEMS if item["id_"] == id_)


@app.put("/items/{id_}", response_model=Item, response_model_exclude_unset=True, **kind)
def update_item(id_: str) -> Any:
    return next(item for item in ITEMS if item["id_"] == id_)


@app.get("/people", response_model=PeopleCollection, response_model_exclude_unset=True, **kind)
def read_people() -> Any:
    return people


@app.get("/people/{id_}", response_model=Person, response_model_exclude_unset=True, **kind)
def read_person(id_: str) -> Any:
    return next(person for person in PEOPLE if person["id_"] == id_)


@app.put("/people/{id_}", response_model=Person, response_model_exclude_unset=True, **kind)
def update_person(id_: str) -> Any:
    return next(person for person in PEOPLE if person["id_"] == id_)


@app.put("/people/{id_}/items", response_model=Person, response_model_exclude_unset=True, **kind)
def put_person_items(id_: str) -> Any:
    return next(person for person in PEOPLE if person["id_"] == id_)


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")
