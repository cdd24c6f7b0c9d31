"""A value that a JSON Schema accepts, the same one for the same seed.

Why our own and not a library: hypothesis-jsonschema draws through Hypothesis
(a search engine: slow to start, and not one fixed value per seed without
driving its internals), and the JavaScript fakers Prism uses are not here.
What a mock needs is small: a plausible value, fast, reproducible, valid.

:func:`generate` walks a bundled schema (:mod:`.schemas`): ``const``, then the
schema's own ``example``/``examples``/``default``, then ``enum``, then a value
of its type within its bounds: ``minimum``/``maximum`` (exclusive too) and
``multipleOf``, ``minLength``/``maxLength``, ``pattern`` (:mod:`.patterns`),
``format`` (date-time, date, time, email, uuid, uri, hostname, ipv4, ipv6,
byte, int32...), ``minItems``/``maxItems``/``uniqueItems``, required and
optional properties, ``allOf`` merged, the first fitting ``oneOf``/``anyOf``.
The result is checked against the schema with jsonschema-rs; a value that
fails (an example that contradicts its schema, a ``oneOf`` two branches
accept) is drawn again with other choices, a few times, before giving up.
"""

from __future__ import annotations

import base64
import random
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import jsonschema_rs

from mock_server.contract.document import DocumentError
from mock_server.contract.patterns import PatternError, matching
from mock_server.contract.schemas import INTEGER_FORMATS

#: How often a value that fails its schema is drawn again.
ATTEMPTS = 8
#: Below this depth optional properties are left out (recursive schemas end).
OPTIONAL_DEPTH = 4
#: The deepest a value goes (a schema that requires itself forever stops here).
MAX_DEPTH = 12
_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india")
_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_FORMAT_CHECKS: dict[str, Callable[[Any], bool]] = {}


def _is_int_in(bounds: tuple[int, int]) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return not isinstance(value, int) or bounds[0] <= value <= bounds[1]

    return check


def _is_base64(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    try:
        base64.b64decode(value, validate=True)
    except ValueError:
        return False
    return True


#: OpenAPI's own formats, checked beside JSON Schema's (which jsonschema-rs knows).
OPENAPI_FORMATS: dict[str, Callable[[Any], bool]] = {
    "int32": _is_int_in(_INT32),
    "int64": _is_int_in(_INT64),
    "byte": _is_base64,
}


def validator(schema: dict[str, Any], where: str = "a schema") -> jsonschema_rs.Validator:
    """A validator for a bundled schema: formats checked, OpenAPI's included.

    A schema that is no JSON Schema (a ``pattern`` that is no regular expression, a
    ``minimum`` that is no number) is the document's fault: a :class:`DocumentError`
    naming ``where`` it is and the keyword, on one line.
    """
    try:
        return jsonschema_rs.validator_for(schema, validate_formats=True, formats=OPENAPI_FORMATS)
    except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError) as error:
        message = getattr(error, "message", None) or str(error).splitlines()[0]
        path = "/".join(str(part) for part in getattr(error, "instance_path", ()) or ())
        keyword = f" at {path}" if path else ""
        raise DocumentError(f"{where}: not a valid JSON Schema{keyword}: {message}") from None


class _Drawer:
    def __init__(self, schema: dict[str, Any], rng: random.Random, attempt: int) -> None:
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.rng = rng
        #: Later attempts leave the document's examples out and choose other branches.
        self.attempt = attempt

    def resolve(self, schema: Any) -> Any:
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 64:
            name = schema["$ref"].removeprefix("#/$defs/")
            target = self.defs.get(name, {})
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = _merge([target, rest]) if rest else target
            seen += 1
        return schema

    def value(self, schema: Any, depth: int = 0, hint: str = "") -> Any:
        schema = self.resolve(schema)
        if schema is True or schema is None:
            return self.rng.choice(_WORDS)
        if schema is False or not isinstance(schema, dict):
            return None
        if "const" in schema:
            return schema["const"]
        if self.attempt == 0:
            for key in ("example", "default"):
                if key in schema:
                    return schema[key]
            examples = schema.get("examples")
            if isinstance(examples, list) and examples:
                return examples[0]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            choices = [v for v in enum if v is not None] or enum
            return choices[0] if self.attempt == 0 else self.rng.choice(choices)
        if isinstance(schema.get("allOf"), list):
            parts = [self.resolve(part) for part in schema["allOf"]]
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            return self.value(_merge([*parts, rest]), depth, hint)
        for key in ("oneOf", "anyOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                rest = {k: v for k, v in schema.items() if k != key}
                ordered = [b for b in branches if not _is_null(self.resolve(b))] or branches
                branch = ordered[0] if self.attempt == 0 else self.rng.choice(ordered)
                return self.value(_merge([rest, self.resolve(branch)]), depth, hint)
        kind = _kind(schema)
        if kind == "object":
            return self.object(schema, depth)
        if kind == "array":
            return self.array(schema, depth, hint)
        if kind == "integer":
            return self.integer(schema)
        if kind == "number":
            return self.number(schema)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "null":
            return None
        return self.string(schema, hint)

    def object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        properties = schema.get("properties") or {}
        required = [name for name in schema.get("required") or () if isinstance(name, str)]
        found: dict[str, Any] = {}
        for name, inner in properties.items():
            resolved = self.resolve(inner)
            if (
                name in required
                or (
                    depth < OPTIONAL_DEPTH
                    and not (isinstance(resolved, dict) and resolved.get("writeOnly") is True)
                )
            ) and (depth < MAX_DEPTH or name in required):
                found[name] = self.value(inner, depth + 1, name)
        for name in required:
            if name not in found:
                found[name] = self.value(_extra_schema(schema), depth + 1, name)
        minimum = schema.get("minProperties")
        number = 1
        while isinstance(minimum, int) and len(found) < minimum and number < 64:
            found.setdefault(f"property{number}", self.value(_extra_schema(schema), depth + 1))
            number += 1
        return found

    def array(self, schema: dict[str, Any], depth: int, hint: str) -> list[Any]:
        low = schema.get("minItems") or 0
        high = schema.get("maxItems")
        count = max(low, 1 if depth < OPTIONAL_DEPTH else 0)
        if isinstance(high, int):
            count = min(count, high)
        prefix = schema.get("prefixItems") or []
        items = schema.get("items", True)
        found: list[Any] = []
        tries = 0
        while len(found) < count and tries < count + 16:
            index = len(found)
            item = prefix[index] if index < len(prefix) else items
            value = self.value(item, depth + 1, hint)
            tries += 1
            if schema.get("uniqueItems") and value in found:
                continue
            found.append(value)
        return found

    def integer(self, schema: dict[str, Any]) -> int:
        bounds = INTEGER_FORMATS.get(schema.get("format"))  # type: ignore[arg-type]
        if bounds is not None:  # the format's own range, said as bounds: no bound of the API
            schema = {
                k: v
                for k, v in schema.items()
                if not ((k == "minimum" and v == bounds[0]) or (k == "maximum" and v == bounds[1]))
            }
        low, high = _bounds(schema, 0, 1000, 1)
        if schema.get("format") in ("int32", "int64"):
            bounds = _INT32 if schema["format"] == "int32" else _INT64
            low, high = max(low, bounds[0]), min(high, bounds[1])
        step = schema.get("multipleOf")
        if isinstance(step, int) and step > 0:
            first = -(-int(low) // step) * step
            if first > high:
                return first
            return first + step * self.rng.randint(0, int((high - first) // step))
        low_int, high_int = int(-(-low // 1)), int(high // 1)
        if low_int > high_int:
            return low_int
        top = high_int if high_int - low_int < 1000 else low_int + 1000
        return self.rng.randint(low_int, top)

    def number(self, schema: dict[str, Any]) -> float | int:
        low, high = _bounds(schema, 0.0, 1000.0, 0.01)
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and step > 0:
            first = -(-low // step) * step
            count = int((high - first) // step) if high >= first else 0
            value = first + step * self.rng.randint(0, min(count, 1000))
            return int(value) if float(value).is_integer() else value
        value = round(self.rng.uniform(low, min(high, low + 1000.0)), 2)
        return min(max(value, low), high)

    def string(self, schema: dict[str, Any], hint: str) -> str:
        low = schema.get("minLength") or 0
        high = schema.get("maxLength")
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            for _ in range(8):
                try:
                    text = matching(pattern, self.rng)
                except PatternError:
                    break
                if len(text) >= low and (high is None or len(text) <= high):
                    return text
        made = _FORMATS.get(str(schema.get("format", "")))
        text = made(self.rng) if made is not None else f"{self.rng.choice(_WORDS)}"
        if made is None and hint and self.attempt == 0:
            text = f"{hint}-{self.rng.randint(1, 999)}"
        if len(text) < low:
            text = text + "x" * (low - len(text))
        if isinstance(high, int) and len(text) > high:
            text = text[:high]
        return text


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null"


def _kind(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"] or kind
        kind = kinds[0] if kinds else None
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "additionalProperties" in schema or "required" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema or "minItems" in schema:
        return "array"
    if "minimum" in schema or "maximum" in schema or "multipleOf" in schema:
        return "number"
    return None


def _extra_schema(schema: dict[str, Any]) -> Any:
    extra = schema.get("additionalProperties", True)
    return extra if isinstance(extra, dict) else {"type": "string"}


def _bounds(schema: dict[str, Any], low: float, high: float, step: float) -> tuple[float, float]:
    """The range a number may take: the schema's bounds, else ``low``..``high`` near them."""
    minimum = schema.get("minimum")
    maximum = schema.get("maximum")
    exclusive_min = schema.get("exclusiveMinimum")
    exclusive_max = schema.get("exclusiveMaximum")
    lower: float | None = None
    upper: float | None = None
    if isinstance(minimum, (int, float)) and not isinstance(minimum, bool):
        lower = minimum
    if isinstance(exclusive_min, (int, float)) and not isinstance(exclusive_min, bool):
        lower = max(lower, exclusive_min + step) if lower is not None else exclusive_min + step
    if isinstance(maximum, (int, float)) and not isinstance(maximum, bool):
        upper = maximum
    if isinstance(exclusive_max, (int, float)) and not isinstance(exclusive_max, bool):
        upper = min(upper, exclusive_max - step) if upper is not None else exclusive_max - step
    if lower is None and upper is None:
        return max(low, -1e15), high
    if lower is None:
        assert upper is not None
        lower = min(low, upper) if upper >= low else upper - (high - low)
    if upper is None:
        upper = max(high, lower) if lower <= high else lower + (high - low)
    return lower, upper


def _merge(parts: list[Any]) -> dict[str, Any]:
    """One schema with what every part of an ``allOf`` says (the first word on a keyword)."""
    merged: dict[str, Any] = {}
    for part in parts:
        if not isinstance(part, dict):
            continue
        for key, value in part.items():
            if key == "properties" and isinstance(value, dict):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = [*merged.get("required", []), *value]
            elif key == "allOf" and isinstance(value, list):
                merged.setdefault("allOf", []).extend(value)
            elif key in ("minimum", "minLength", "minItems", "exclusiveMinimum") and key in merged:
                merged[key] = max(merged[key], value)
            elif key in ("maximum", "maxLength", "maxItems", "exclusiveMaximum") and key in merged:
                merged[key] = min(merged[key], value)
            else:
                merged.setdefault(key, value)
    if "allOf" in merged:
        nested = merged.pop("allOf")
        return _merge([merged, *nested])
    return merged


def _date_time(rng: random.Random) -> str:
    moment = _EPOCH + timedelta(seconds=rng.randint(0, 365 * 24 * 3600))
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


_FORMATS: dict[str, Callable[[random.Random], str]] = {
    "date-time": _date_time,
    "date": lambda rng: _date_time(rng)[:10],
    "time": lambda rng: _date_time(rng)[11:],
    "email": lambda rng: f"{rng.choice(_WORDS)}@example.com",
    "idn-email": lambda rng: f"{rng.choice(_WORDS)}@example.com",
    "uuid": lambda rng: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "uri": lambda rng: f"https://example.com/{rng.choice(_WORDS)}",
    "url": lambda rng: f"https://example.com/{rng.choice(_WORDS)}",
    "iri": lambda rng: f"https://example.com/{rng.choice(_WORDS)}",
    "uri-reference": lambda rng: f"/{rng.choice(_WORDS)}",
    "hostname": lambda rng: f"{rng.choice(_WORDS)}.example.com",
    "ipv4": lambda rng: f"192.0.2.{rng.randint(1, 254)}",
    "ipv6": lambda rng: f"2001:db8::{rng.randint(1, 0xFFFF):x}",
    "byte": lambda rng: base64.b64encode(rng.choice(_WORDS).encode()).decode(),
    "binary": lambda rng: rng.choice(_WORDS),
    "password": lambda rng: "secret-" + str(rng.randint(100, 999)),
    "duration": lambda rng: f"PT{rng.randint(1, 59)}M",
}


def generate(
    schema: dict[str, Any], seed: str, *, check: jsonschema_rs.Validator | None = None
) -> Any:
    """A value ``schema`` accepts, drawn from ``seed``; the best try if none passes the check."""
    check = check or validator(schema)
    best: Any = None
    for attempt in range(ATTEMPTS):
        rng = random.Random(f"{seed}/{attempt}")
        value = _Drawer(schema, rng, attempt).value(schema)
        if attempt == 0:
            best = value
        if check.is_valid(value):
            return value
    return best
