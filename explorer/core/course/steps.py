"""A step: what one exchange must be, in the check's small, closed vocabulary.

A step is a TOML table whose keys each test one fact of an exchange
(:mod:`explorer.core.course.facts`): ``method``, ``url``, ``path``,
``final_path``, ``query``, ``request_headers``, ``json``, ``body``, ``status``,
``response_headers``, ``response_json``, ``http_version``, ``redirected``,
``cache``; ``not`` holds a table of the same keys that must not all hold, and
``name`` lets later steps refer to the exchange this one matched
(``${name.field}``, :mod:`explorer.core.course.patterns`). Every key given must
hold. :func:`parse_step` checks a table strictly: an unknown key, a wrong type,
a reference to a step not named before is a :class:`FormatError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus

from explorer.core.course.errors import FormatError
from explorer.core.course.facts import MISSING, ExchangeFacts, json_at, json_text
from explorer.core.course.patterns import Pattern, Ref, parse_pattern

__all__ = ["CACHE_OUTCOMES", "STEP_KEYS", "Step", "parse_step"]

#: What the session's cache may have done (``cache = "revalidated"``); "none": no cache.
CACHE_OUTCOMES = ("fresh", "revalidated", "replaced", "stored", "not-stored", "none")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_CLASS = re.compile(r"[1-5]xx\Z")
_LOWEST, _HIGHEST = HTTPStatus.CONTINUE, 599

Bound = Mapping[str, ExchangeFacts]
Test = Callable[[ExchangeFacts, Bound], bool]


@dataclass(frozen=True)
class Step:
    """What one exchange must be; ``name`` binds the exchange it matched for later steps."""

    name: str | None
    #: The tests of the keys that refer to no other step: they hold or not by themselves.
    free: tuple[Test, ...]
    #: The tests of the keys that refer to earlier steps' exchanges.
    tied: tuple[Test, ...]
    refs: tuple[Ref, ...]
    source: Mapping[str, object]

    def holds_alone(self, facts: ExchangeFacts) -> bool:
        """True when the keys that refer to no other step hold of ``facts``."""
        return all(test(facts, {}) for test in self.free)

    def holds_with(self, facts: ExchangeFacts, bound: Bound) -> bool:
        """True when the keys that refer to earlier steps hold of ``facts``, their
        exchanges given by ``bound``."""
        return all(test(facts, bound) for test in self.tied)

    def matches(self, facts: ExchangeFacts, bound: Bound) -> bool:
        """True when every key of the step holds of ``facts`` (``bound``: the named
        exchanges of the steps before)."""
        return self.holds_alone(facts) and self.holds_with(facts, bound)


# -- one key each -----------------------------------------------------------------------------


def _method(value: object, where: str) -> tuple[Test, list[Pattern]]:
    methods = value if isinstance(value, list) else [value]
    if not methods or not all(isinstance(m, str) and _TOKEN.match(m) for m in methods):
        raise FormatError('give a method ("GET") or a list of them (["PUT", "PATCH"])', where)
    allowed = frozenset(str(m) for m in methods)
    return (lambda facts, bound: facts.method in allowed), []


def _status(value: object, where: str) -> tuple[Test, list[Pattern]]:
    given = value if isinstance(value, list) else [value]
    codes: set[int] = set()
    classes: set[int] = set()
    for item in given:
        if isinstance(item, int) and not isinstance(item, bool) and _LOWEST <= item <= _HIGHEST:
            codes.add(item)
        elif isinstance(item, str) and _CLASS.match(item):
            classes.add(int(item[0]))
        else:
            raise FormatError(
                f'{item!r} is not a status: give a code (404), a class ("2xx") or a list',
                where,
            )
    if not given:
        raise FormatError("the list of statuses is empty", where)
    return (lambda facts, bound: facts.status in codes or facts.status // 100 in classes), []


def _text(
    get: Callable[[ExchangeFacts], str], *, segments: bool = False, path: bool = False
) -> Callable[[object, str], tuple[Test, list[Pattern]]]:
    def parse(value: object, where: str) -> tuple[Test, list[Pattern]]:
        if not isinstance(value, str) or not value:
            raise FormatError("give a text pattern (a string)", where)
        if path and not value.startswith(("/", "*", "${")):
            raise FormatError(f"{value!r}: a path starts with / (as /customers/1)", where)
        pattern = parse_pattern(value, where, segments=segments)
        return (lambda facts, bound: pattern.matches(get(facts), bound)), [pattern]

    return parse


def _table(
    values_of: Callable[[ExchangeFacts, str], list[str]], what: str
) -> Callable[[object, str], tuple[Test, list[Pattern]]]:
    """A table of names to patterns: each name has a value the pattern matches."""

    def parse(value: object, where: str) -> tuple[Test, list[Pattern]]:
        if not isinstance(value, dict) or not value:
            raise FormatError(f"give a table of {what} names to patterns", where)
        pairs: list[tuple[str, Pattern]] = []
        for name, expected in value.items():
            if not isinstance(expected, str):
                raise FormatError(f"the pattern of {name!r} is not a string", where)
            pairs.append((name, parse_pattern(expected, f"{where}.{name}")))

        def test(facts: ExchangeFacts, bound: Bound) -> bool:
            for name, pattern in pairs:
                values = values_of(facts, name)
                candidates = [*values, ", ".join(values)] if len(values) > 1 else values
                if not any(pattern.matches(v, bound) for v in candidates):
                    return False
            return True

        return test, [p for _, p in pairs]

    return parse


def _json(
    document_of: Callable[[ExchangeFacts], object],
) -> Callable[[object, str], tuple[Test, list[Pattern]]]:
    """A table of dotted JSON paths to values: a string is a pattern over the value's
    text; a number or boolean must equal the value."""

    def parse(value: object, where: str) -> tuple[Test, list[Pattern]]:
        if not isinstance(value, dict) or not value:
            raise FormatError('give a table of JSON paths ("address.city") to values', where)
        pairs: list[tuple[str, Pattern | int | float | bool]] = []
        for dotted, expected in value.items():
            if isinstance(expected, str):
                pairs.append((dotted, parse_pattern(expected, f"{where}.{dotted}")))
            elif isinstance(expected, int | float | bool):
                pairs.append((dotted, expected))
            else:
                raise FormatError(
                    f"the value of {dotted!r} must be a string pattern, a number or a boolean",
                    where,
                )

        def test(facts: ExchangeFacts, bound: Bound) -> bool:
            document = document_of(facts)
            if document is MISSING:
                return False
            for dotted, expected in pairs:
                found = json_at(document, dotted)
                if found is MISSING:
                    return False
                if isinstance(expected, Pattern):
                    if not expected.matches(json_text(found), bound):
                        return False
                elif isinstance(expected, bool) or isinstance(found, bool):
                    if found is not expected:
                        return False
                elif not isinstance(found, int | float) or found != expected:
                    return False
            return True

        return test, [p for _, p in pairs if isinstance(p, Pattern)]

    return parse


def _redirected(value: object, where: str) -> tuple[Test, list[Pattern]]:
    if not isinstance(value, bool):
        raise FormatError("give true or false", where)
    return (lambda facts, bound: facts.redirected is value), []


def _cache(value: object, where: str) -> tuple[Test, list[Pattern]]:
    if value not in CACHE_OUTCOMES:
        raise FormatError(f"{value!r} is not one of {', '.join(CACHE_OUTCOMES)}", where)
    return (lambda facts, bound: facts.cache == value), []


_KEYS: dict[str, Callable[[object, str], tuple[Test, list[Pattern]]]] = {
    "method": _method,
    "url": _text(lambda f: f.url, segments=True),
    "path": _text(lambda f: f.path, segments=True, path=True),
    "final_path": _text(lambda f: f.final_path, segments=True, path=True),
    "query": _table(lambda f, name: f.query.get(name, []), "query parameter"),
    "request_headers": _table(lambda f, name: f.request_headers(name), "header"),
    "json": _json(lambda f: f.request_json),
    "body": _text(lambda f: f.body),
    "status": _status,
    "response_headers": _table(lambda f, name: f.response_headers(name), "header"),
    "response_json": _json(lambda f: f.response_json),
    "http_version": _text(lambda f: f.http_version),
    "redirected": _redirected,
    "cache": _cache,
}
#: Every key a step may have.
STEP_KEYS = (*_KEYS, "not", "name")


def _known(table: Mapping[str, object], where: str, allowed: tuple[str, ...]) -> None:
    for key in table:
        if key not in allowed:
            error = FormatError(
                f"unknown key {key!r}; a step's keys are {', '.join(allowed)}", where
            )
            error.unknown = key
            raise error


def _tests(
    table: Mapping[str, object], where: str
) -> tuple[list[tuple[Test, bool]], list[Pattern]]:
    """Each key's test, and whether it refers to an earlier step; every pattern."""
    tests: list[tuple[Test, bool]] = []
    patterns: list[Pattern] = []
    for key, value in table.items():
        if key in _KEYS:
            test, found = _KEYS[key](value, f"{where}.{key}")
            tests.append((test, any(pattern.refs for pattern in found)))
            patterns.extend(found)
    return tests, patterns


def parse_step(table: object, where: str, named_before: frozenset[str]) -> Step:
    """The step a TOML table is (``where``: its place in the file, for messages);
    ``named_before`` are the names of the steps before it, the ones it may refer to."""
    if not isinstance(table, dict):
        raise FormatError("a step is a table of keys (method, path, status...)", where)
    _known(table, where, STEP_KEYS)
    name = table.get("name")
    if name is not None and (not isinstance(name, str) or not _NAME.match(name)):
        raise FormatError(f"{name!r} is not a name: letters, digits and _", f"{where}.name")
    if name in named_before:
        raise FormatError(f"two steps are named {name!r}", f"{where}.name")
    tests, patterns = _tests(table, where)
    negated = table.get("not")
    if negated is not None:
        inner = f"{where}.not"
        if not isinstance(negated, dict) or not negated:
            raise FormatError("give a table of the keys that must not all hold", inner)
        _known(negated, inner, tuple(_KEYS))
        not_tests, not_patterns = _tests(negated, inner)
        patterns.extend(not_patterns)
        inside = [test for test, _ in not_tests]
        tests.append(
            (
                lambda facts, bound: not all(t(facts, bound) for t in inside),
                any(tied for _, tied in not_tests),
            )
        )
    if not tests:
        raise FormatError("the step tests nothing: give at least one key", where)
    refs = tuple(ref for pattern in patterns for ref in pattern.refs)
    for ref in refs:
        if ref.step not in named_before:
            earlier = ", ".join(sorted(named_before)) or "none"
            raise FormatError(
                f"${{{ref.step}.{ref.field}}} names no earlier step (named before: {earlier})",
                where,
            )
    return Step(
        name if isinstance(name, str) else None,
        tuple(test for test, tied in tests if not tied),
        tuple(test for test, tied in tests if tied),
        refs,
        table,
    )
