"""One lesson file: Markdown with its task, check and hints in TOML front matter.

A lesson is data: a file of Markdown text (what the learner reads) after a
front matter of TOML between two ``+++`` lines, read with :mod:`tomllib`. The
front matter's keys (``explorer/course/FORMAT.md`` is the teacher's reference):
``id``, ``chapter``, ``order``, ``title``, ``task``, ``check`` (steps in order,
:mod:`explorer.core.course.steps`), and optionally ``reset``, ``start``,
``hints`` (near misses, each with its text), ``more_hints``, ``show_me`` (a
request the composer is filled with) and ``others`` (requests another client
makes during the lesson). :func:`parse_lesson` checks them strictly.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.core.course.errors import FormatError
from explorer.core.course.patterns import Pattern, parse_pattern
from explorer.core.course.sequence import Steps
from explorer.core.course.steps import Step, parse_step

__all__ = [
    "LESSON_KEYS",
    "SHOW_ME_REF",
    "Lesson",
    "NearMiss",
    "Other",
    "ShowMe",
    "parse_lesson",
    "parse_steps",
]

_FENCE = "+++"
_ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
#: The one step name "show me" may refer to: the newest exchange to its own path.
SHOW_ME_REF = "last"

LESSON_KEYS = (
    "id",
    "chapter",
    "order",
    "title",
    "task",
    "check",
    "reset",
    "start",
    "hints",
    "more_hints",
    "show_me",
    "others",
)
_REQUIRED = ("id", "chapter", "order", "title", "task", "check")


@dataclass(frozen=True)
class NearMiss:
    """A wrong attempt foreseen: when its steps match, ending with the newest exchange,
    the learner reads ``text``."""

    text: str
    steps: Steps


@dataclass(frozen=True)
class ShowMe:
    """A request that does the task, put in the composer for the learner to send."""

    method: str
    url: Pattern  # a path (the lesson's server) or an absolute URL
    headers: tuple[tuple[str, Pattern], ...]
    body: Pattern | None
    note: str


@dataclass(frozen=True)
class Other:
    """A request another client makes during the lesson (a colleague's change): once,
    when the lesson starts, or right after an exchange ``after`` matches."""

    after: Step | None
    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    body: str | None
    say: str


@dataclass(frozen=True)
class Lesson:
    """One lesson: what the learner reads, the task, its check and its hints."""

    id: str
    chapter: str
    order: int
    title: str
    task: str
    check: Steps
    text: str = ""
    reset: bool = True
    start: str = "/"
    hints: tuple[NearMiss, ...] = ()
    more_hints: tuple[str, ...] = ()
    show_me: ShowMe | None = None
    others: tuple[Other, ...] = ()
    file: str = ""


def split_front_matter(text: str) -> tuple[str, str]:
    """The TOML front matter and the Markdown after it."""
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    if not lines or lines[0].strip() != _FENCE:
        raise FormatError("the file must start with a +++ line, then the TOML front matter")
    for index, line in enumerate(lines[1:], 1):
        if line.strip() == _FENCE:
            return "".join(lines[1:index]), "".join(lines[index + 1 :]).strip("\n")
    raise FormatError("the front matter is never closed: end it with a +++ line")


def _string(data: Mapping[str, Any], key: str, *, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise FormatError("give a non-empty string", key)
    return value


def parse_steps(value: object, where: str) -> Steps:
    """An array of step tables, each told the names of the ones before it."""
    if not isinstance(value, list) or not value:
        raise FormatError("give at least one step ([[...steps]] tables)", where)
    named: set[str] = set()
    steps: list[Step] = []
    for index, table in enumerate(value):
        try:
            step = parse_step(table, f"{where}[{index}]", frozenset(named))
        except FormatError as error:
            if error.unknown in LESSON_KEYS:  # TOML puts a key after a [table] in that table
                raise FormatError(
                    f"{error.unknown!r} is a key of the lesson, not of a step: move it above "
                    "the first [table] of the front matter",
                    error.where,
                ) from None
            raise
        if step.name:
            named.add(step.name)
        steps.append(step)
    return Steps(tuple(steps))


def _check(value: object) -> Steps:
    if not isinstance(value, dict):
        raise FormatError("give a [check] table with its [[check.steps]]", "check")
    for key in value:
        if key != "steps":
            raise FormatError(f"unknown key {key!r}; the check has steps only", "check")
    return parse_steps(value.get("steps"), "check.steps")


def _hints(value: object) -> tuple[NearMiss, ...]:
    if not isinstance(value, list):
        raise FormatError("give [[hints]] tables, each with text and steps", "hints")
    misses: list[NearMiss] = []
    for index, table in enumerate(value):
        where = f"hints[{index}]"
        if not isinstance(table, dict):
            raise FormatError("a hint is a table with text and steps", where)
        for key in table:
            if key not in ("text", "steps"):
                raise FormatError(f"unknown key {key!r}; a hint has text and steps", where)
        text = table.get("text")
        if not isinstance(text, str) or not text.strip():
            raise FormatError("give the hint's text", f"{where}.text")
        misses.append(NearMiss(text.strip(), parse_steps(table.get("steps"), f"{where}.steps")))
    return tuple(misses)


def _method(value: object, where: str) -> str:
    if not isinstance(value, str) or not _TOKEN.match(value):
        raise FormatError(f"{value!r} is not a method", where)
    return value


def _target(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.startswith(("/", "http://", "https://", "${")):
        raise FormatError(f"{value!r}: give a path (/customers/1) or an http(s) URL", where)
    return value


def _start(value: object) -> str:
    start = _target(value, "start")
    if "${" in start:
        raise FormatError("the start page is written out, no reference", "start")
    return start


def _headers(value: object, where: str) -> list[tuple[str, str]]:
    if value is None:
        return []
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and _TOKEN.match(k) and isinstance(v, str) for k, v in value.items()
    ):
        raise FormatError("give a table of header names to string values", where)
    return list(value.items())


def _only(table: Mapping[str, object], where: str, keys: tuple[str, ...]) -> None:
    for key in table:
        if key not in keys:
            raise FormatError(f"unknown key {key!r}; the keys are {', '.join(keys)}", where)


def _show_me(value: object) -> ShowMe:
    where = "show_me"
    if not isinstance(value, dict):
        raise FormatError("give a [show_me] table: method, url, headers, body, note", where)
    _only(value, where, ("method", "url", "headers", "body", "note"))
    method = _method(value.get("method", "GET"), f"{where}.method")
    url = _target(value.get("url"), f"{where}.url")
    body = value.get("body")
    if body is not None and not isinstance(body, str):
        raise FormatError("give the body as a string", f"{where}.body")
    note = value.get("note", "")
    if not isinstance(note, str):
        raise FormatError("give the note as a string", f"{where}.note")
    patterns = [parse_pattern(url, f"{where}.url")]
    headers = []
    for name, text in _headers(value.get("headers"), f"{where}.headers"):
        pattern = parse_pattern(text, f"{where}.headers.{name}")
        patterns.append(pattern)
        headers.append((name, pattern))
    body_pattern = parse_pattern(body, f"{where}.body") if body is not None else None
    if body_pattern is not None:
        patterns.append(body_pattern)
    for pattern in patterns:
        for ref in pattern.refs:
            if ref.step != SHOW_ME_REF:
                raise FormatError(
                    f"${{{ref.step}.{ref.field}}}: show_me refers only to "
                    f"${{{SHOW_ME_REF}.FIELD}}, the newest exchange with its path",
                    where,
                )
    return ShowMe(method, patterns[0], tuple(headers), body_pattern, note)


def _others(value: object) -> tuple[Other, ...]:
    if not isinstance(value, list):
        raise FormatError("give [[others]] tables", "others")
    others: list[Other] = []
    for index, table in enumerate(value):
        where = f"others[{index}]"
        if not isinstance(table, dict):
            raise FormatError("an other request is a table: method, url, headers, body", where)
        _only(table, where, ("after", "method", "url", "headers", "body", "say"))
        after = table.get("after")
        step = parse_step(after, f"{where}.after", frozenset()) if after is not None else None
        body = table.get("body")
        if body is not None and not isinstance(body, str):
            raise FormatError("give the body as a string", f"{where}.body")
        say = table.get("say", "")
        if not isinstance(say, str):
            raise FormatError("give what to say as a string", f"{where}.say")
        url = _target(table.get("url"), f"{where}.url")
        if "${" in url:
            raise FormatError("another client's URL is written out, no reference", f"{where}.url")
        others.append(
            Other(
                step,
                _method(table.get("method", "GET"), f"{where}.method"),
                url,
                tuple(_headers(table.get("headers"), f"{where}.headers")),
                body,
                say,
            )
        )
    return tuple(others)


def parse_lesson(text: str, file: str = "") -> Lesson:
    """The lesson ``text`` (a lesson file's content) holds; a :class:`FormatError` naming
    the file and the key for the first thing wrong."""
    try:
        return _parse(text, file)
    except FormatError as error:
        error.file = file
        raise


def _parse(text: str, file: str) -> Lesson:
    front, body = split_front_matter(text)
    try:
        data = tomllib.loads(front)
    except tomllib.TOMLDecodeError as error:
        raise FormatError(f"the front matter is not TOML: {error}") from None
    _only(data, "", LESSON_KEYS)
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise FormatError(f"missing {', '.join(missing)}")
    lesson_id = _string(data, "id")
    if not _ID.match(lesson_id):
        raise FormatError(f"{lesson_id!r}: an id is lower-case letters, digits and -", "id")
    order = data["order"]
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise FormatError("give the lesson's place in its chapter: 1, 2, 3...", "order")
    reset = data.get("reset", True)
    if not isinstance(reset, bool):
        raise FormatError("give true or false", "reset")
    more = data.get("more_hints", [])
    if not isinstance(more, list) or not all(isinstance(h, str) and h.strip() for h in more):
        raise FormatError("give a list of strings", "more_hints")
    if not body.strip():
        raise FormatError("the lesson has no text after the front matter")
    return Lesson(
        id=lesson_id,
        chapter=_string(data, "chapter"),
        order=order,
        title=_string(data, "title").strip(),
        task=_string(data, "task").strip(),
        check=_check(data["check"]),
        text=body,
        reset=reset,
        start=_start(data.get("start", "/")),
        hints=_hints(data.get("hints", [])),
        more_hints=tuple(h.strip() for h in more),
        show_me=_show_me(data["show_me"]) if "show_me" in data else None,
        others=_others(data.get("others", [])),
        file=file,
    )
