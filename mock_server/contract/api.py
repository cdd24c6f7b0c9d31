"""The document served: one Starlette route per path, each request answered by its operation.

A request passes, in order: the operation's security (401), its parameters
and body (400 or 422, every failure named), then either the stateful
collections (:mod:`.members`: POST adds, GET reads, PUT/PATCH change, DELETE
removes, lists page) or, for every other operation and with ``--stateless``,
the documented answer Prism would give (:mod:`.negotiate`). The answer is then
encoded as documented (:mod:`.render`) with its links (:mod:`.links`).

Errors keep to the document too: a refusal takes the operation's own answer
for that status when it documents one, with a body its schema accepts (the
problem document when it fits, else the document's example or a generated
body); an operation that documents no such answer gets the mock's problem
document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl

import jsonschema_rs
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import Scope

from mock_server.auth import Authenticator
from mock_server.contract.base_path import misplaced, server_base_paths
from mock_server.contract.document import Document
from mock_server.contract.generate import generate
from mock_server.contract.links import LinkMap, RequestValues, hal_links
from mock_server.contract.negotiate import (
    NONE,
    Preferences,
    chosen_content,
    chosen_response,
    error_response,
    is_json,
    preferences,
    query_preferences,
)
from mock_server.contract.operations import Content, ResponseSpec, read_operations
from mock_server.contract.params import MISSING, RequestParts
from mock_server.contract.render import content_type, documented_headers, encode
from mock_server.contract.security import BearerCheck, Guard
from mock_server.contract.served import Served
from mock_server.contract.shapes import Shape, find_shapes
from mock_server.contract.stateful import Call, Outcome, Stateful
from mock_server.contract.validation import FieldError
from mock_server.http.problems import PROBLEM_JSON, Problem
from mock_server.representations.link_header import link_header
from mock_server.representations.model import Link
from mock_server.store import Stale
from mock_server.store.write_guard import observe

_VARIABLE = re.compile(r"\{([^{}/]+)\}")


def _path_regex(template: str) -> re.Pattern[str]:
    """What a path template matches: each variable one segment (or part of one)."""
    parts = _VARIABLE.split(template)
    # split() alternates literal text and variable names: escape the text, match the names.
    pattern = "".join(re.escape(p) if i % 2 == 0 else "[^/]+" for i, p in enumerate(parts))
    return re.compile(f"^{pattern}$")


def _starlette_path(template: str) -> tuple[str, dict[str, str]]:
    """The template with variables Starlette can name (``{p0}``), and their real names."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        alias = f"p{len(names)}"
        names[alias] = match.group(1)
        return "{" + alias + "}"

    return _VARIABLE.sub(rename, template), names


class _DocumentRoute(Route):
    """A route of one path template, matching only the paths no more concrete template
    of the document takes (``GET /user/login`` is never ``/user/{username}``'s)."""

    def __init__(
        self,
        template: str,
        endpoint: Callable[[Request], Any],
        methods: list[str],
        template_of: Callable[[str], str | None],
    ) -> None:
        path, self.names = _starlette_path(template)
        super().__init__(path, endpoint, methods=methods)
        self.template = template
        self.template_of = template_of

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and self.template_of(scope["path"]) != self.template:
            return Match.NONE, {}
        return super().matches(scope)


def _specificity(template: str) -> tuple[int, ...]:
    """Concrete paths before templated ones (OpenAPI's matching rule), segment by segment."""
    return tuple(1 if "{" in segment else 0 for segment in template.split("/"))


class ContractApi:
    """An OpenAPI document as routes, with the state of its collections."""

    def __init__(
        self,
        document: Document,
        *,
        auth: Authenticator,
        clock: Callable[[], float],
        seed: int = 0,
        stateless: bool = False,
        api_keys: frozenset[str] = frozenset(),
        bearer_check: BearerCheck | None = None,
    ) -> None:
        self.document = document
        self.clock = clock
        self.seed = str(seed)
        self.operations = read_operations(document)
        self.served: dict[tuple[str, str], Served] = {
            (op.method, op.path): Served(op, f"{seed}/{op.method} {op.path}")
            for op in self.operations
        }
        self.links = LinkMap(self.operations)
        self.guard = Guard(auth, document.title, api_keys=api_keys, bearer_check=bearer_check)
        self.shapes: list[Shape] = [] if stateless else find_shapes(self.operations)
        self.stateful = Stateful(self.shapes, self.served, self.seed, clock)
        self._templates = sorted({op.path for op in self.operations}, key=_specificity)
        self._matchers = [(_path_regex(t), t) for t in self._templates]
        self.template_of = lru_cache(maxsize=4096)(self._template_of)

    def _allowed(self, template: str, refused: str | None = None) -> str:
        """The ``Allow`` value of a path template: the methods the document gives it, but
        ``refused``, the one a 405 answers (listed, it would tell a client to try it
        again)."""
        methods = {op.method for op in self.operations if op.path == template}
        methods.discard(refused)
        if "GET" in methods:
            methods.add("HEAD")
        return ", ".join(sorted(methods | {"OPTIONS"}))

    # The guest's face to the layers --------------------------------------------------------

    def _template_of(self, path: str) -> str | None:
        """The document's path template that ``path`` is an instance of (the most
        concrete one)."""
        return next((t for regex, t in self._matchers if regex.match(path)), None)

    def serves(self, path: str) -> bool:
        """True when ``path`` is one of the document's (the mock's own rules stay off it)."""
        return self.template_of(path) is not None

    def write_target(self, method: str, path: str) -> str | None:
        """The member whose ETag a write's preconditions compare (None: no such member)."""
        template = self.template_of(path)
        if template is None:
            return None
        return path if self.stateful.is_member_write(method, template) else None

    def needs_credentials(self, path: str) -> bool:
        """True when a GET of ``path`` has security requirements."""
        template = self.template_of(path)
        served = self.served.get(("GET", template)) if template is not None else None
        return served is not None and bool(served.operation.security)

    def not_found(self, request: Request) -> Problem | None:
        """The mock's plain 404, unless the path is one served behind the server's base."""
        return misplaced(server_base_paths(self.document.root), request.url.path, self.template_of)

    def reset(self) -> None:
        """Every collection back to its seed."""
        self.stateful.reset()

    def routes(self) -> list[BaseRoute]:
        """One route per path of the document, concrete paths first."""
        found: list[BaseRoute] = []
        for template in self._templates:
            methods = [m for (m, t) in self.served if t == template]
            names = _starlette_path(template)[1]

            async def endpoint(
                request: Request, template: str = template, names: dict[str, str] = names
            ) -> Response:
                return await self.handle(request, template, names)

            found.append(_DocumentRoute(template, endpoint, methods, self.template_of))
        if "/" not in self._templates:
            found.append(Route("/", self._entry_point, methods=["GET"]))
        return found

    async def _entry_point(self, request: Request) -> Response:
        links = [Link("self", "/"), *self.links.entry_points()]
        body = {"title": self.document.title, "_links": hal_links(links)}
        return Response(
            encode(body, "application/hal+json"),
            media_type="application/hal+json",
            headers={"Link": link_header(links)},
        )

    # Answering ----------------------------------------------------------------------------

    async def handle(self, request: Request, template: str, names: dict[str, str]) -> Response:
        """The answer of the document's operation for ``request``."""
        served = self.served[(request.method, template)]
        operation = served.operation
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in request.scope["headers"]
        }
        query, asked = query_preferences(parse_qsl(request.url.query, keep_blank_values=True))
        parts = RequestParts(
            path={names[alias]: value for alias, value in request.path_params.items()},
            query=query,
            headers=headers,
            cookies=dict(request.cookies),
        )
        refusal = await self.guard.refusal(operation.security, parts, self.clock())
        if refusal is not None:
            return self.refuse(request, served, refusal)
        errors: list[FieldError] = []
        values = {}
        for check in served.checks:
            value = check.read(parts, errors)
            if value is not MISSING:
                values[check.parameter.name] = value
        body = await self._body(request, served, errors)
        if isinstance(body, Response):
            return body
        if errors:
            return self.refuse(request, served, _invalid(errors))
        prefer = NONE
        try:
            prefer = preferences(headers.get("prefer"))
            if prefer == NONE:  # Prism: the header first, else the query's __code...
                prefer = preferences(asked, in_query=True)
            outcome = None
            if prefer.example is None and not prefer.dynamic and (prefer.code or "2")[0] == "2":
                call = Call(operation, parts.path, values, parts.query, body, prefer, request.scope)
                outcome = self.stateful.answer(call)
            if outcome is None:
                status, response = chosen_response(operation, prefer)
                outcome = Outcome(status, response)
            return self.respond(request, served, outcome, prefer, parts, body)
        except Stale:
            return self.refuse(
                request,
                served,
                Problem(
                    HTTPStatus.PRECONDITION_FAILED,
                    f"{request.url.path} changed after its preconditions were checked; "
                    "GET it again.",
                ),
            )
        except Problem as problem:
            return self.refuse(request, served, problem)

    async def _body(self, request: Request, served: Served, errors: list[FieldError]) -> Any:
        check = served.body
        if check is None:
            return MISSING
        raw = await request.body()
        given_type = request.headers.get("content-type")
        if not raw and given_type is None:
            if check.required:
                errors.append(FieldError("body", "/", "required", "this operation needs a body"))
            return MISSING
        if not check.contents:
            return MISSING
        content = check.content_for(given_type or "")
        if content is None:
            accepted = ", ".join(check.media_types)
            header = "Accept-Patch" if request.method == "PATCH" else "Accept-Post"
            return self.refuse(
                request,
                served,
                Problem(
                    HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                    f"The body's Content-Type ({given_type or 'none'}) is not one this operation "
                    f"takes: {accepted}.",
                    headers={header: accepted},
                    extra={"accepted": check.media_types},
                ),
            )
        value = check.parse(content, raw, given_type or "", errors)
        if not errors:
            check.check(content, value, errors)
        return value

    def respond(
        self,
        request: Request,
        served: Served,
        outcome: Outcome,
        prefer: Preferences,
        parts: RequestParts,
        request_body: Any,
    ) -> Response:
        """The answer ``outcome`` describes, encoded as documented, with its links."""
        response = outcome.response
        headers = dict(outcome.headers)
        applied = prefer.applied()
        if applied:
            headers["Preference-Applied"] = applied
        if response is not None:
            content = chosen_content(response, request.headers.get("accept"))
        else:  # a success the document does not describe: the member, as JSON
            content = None if outcome.value is MISSING else Content("application/json", None)
        if response is not None:
            headers.update(documented_headers(response.headers, served.seed))
        if outcome.status == HTTPStatus.METHOD_NOT_ALLOWED and not any(
            name.lower() == "allow" for name in headers
        ):
            # A 405 must say what is allowed (RFC 9110 section 15.5.6), documented or not.
            headers["Allow"] = self._allowed(served.operation.path, served.operation.method)
        # A creation's answer is the new member: its self is where it now is.
        links = [Link("self", headers.get("Location") or _target(request))]
        links.extend(outcome.links)
        template = served.operation.path
        links.extend(self.links.related(template, parts.path))
        if content is None:
            if prefer.example is not None and response is not None:
                raise Problem(
                    HTTPStatus.NOT_FOUND,
                    f"Prefer asks for the example {prefer.example!r}, which this answer "
                    f"({response.status}) cannot have: the document gives it no body.",
                )
            if outcome.record is not None:
                observe(request.scope, outcome.record)
            headers["Link"] = link_header(links)
            return Response(status_code=outcome.status, headers=headers)
        value = outcome.value
        check = served.validator_for(response, content) if response is not None else None
        key = (response.status if response is not None else str(outcome.status), content.media_type)
        if value is not MISSING and check is not None and not check.is_valid(value):
            value = MISSING  # the member does not fit this answer's schema: the document's answer
        if value is MISSING:
            value = self._static(served, response, content, prefer)
        if response is not None and response.links:
            values = RequestValues(parts.path, dict(parts.query), parts.headers, request_body)
            links.extend(self.links.document_links(response.links, values, value))
        links = list({(link.rel, link.href): link for link in links}.values())
        header_links = list(links)
        if is_json(content.media_type) and isinstance(value, dict):
            with_links = {**value, "_links": hal_links(links)}
            fits = served.carries_links.get(key)
            if fits is None:
                fits = served.carries_links[key] = check is None or bool(check.is_valid(with_links))
            if fits:
                value = with_links
                header_links = [link for link in links if link.rel != "item"]
        headers["Link"] = link_header(header_links[: len(header_links)])
        if outcome.record is not None:
            observe(request.scope, outcome.record)
        return Response(
            encode(value, content.media_type, content.schema),
            status_code=outcome.status,
            headers=headers,
            media_type=content_type(content.media_type),
        )

    def _static(
        self, served: Served, response: ResponseSpec | None, content: Content, prefer: Preferences
    ) -> Any:
        """The document's answer: the named or first valid example, else a generated body."""
        assert response is not None
        if prefer.example is not None:
            if prefer.example not in content.examples:
                named = ", ".join(content.examples) or "none"
                raise Problem(
                    HTTPStatus.NOT_FOUND,
                    f"Prefer asks for the example {prefer.example!r}, which this answer "
                    f"({response.status}, {content.media_type}) does not have; it has: {named}.",
                )
            return content.examples[prefer.example]
        check = served.validator_for(response, content)
        if prefer.dynamic and content.schema is not None:
            served.dynamic_count += 1
            return generate(
                content.schema, f"{served.seed}/dynamic/{served.dynamic_count}", check=check
            )
        key = (response.status, content.media_type, "")
        if key not in served.values:
            served.values[key] = self._first_value(served, response, content, check)
        return served.values[key]

    def _first_value(
        self,
        served: Served,
        response: ResponseSpec,
        content: Content,
        check: jsonschema_rs.Validator | None,
    ) -> Any:
        for example in content.examples.values():
            if check is None or check.is_valid(example):
                return example
        if content.schema is None:
            return None
        return generate(
            content.schema, f"{served.seed}/{response.status}/{content.media_type}", check=check
        )

    def refuse(self, request: Request, served: Served, problem: Problem) -> Response:
        """``problem`` as the operation documents that status, or as the mock's problem."""
        status, response = error_response(served.operation, problem.status)
        if status != problem.status:
            problem = Problem(
                status,
                problem.detail,
                errors=problem.errors,
                headers=problem.headers,
                extra=problem.extra,
            )
        body = problem.to_dict(instance=request.url.path)
        headers = dict(problem.headers)
        if response is None or not response.contents:
            return Response(
                encode(body, PROBLEM_JSON),
                status_code=status,
                headers=headers,
                media_type=PROBLEM_JSON,
            )
        try:
            content = chosen_content(response, request.headers.get("accept"))
        except Problem:
            content = response.contents[0]
        assert content is not None
        check = served.validator_for(response, content)
        if check is not None and not check.is_valid(body):
            value = self._static(served, response, content, Preferences())
            if isinstance(value, dict):
                for name in ("detail", "message", "error", "description"):
                    candidate = {**value, name: problem.detail}
                    if check.is_valid(candidate):
                        value = candidate
                        break
            body = value
        return Response(
            encode(body, content.media_type, content.schema),
            status_code=status,
            headers=headers,
            media_type=content_type(content.media_type),
        )


def _target(request: Request) -> str:
    """The request target as sent: path and query, still percent-encoded (a header's text)."""
    raw = request.scope.get("raw_path")
    path = raw.decode("latin-1") if isinstance(raw, bytes) else request.url.path
    query = request.scope.get("query_string", b"").decode("latin-1")
    return f"{path}?{query}" if query else path


def _invalid(errors: list[FieldError]) -> Problem:
    """The 400 or 422 for a request that breaks the document's rules, naming each."""
    in_body = all(
        (e.location == "body" and e.rule not in ("syntax", "required"))
        or (e.location == "body" and e.name != "/")
        for e in errors
    )
    status = HTTPStatus.UNPROCESSABLE_ENTITY if in_body else HTTPStatus.BAD_REQUEST
    shown = "; ".join(f"{e.location} {e.name}: {e.detail}" for e in errors[:3])
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return Problem(
        status,
        f"The request does not follow the document: {shown}{more}.",
        errors=[e.to_dict() for e in errors],
    )
