"""RFC 6570 URI templates: variables, expansion at every level, malformed templates."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.hypermedia.templates import (
    TemplateError,
    Value,
    expand_template,
    is_valid_template,
    template_variables,
)

#: The variables of RFC 6570 section 3.2.
VALUES: dict[str, Value] = {
    "count": ["one", "two", "three"],
    "dom": ["example", "com"],
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "keys": {"semi": ";", "dot": ".", "comma": ","},
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
    "empty_keys": {},
    "undef": None,
}

#: (template, expansion) pairs from RFC 6570 sections 1.2 and 3.2; mappings keep their order.
CASES = [
    # Level 1
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    # Level 2
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),
    ("X{#hello}", "X#Hello%20World!"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    # Level 3
    ("map?{x,y}", "map?1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{/var}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    # Level 4
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("X{.var:3}", "X.val"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("{/var:1,var}", "/v/value"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("{&var:3}", "&var=val"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
    # Empty lists and mappings are undefined: no operator prefix either.
    ("X{.empty_keys*}", "X"),
    ("X{#empty_keys}", "X"),
    ("/x{?undef,empty_keys}", "/x"),
    ("{count}", "one,two,three"),
    ("{dom*}", "example,com"),
    ("{.dom*}", ".example.com"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
]


@pytest.mark.parametrize(("template", "expected"), CASES)
def test_rfc6570_examples(template: str, expected: str) -> None:
    assert expand_template(template, VALUES) == expected


def test_missing_values_and_literals() -> None:
    assert expand_template("/customers{?name,city,limit,offset}", {"city": "Paris"}) == (
        "/customers?city=Paris"
    )
    assert expand_template("/customers{?name,city}", {}) == "/customers"
    assert expand_template("/repos/o/r/branches{/branch}", {"branch": "main"}) == (
        "/repos/o/r/branches/main"
    )
    assert expand_template("no expressions", {"x": "1"}) == "no expressions"


def test_template_variables_in_order_once() -> None:
    assert template_variables("/r{/owner,repo}{?a,b*}{&a}{#frag:3}") == [
        "owner",
        "repo",
        "a",
        "b",
        "frag",
    ]
    assert template_variables("/plain") == []
    assert template_variables("{%20x.y_z}") == ["%20x.y_z"]


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{x", "never closed"),
        ("/a{b{c}}", "never closed"),
        ("x}", "without '{'"),
        ("{}", "empty expression"),
        ("{=x}", "reserved for future use"),
        ("{|x}", "reserved for future use"),
        ("{x:0}", "1 to 9999"),
        ("{x:10000}", "1 to 9999"),
        ("{x:a}", "1 to 9999"),
        ("{a b}", "not a valid variable name"),
        ("{x,}", "not a valid variable name"),
        ("{x.}", "not a valid variable name"),
        ("{?x*:3}", "not a valid variable name"),
    ],
)
def test_malformed_templates_raise_clear_errors(template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        expand_template(template, {"x": "1"})
    with pytest.raises(TemplateError):
        template_variables(template)
    assert not is_valid_template(template)


def test_prefix_on_a_list_is_an_error() -> None:
    with pytest.raises(TemplateError, match="cannot apply"):
        expand_template("{list:3}", {"list": ["a", "b"]})


def test_template_error_is_a_value_error() -> None:
    assert issubclass(TemplateError, ValueError)
    assert is_valid_template("/customers{?name,city}")


@pytest.mark.parametrize(
    ("template", "value", "expected"),
    [
        ("{+x}", "a b%20c", "a%20b%20c"),
        ("{#x}", "50%", "#50%25"),
        ("{+x}", "%zz/é", "%25zz/%C3%A9"),
        ("{+x}", "%4", "%254"),
        ("{+x:3}", "a%20b", "a%20b"),
        ("{+x:2}", "ééé", "%C3%A9%C3%A9"),
        ("{+x}", ["a b", "%41"], "a%20b,%41"),
        ("{#x*}", {"a b": "%41 "}, "#a%20b=%41%20"),
        ("{x}", "%41", "%2541"),
    ],
)
def test_reserved_expansion_keeps_triplets_and_encodes_the_rest(
    template: str, value: Value, expected: str
) -> None:
    assert expand_template(template, {"x": value}) == expected


def test_unencodable_value_is_a_template_error() -> None:
    with pytest.raises(TemplateError, match="UTF-8"):
        expand_template("{x}", {"x": "\ud800"})


PIECES = st.sampled_from(["{", "}", "+", "#", ".", "/", ";", "?", "&", ",", "*", ":3", "x", "y"])


@settings(max_examples=200, deadline=None)
@given(
    template=st.lists(PIECES | st.text(max_size=3), max_size=12).map("".join),
    x=st.none() | st.text(max_size=5) | st.lists(st.text(max_size=3), max_size=3),
)
def test_any_template_expands_or_raises_template_error(template: str, x: Value) -> None:
    try:
        expanded = expand_template(template, {"x": x, "y": {"k": "v"}})
    except TemplateError:
        assert not is_valid_template(template) or x is not None
    else:
        assert isinstance(expanded, str)
        assert is_valid_template(template)
