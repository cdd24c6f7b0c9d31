"""One operation of the description, as data: what it is for, its inputs, its answers.

:mod:`.operations` (the teaching API's), :mod:`.extras` (the test backend's),
:mod:`.oauth` and :mod:`.events` each describe their operations as :class:`Op`
values; :mod:`.document` turns them into OpenAPI.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mock_server.openapi.schemas import Schema


@dataclass(frozen=True)
class Reply:
    """One documented answer: its status (or range like ``2XX``) and what it carries.

    ``body`` is a schema name for a hypermedia resource (rendered in every
    offered media type), ``"csv"``, ``"text"``, ``"multistatus"``,
    ``"token"``, ``"openapi"``, ``"event-stream"``, or None for no body. ``headers`` names
    entries of :data:`HEADERS`; those in ``required`` are always sent.
    """

    status: int | str
    description: str
    body: str | None = None
    headers: tuple[str, ...] = ()
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One operation: what it is for, its inputs, and its answers."""

    summary: str
    replies: tuple[Reply, ...]
    problems: tuple[int, ...] = ()
    body: Schema | None = None
    body_types: tuple[str, ...] = ("application/json",)
    body_required: bool = True
    query: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    path_params: dict[str, Schema] = field(default_factory=dict)
    description: str = ""
    extra_bodies: dict[str, Schema] = field(default_factory=dict)
    #: Parameters given whole, beside the named ones of ``query`` and ``headers``.
    parameters: tuple[Schema, ...] = ()
