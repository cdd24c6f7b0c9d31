"""The document's operations as plain data: parameters, bodies, answers, security.

:func:`read_operations` walks ``paths`` once at start, follows every ``$ref``
(parameters, request bodies, responses, examples, headers, security schemes)
and bundles every schema (:mod:`.schemas`), so a request never touches the
document again. Path-level parameters apply to each operation of the path,
and an operation's own parameter of the same name and place replaces one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mock_server.contract.document import Document, DocumentError, Located
from mock_server.contract.schemas import Schemas

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
LOCATIONS = ("path", "query", "header", "cookie")
#: The styles a location uses when the parameter names none (OpenAPI 3, "style").
DEFAULT_STYLES = {"path": "simple", "query": "form", "header": "simple", "cookie": "form"}
_TEMPLATE = re.compile(r"\{([^{}/]+)\}")
#: Header parameters OpenAPI says to ignore: content negotiation and security say these.
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})


@dataclass(frozen=True)
class Parameter:
    """One parameter of an operation."""

    name: str
    location: str
    required: bool
    schema: dict[str, Any] | None
    style: str
    explode: bool
    #: The media type of a parameter given with ``content`` (its value is that format).
    media_type: str | None = None
    allow_empty: bool = False


@dataclass(frozen=True)
class Content:
    """One media type of a body: its schemas (as request, as response) and examples."""

    media_type: str
    schema: dict[str, Any] | None
    #: Named examples, in document order (``example`` alone is named ``default``).
    examples: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RequestBody:
    """What an operation accepts as its body."""

    required: bool
    contents: tuple[Content, ...]


@dataclass(frozen=True)
class HeaderSpec:
    """A response header the document declares."""

    name: str
    required: bool
    schema: dict[str, Any] | None
    example: Any = None
    has_example: bool = False


@dataclass(frozen=True)
class LinkSpec:
    """An OpenAPI Link object: an operation reachable from an answer, and its parameters."""

    name: str
    operation_id: str | None
    operation_ref: str | None
    parameters: dict[str, Any]
    description: str | None = None


@dataclass(frozen=True)
class ResponseSpec:
    """One answer of an operation: ``200``, ``2XX`` or ``default``."""

    status: str
    description: str
    contents: tuple[Content, ...]
    headers: tuple[HeaderSpec, ...]
    links: tuple[LinkSpec, ...]


@dataclass(frozen=True)
class SecurityScheme:
    """A security scheme of ``components.securitySchemes``."""

    key: str
    type: str
    #: ``http``: its scheme (``basic``, ``bearer``...); ``apiKey``: the place (``header``...).
    scheme: str = ""
    #: ``apiKey``: the name of the header, query parameter or cookie.
    name: str = ""


#: Alternatives of requirements: any one whole mapping of scheme → scopes will do.
Security = tuple[tuple[tuple[SecurityScheme, tuple[str, ...]], ...], ...]


@dataclass(frozen=True)
class Operation:
    """One operation: a method on a path template."""

    method: str
    path: str
    operation_id: str | None
    summary: str | None
    parameters: tuple[Parameter, ...]
    body: RequestBody | None
    responses: tuple[ResponseSpec, ...]
    security: Security

    @property
    def label(self) -> str:
        """``GET /pets/{petId}``: how a person names it."""
        return f"{self.method} {self.path}"

    def response(self, status: str) -> ResponseSpec | None:
        """The answer documented for exactly ``status`` (``"404"``, ``"4XX"``, ``"default"``)."""
        return next((r for r in self.responses if r.status.upper() == status.upper()), None)


def path_variables(template: str) -> list[str]:
    """The names of a path template's variables, in order."""
    return _TEMPLATE.findall(template)


class _Reader:
    def __init__(self, document: Document) -> None:
        self.document = document
        self.schemas = Schemas(document)
        self.schemes = self._schemes()

    def resolve(self, node: Any, file: Any) -> Located:
        return self.document.resolve(Located(node, file))

    def _schemes(self) -> dict[str, SecurityScheme]:
        components = self.document.root.get("components")
        raw = components.get("securitySchemes", {}) if isinstance(components, dict) else {}
        found: dict[str, SecurityScheme] = {}
        for key, node in (raw if isinstance(raw, dict) else {}).items():
            scheme = self.resolve(node, self.document.base).node
            if not isinstance(scheme, dict):
                continue
            kind = str(scheme.get("type", ""))
            if kind == "http":
                found[key] = SecurityScheme(key, kind, scheme=str(scheme.get("scheme", "")).lower())
            elif kind == "apiKey":
                found[key] = SecurityScheme(
                    key, kind, scheme=str(scheme.get("in", "header")), name=str(scheme.get("name"))
                )
            else:
                found[key] = SecurityScheme(key, kind)
        return found

    def security(self, raw: Any, where: str) -> Security:
        if not isinstance(raw, list):
            return ()
        alternatives = []
        for requirement in raw:
            if not isinstance(requirement, dict):
                continue
            needs = []
            for key, scopes in requirement.items():
                if key not in self.schemes:
                    raise DocumentError(f"{self.document.path}: {where}: no security scheme {key}")
                needs.append((self.schemes[key], tuple(str(s) for s in scopes or ())))
            alternatives.append(tuple(needs))
        return tuple(alternatives)

    def schema(self, node: Any, file: Any, view: Any) -> dict[str, Any] | None:
        if node is None:
            return None
        return self.schemas.bundle(Located(node, file), view)

    def examples(self, media: dict[str, Any], file: Any) -> dict[str, Any]:
        found: dict[str, Any] = {}
        raw = media.get("examples")
        if isinstance(raw, dict):
            for name, node in raw.items():
                example = self.resolve(node, file).node
                if isinstance(example, dict) and "value" in example:
                    found[name] = example["value"]
        if "example" in media:
            found.setdefault("default", media["example"])
        return found

    def contents(self, raw: Any, file: Any, view: Any) -> tuple[Content, ...]:
        if not isinstance(raw, dict):
            return ()
        found = []
        for media_type, node in raw.items():
            media = self.resolve(node, file)
            if not isinstance(media.node, dict):
                continue
            schema = self.schema(media.node.get("schema"), media.file, view)
            found.append(Content(media_type, schema, self.examples(media.node, media.file)))
        return tuple(found)

    def parameter(self, node: Any, file: Any, where: str) -> Parameter:
        located = self.resolve(node, file)
        raw = located.node
        if not isinstance(raw, dict) or "name" not in raw or raw.get("in") not in LOCATIONS:
            raise DocumentError(f"{self.document.path}: {where}: a parameter needs name and in")
        location = str(raw["in"])
        style = str(raw.get("style") or DEFAULT_STYLES[location])
        media_type = None
        schema_node = raw.get("schema")
        if schema_node is None and isinstance(raw.get("content"), dict) and raw["content"]:
            media_type, media = next(iter(raw["content"].items()))
            media = self.resolve(media, located.file).node
            schema_node = media.get("schema") if isinstance(media, dict) else None
        return Parameter(
            name=str(raw["name"]),
            location=location,
            required=bool(raw.get("required")) or location == "path",
            schema=self.schema(schema_node, located.file, "request"),
            style=style,
            explode=bool(raw.get("explode", style == "form")),
            media_type=media_type,
            allow_empty=bool(raw.get("allowEmptyValue")),
        )

    def response(self, status: str, node: Any, file: Any) -> ResponseSpec:
        located = self.resolve(node, file)
        raw = located.node if isinstance(located.node, dict) else {}
        headers = []
        for name, header_node in (raw.get("headers") or {}).items():
            header = self.resolve(header_node, located.file)
            spec = header.node if isinstance(header.node, dict) else {}
            headers.append(
                HeaderSpec(
                    name=name,
                    required=bool(spec.get("required")),
                    schema=self.schema(spec.get("schema"), header.file, "response"),
                    example=spec.get("example"),
                    has_example="example" in spec,
                )
            )
        links = []
        for name, link_node in (raw.get("links") or {}).items():
            link = self.resolve(link_node, located.file).node
            if isinstance(link, dict):
                links.append(
                    LinkSpec(
                        name=name,
                        operation_id=link.get("operationId"),
                        operation_ref=link.get("operationRef"),
                        parameters=dict(link.get("parameters") or {}),
                        description=link.get("description"),
                    )
                )
        return ResponseSpec(
            status=status,
            description=str(raw.get("description", "")),
            contents=self.contents(raw.get("content"), located.file, "response"),
            headers=tuple(headers),
            links=tuple(links),
        )

    def operations(self) -> list[Operation]:
        found: list[Operation] = []
        root_security = self.security(self.document.root.get("security"), "security")
        base = self.document.base
        for template, node in (self.document.root.get("paths") or {}).items():
            if not template.startswith("/"):
                raise DocumentError(f"{self.document.path}: path {template!r} must start with /")
            item = self.resolve(node, base)
            if not isinstance(item.node, dict):
                continue
            shared = [
                self.parameter(p, item.file, template) for p in item.node.get("parameters") or ()
            ]
            for method in METHODS:
                raw = item.node.get(method)
                if not isinstance(raw, dict):
                    continue
                where = f"{method.upper()} {template}"
                own = [self.parameter(p, item.file, where) for p in raw.get("parameters") or ()]
                names = {(p.name, p.location) for p in own}
                parameters = [
                    p
                    for p in [*(p for p in shared if (p.name, p.location) not in names), *own]
                    if not (p.location == "header" and p.name.lower() in IGNORED_HEADERS)
                ]
                body = None
                if raw.get("requestBody") is not None:
                    located = self.resolve(raw["requestBody"], item.file)
                    spec = located.node if isinstance(located.node, dict) else {}
                    body = RequestBody(
                        required=bool(spec.get("required")),
                        contents=self.contents(spec.get("content"), located.file, "request"),
                    )
                listed = raw.get("responses") or {}
                if not isinstance(listed, dict):
                    raise DocumentError(
                        f"{self.document.path}: {where}: responses is not a mapping"
                    )
                responses = tuple(
                    self.response(str(status), response, item.file)
                    for status, response in listed.items()
                )
                security = (
                    self.security(raw["security"], where) if "security" in raw else root_security
                )
                found.append(
                    Operation(
                        method=method.upper(),
                        path=template,
                        operation_id=raw.get("operationId"),
                        summary=raw.get("summary"),
                        parameters=tuple(parameters),
                        body=body,
                        responses=responses,
                        security=security,
                    )
                )
        return found


def read_operations(document: Document) -> list[Operation]:
    """Every operation of ``document``, in document order."""
    return _Reader(document).operations()
