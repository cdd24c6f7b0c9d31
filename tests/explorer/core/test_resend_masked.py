"""A history entry sent again never sends the masks the history kept in place of secrets:
the places are named, the composer asks for their values, and refuses ****."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.http.masking import MASK, mask_exchange, masked_fields
from explorer.core.http.request import BasicAuth, BearerAuth, RequestSpec
from explorer.core.session import Session
from explorer.core.session.reopen import masks_left, page_of, resend_note, spec_of

LOGIN = "http://api.test/auth/token"


def kept(request: SentRequest) -> Exchange:
    """``request``'s exchange as the history keeps it: masked."""
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), b'{"ok": 1}', request.url
    )
    return mask_exchange(Exchange(request, request, response, timings=Timings(0.01, 0.01)))


def login() -> Exchange:
    return kept(
        SentRequest(
            "POST",
            LOGIN,
            (("Content-Type", "application/json"), ("Authorization", "Bearer eyJ.real")),
            b'{"username": "alice", "password": "wonderland"}',
        )
    )


def test_the_masked_fields_of_a_body_are_found() -> None:
    body = b'{"user": {"password": "****", "otp": "****"}, "note": "****", "token": "x"}'
    assert masked_fields(body, "application/json") == ["password", "otp"]
    assert masked_fields(b"username=a&password=****", "application/x-www-form-urlencoded") == [
        "password"
    ]
    assert masked_fields(b'{"password": "wonderland"}', "application/json") == []
    assert masked_fields(b"password=****", "text/plain") == []  # masking leaves it as it is


@given(
    st.dictionaries(
        st.sampled_from(["password", "api_key", "name", "client_secret"]),
        st.text(min_size=1, max_size=8),
    )
)
def test_every_field_masking_masks_is_found_again(fields: dict[str, str]) -> None:
    import orjson

    from explorer.core.http.masking import is_secret_name, mask_body

    masked = mask_body(orjson.dumps(fields), "application/json")
    assert sorted(masked_fields(masked, "application/json")) == sorted(
        name for name in fields if is_secret_name(name)
    )


def test_a_kept_login_names_each_mask_left_and_drops_the_credential() -> None:
    page = page_of(login())
    spec = page.spec
    assert all(name.lower() != "authorization" for name, _ in spec.headers)  # the session's goes
    assert masks_left(spec) == ('body field "password"',)
    note = resend_note(login().request)
    assert "Authorization" in note
    assert "the session's credential" in note
    assert 'body field "password"' in note


def test_masks_in_the_url_the_query_and_the_credential_are_found() -> None:
    spec = RequestSpec(
        url=f"http://alice:{MASK}@api.test/items?api_key={MASK}&q=x",
        query=(("access_token", MASK), ("page", "2")),
        headers=(("Cookie", f"sid={MASK}; theme=dark"), ("X-Api-Key", "k")),
        auth=BearerAuth(MASK),
    )
    assert masks_left(spec) == (
        "the password in the URL",
        'query parameter "api_key"',
        'query parameter "access_token"',
        'cookie "sid"',
        "the Bearer token",
    )
    assert masks_left(RequestSpec(url="http://api.test/", auth=BasicAuth("a", MASK))) == (
        "the Basic password",
    )
    assert masks_left(RequestSpec(url="http://api.test/?q=****")) == ()  # not a secret's name


def test_r_on_a_kept_get_with_a_masked_key_opens_the_composer_and_names_it() -> None:
    session = Session()
    exchange = kept(SentRequest("GET", "http://api.test/items?api_key=k-123", ()))
    session.arrived(page_of(exchange))
    step = session.reload()
    assert step is not None
    assert step.kind == "compose"  # never sent as it is, though GET is safe
    assert 'query parameter "api_key"' in step.note
    assert "****" in step.note


def test_r_on_a_kept_login_asks_for_the_password() -> None:
    session = Session()
    session.arrived(page_of(login()))
    step = session.reload()
    assert step is not None
    assert step.kind == "compose"
    assert 'body field "password"' in step.note
    assert "Send this POST again?" in step.note


def test_a_kept_request_without_secrets_is_sent_again_as_before() -> None:
    session = Session()
    session.arrived(page_of(kept(SentRequest("GET", "http://api.test/items", ()))))
    step = session.reload()
    assert step is not None
    assert step.kind == "send"
    assert spec_of(SentRequest("GET", "http://api.test/items", ())).url == step.spec.url


def test_the_login_request_itself_goes_without_the_token_it_gets() -> None:
    from explorer.core.http.request import LoginFlow

    session = Session()
    flow = LoginFlow(LOGIN, "alice", "wonderland")
    session.set_credential(LOGIN, flow)
    assert session.prepare(RequestSpec("POST", LOGIN)).auth is None
    assert session.prepare(RequestSpec("GET", "http://api.test/orders")).auth == flow
