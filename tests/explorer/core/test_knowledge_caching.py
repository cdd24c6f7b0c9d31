"""explain_caching (RFC 9111 on one response), the constraints, and the value parsers."""

from __future__ import annotations

from datetime import UTC, datetime

from explorer.core.knowledge import explain_caching, explain_hypermedia, explain_response
from explorer.core.knowledge import field_values as fv

DATE = "Sun, 22 Nov 2026 03:00:00 GMT"


def test_max_age_gives_the_lifetime_and_the_reason() -> None:
    verdict = explain_caching(
        200, [("Cache-Control", "max-age=60"), ("Date", DATE), ("ETag", '"a1"')]
    )
    assert verdict.storable
    assert verdict.shared
    assert verdict.freshness_lifetime == 60
    assert verdict.lifetime_source == "max-age"
    assert verdict.summary == "Cacheable for 60 s (1 min) because Cache-Control: max-age=60."
    assert verdict.validators == ("ETag",)
    assert 'If-None-Match: "a1"' in verdict.conditional
    assert "304" in verdict.conditional


def test_no_store_forbids_every_cache() -> None:
    verdict = explain_caching(200, [("Cache-Control", "no-store, max-age=60")])
    assert not verdict.storable
    assert not verdict.shared
    assert verdict.freshness_lifetime is None
    assert "no-store" in verdict.summary
    assert verdict.summary.startswith("Not cacheable")


def test_private_keeps_it_out_of_shared_caches() -> None:
    verdict = explain_caching(200, [("Cache-Control", "private, max-age=30")])
    assert verdict.storable
    assert not verdict.shared
    assert verdict.summary.startswith("Cacheable by your own client only for 30 s")
    assert any("private" in reason for reason in verdict.reasons)


def test_s_maxage_is_for_shared_caches() -> None:
    verdict = explain_caching(200, [("Cache-Control", "max-age=10, s-maxage=600")])
    assert verdict.freshness_lifetime == 10
    assert any("s-maxage=600" in reason for reason in verdict.reasons)
    only_shared = explain_caching(201, [("Cache-Control", "s-maxage=600")])
    assert only_shared.storable
    assert only_shared.freshness_lifetime == 600
    assert only_shared.lifetime_source == "s-maxage"
    assert only_shared.summary == (
        "Cacheable by shared caches for 600 s (10 min) because Cache-Control: s-maxage=600."
    )


def test_no_cache_stores_but_revalidates_every_time() -> None:
    verdict = explain_caching(200, [("Cache-Control", "no-cache"), ("ETag", '"x"')])
    assert verdict.storable
    assert verdict.revalidate_each_time
    assert "every reuse must be revalidated" in verdict.summary
    fields = explain_caching(200, [("Cache-Control", 'no-cache="Set-Cookie", max-age=5')])
    assert not fields.revalidate_each_time
    assert any('no-cache="Set-Cookie"' in reason for reason in fields.reasons)


def test_max_age_zero_and_invalid_max_age_are_stale_at_once() -> None:
    zero = explain_caching(200, [("Cache-Control", "max-age=0")])
    assert zero.freshness_lifetime == 0
    assert zero.revalidate_each_time
    assert "stale at once" in zero.summary
    bad = explain_caching(200, [("Cache-Control", "max-age=soon")])
    assert bad.freshness_lifetime == 0


def test_expires_counts_from_date_and_yields_to_max_age() -> None:
    expires = explain_caching(200, [("Date", DATE), ("Expires", "Sun, 22 Nov 2026 04:00:00 GMT")])
    assert expires.freshness_lifetime == 3600
    assert expires.lifetime_source == "Expires"
    assert "Expires is 3600 s (1 h) after Date" in expires.summary
    both = explain_caching(
        200,
        [
            ("Cache-Control", "max-age=60"),
            ("Date", DATE),
            ("Expires", "Sun, 22 Nov 2026 04:00:00 GMT"),
        ],
    )
    assert both.freshness_lifetime == 60
    assert any("Expires is ignored" in reason for reason in both.reasons)


def test_invalid_expires_means_already_expired() -> None:
    verdict = explain_caching(200, [("Expires", "0")])
    assert verdict.freshness_lifetime == 0
    assert any("already expired" in reason for reason in verdict.reasons)


def test_expires_without_date_uses_now_when_given() -> None:
    headers = [("Expires", "Sun, 22 Nov 2026 03:10:00 GMT")]
    assert explain_caching(200, headers).freshness_lifetime is None
    now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    assert explain_caching(200, headers, now=now).freshness_lifetime == 600


def test_heuristic_freshness_from_last_modified() -> None:
    headers = [("Date", DATE), ("Last-Modified", "Thu, 12 Nov 2026 03:00:00 GMT")]
    verdict = explain_caching(200, headers)
    assert verdict.freshness_lifetime == 86400
    assert verdict.lifetime_source == "heuristic"
    assert any("10%" in reason for reason in verdict.reasons)
    assert "If-Modified-Since" in verdict.conditional
    no_basis = explain_caching(404, [])
    assert no_basis.storable
    assert no_basis.freshness_lifetime is None


def test_codes_not_heuristically_cacheable_need_explicit_freshness() -> None:
    verdict = explain_caching(201, [("Last-Modified", DATE), ("Date", DATE)])
    assert not verdict.storable
    assert "a 201 is stored only with explicit freshness" in verdict.summary
    assert explain_caching(201, [("Cache-Control", "max-age=5")]).storable
    assert explain_caching(302, [("Cache-Control", "public")]).storable


def test_codes_caches_must_not_store() -> None:
    verdict = explain_caching(429, [("Cache-Control", "max-age=60")])
    assert not verdict.storable
    assert "RFC 6585 §4" in verdict.summary
    assert not explain_caching(100, []).storable


def test_unknown_code_needs_explicit_freshness() -> None:
    verdict = explain_caching(299, [])
    assert not verdict.storable
    assert any("not a code caches know" in reason for reason in verdict.reasons)


def test_methods_other_than_get_and_head() -> None:
    post = explain_caching(200, [("Cache-Control", "max-age=60")], method="post")
    assert not post.storable
    assert "POST" in post.summary
    delete = explain_caching(204, [], method="DELETE")
    assert not delete.storable
    assert "RFC 9111 §4.4" in delete.summary
    assert explain_caching(200, [("Cache-Control", "max-age=1")], method="HEAD").storable


def test_authorization_on_the_request_stops_shared_caches() -> None:
    auth = [("Authorization", "Bearer abc")]
    refused = explain_caching(200, [("Cache-Control", "max-age=60")], request_headers=auth)
    assert refused.storable
    assert not refused.shared
    assert any("carried Authorization" in reason for reason in refused.reasons)
    allowed = explain_caching(200, [("Cache-Control", "max-age=60, public")], request_headers=auth)
    assert allowed.shared
    assert any("public lets a shared cache" in reason for reason in allowed.reasons)


def test_pragma_vary_set_cookie_and_age() -> None:
    pragma = explain_caching(200, [("Pragma", "no-cache")])
    assert any("Pragma" in reason and "RFC 9111" in reason for reason in pragma.reasons)
    vary = explain_caching(
        200, [("Cache-Control", "max-age=60"), ("Vary", "Accept, Custom-Header")]
    )
    assert vary.vary == ("Accept", "Custom-Header")
    assert any("one copy per value" in reason for reason in vary.reasons)
    star = explain_caching(200, [("Cache-Control", "max-age=60"), ("Vary", "*")])
    assert any("never be reused" in reason for reason in star.reasons)
    cookie = explain_caching(200, [("Cache-Control", "max-age=60"), ("Set-Cookie", "s=1")])
    assert any("could hand this cookie" in reason for reason in cookie.reasons)
    aged = explain_caching(200, [("Cache-Control", "max-age=60"), ("Age", "24")])
    assert aged.age == 24
    assert aged.remaining == 36


def test_directives_that_only_add_notes() -> None:
    verdict = explain_caching(
        200,
        [("Cache-Control", "max-age=60, must-revalidate, immutable, stale-while-revalidate=30")],
    )
    text = "\n".join(verdict.reasons)
    assert "must-revalidate" in text
    assert "immutable" in text
    assert "stale-while-revalidate" in text


def test_304_refreshes_the_stored_copy() -> None:
    verdict = explain_caching(304, [("Cache-Control", "max-age=60"), ("ETag", '"a"')])
    assert verdict.summary.startswith("Reuse your stored copy.")
    assert any("304 is not stored itself" in reason for reason in verdict.reasons)


def test_no_validator() -> None:
    assert "No validator" in explain_caching(200, []).conditional


def test_hypermedia() -> None:
    assert "no links" in explain_hypermedia(0, [])
    assert "out of band" in explain_hypermedia(0, [])
    assert "nowhere to go" in explain_hypermedia(1, ["self"])
    text = explain_hypermedia(6, ["self", "next", "last", "customer", "place", "curies"])
    assert text.startswith("Hypermedia: 6 links")
    assert "paging (next, last)" in text
    assert "actions and relations (customer, place)" in text
    assert "documentation (curies)" in text


def test_explain_response_gives_one_fact_per_constraint() -> None:
    facts = explain_response(
        200,
        [
            ("Cache-Control", "max-age=60"),
            ("Content-Type", "application/hal+json"),
            ("Via", "1.1 cache"),
            ("API-Version", "2"),
        ],
        ["self", "next"],
        request_headers=[("Authorization", "Bearer t")],
    )
    assert facts[0].startswith("Stateless: the request carried its own credentials")
    assert facts[1].startswith("Cacheable by your own client only for 60 s")
    assert "standard method (GET)" in facts[2]
    assert "200 OK" in facts[2]
    assert "application/hal+json" in facts[2]
    assert "Via: 1.1 cache" in facts[3]
    assert facts[4].startswith("Hypermedia: 2 links")
    assert "schema version 2" in facts[5]


def test_explain_response_without_links_or_cache_headers() -> None:
    facts = explain_response(
        201, [("Set-Cookie", "session=1"), ("Content-Type", "text/javascript")], [], method="BREW"
    )
    assert facts[0].startswith("Stateless, bent")
    assert facts[1].startswith("Not cacheable")
    assert "non-standard method (BREW)" in facts[2]
    assert "nothing shows a proxy" in facts[3]
    assert "no links" in facts[4]
    assert facts[5].startswith("Code on demand")


def test_split_list_keeps_quoted_commas() -> None:
    assert fv.split_list('a, "b, c", <d,e>; x="1,2" ,, f') == ["a", '"b, c"', '<d,e>; x="1,2"', "f"]


def test_parse_challenges_rfc_9110_example() -> None:
    value = 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'
    first, second = fv.parse_challenges([value])
    assert first.scheme == "Newauth"
    assert first.param("TYPE") == "1"
    assert first.param("title") == 'Login to "apps"'
    assert second.scheme == "Basic"
    assert second.param("realm") == "simple"
    (token,) = fv.parse_challenges(["Negotiate YIIB=="])
    assert token.token68 == "YIIB=="
    assert token.params == ()
    assert fv.parse_challenges(["", ", ,"]) == []


def test_parse_challenges_keeps_an_unclosed_quoted_string_as_sent() -> None:
    (first,) = fv.parse_challenges(['Bearer realm="a, b", error="open, still'])
    assert first.param("realm") == "a, b"
    assert first.param("error") == '"open, still'
    assert first.unclosed == ("error",)
    (second,) = fv.parse_challenges(['Basic realm="x\\"'])  # the quote escaped: open
    assert second.unclosed == ("realm",)
    assert fv.parse_challenges(['Basic realm="x\\\\"'])[0].unclosed == ()


def test_parse_links() -> None:
    links = fv.parse_links(['</a,b>; rel="next prev"; title="x;y", <http://h/c>;rel=up', "junk"])
    assert [link.target for link in links] == ["/a,b", "http://h/c"]
    assert links[0].rels == ("next", "prev")
    assert links[0].param("title") == "x;y"


def test_parse_dates_and_ranges() -> None:
    expected = datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)
    for form in (
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ):
        assert fv.parse_http_date(form) == expected, form
    assert fv.parse_http_date("0") is None
    assert fv.parse_http_date("") is None
    assert fv.parse_http_date("Wed, 31 Feb 2026 00:00:00 GMT") is None
    now = datetime(2026, 11, 22, tzinfo=UTC)
    future = fv.parse_http_date("Friday, 01-Jan-76 00:00:00 GMT", now=now)
    assert future is not None
    assert future.year == 2076
    past = fv.parse_http_date("Friday, 01-Jan-77 00:00:00 GMT", now=now)
    assert past is not None
    assert past.year == 1977
    assert fv.parse_delta_seconds(" 120 ") == 120
    assert fv.parse_delta_seconds("-1") is None
    full = fv.parse_content_range("bytes 0-99/1000")
    assert full is not None
    assert (full.first, full.last, full.complete_length) == (0, 99, 1000)
    star = fv.parse_content_range("bytes */1000")
    assert star is not None
    assert star.first is None
    assert star.complete_length == 1000
    assert fv.parse_content_range("bytes nonsense") is None
    assert fv.format_duration(3725) == "3725 s (1 h 2 min 5 s)"
    assert fv.format_duration(42) == "42 s"


def test_parse_directives_first_wins() -> None:
    directives = fv.parse_directives(["max-age=60, No-Cache", 'max-age=5, private="x"'])
    assert directives == {"max-age": "60", "no-cache": None, "private": "x"}
