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
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import uritemplate

Value = str | list[str] | dict[str, str] | None

_OPERATORS = frozenset("+#./;?&")
_RESERVED_OPERATORS = frozenset("=,!@|")
_VARNAME = re.compile(r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*")
_PREFIX = re.compile(r"[1-9][0-9]{0,3}")


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
    prepared: dict[str, object] = {}
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
    return str(uritemplate.URITemplate(template).expand(prepared))  # type: ignore[arg-type]
