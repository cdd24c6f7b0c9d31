"""URI templates (RFC 6570, levels 1 to 4), expanded by the ``uritemplate`` library.

``uritemplate`` expands well but accepts anything: an unclosed brace or an
operator reserved for future use (``=``, ``,``, ``!``, ``@``, ``|``) passes
through silently. So every template is first checked here against the RFC's
grammar for expressions (section 2.2 to 2.4), and a malformed one raises
:class:`TemplateError` naming what is wrong and where. Literal text outside
expressions is not policed: real servers put spaces and the like there, and the
library copies literals as they are.

Values follow section 2.3: a missing or None value is undefined; an empty list
or an empty mapping is undefined too (its expression adds nothing, not even the
operator's prefix); the empty string is *defined*, so ``{?q}`` with ``q=""``
gives ``?q=``. Mappings keep their order (the library would sort them).

One fix over the library: in reserved (``{+var}``) and fragment (``{#var}``)
expansion it copies a value verbatim as soon as the value holds one
pct-encoded triplet, spaces and all; here such values are encoded first
(triplets kept, anything neither reserved nor unreserved encoded), and a prefix
never splits a triplet. Values that cannot be UTF-8 encoded (lone surrogates)
raise :class:`TemplateError` too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

import uritemplate

from explorer.core.text.lazy_pattern import LazyPattern

Value = str | list[str] | dict[str, str] | None

_OPERATORS = frozenset("+#./;?&")
_RESERVED_OPERATORS = frozenset("=,!@|")
_VARNAME = re.compile(r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*")
_PREFIX = LazyPattern(r"[1-9][0-9]{0,3}")


class TemplateError(ValueError):
    """A URI template that RFC 6570 does not allow, or values that cannot fill it."""


class _VarSpec:
    __slots__ = ("explode", "name", "prefix")

    def __init__(self, name: str, prefix: int | None, explode: bool) -> None:
        self.name = name
        self.prefix = prefix
        self.explode = explode


def _parse(template: str) -> list[_VarSpec]:
    """Every variable specification of ``template`` in order; TemplateError if malformed."""
    specs: list[_VarSpec] = []
    i = 0
    while True:
        start = template.find("{", i)
        stray = template.find("}", i, start if start >= 0 else len(template))
        if stray >= 0:
            raise TemplateError(f"'}}' without '{{' at position {stray} in {template!r}")
        if start < 0:
            return specs
        end = template.find("}", start + 1)
        nested = template.find("{", start + 1, end if end >= 0 else len(template))
        if end < 0 or nested >= 0:
            raise TemplateError(f"'{{' at position {start} is never closed in {template!r}")
        specs.extend(_parse_expression(template[start + 1 : end], template))
        i = end + 1


def _parse_expression(body: str, template: str) -> list[_VarSpec]:
    if not body:
        raise TemplateError(f"empty expression '{{}}' in {template!r}")
    if body[0] in _RESERVED_OPERATORS:
        raise TemplateError(f"operator {body[0]!r} is reserved for future use in {template!r}")
    if body[0] in _OPERATORS:
        body = body[1:]
    specs = []
    for varspec in body.split(","):
        name, explode, prefix = varspec, False, None
        if name.endswith("*"):
            name, explode = name[:-1], True
        elif ":" in name:
            name, _, digits = name.partition(":")
            if not _PREFIX.fullmatch(digits):
                raise TemplateError(
                    f"prefix length {digits!r} must be 1 to 9999 in {{{body}}} of {template!r}"
                )
            prefix = int(digits)
        if not _VARNAME.fullmatch(name):
            raise TemplateError(f"{name!r} is not a valid variable name in {template!r}")
        specs.append(_VarSpec(name, prefix, explode))
    return specs


def template_variables(template: str) -> list[str]:
    """The variable names of ``template`` in order of first appearance, each once."""
    seen: dict[str, None] = {}
    for spec in _parse(template):
        seen.setdefault(spec.name, None)
    return list(seen)


def is_valid_template(template: str) -> bool:
    """True when ``template`` is a well-formed RFC 6570 template."""
    try:
        _parse(template)
    except TemplateError:
        return False
    return True


def expand_template(template: str, values: Mapping[str, Value]) -> str:
    """``template`` expanded with ``values`` (RFC 6570 section 3); TemplateError if malformed."""
    specs = _parse(template)
    prepared: dict[str, str | list[str] | list[tuple[str, str]]] = {}
    for spec in specs:
        if spec.name in prepared:
            continue
        value = values.get(spec.name)
        if value is None or (isinstance(value, (list, tuple, dict)) and not value):
            continue
        if isinstance(value, dict):
            prepared[spec.name] = [(str(k), str(v)) for k, v in value.items()]
        elif isinstance(value, (list, tuple)):
            prepared[spec.name] = [str(v) for v in value]
        else:
            prepared[spec.name] = str(value)
    for spec in specs:
        if spec.prefix is not None and isinstance(prepared.get(spec.name), list):
            raise TemplateError(
                f"a prefix (:{spec.prefix}) cannot apply to the list or mapping "
                f"given for {spec.name!r} (RFC 6570 section 2.4.1)"
            )
    try:
        return "".join(_expand_part(part, prepared) for part in _EXPRESSION.split(template))
    except UnicodeEncodeError as exc:
        raise TemplateError(f"a value for {template!r} cannot be encoded as UTF-8") from exc


_EXPRESSION = re.compile(r"(\{[^{}]*\})")
_HEX = frozenset("0123456789abcdefABCDEF")
_RESERVED_OK = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;="
)


def _expand_part(part: str, prepared: Mapping[str, object]) -> str:
    """One literal (copied) or one expression (expanded by the library)."""
    if not part.startswith("{"):
        return part
    if part[1] not in "+#":
        return str(uritemplate.URITemplate(part).expand(prepared))  # type: ignore[arg-type]
    # Reserved and fragment expansion let pct-encoded triplets through and encode
    # everything else that is neither reserved nor unreserved (section 3.2.3).
    # The library leaves a value untouched as soon as it holds one triplet, so
    # values are encoded here (a prefix cut first, never inside a triplet) and
    # handed over already safe.
    varspecs = []
    encoded: dict[str, object] = {}
    for varspec in part[2:-1].split(","):
        name, _, digits = varspec.partition(":")
        key = name.rstrip("*")
        value = prepared.get(key)
        if isinstance(value, str):
            encoded[key] = _encode_reserved(_cut(value, int(digits)) if digits else value)
            varspec = name
        elif isinstance(value, list):
            encoded[key] = [_encode_item(item) for item in value]
        varspecs.append(varspec)
    expression = "{" + part[1] + ",".join(varspecs) + "}"
    return str(uritemplate.URITemplate(expression).expand(encoded))  # type: ignore[arg-type]


def _encode_item(item: object) -> object:
    if isinstance(item, tuple):
        return tuple(_encode_reserved(str(element)) for element in item)
    return _encode_reserved(str(item))


def _encode_reserved(value: str) -> str:
    """``value`` with pct-encoded triplets and reserved/unreserved characters kept."""
    if all(ch in _RESERVED_OK for ch in value):
        return value
    out = []
    i, end = 0, len(value)
    while i < end:
        char = value[i]
        if _is_triplet(value, i):
            out.append(value[i : i + 3])
            i += 3
            continue
        out.append(char if char in _RESERVED_OK else quote(char, safe=""))
        i += 1
    return "".join(out)


def _is_triplet(value: str, i: int) -> bool:
    return value[i] == "%" and i + 2 < len(value) and value[i + 1] in _HEX and value[i + 2] in _HEX


def _cut(value: str, length: int) -> str:
    """The first ``length`` characters of ``value``, never splitting a pct-encoded triplet."""
    i, count, end = 0, 0, len(value)
    while i < end and count < length:
        i += 3 if _is_triplet(value, i) else 1
        count += 1
    return value[:i]
