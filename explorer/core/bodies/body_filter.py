"""Filtering a JSON body: keep only what a JSONPath or jq expression selects.

JSONPath is RFC 9535 as the ``python-jsonpath`` package reads it, with its
extensions: ``match()``/``search()`` are the RFC's regular-expression functions
(``$..customers[?match(@.name, 'A.*')]``), and ``=~ /A.*/`` is the package's own
regex operator (its right side is a ``/pattern/`` literal, not a quoted string).
jq is the real jq, through the ``jq`` package, when it is installed
(``pip install 'restwalk[jq]'``).

The result is pretty-printed JSON, bounded: past :data:`MAX_RESULT` bytes the
rest is left out and the result says so. A long filter checks ``cancelled``
between values, so a newer expression stops an older one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import orjson

from explorer.core.bodies.exact_numbers import dumps_exact, loads_exact
from explorer.core.bodies.pretty import lossy_number
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    from jsonpath import CompoundJSONPath, JSONPath

__all__ = [
    "LANGUAGES",
    "MAX_RESULT",
    "FilterError",
    "FilterResult",
    "Language",
    "jq_available",
    "parse_document",
    "run_filter",
]

Language = Literal["jsonpath", "jq"]
#: The filter languages, in the order the filter line offers them.
LANGUAGES: tuple[Language, ...] = ("jsonpath", "jq")
#: A filter's result stops growing here (pretty-printed bytes).
MAX_RESULT = 8 * 1024 * 1024
JQ_INSTALL = "jq filters need the jq package: pip install 'restwalk[jq]'"


class FilterError(ValueError):
    """An expression that cannot be run, or a body it cannot run on, with where."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: The offset in the expression where the problem is, when known.
        self.position = position


@dataclass(frozen=True)
class FilterResult:
    """What a filter selected: ``text`` (pretty JSON) holding ``count`` values."""

    text: bytes
    count: int
    #: True when values were left out at :data:`MAX_RESULT`.
    truncated: bool = False
    #: A remark for the person (a likely mistake in the expression), or "".
    hint: str = ""

    @property
    def summary(self) -> str:
        """``12 values`` / ``no value`` / ``the first 1,234 values (8 MB shown)``."""
        if self.count == 0:
            return "a value too large to show" if self.truncated else "no value"
        values = counted(self.count, "value")
        if self.truncated:
            return f"the first {values} ({MAX_RESULT // (1024 * 1024)} MB shown)"
        return values


def jq_available() -> bool:
    """True when the ``jq`` package can be imported."""
    try:
        import jq  # noqa: F401
    except ImportError:
        return False
    return True


def parse_document(body: bytes) -> Any:
    """``body`` parsed as JSON; :class:`FilterError` says why it is not."""
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise FilterError(f"The body is not JSON ({error}): nothing to filter.") from None
    # A number orjson would change (past 64 bits, more digits than a double) is kept.
    return loads_exact(body) if lossy_number(body) else document


def run_filter(
    language: Language,
    expression: str,
    *,
    document: Callable[[], Any],
    body: bytes,
    cancelled: Callable[[], bool] = lambda: False,
) -> FilterResult:
    """Run ``expression`` on a JSON body: ``document()`` gives it parsed (JSONPath works on
    Python values; the caller may keep it between filters), ``body`` as received (jq reads
    it itself). Raises :class:`FilterError`."""
    if not expression.strip():
        raise FilterError("Type an expression: $.name, $..href, $.items[0]")
    if language == "jq":
        return _collect(_jq_values(expression, body), cancelled, array=False)
    path = _compile_jsonpath(expression)
    return _collect(
        _jsonpath_values(expression, path, document()),
        cancelled,
        array=True,
        hint=_hint(expression, path),
    )


# -- JSONPath -----------------------------------------------------------------------------


def _regex_problem(expression: str, error: re.error) -> FilterError:
    """A regular expression of ``expression`` that ``re`` refuses, explained with where."""
    pattern = error.pattern if isinstance(error.pattern, str) else None
    start = expression.find(pattern) if pattern else -1
    position = start + (error.pos or 0) if start >= 0 else None
    where = f" at position {position + 1}" if position is not None else ""
    return FilterError(f"Not a regular expression{where}: {error.msg}", position)


def _compile_jsonpath(expression: str) -> JSONPath | CompoundJSONPath:
    import jsonpath  # imported when first used: most sessions never filter

    try:
        return jsonpath.compile(expression)
    except jsonpath.JSONPathError as error:
        token = getattr(error, "token", None)
        position = getattr(token, "index", None)
        message = str(error.args[0]) if error.args else str(error)
        where = f" at position {position + 1}" if position is not None else ""
        raise FilterError(f"Not a JSONPath{where}: {message}", position) from None
    except re.error as error:  # a /regex/ literal python-jsonpath compiles as it reads it
        raise _regex_problem(expression, error) from None
    except (OverflowError, ValueError, RecursionError) as error:  # 1e999, /a{99999999999}/
        raise FilterError(f"Not a JSONPath: {_words(error)}") from None


def _jsonpath_values(
    expression: str, path: JSONPath | CompoundJSONPath, document: Any
) -> Iterator[Any]:
    import jsonpath

    try:
        for match in path.finditer(document):
            yield match.obj
    except re.error as error:  # (match() and search() compile theirs as they run)
        raise _regex_problem(expression, error) from None
    except jsonpath.JSONPathError as error:
        raise FilterError(f"JSONPath: {error.args[0] if error.args else error}") from None
    except RecursionError:
        raise FilterError("JSONPath: the document is nested too deep to walk") from None
    except (OverflowError, ValueError, TypeError) as error:  # what a library let through
        raise FilterError(f"JSONPath: {_words(error)}") from None


def _words(error: Exception) -> str:
    """An error of Python's or a library's as a person reads it."""
    message = str(error) or type(error).__name__
    if isinstance(error, OverflowError):
        return f"a number in it is too large ({message})"
    return message


#: RFC 9535's functions whose second argument is a regular expression (I-Regexp).
REGEX_FUNCTIONS = frozenset({"match", "search"})
_QUOTED_REGEX = re.compile(r"=~\s*['\"]")


def _hint(expression: str, path: JSONPath | CompoundJSONPath) -> str:
    """A likely mistake in ``expression``: a quoted regex after ``=~``, or a pattern
    ``match()``/``search()`` cannot read (RFC 9535 makes such a call false, silently)."""
    if _QUOTED_REGEX.search(expression):
        return "=~ takes a /regex/ (=~ /A.*/), or write match(@.name, 'A.*')"
    for function, pattern in _regex_arguments(path):
        try:
            re.compile(pattern)
        except re.error as error:
            return (
                f'{function}(): "{pattern}" is not a regular expression ({error.msg}): '
                "it matches nothing"
            )
        except (OverflowError, RecursionError) as error:
            return f'{function}(): "{pattern}" cannot be used ({_words(error)}): it matches nothing'

    return ""


def _regex_arguments(path: JSONPath | CompoundJSONPath) -> Iterator[tuple[str, str]]:
    """``(function, pattern)`` for each string literal given to ``match()`` or ``search()``
    in ``path``, its filters' nested paths included."""
    from jsonpath import CompoundJSONPath
    from jsonpath.filter import BaseExpression, FunctionExtension, StringLiteral
    from jsonpath.selectors import Filter

    paths: list[JSONPath | CompoundJSONPath] = [path]
    simple: list[JSONPath] = []
    while paths:  # (a union's or intersection's first path may be one too)
        one = paths.pop()
        if isinstance(one, CompoundJSONPath):
            paths += [one.path, *(other for _, other in one.paths)]
        else:
            simple.append(one)
    expressions: list[BaseExpression] = [
        selector.expression
        for one in simple
        for segment in one.segments
        for selector in segment.selectors
        if isinstance(selector, Filter)
    ]
    for expression in expressions:  # (grows: a nested path's filters are its children)
        if isinstance(expression, FunctionExtension) and expression.name in REGEX_FUNCTIONS:
            pattern = expression.args[1] if len(expression.args) == 2 else None
            if isinstance(pattern, StringLiteral):
                yield expression.name, pattern.value
        expressions.extend(expression.children())


# -- jq -----------------------------------------------------------------------------------

#: One error of jq's compiler: ``jq: error: <what> at <top-level>, line 1, column 6:``,
#: followed by the program's line and a caret under the place (jq 1.6 gives no column).
_JQ_ERROR = re.compile(
    r"^jq: error: (?P<what>.*?)"
    r"(?: at <[^>]*>, line (?P<line>\d+)(?:, column (?P<column>\d+))?)?:?$"
)


def _jq_compile_problem(message: str) -> FilterError:
    """jq's compile errors as one line: each error's words, with where, for the filter bar.

    jq says where on the line that names the error, then shows the program and a caret
    on lines of their own: the first line alone ended in "column 2:", the place left
    out. The errors' words are kept, the place said as the JSONPath errors say it, the
    program and caret lines (the bar shows the expression) and the count dropped.
    """
    errors = [found for line in message.splitlines() if (found := _JQ_ERROR.match(line.strip()))]
    if not errors:
        return FilterError(f"Not a jq program: {' '.join(message.split())}")
    first = errors[0]
    line, column = first.group("line"), first.group("column")
    position = int(column) - 1 if line == "1" and column is not None else None
    if position is not None:
        where = f" at position {position + 1}"
    elif line is not None and line != "1":
        where = f" at line {line}" + (f", column {column}" if column else "")
    else:
        where = ""
    words = "; ".join(dict.fromkeys(found.group("what") for found in errors))
    return FilterError(f"Not a jq program{where}: {words}", position)


def _jq_values(expression: str, body: bytes) -> Iterator[Any]:
    try:
        import jq
    except ImportError:
        raise FilterError(JQ_INSTALL) from None
    try:
        program = jq.compile(expression)
    except ValueError as error:
        raise _jq_compile_problem(str(error)) from None
    try:
        yield from program.input_text(body.decode("utf-8", errors="replace"))
    except ValueError as error:  # (error("a\nb") gives its message as it is: one line here)
        raise FilterError(f"jq: {' '.join(str(error).split())}") from None


# -- the result ---------------------------------------------------------------------------


def _collect(
    values: Iterator[Any], cancelled: Callable[[], bool], *, array: bool, hint: str = ""
) -> FilterResult:
    """Pretty-print ``values`` (as one array, or one after another as jq prints them)."""
    kept: list[bytes] = []
    size = 0
    truncated = False
    for value in values:
        if cancelled():
            break
        try:
            text = orjson.dumps(value, option=orjson.OPT_INDENT_2)
        except TypeError:  # (orjson.JSONEncodeError is one): a number it does not write
            try:
                text = dumps_exact(value)
            except RecursionError:
                text = orjson.dumps(str(value))
        if size + len(text) > MAX_RESULT:
            truncated = True
            break
        kept.append(text)
        size += len(text) + 4
    if array:
        if kept:
            items = [b"  " + item.replace(b"\n", b"\n  ") for item in kept]
            text = b"[\n" + b",\n".join(items) + b"\n]\n"
        else:
            text = b"[]\n"
    else:
        text = b"".join(item + b"\n" for item in kept)
    return FilterResult(text, len(kept), truncated, hint)
