"""The knowledge base's data: every code, header and method of the spec, and the lookups."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from explorer.core import knowledge
from explorer.core.knowledge import (
    Cacheability,
    Kind,
    Usage,
    all_constraints,
    all_headers,
    all_methods,
    all_protocols,
    all_statuses,
    canonical_name,
    explain,
    header_info,
    header_names,
    is_method_token,
    method_info,
    search,
    status_class,
    status_info,
    statuses_in_class,
)

# The status table of the spec (/work/shared/spec/rest-http-spec.md), copied here so
# the tests do not depend on the shared folder.
SPEC_CODES = (
    *(100, 101, 102),
    *(200, 201, 202, 203, 204, 205, 206, 207, 208, 226),
    *range(300, 309),
    *range(400, 419),
    *(421, 422, 423, 424, 426, 428, 429, 431, 451),
    *range(500, 509),
    *(510, 511),
)

SPEC_HEADERS = (
    # common
    "Content-Type", "Content-Length", "Content-Encoding", "Date", "Pragma", "Connection",
    "Host",
    # request-only
    "Accept", "Authorization", "From", "If-Modified-Since", "Referer", "User-Agent",
    # response-only
    "Allow", "Expires", "Last-Modified", "Location", "Server", "WWW-Authenticate",
    "Retry-After", "Upgrade",
    # named in status rules, and the versioning header
    "Range", "Expect", "Custom-Header",
)  # fmt: skip

OTHER_HEADERS = (
    "ETag", "If-None-Match", "If-Match", "If-Unmodified-Since", "If-Range", "Cache-Control",
    "Vary", "Link", "Content-Location", "Set-Cookie", "Cookie", "RateLimit-Limit",
    "RateLimit-Remaining", "RateLimit-Reset", "API-Version", "Accept-Post", "Accept-Patch",
    "Proxy-Authenticate", "Proxy-Authorization", "Accept-Encoding", "Accept-Language",
    "Transfer-Encoding", "Age", "Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
    "Access-Control-Allow-Headers", "Access-Control-Allow-Credentials",
    "Access-Control-Expose-Headers", "Access-Control-Max-Age",
    "Access-Control-Request-Method", "Access-Control-Request-Headers",
    "Strict-Transport-Security", "Content-Disposition", "Deprecation", "Sunset",
    "X-Request-ID", "Forwarded", "Via", "Keep-Alive", "TE", "Trailer", "Max-Forwards",
    "Origin", "DNT", "Content-Range", "Accept-Ranges", "Content-Language",
)  # fmt: skip

SPEC_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")

# RFC 9110 §15.1: the codes cacheable by default (plus 451, by RFC 7725).
HEURISTIC = {200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 451, 501}


def test_every_spec_code_is_described() -> None:
    for code in SPEC_CODES:
        info = status_info(code)
        assert info is not None, code
        assert info.code == code
        assert all((info.phrase, info.rule, info.meaning, info.reference)), code
        assert info.next_steps, code
        assert all(step.strip() for step in info.next_steps), code
        assert info.in_spec, code


def test_codes_outside_the_spec_are_marked() -> None:
    extra = {info.code for info in all_statuses()} - set(SPEC_CODES)
    assert {103, 425, 499} <= extra
    for code in extra:
        info = status_info(code)
        assert info is not None
        assert not info.in_spec


def test_registered_phrases_and_the_spec_s_names() -> None:
    assert status_info(418).phrase == "I'm a teapot"  # type: ignore[union-attr]
    assert status_info(413).phrase == "Content Too Large"  # type: ignore[union-attr]
    assert "Payload Too Large" in status_info(413).other_names  # type: ignore[union-attr]
    assert "Switching Protocol" in status_info(101).other_names  # type: ignore[union-attr]
    assert status_info(208).phrase == "Already Reported"  # type: ignore[union-attr]


def test_418_is_reserved_as_rfc_9110_says_not_unusable_for_ever() -> None:
    """QA: the rule said "never to be reassigned"; RFC 9110 §15.5.19 reserves it "currently":
    "it can be re-assigned to another use" should the 4NN codes run out."""
    rule = status_info(418).rule  # type: ignore[union-attr]
    assert "never" not in rule
    assert "reserves the code" in rule
    assert "could be reassigned if the 4xx codes ever ran out" in rule


def test_412_says_a_weak_if_match_never_matches() -> None:
    """QA: a 412 for `If-Match: W/"..."` was read as "it changed since you read it"; a weak
    tag never passes If-Match, which uses the strong comparison (RFC 9110 §13.1.1)."""
    steps = " ".join(status_info(412).next_steps)  # type: ignore[union-attr]
    assert "never matches: `If-Match` uses the strong comparison (RFC 9110 §13.1.1)" in steps
    assert "Send the strong `ETag` as the server gave it" in steps


def test_heuristically_cacheable_codes_follow_rfc_9110() -> None:
    cacheable = {info.code for info in all_statuses() if info.cacheable}
    assert cacheable == HEURISTIC
    for code in (428, 429, 431, 511):
        assert status_info(code).cacheability is Cacheability.NEVER  # type: ignore[union-attr]
    assert status_info(304).cacheability is Cacheability.UPDATES  # type: ignore[union-attr]


def test_status_classes_cover_unknown_codes() -> None:
    assert status_class(460).label == "4xx Client Error"  # type: ignore[union-attr]
    assert status_class(299).digit == 2  # type: ignore[union-attr]
    assert status_class(99) is None
    assert status_class(600) is None
    assert [info.code for info in statuses_in_class(1)] == [100, 101, 102, 103]
    assert all(status_info(code) is None for code in (419, 460, 599))


def test_related_headers_are_known() -> None:
    for info in all_statuses():
        for name in info.headers:
            assert header_info(name) is not None, (info.code, name)
    for header in all_headers():
        for code in header.statuses:
            assert status_info(code) is not None, (header.name, code)


@pytest.mark.parametrize("name", SPEC_HEADERS)
def test_every_spec_header_is_described(name: str) -> None:
    info = header_info(name)
    assert info is not None, name
    assert info.name == name
    assert info.in_spec
    assert info.rule
    assert info.meaning
    assert info.example
    assert info.reference
    assert info.example.lower().startswith(name.lower() + ":")


def test_other_headers_are_described() -> None:
    for name in OTHER_HEADERS:
        info = header_info(name)
        assert info is not None, name
        assert info.name == name
        assert all((info.rule, info.meaning, info.reference)), name
        assert info.example.startswith(name + ":"), name


def test_request_headers_carry_a_hint() -> None:
    for info in all_headers():
        if info.usage is Usage.REQUEST:
            assert info.hint, info.name


def test_header_lookup_ignores_case_and_a_trailing_colon() -> None:
    assert header_info("etag") is header_info("ETAG") is header_info(" ETag: ")
    assert header_info("www-authenticate").name == "WWW-Authenticate"  # type: ignore[union-attr]
    assert header_info("X-Nonsense") is None
    assert canonical_name("content-md5") == "Content-Md5"
    assert canonical_name("x-request-id") == "X-Request-ID"


def test_header_names_for_completion() -> None:
    names = header_names()
    assert len(names) == len(set(names)) == len(all_headers())
    request = header_names(Usage.REQUEST)
    assert "Authorization" in request
    assert "Content-Type" in request
    assert "WWW-Authenticate" not in request
    assert "ETag" not in request
    response = header_names(Usage.RESPONSE)
    assert "ETag" in response
    assert "Authorization" not in response


def test_x_prefix_headers_mention_rfc_6648() -> None:
    explanation = explain("x-request-id")
    assert explanation is not None
    assert "RFC 6648" in explanation.to_text()


def test_every_method_is_described() -> None:
    assert tuple(info.name for info in all_methods()) == SPEC_METHODS
    for name in SPEC_METHODS:
        info = method_info(name.lower())
        assert info is not None
        assert info.name == name
        assert info.rule
        assert info.meaning
        assert info.next_steps
        assert info.reference
        assert info.request_body
        assert info.response_body
    safe = {info.name for info in all_methods() if info.safe}
    idempotent = {info.name for info in all_methods() if info.idempotent}
    cacheable = {info.name for info in all_methods() if info.cacheable}
    assert safe == {"GET", "HEAD", "OPTIONS", "TRACE"}
    assert idempotent == safe | {"PUT", "DELETE"}
    assert cacheable == {"GET", "HEAD"}
    assert method_info("BREW") is None


def test_method_tokens() -> None:
    assert is_method_token("BREW")
    assert is_method_token("M-SEARCH")
    assert not is_method_token("")
    assert not is_method_token("GET /")
    assert not is_method_token("Ä")


def test_constraints() -> None:
    keys = [info.key for info in all_constraints()]
    assert keys == [
        "client-server",
        "stateless",
        "cacheable",
        "uniform-interface",
        "layered-system",
        "hateoas",
        "code-on-demand",
    ]
    assert [info.key for info in all_constraints() if info.optional] == ["code-on-demand"]
    for info in all_constraints():
        assert info.rule
        assert info.meaning
        assert info.in_http
        assert info.how_to_see


@pytest.mark.parametrize(
    ("topic", "kind", "title"),
    [
        ("418", Kind.STATUS, "418 I'm a teapot"),
        ("HTTP 404", Kind.STATUS, "404 Not Found"),
        ("not found", Kind.STATUS, "404 Not Found"),
        ("payload too large", Kind.STATUS, "413 Content Too Large"),
        ("4xx", Kind.STATUS_CLASS, "4xx Client Error"),
        ("retry-after", Kind.HEADER, "Retry-After"),
        ("Retry-After:", Kind.HEADER, "Retry-After"),
        ("patch", Kind.METHOD, "PATCH"),
        ("HATEOAS", Kind.CONSTRAINT, "REST constraint: Hypermedia (HATEOAS)"),
        ("stateless", Kind.CONSTRAINT, "REST constraint: Stateless"),
        ("HTTP/2.0", Kind.PROTOCOL, "HTTP/2"),
        ("h2", Kind.PROTOCOL, "HTTP/2"),
        ("http/1.1", Kind.PROTOCOL, "HTTP/1.1"),
        ("versioning", Kind.VERSIONING, "API versioning"),
        ("Header versioning", Kind.VERSIONING, "Header versioning"),
        ("query", Kind.VERSIONING, "Query string versioning"),
        ("no versioning", Kind.VERSIONING, "No versioning"),
    ],
)
def test_explain_finds_each_kind(topic: str, kind: Kind, title: str) -> None:
    explanation = explain(topic)
    assert explanation is not None
    assert explanation.kind is kind
    assert explanation.title == title


def test_protocol_versions_of_the_spec() -> None:
    names = [info.name for info in all_protocols()]
    assert names == ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3"]
    http2 = explain("HTTP/2")
    assert http2 is not None
    text = http2.to_text()
    assert "Multiplexed" in text
    assert "ALPN" in text


def test_the_spec_s_four_versioning_approaches() -> None:
    keys = [info.key for info in knowledge.all_versioning()]
    assert keys == ["none", "uri", "query", "header"]
    header = knowledge.versioning_info("header")
    assert header is not None
    assert header.example == "Custom-Header: api-version=2"
    assert header.default == "version 1"
    assert knowledge.versioning_info("none") is None
    overview = explain("API versioning")
    assert overview is not None
    assert "v<number>" in overview.to_text()


def test_explain_an_unknown_code_gives_its_class() -> None:
    explanation = explain("460")
    assert explanation is not None
    assert explanation.kind is Kind.STATUS
    text = explanation.to_text()
    assert "4xx Client Error" in text
    assert "400 Bad Request" in text
    assert explain("999") is None
    assert explain("") is None
    assert explain("flux") is None


def test_to_text_is_plain_wrapped_text() -> None:
    explanation = explain("401")
    assert explanation is not None
    text = explanation.to_text()
    assert text.startswith("401 Unauthorized\n================\n")
    assert "What to do next\n  - " in text
    assert "WWW-Authenticate" in text
    assert "RFC 9110 §15.5.2" in text
    assert all(len(line) <= 78 for line in text.splitlines())
    assert explanation.section("Rule") is not None
    assert explanation.section("Nope") is None


def test_every_entry_renders() -> None:
    explanations = knowledge.all_explanations()
    assert len(explanations) == 5 + len(all_statuses()) + 9 + len(all_headers()) + 7 + 4 + 5
    for explanation in explanations:
        assert explanation.to_text().strip()
        assert explanation.summary


def test_no_explanation_says_the_spec() -> None:
    """QA: "the spec" meant restwalk's own spec, which a student cannot tell from the RFCs:
    an explanation names the RFC and section, or says the choice is restwalk's mock's."""
    for explanation in knowledge.all_explanations():
        text = explanation.to_text()
        assert not re.search(r"\bthe spec\b|\bspec's\b", text, re.IGNORECASE), text


def test_503_is_cacheable_as_rfc_9111_says_not_never() -> None:
    """The spec's table said a 503 "should not be cached"; RFC 9110 says nothing of it: a 503
    is not heuristically cacheable, so only explicit freshness lets a cache keep one."""
    rule = status_info(503).rule  # type: ignore[union-attr]
    assert "should not be cached" not in rule
    assert "not heuristically cacheable (RFC 9110 §15.1)" in rule
    assert "`Cache-Control: max-age`, `Expires` or `public` (RFC 9111 §3, §4.2)" in rule
    assert "restwalk's mock sends its 503s with `Cache-Control: no-store`" in rule


def test_versioning_is_said_to_be_the_mocks_choice() -> None:
    overview = explain("versioning")
    assert overview is not None
    assert overview.reference == "restwalk's mock (no RFC covers API versioning)"
    assert "No RFC defines API versioning" in overview.to_text()
    custom = header_info("Custom-Header")
    assert custom is not None
    assert custom.rule.startswith("restwalk's mock's own choice of a version header")


def test_search_finds_by_keyword() -> None:
    teapot = search("teapot")
    assert teapot
    assert teapot[0].title == "418 I'm a teapot"
    retry = [entry.title for entry in search("RETRY")]
    assert retry[0] == "Retry-After"
    assert "503 Service Unavailable" in retry
    assert "429 Too Many Requests" in retry
    both = [entry.title for entry in search("lost update")]
    assert "412 Precondition Failed" in both
    assert "If-Match" in both
    assert search("etag")[0].title == "ETag"
    assert search("") == []
    assert search("zzzqqq") == []


def test_the_knowledge_base_imports_no_textual() -> None:
    code = (
        "import sys, explorer.core.knowledge as k; k.search('x'); "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_knowledge_base_imports_each_module_when_a_name_of_it_is_first_used() -> None:
    """A login's challenges need field_values alone (the TUI's first screen does not
    wait for every explanation); and ``explain`` is the function whichever name of
    its module came first, even once its module was imported by its own name."""
    code = (
        "import sys; from explorer.core.knowledge import field_values; "
        "assert 'explorer.core.knowledge.explanations' not in sys.modules; "
        "from explorer.core.knowledge import Explanation, explain; "
        "assert callable(explain) and explain('PATCH') is not None; "
        "import explorer.core.knowledge as k; assert k.explain is explain; "
        "from explorer.core.knowledge import field_values as again; "
        "assert again is field_values; "
        "missing = getattr(k, 'no_such_name', None); assert missing is None; "
        "import explorer.core.knowledge.explanations; "
        "from explorer.core.knowledge import explain as still; assert callable(still)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert set(knowledge.__all__) == set(knowledge._MODULES)


# Teaching text (issue 10, item 14).
def test_418_and_429_are_not_told_they_fail_the_same_way_and_404_is() -> None:
    from explorer.core.knowledge import explain

    for code in ("418", "429", "408"):
        text = explain(code)
        assert text is not None
        assert "fail the same way" not in " ".join(text.to_text().split())
    text = explain("404")
    assert text is not None
    assert "fail the same way" in " ".join(text.to_text().split())
