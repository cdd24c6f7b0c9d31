"""OData JSON feeds through find_links."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link

BASE = "https://services.odata.org/V4/TripPinService/People?$top=2"
S = "https://services.odata.org/V4/TripPinService"

PEOPLE = {
    "@odata.context": "$metadata#People",
    "@odata.count": 20,
    "value": [
        {
            "@odata.id": "People('russellwhyte')",
            "@odata.etag": 'W/"08D1694BD49A0F11"',
            "@odata.editLink": "People('russellwhyte')",
            "UserName": "russellwhyte",
            "Friends@odata.navigationLink": "People('russellwhyte')/Friends",
            "Friends@odata.associationLink": "People('russellwhyte')/Friends/$ref",
            "Friends@odata.count": 4,
            "Photo": {
                "@odata.context": "https://cdn.example.com/photos/$metadata#Photos/$entity",
                "@odata.id": "Photos(1)",
                "@odata.mediaReadLink": "Photos(1)/$value",
                "@odata.mediaEditLink": "Photos(1)/$value",
            },
        },
        {"@odata.id": "People('scottketchum')", "@odata.readLink": "People('scottketchum')"},
    ],
    "@odata.nextLink": "People?$top=2&$skip=2",
    "@odata.deltaLink": "People?$deltatoken=abc",
}


def test_people_feed() -> None:
    found = find_links(BASE, 200, [], orjson.dumps(PEOPLE), "application/json")
    photos = "https://cdn.example.com/photos"
    assert found == [
        Link(rel="context", href=f"{S}/$metadata#People", source="/@odata.context"),
        Link(rel="self", href=f"{S}/People('russellwhyte')", source="/value/0/@odata.id"),
        Link(rel="edit", href=f"{S}/People('russellwhyte')", source="/value/0/@odata.editLink"),
        Link(
            rel="Friends",
            href=f"{S}/People('russellwhyte')/Friends",
            source="/value/0/Friends@odata.navigationLink",
        ),
        Link(
            rel="Friends/$ref",
            href=f"{S}/People('russellwhyte')/Friends/$ref",
            source="/value/0/Friends@odata.associationLink",
        ),
        Link(
            rel="context",
            href=f"{photos}/$metadata#Photos/$entity",
            source="/value/0/Photo/@odata.context",
        ),
        Link(rel="self", href=f"{photos}/Photos(1)", source="/value/0/Photo/@odata.id"),
        Link(
            rel="media",
            href=f"{photos}/Photos(1)/$value",
            source="/value/0/Photo/@odata.mediaReadLink",
        ),
        Link(
            rel="edit-media",
            href=f"{photos}/Photos(1)/$value",
            source="/value/0/Photo/@odata.mediaEditLink",
        ),
        Link(rel="self", href=f"{S}/People('scottketchum')", source="/value/1/@odata.id"),
        Link(rel="read", href=f"{S}/People('scottketchum')", source="/value/1/@odata.readLink"),
        Link(rel="next", href=f"{S}/People?$top=2&$skip=2", source="/@odata.nextLink"),
        Link(rel="delta", href=f"{S}/People?$deltatoken=abc", source="/@odata.deltaLink"),
    ]


def test_odata_v3_style_and_malformed_annotations() -> None:
    doc = {
        "odata.metadata": "ignored",
        "odata.nextLink": "http://host/svc/Items?$skip=5",
        "odata.unknownLink": "/x",
        "value": [{"@odata.id": 5, "@odata.editLink": "", "Bad@odata.bogus": "/y"}],
    }
    found = find_links("http://host/svc/Items", 200, [], orjson.dumps(doc), "application/json")
    assert found == [
        Link(rel="next", href="http://host/svc/Items?$skip=5", source="/odata.nextLink"),
        Link(
            rel="odata.unknownLink", href="http://host/x", source="/odata.unknownLink", guess=True
        ),
        Link(
            rel="Bad@odata.bogus",
            href="http://host/y",
            source="/value/0/Bad@odata.bogus",
            guess=True,
        ),
    ]
