"""The uniform interface of a collection: GET/POST on it, GET/PUT/PATCH/DELETE on members.

One set of handlers serves every :class:`~mock_server.domain.entity.Entity`:

- ``GET /things``: a page in the envelope, links in the body and the ``Link`` header;
- ``POST /things``: 201 with ``Location``, ``ETag`` and the new member;
- ``GET /things/{id}``: the member; 410 once deleted, 404 if the id was never used;
- ``PUT /things/{id}``: replace (200) or create at that id (201);
- ``PATCH /things/{id}``: merge patch or JSON patch, result validated as a PUT body;
- ``DELETE /things/{id}``: 204.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.domain import collection_query as cq
from mock_server.domain.entity import Entity
from mock_server.events.wire import EVENT_STREAM
from mock_server.http.etag import strong_etag
from mock_server.http.json_patch import PatchError, apply_json_patch
from mock_server.http.merge_patch import merge_patch
from mock_server.http.preconditions import http_date
from mock_server.http.problems import Problem
from mock_server.http.request_body import (
    ENTITY_TYPES,
    JSON_PATCH,
    PATCH_TYPES,
    read_json,
)
from mock_server.representations.link_header import link_header, preload_header
from mock_server.representations.member_cache import MemberCache
from mock_server.representations.model import Action, Link, Resource
from mock_server.representations.page_cache import PageCache
from mock_server.representations.respond import respond
from mock_server.representations.urls import href, version_of
from mock_server.service import Service
from mock_server.store import Conflict, Gone, NotFound, Record, Stale, Store
from mock_server.store.write_guard import expected, observe

#: The largest id: the largest integer every JSON client reads exactly (2**53 - 1).
MAX_ID = 2**53 - 1
#: Contexts (version and style, and what --data adds) whose page frames are kept.
FRAME_LIMIT = 64
#: Query strings parsed, and pages' links made, kept for the next request alike.
QUERY_LIMIT = 256


def check_id_range(entity: Entity, record_id: int) -> None:
    """A 404 for an id no member can ever have (0, or beyond :data:`MAX_ID`)."""
    if not 1 <= record_id <= MAX_ID:
        raise Problem(
            HTTPStatus.NOT_FOUND,
            f"There is no {entity.kind} {record_id}: ids run from 1 to {MAX_ID}.",
        )


def fetch(service: Service, entity: Entity, record_id: int, *, copy: bool = True) -> Record:
    """Member ``record_id``, or the problem saying why not (404, 410, 451).

    ``copy=False``: the store's own record, for a handler that only reads it.
    """
    check_id_range(entity, record_id)
    entity.check_readable(record_id)
    try:
        return service.store[entity.collection].get(record_id, copy=copy)
    except Gone:
        raise Problem(
            HTTPStatus.GONE,
            f"{entity.kind.capitalize()} {record_id} was deleted; ids are never reused.",
        ) from None
    except NotFound:
        raise Problem(HTTPStatus.NOT_FOUND, f"There is no {entity.kind} {record_id}.") from None


def store_of(request: Request) -> Store:
    """The store of the app serving ``request``."""
    store = getattr(getattr(request.scope.get("app"), "service", None), "store", None)
    if not isinstance(store, Store):
        raise RuntimeError("the request is not served by a mock server app")
    return store


def member(
    request: Request,
    entity: Entity,
    record: Record,
    store: Store | None = None,
    *,
    embedded: bool = False,
) -> Resource:
    """The resource for ``record``: properties, links, and (at top level) its actions.

    ``store`` (the serving app's when None) gives related links their titles.
    """
    store = store if store is not None else store_of(request)
    version = version_of(request)
    self_href = href(request, entity.item_path(record.id))
    links = [
        Link("self", self_href, title=entity.title_of(record)),
        Link("collection", href(request, entity.listing.path)),
        *entity.related_links(request, record, store),
    ]
    actions = [] if embedded else entity.item_actions(request, record, version)
    return Resource(
        kind=entity.kind,
        properties=entity.represent(record, version),
        links=links,
        embedded=entity.embedded_resources(request, record, store),
        actions=actions,
        id=record.id,
    )


def with_etag(response: Response) -> Response:
    """``response`` with the strong ETag of its body."""
    response.headers["ETag"] = strong_etag(bytes(response.body))
    return response


def modified(timestamp: float) -> dict[str, str]:
    """The ``Last-Modified`` header for a change at ``timestamp``."""
    return {"Last-Modified": http_date(timestamp)}


def write_problem(entity: Entity, error: Exception) -> Problem:
    """The problem for a store refusal: a unique field taken (409), a member changed since
    the preconditions held (412), or a deleted id (410)."""
    if isinstance(error, Stale):
        return Problem(
            HTTPStatus.PRECONDITION_FAILED,
            f"{entity.kind.capitalize()} {error.args[0]} changed while this request was "
            "arriving: the preconditions held for the version before. "
            "GET it again before changing it.",
        )
    if isinstance(error, Conflict):
        return Problem(
            HTTPStatus.CONFLICT,
            f"A {entity.kind} with {error.field_name} {error.value!r} already exists; "
            f"{error.field_name} must be unique.",
            extra={"field": error.field_name},
        )
    return Problem(
        HTTPStatus.GONE,
        f"{entity.kind.capitalize()} {error.args[0]} was deleted; ids are never reused.",
    )


def routes(entity: Entity, service: Service) -> list[BaseRoute]:
    """The collection and member routes of ``entity``."""
    store = service.store
    path = entity.listing.path
    members = MemberCache()
    items = MemberCache()  # members read one by one, with their actions
    pages = PageCache()
    frames: dict[Hashable, tuple[Link, Link, Link, list[Action]]] = {}
    queries: dict[bytes, cq.Query] = {}
    pagings: dict[tuple[cq.Query, int, Hashable], tuple[list[Link], str]] = {}

    def parsed(raw: bytes) -> cq.Query:
        """The query of a query string (parsed as Starlette's query_params, once per string)."""
        query = queries.get(raw)
        if query is None:
            pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
            query = cq.parse_query(pairs, entity.listing)  # a bad one raises: not kept
            if len(queries) >= QUERY_LIMIT:
                queries.clear()
            queries[raw] = query
        return query

    def links_of(
        request: Request, page: cq.Page, context: Hashable | None
    ) -> tuple[list[Link], str]:
        """A page's self, first, prev, next and last links, and its Link field.

        They depend on the query, the total and the version's style alone.
        """
        key = (page.query, page.total, context)
        found = pagings.get(key) if context is not None else None
        if found is None:
            links = cq.page_links(request, entity.listing, page)
            found = (links, link_header(links))
            if context is not None:
                if len(pagings) >= QUERY_LIMIT:
                    pagings.clear()
                pagings[key] = found
        return found

    def frame(request: Request, context: Hashable | None) -> tuple[Link, Link, Link, list[Action]]:
        """What every page says whatever its records: the search, up and events links, the
        actions.

        They depend on the request only as the members do (its version and
        style), so each context's are made once.
        """
        found = frames.get(context) if context is not None else None
        if found is None:
            found = (
                cq.search_link(request, entity.listing),
                Link("up", href(request, "/")),
                Link(
                    "rw:events",
                    href(request, f"{path}/events"),
                    title=f"Every change to {entity.collection}, as it happens",
                    type=EVENT_STREAM,
                ),
                entity.collection_actions(request, version_of(request)),
            )
            if context is not None and len(frames) < FRAME_LIMIT:
                frames[context] = found
        return found

    async def list_members(request: Request) -> Response:
        raw = request.scope["query_string"]
        context = entity.member_context(request)
        state = store.state()
        if context is not None:
            kept = pages.get(state, context, raw)
            if kept is not None:
                return respond(request, kept[0], headers=kept[1])
        query = parsed(raw)
        collection = store[entity.collection]
        # A member that may not be shown (legal hold) is neither listed nor counted.
        page = cq.select_from(collection, query, entity.listing, entity.withheld)
        paging, paging_header = links_of(request, page, context)
        search, up, events, actions = frame(request, context)

        def make(record: Record) -> Resource:
            return member(request, entity, record, store, embedded=True)

        resource = Resource(
            kind=entity.collection,
            properties=cq.envelope_properties(page),
            links=[*paging, search, up, events],
            embedded={entity.collection: members.members(state, context, page.records, make)},
            actions=actions,
        )
        headers = {"Link": paging_header, **modified(collection.last_modified())}
        if context is not None:
            pages.put(state, context, raw, (resource, headers))
        return respond(request, resource, headers=headers)

    async def create(request: Request) -> Response:
        _, body = await read_json(request, ENTITY_TYPES)
        data = entity.validate(body, version_of(request), target_id=None, current=None, store=store)
        try:
            record = store.create(entity.collection, data, service.clock())
        except Conflict as error:
            raise write_problem(entity, error) from None
        location = href(request, entity.item_path(record.id))
        response = respond(
            request,
            member(request, entity, record, store),
            HTTPStatus.CREATED,
            {"Location": location, **modified(record.updated)},
        )
        return with_etag(response)

    async def read(request: Request) -> Response:
        record = fetch(service, entity, request.path_params["id"], copy=False)  # only read
        observe(request.scope, record)
        headers = modified(record.updated)
        preloads = entity.preloads(request, record)
        if preloads:
            headers["Link"] = preload_header(preloads)

        def make(record: Record) -> Resource:
            return member(request, entity, record, store)

        made = items.member(store.state(), entity.member_context(request), record, make)
        return respond(request, made, headers=headers)

    async def save(
        request: Request, record_id: int, body: Any, current: Record | None, action: str | None
    ) -> Response:
        data = entity.validate(
            body, version_of(request), target_id=record_id, current=current, store=store
        )
        try:
            record, created = store.put(
                entity.collection,
                record_id,
                data,
                service.clock(),
                expected(request.scope),
                action=None if current is None else action,
            )
        except (Conflict, Gone, Stale) as error:
            raise write_problem(entity, error) from None
        headers = modified(record.updated)
        if created:
            headers["Location"] = href(request, entity.item_path(record_id))
        status = HTTPStatus.CREATED if created else HTTPStatus.OK
        return with_etag(respond(request, member(request, entity, record, store), status, headers))

    async def replace(request: Request) -> Response:
        record_id: int = request.path_params["id"]
        check_id_range(entity, record_id)
        entity.check_readable(record_id)
        _, body = await read_json(request, ENTITY_TYPES)
        current: Record | None
        try:
            current = fetch(service, entity, record_id)
        except Problem as problem:
            if problem.status != HTTPStatus.NOT_FOUND:
                raise
            current = None
        if current is not None:
            entity.check_writable(current, "PUT")
        return await save(request, record_id, body, current, "replaced")

    async def patch(request: Request) -> Response:
        record_id: int = request.path_params["id"]
        current = fetch(service, entity, record_id)
        media_type, patch_doc = await read_json(request, PATCH_TYPES)
        entity.check_writable(current, "PATCH")
        document = entity.represent(current, version_of(request))
        if media_type == JSON_PATCH:
            try:
                patched = apply_json_patch(document, patch_doc)
            except PatchError as error:
                raise Problem(error.status, error.detail) from None
        else:
            patched = merge_patch(document, patch_doc)
        return await save(request, record_id, patched, current, "updated")

    async def delete(request: Request) -> Response:
        record_id: int = request.path_params["id"]
        current = fetch(service, entity, record_id)
        entity.check_writable(current, "DELETE")
        try:
            store.delete(entity.collection, record_id, service.clock(), expected(request.scope))
        except Stale as error:
            raise write_problem(entity, error) from None
        return Response(status_code=HTTPStatus.NO_CONTENT)

    item = path + "/{id:int}"
    return [
        Route(path, _dispatch({"GET": list_members, "POST": create}), methods=["GET", "POST"]),
        Route(
            item,
            _dispatch({"GET": read, "PUT": replace, "PATCH": patch, "DELETE": delete}),
            methods=["GET", "PUT", "PATCH", "DELETE"],
        ),
    ]


Handler = Callable[[Request], Any]


def _dispatch(by_method: dict[str, Handler]) -> Handler:
    """One endpoint that calls the handler for the request's method (HEAD as GET)."""

    async def endpoint(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        response: Response = await by_method[method](request)
        return response

    return endpoint
