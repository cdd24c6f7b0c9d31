"""What a collection's members are: their schema per version, links, actions and rules.

Each resource module (customers, products, orders) subclasses :class:`Entity`;
:mod:`mock_server.resources.crud` turns one into routes. The store always
holds the newest schema; ``represent`` shows a record in the version asked
for, and ``validate`` turns a body of that version back into the stored form.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any

from starlette.requests import Request

from mock_server.domain.collection_query import Listing
from mock_server.http.request_body import MERGE_PATCH
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.urls import href, selection
from mock_server.store import Record, Store


def article(noun: str) -> str:
    """``a`` or ``an`` before ``noun`` (by its first letter: "an order", "a customer")."""
    return "an" if noun[:1].lower() in ("a", "e", "i", "o", "u") else "a"


class Entity(ABC):
    """One kind of entity. Subclasses set the class attributes and the schema methods."""

    #: The collection's name and path segment: ``customers``.
    collection: str = ""
    #: A member's kind: ``customer`` (the JSON:API type, the XML element).
    kind: str = ""
    #: How the collection may be read.
    listing: Listing
    #: Members that may not be shown (:meth:`check_readable` refuses them): left out of
    #: every page and of its ``total``.
    withheld: frozenset[int] = frozenset()
    #: The statuses a member reaches by its actions, each told as the event
    #: ``<kind>.<status>`` (an order's ``placed``); other writes are named by the describer.
    status_events: tuple[str, ...] = ()

    # Schema ----------------------------------------------------------------------------

    @abstractmethod
    def represent(self, record: Record, version: int) -> dict[str, Any]:
        """The record's properties in ``version``'s schema, ``id`` first."""

    @abstractmethod
    def validate(
        self,
        body: Any,
        version: int,
        *,
        target_id: int | None,
        current: Record | None,
        store: Store,
    ) -> dict[str, Any]:
        """The stored form of a ``version`` body; a 422 problem listing every bad field.

        ``target_id`` is the id in the URL (None for POST); ``current`` the record
        being replaced, whose fields outside ``version``'s schema are kept.
        """

    @abstractmethod
    def fields(self, version: int, record: Record | None = None) -> tuple[Field, ...]:
        """The inputs of the create/update forms, with ``record``'s values when given."""

    def title_of(self, record: Record) -> str:
        """A short human title for links to ``record``."""
        return f"{self.kind.capitalize()} {record.id}"

    # Rules -----------------------------------------------------------------------------

    def check_readable(self, record_id: int) -> None:  # noqa: B027 (a hook: allows by default)
        """Raise a problem if ``record_id`` may not be shown (legal hold)."""

    def check_writable(self, record: Record, method: str) -> None:  # noqa: B027 (a hook)
        """Raise a problem if ``record`` may not be changed by ``method`` now."""

    # Hypermedia ------------------------------------------------------------------------

    def item_path(self, record_id: int) -> str:
        """The unversioned path of member ``record_id``."""
        return f"{self.listing.path}/{record_id}"

    def related_links(self, request: Request, record: Record, store: Store) -> list[Link]:
        """Links to related resources (beyond self and collection); ``store`` names them."""
        return []

    def member_context(self, request: Request) -> Hashable | None:
        """What of the request a member depends on; None when it cannot be reused.

        Pages and reads reuse the members made before
        (:mod:`mock_server.representations.member_cache`), and pages their frame (the
        search link, the collection's actions), while the store and this value
        are unchanged. By default they depend on the version and the way it
        was chosen, which links keep (``/v2/...``, ``?version=2``); an entity
        whose members depend on more must say so.
        """
        chosen = selection(request)
        return (chosen.version, chosen.style)

    def embedded_resources(
        self, request: Request, record: Record, store: Store
    ) -> dict[str, list[Resource]]:
        """Related resources embedded in ``record``'s representation (none by default)."""
        return {}

    def preloads(self, request: Request, record: Record) -> list[str]:
        """Paths a reader of ``record`` will fetch next: sent as ``Link: <...>; rel=preload``.

        Over HTTP/2 they are pushed (:mod:`mock_server.layers.preload`), so
        they must be public reads. None by default.
        """
        return []

    def item_actions(self, request: Request, record: Record, version: int) -> list[Action]:
        """What may be done to ``record`` now: update, patch, delete by default."""
        target = href(request, self.item_path(record.id))
        noun = self.kind
        fields = self.fields(version, record)
        return [
            Action("update", "PUT", target, f"Replace this {noun}", fields=fields),
            Action(
                "patch",
                "PATCH",
                target,
                f"Change some fields of this {noun}",
                content_type=MERGE_PATCH,
                fields=tuple(
                    Field(f.name, f.type, False, f.value, f.prompt, f.options) for f in fields
                ),
            ),
            Action("delete", "DELETE", target, f"Delete this {noun}"),
        ]

    def collection_actions(self, request: Request, version: int) -> list[Action]:
        """What may be done to the collection: create a member."""
        return [
            Action(
                "create",
                "POST",
                href(request, self.listing.path),
                f"Create {article(self.kind)} {self.kind}",
                fields=self.fields(version),
            )
        ]
