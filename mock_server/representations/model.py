"""The media-type-neutral shape of everything the mock server answers with.

Links, fields and actions are named tuples: immutable values like frozen
dataclasses, but a page builds dozens of them per request, and a tuple is
made three times faster.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


class Link(NamedTuple):
    """A typed link from a resource: ``rel`` names how ``href`` relates to it.

    ``many`` marks a relation that may link several times from one resource (an
    order's products): formats that choose between one link and a list (HAL)
    always use the list, so clients need not handle both shapes.
    """

    rel: str
    href: str
    title: str | None = None
    templated: bool = False
    type: str | None = None
    name: str | None = None
    many: bool = False


class Field(NamedTuple):
    """One input of an action, as a form would show it."""

    name: str
    type: str = "text"
    required: bool = False
    value: Any = None
    prompt: str | None = None
    options: tuple[str, ...] | None = None


class Action(NamedTuple):
    """Something the client may do now: a method on a target, with its inputs."""

    name: str
    method: str
    href: str
    title: str
    content_type: str = "application/json"
    fields: tuple[Field, ...] = ()


@dataclass(slots=True)
class Resource:
    """A resource state: its data, where it links to, what it embeds, what it allows.

    ``kind`` names the resource type (``customer``, ``customers`` for a page of
    the collection, ``root``...): the JSON:API ``type`` and the XML element.
    ``id`` is the member identifier, if the resource is a member.
    """

    kind: str
    properties: dict[str, Any] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    embedded: dict[str, list[Resource]] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    id: int | None = None
    #: What renderers made of this resource, by media type (and how it was shown): a
    #: member reused by many pages and reads (:mod:`mock_server.representations.member_cache`)
    #: is rendered once. Not copied by ``dataclasses.replace``, which makes a new one.
    rendered: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def link(self, rel: str) -> Link | None:
        """The first link with ``rel``, if any."""
        return next((link for link in self.links if link.rel == rel), None)
