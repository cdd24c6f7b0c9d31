"""Checking a request against its operation: every parameter, and the body.

Validation is jsonschema-rs's (Rust, compiled once per schema at start):
openapi-core would do the same in pure Python at a fraction of the speed, and
schemathesis brings jsonschema-rs already. What is OpenAPI's own and not JSON
Schema's (where a parameter is, how it is serialized, which media types a body
may have) is read here and in :mod:`.params`.

Every failure is a :class:`FieldError`: where (``query``, ``body``...), which
field (a parameter's name, or a JSON pointer into the body), the rule broken
(the JSON Schema keyword: ``required``, ``maximum``, ``type``...) and a
sentence. All of a request's failures are reported at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl

import jsonschema_rs
import orjson

from mock_server.contract.generate import validator
from mock_server.contract.operations import Content, Operation, Parameter
from mock_server.contract.params import (
    MISSING,
    RequestParts,
    item_schema,
    read_parameter,
    scalar,
    types_of,
)
from mock_server.contract.schemas import referred
from mock_server.contract.xml_body import XmlBodyError, read_xml

#: How many failures one answer lists (a huge body could break thousands of rules).
MAX_ERRORS = 50


@dataclass(frozen=True)
class FieldError:
    """One rule a request breaks."""

    location: str
    name: str
    rule: str
    detail: str

    def to_dict(self) -> dict[str, str]:
        """The entry of the problem's ``errors`` list."""
        return {"in": self.location, "name": self.name, "rule": self.rule, "detail": self.detail}


def _kinds(schema: Any) -> set[str]:
    return set(types_of(schema))


def _items(schema: Any) -> Any:
    return item_schema(schema)


def media_matches(declared: str, essence: str) -> bool:
    """True when the document's media type (maybe a range: ``*/*``, ``image/*``) covers
    ``essence``."""
    kind, _, sub = declared.partition(";")[0].strip().lower().partition("/")
    wanted_kind, _, wanted_sub = essence.partition("/")
    return (kind == "*" or kind == wanted_kind) and (sub == "*" or sub == wanted_sub)


def _pointer(path: Any) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def schema_errors(
    check: jsonschema_rs.Validator, value: Any, location: str, name: str
) -> list[FieldError]:
    """The failures of ``value`` against ``check``, named from ``name`` (a parameter, or "")."""
    found = []
    for error in check.iter_errors(value):
        rule = str(error.schema_path[-1]) if error.schema_path else "schema"
        where = name + _pointer(error.instance_path)
        kind = error.kind.as_dict() if hasattr(error.kind, "as_dict") else {}
        if rule == "required" and isinstance(kind.get("property"), str):
            where = f"{where}/{kind['property']}" if location == "body" else where
        found.append(FieldError(location, where or "/", rule, error.message))
        if len(found) >= MAX_ERRORS:
            break
    return found


class ParameterCheck:
    """One parameter, with its schema compiled."""

    def __init__(self, parameter: Parameter) -> None:
        self.parameter = parameter
        self.check = (
            validator(parameter.schema, f"the {parameter.location} parameter {parameter.name}")
            if parameter.schema is not None
            else None
        )

    def read(self, parts: RequestParts, errors: list[FieldError]) -> Any:
        """The parameter's value (MISSING if absent); its failures appended to ``errors``."""
        parameter = self.parameter
        value = read_parameter(parts, parameter)
        if value is MISSING:
            if parameter.required:
                errors.append(
                    FieldError(
                        parameter.location,
                        parameter.name,
                        "required",
                        f"the {parameter.location} parameter {parameter.name} is required",
                    )
                )
            return MISSING
        if value == "" and parameter.location == "query" and parameter.allow_empty:
            return value
        if self.check is not None:
            errors.extend(schema_errors(self.check, value, parameter.location, parameter.name))
        return value


class BodyCheck:
    """A request body's media types, each with its schema compiled."""

    def __init__(self, contents: tuple[Content, ...], required: bool) -> None:
        self.required = required
        self.contents = contents
        self.checks = {
            c.media_type: validator(c.schema, f"the request body ({c.media_type})")
            for c in contents
            if c.schema is not None
        }

    @property
    def media_types(self) -> list[str]:
        """The media types the operation accepts, as the document lists them."""
        return [c.media_type for c in self.contents]

    def content_for(self, content_type: str) -> Content | None:
        """The document's entry for a request's ``Content-Type`` (ranges like ``*/*`` too)."""
        essence = content_type.partition(";")[0].strip().lower()
        exact = next((c for c in self.contents if c.media_type.lower() == essence), None)
        if exact is not None:
            return exact
        return next((c for c in self.contents if media_matches(c.media_type, essence)), None)

    def parse(
        self, content: Content, body: bytes, given_type: str, errors: list[FieldError]
    ) -> Any:
        """The body as its media type reads it; a failure to parse appended to ``errors``."""
        essence = content.media_type.lower()
        if essence.startswith("multipart/form-data"):
            return self._multipart(content, body, given_type, errors)
        if essence.endswith("json") or essence.endswith("+json") or "*" in essence:
            if "*" in essence and body.lstrip()[:1] not in (b"{", b"[", b'"'):
                return body.decode("utf-8", "replace")
            try:
                return orjson.loads(body)
            except orjson.JSONDecodeError as error:
                errors.append(FieldError("body", "/", "syntax", f"not JSON: {error.msg}"))
                return MISSING
        if essence == "application/x-www-form-urlencoded":
            return self._form(content, body, errors)
        if essence.endswith("/xml") or essence.endswith("+xml"):
            try:
                return read_xml(body, content.schema)
            except XmlBodyError as error:
                errors.append(FieldError("body", "/", "syntax", str(error)))
                return MISSING
        if essence.startswith("text/"):
            try:
                return body.decode("utf-8")
            except UnicodeDecodeError:
                errors.append(FieldError("body", "/", "syntax", "not UTF-8 text"))
                return MISSING
        return MISSING  # bytes of any other type: taken as they are, not checked

    def _multipart(
        self, content: Content, body: bytes, given_type: str, errors: list[FieldError]
    ) -> Any:
        head = f"Content-Type: {given_type}\r\n\r\n".encode("latin-1", "replace")
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        pairs = []
        # A body with no parts (only the closing delimiter) is an empty form.
        for part in message.iter_parts() if message.is_multipart() else ():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if not isinstance(name, str) or not isinstance(payload, bytes):
                continue
            pairs.append((name, payload.decode("utf-8", "replace")))
        return self._fields(content, pairs)

    def _form(self, content: Content, body: bytes, errors: list[FieldError]) -> Any:
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
        except UnicodeDecodeError:
            errors.append(FieldError("body", "/", "syntax", "the form is not UTF-8"))
            return MISSING
        return self._fields(content, pairs)

    def _fields(self, content: Content, pairs: list[tuple[str, str]]) -> Any:
        """Form fields as the object the schema describes: numbers, booleans, JSON parts."""
        schema = content.schema or {}
        defs = schema.get("$defs", {})
        properties = referred(schema, defs).get("properties") or {}
        form: dict[str, Any] = {}
        for name, value in pairs:
            inner = properties.get(name)
            inner = {**inner, "$defs": defs} if isinstance(inner, dict) else None
            kinds = _kinds(inner)
            if kinds & {"object", "array"} and value[:1] in ("{", "[", "n"):
                try:
                    form[name] = orjson.loads(value)
                    continue
                except orjson.JSONDecodeError:
                    pass
            if "array" in kinds:
                form.setdefault(name, []).append(scalar(value, _items(inner)))
            else:
                form[name] = scalar(value, inner)
        return form

    def check(self, content: Content, value: Any, errors: list[FieldError]) -> None:
        """Append ``value``'s failures against the schema of ``content``."""
        check = self.checks.get(content.media_type)
        if check is not None and value is not MISSING:
            errors.extend(schema_errors(check, value, "body", ""))


def operation_checks(operation: Operation) -> tuple[list[ParameterCheck], BodyCheck | None]:
    """The compiled checks of ``operation``: its parameters, and its body if it takes one."""
    parameters = [ParameterCheck(p) for p in operation.parameters]
    body = operation.body
    return parameters, (BodyCheck(body.contents, body.required) if body is not None else None)
