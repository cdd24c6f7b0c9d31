"""Filtering a JSON body with JSONPath (python-jsonpath) and jq (the jq package)."""

from __future__ import annotations

import builtins
import contextlib
import subprocess
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.bodies import body_filter, filter_process
from explorer.core.bodies.body_filter import FilterError, parse_document, run_filter
from explorer.core.bodies.exact_numbers import dumps_exact

BODY = orjson.dumps(
    {
        "_embedded": {
            "customers": [
                {"name": "Ann", "address": {"city": "Oslo"}},
                {"name": "Bob", "address": {"city": "Rome"}},
                {"name": "Alma", "address": {"city": "Lima"}},
            ]
        },
        "count": 3,
    }
)


def _run(language: body_filter.Language, expression: str) -> body_filter.FilterResult:
    return run_filter(language, expression, document=lambda: parse_document(BODY), body=BODY)


def test_jsonpath_selects_an_array_of_values() -> None:
    result = _run("jsonpath", "$._embedded.customers[*].name")
    assert orjson.loads(result.text) == ["Ann", "Bob", "Alma"]
    assert result.count == 3
    assert result.summary == "3 values"
    assert result.text.startswith(b'[\n  "Ann",')  # pretty, as the body is shown


def test_numbers_a_double_does_not_hold_come_out_as_they_came() -> None:
    body = b'[{"id": 12345678901234567890123, "p": 0.10000000000000001, "n": 2.5}, {"id": 7}]'
    result = run_filter("jsonpath", "$[?@.n > 1]", document=lambda: parse_document(body), body=body)
    assert result.text == (
        b'[\n  {\n    "id": 12345678901234567890123,\n    "p": 0.10000000000000001,\n'
        b'    "n": 2.5\n  }\n]\n'
    )
    ids = run_filter("jsonpath", "$[*].id", document=lambda: parse_document(body), body=body)
    assert ids.text == b"[\n  12345678901234567890123,\n  7\n]\n"
    plain = b'[{"id": 1, "p": 0.5}]'  # nothing lossy: orjson's reading, as fast as before
    assert parse_document(plain) == [{"id": 1, "p": 0.5}]


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
    )
)
def test_the_exact_writer_writes_what_orjson_writes(value: Any) -> None:
    try:
        expected = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except TypeError:  # an integer past 64 bits: orjson writes none
        return
    assert dumps_exact(value) == expected


@pytest.mark.parametrize(
    "expression",
    [
        "$._embedded.customers[?match(@.name, 'A.*')].address",  # RFC 9535 match()
        "$._embedded.customers[?search(@.name, '^A')].address",  # RFC 9535 search()
        "$._embedded.customers[?@.name =~ /A.*/].address",  # python-jsonpath's =~
    ],
)
def test_jsonpath_regular_expressions(expression: str) -> None:
    result = _run("jsonpath", expression)
    assert orjson.loads(result.text) == [{"city": "Oslo"}, {"city": "Lima"}]
    assert result.hint == ""


def test_a_quoted_regex_after_the_tilde_gets_a_hint() -> None:
    result = _run("jsonpath", "$._embedded.customers[?@.name =~ 'A.*'].address")
    assert result.count == 0
    assert result.summary == "no value"
    assert "=~ /A.*/" in result.hint


@pytest.mark.parametrize(
    ("expression", "hint"),
    [
        (
            '$._embedded.customers[?match(@.name, "(A")].address',
            'match(): "(A" is not a regular expression (missing ), unterminated subpattern): '
            "it matches nothing",
        ),
        (
            "$._embedded.customers[?!search(@.name, '[a')].address",
            'search(): "[a" is not a regular expression (unterminated character set): '
            "it matches nothing",
        ),
        (  # in a filter of a filter's path
            "$._embedded[?@[?match(@.name, '(A')]]",
            'match(): "(A" is not a regular expression',
        ),
        (  # in the second path of a union
            "$.count | $._embedded.customers[?search(@.name, '(')]",
            'search(): "(" is not a regular expression',
        ),
    ],
)
def test_a_pattern_match_or_search_cannot_read_gets_a_hint(expression: str, hint: str) -> None:
    """RFC 9535 makes such a call false, so the result stands; the hint says why (QA 2, 5)."""
    result = _run("jsonpath", expression)
    assert result.hint.startswith(hint)


def test_match_on_a_valid_pattern_or_a_query_argument_gets_no_hint() -> None:
    assert _run("jsonpath", "$._embedded.customers[?match(@.name, @.name)]").hint == ""
    valid = _run("jsonpath", "$._embedded.customers[?search(@.name, 'x|(z)')]")
    assert valid.count == 0
    assert valid.hint == ""


def test_a_bad_jsonpath_is_explained_with_its_position() -> None:
    with pytest.raises(FilterError) as caught:
        _run("jsonpath", "$._embedded.customers[?@.name == ]")
    assert caught.value.position == 33
    assert caught.value.message.startswith("Not a JSONPath at position 34:")


@pytest.mark.parametrize(
    ("expression", "position"),
    [
        ("$._embedded.customers[?@.name =~ /(A/].name", 35),
        ("$._embedded.customers[?@.name =~ /[a/].name", 35),
    ],
)
def test_a_bad_regular_expression_is_explained_with_its_position(
    expression: str, position: int
) -> None:
    # re.error came through python-jsonpath's compile and ended the TUI (QA pass 2).
    with pytest.raises(FilterError) as caught:
        _run("jsonpath", expression)
    assert caught.value.position == position - 1
    assert caught.value.message.startswith(f"Not a regular expression at position {position}:")


#: Pieces of JSONPath, and of the regular expressions it may hold.
PATH_PIECES = st.sampled_from(
    [
        "$",
        ".",
        "..",
        "*",
        "[",
        "]",
        "?",
        "@",
        "name",
        "=~",
        "==",
        "(",
        ")",
        "'",
        '"',
        ",",
        " ",
        "0",
        "-1",
        ":",
        "&&",
        "||",
        "!",
        "match(",
        "search(",
        "length(",
        "count(",
    ]
)
REGEX_TEXT = st.text(alphabet="()[]{}*+?|^$.\\-,0123aA:=!<#", max_size=8)
EXPRESSIONS = st.one_of(
    st.lists(PATH_PIECES, max_size=14).map("".join),
    REGEX_TEXT.map(lambda regex: f"$._embedded.customers[?@.name =~ /{regex}/].name"),
    REGEX_TEXT.map(lambda regex: f"$._embedded.customers[?match(@.name, '{regex}')]"),
    REGEX_TEXT.map(lambda regex: f"$._embedded.customers[?search(@.name, '{regex}')]"),
    # Numbers and repeats too large for Python's float, int or re (QA pass 2).
    st.sampled_from(["1e999", "-1e999", "1e400", "99999999999999999999", "1.5e308"]).map(
        lambda number: f"$._embedded.customers[?@.count > {number}]"
    ),
    st.integers(0, 10**15).map(lambda n: f"$._embedded.customers[?@.name =~ /A{{{n}}}/]"),
    st.integers(0, 10**15).map(lambda n: f"$._embedded.customers[?match(@.name, 'A{{{n}}}')]"),
)


@settings(max_examples=300, deadline=None)
@given(EXPRESSIONS)
def test_any_expression_gives_values_or_a_filter_error(expression: str) -> None:
    with contextlib.suppress(FilterError):
        _run("jsonpath", expression)


@pytest.mark.parametrize(
    "expression",
    [
        "$._embedded.customers[?@.count > 1e999]",
        "$._embedded.customers[?@.name =~ /a{99999999999}/]",
        "$._embedded.customers[?match(@.name, 'a{99999999999}')]",
    ],
)
def test_numbers_too_large_are_explained_not_raised(expression: str) -> None:
    # OverflowError came through python-jsonpath and ended the TUI (QA pass 2).
    with pytest.raises(FilterError, match="too large"):
        _run("jsonpath", expression)


def test_an_empty_expression_says_what_to_type() -> None:
    with pytest.raises(FilterError, match="Type an expression"):
        _run("jsonpath", "  ")


def test_a_body_that_is_not_json_cannot_be_filtered() -> None:
    with pytest.raises(FilterError, match="not JSON"):
        run_filter("jsonpath", "$", document=lambda: parse_document(b"<html>"), body=b"<html>")


def test_jq_prints_each_value_as_jq_does() -> None:
    result = _run("jq", '._embedded.customers[] | select(.name | test("^A")) | .name')
    assert result.text == b'"Ann"\n"Alma"\n'
    assert result.count == 2


def test_a_bad_jq_program_is_explained_with_its_column() -> None:
    # QA: the bar read "Not a jq program: syntax error, unexpected end of file at
    # <top-level>, line 1, column 2:", jq's first line, its place on the lines cut off.
    with pytest.raises(FilterError) as caught:
        _run("jq", ".count | ")
    message = caught.value.message
    assert message.startswith("Not a jq program at position 9: syntax error")
    assert "\n" not in message
    assert "column" not in message
    assert "<top-level>" not in message
    assert not message.endswith(":")
    assert caught.value.position == 8


def test_every_error_of_a_jq_program_is_said_on_one_line() -> None:
    with pytest.raises(FilterError) as caught:
        _run("jq", "if . then 1")
    message = caught.value.message
    assert message.startswith("Not a jq program at position 11: syntax error")
    assert message.endswith("; Possibly unterminated 'if' statement")
    assert "compile error" not in message


def test_a_jq_error_past_the_first_line_says_which_line() -> None:
    with pytest.raises(FilterError) as caught:
        _run("jq", ".count\n| .x |")
    assert caught.value.message.startswith("Not a jq program at line 2, column 6: syntax error")
    assert caught.value.position is None


def test_a_jq_error_while_running_is_explained() -> None:
    with pytest.raises(FilterError, match="jq: Cannot index number"):
        _run("jq", ".count.x")
    with pytest.raises(FilterError) as caught:
        _run("jq", 'error("first line\\nsecond line")')
    assert caught.value.message == "jq: first line second line"


def test_without_the_jq_package_the_filter_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_import = builtins.__import__

    def no_jq(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "jq":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jq)
    assert not body_filter.jq_available()
    with pytest.raises(FilterError, match=r"pip install 'restwalk\[jq\]'"):
        _run("jq", ".count")


def test_a_large_result_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(body_filter, "MAX_RESULT", 100)
    result = _run("jsonpath", "$._embedded.customers[*]")
    assert result.truncated
    assert 0 < result.count < 3
    assert result.summary.startswith(f"the first {result.count} value")


def test_a_cancelled_filter_stops_between_values() -> None:
    seen = []

    def cancelled() -> bool:
        seen.append(1)
        return len(seen) > 1

    result = run_filter(
        "jsonpath",
        "$._embedded.customers[*].name",
        document=lambda: parse_document(BODY),
        body=BODY,
        cancelled=cancelled,
    )
    assert result.count == 1


# -- a large body is filtered in a child process ------------------------------------------


def test_a_large_body_is_filtered_in_a_child_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_process, "ISOLATE_ABOVE", 10)  # BODY is larger: a child
    launched: list[list[str]] = []
    real_popen = subprocess.Popen

    def popen(command: list[str], **kwargs: Any) -> Any:
        launched.append(command)
        return real_popen(command, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", popen)
    result = filter_process.filter_body("jsonpath", "$._embedded.customers[*].name", BODY)
    assert result is not None
    assert orjson.loads(result.text) == ["Ann", "Bob", "Alma"]
    assert result.count == 3
    assert launched[0][1:4] == ["-m", "explorer.core.bodies.filter_process", "jsonpath"]
    with pytest.raises(FilterError) as caught:
        filter_process.filter_body("jsonpath", "$._embedded.customers[?@.name == ]", BODY)
    assert caught.value.position == 33
    hinted = filter_process.filter_body("jsonpath", "$..[?@.name =~ 'A']", BODY)
    assert hinted is not None
    assert "=~ /A.*/" in hinted.hint
    with pytest.raises(FilterError, match="not JSON"):
        filter_process.filter_body("jsonpath", "$", b"<html>" * 10)
    with pytest.raises(FilterError, match=r"^jq: "):  # jq reads the body itself, and says so
        filter_process.filter_body("jq", ".", b"<html>" * 10)


def test_a_cancelled_child_is_killed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_process, "ISOLATE_ABOVE", 10)
    children: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(command: list[str], **kwargs: Any) -> Any:
        child = real_popen(command, **kwargs)
        children.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", popen)
    assert filter_process.filter_body("jq", ".", BODY, cancelled=lambda: True) is None
    assert children[0].poll() is not None  # ended (killed), not left running
