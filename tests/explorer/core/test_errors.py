"""Every httpx failure becomes one of our errors, with words a person can act on."""

from __future__ import annotations

import socket
import ssl

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.http import errors
from explorer.core.http.errors import RestwalkError
from explorer.core.http.httpx_errors import ConnectionFacts, from_httpx
from explorer.core.text.terminal_text import CONTROL

URL = "http://127.0.0.1:8000/customers"
REQUEST = httpx.Request("GET", URL)


def chained(outer: Exception, *inner: BaseException) -> Exception:
    """``outer`` raised from ``inner[0]``, raised from ``inner[1]``..., like httpx does."""
    current: BaseException = outer
    for cause in inner:
        current.__cause__ = cause
        current = cause
    return outer


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (httpx.ConnectTimeout("timed out", request=REQUEST), errors.ConnectTimeout),
        (httpx.ReadTimeout("timed out", request=REQUEST), errors.ReadTimeout),
        (httpx.WriteTimeout("timed out", request=REQUEST), errors.WriteTimeout),
        (httpx.PoolTimeout("timed out", request=REQUEST), errors.PoolTimeout),
        (httpx.ReadError("reset", request=REQUEST), errors.NetworkError),
        (httpx.WriteError("broken pipe", request=REQUEST), errors.NetworkError),
        (httpx.CloseError("close", request=REQUEST), errors.NetworkError),
        (httpx.RemoteProtocolError("illegal status line", request=REQUEST), errors.ProtocolError),
        (httpx.LocalProtocolError("Illegal header value", request=REQUEST), errors.InvalidRequest),
        (httpx.UnsupportedProtocol("ftp", request=REQUEST), errors.UnsupportedProtocol),
        (httpx.DecodingError("bad gzip", request=REQUEST), errors.DecodingError),
        (httpx.TooManyRedirects("loop", request=REQUEST), errors.TooManyRedirects),
        (httpx.ProxyError("proxy said no", request=REQUEST), errors.NetworkError),
        (httpx.InvalidURL("Invalid port"), errors.InvalidURL),
        (httpx.ConnectError("weird", request=REQUEST), errors.ConnectError),
    ],
)
def test_each_httpx_error_has_our_type(exc: Exception, expected: type[RestwalkError]) -> None:
    ours = from_httpx(exc)
    assert type(ours) is expected
    assert ours.explanation
    assert ours.hint
    assert "\n" not in str(ours)


def test_request_failures_and_bad_input_are_two_families() -> None:
    assert issubclass(errors.ConnectionRefused, errors.RequestError)
    assert issubclass(errors.ReadTimeout, errors.Timeout)
    assert issubclass(errors.DecodingError, errors.ProtocolError)
    assert issubclass(errors.InvalidMethod, errors.InvalidRequest)
    assert not issubclass(errors.InvalidRequest, errors.RequestError)
    assert issubclass(errors.InvalidRequest, RestwalkError)


def test_refused_is_told_from_the_os_error_underneath() -> None:
    exc = chained(
        httpx.ConnectError("All connection attempts failed", request=REQUEST),
        OSError("All connection attempts failed"),
        ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 8000)"),
    )
    ours = from_httpx(exc)
    assert isinstance(ours, errors.ConnectionRefused)
    assert "nothing is listening" in ours.message
    assert "http://127.0.0.1:8000" in ours.message
    assert ours.url == URL


def test_dns_failure_is_told_from_gaierror() -> None:
    exc = chained(
        httpx.ConnectError("[Errno -2] Name or service not known", request=REQUEST),
        socket.gaierror(-2, "Name or service not known"),
    )
    ours = from_httpx(exc)
    assert isinstance(ours, errors.NameNotResolved)
    assert "DNS" in ours.explanation


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("[Errno -3] Temporary failure in name resolution", errors.NameNotResolved),
        ("[Errno 8] nodename nor servname provided, or not known", errors.NameNotResolved),
        ("[Errno 111] Connection refused", errors.ConnectionRefused),
        ("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", errors.TLSError),
    ],
)
def test_the_message_alone_is_enough_when_no_cause_is_kept(
    message: str, expected: type[RestwalkError]
) -> None:
    assert type(from_httpx(httpx.ConnectError(message, request=REQUEST))) is expected


def test_certificate_failures_are_tls_errors() -> None:
    exc = chained(
        httpx.ConnectError("certificate verify failed", request=REQUEST),
        ssl.SSLCertVerificationError(1, "certificate verify failed: self-signed certificate"),
    )
    ours = from_httpx(exc)
    assert isinstance(ours, errors.TLSError)
    assert ours.explanation == "The server's TLS certificate could not be verified."
    assert "self-signed" in ours.hint


def test_tls_to_a_plain_port_says_try_http() -> None:
    exc = httpx.ConnectError("[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)")
    ours = from_httpx(exc, "https://127.0.0.1:8000/")
    assert isinstance(ours, errors.TLSError)
    assert "plain HTTP" in ours.explanation
    assert "http://" in ours.hint


def test_a_server_closing_mid_body_is_said_plainly() -> None:
    exc = httpx.RemoteProtocolError(
        "peer closed connection without sending complete message body: "
        "received 5 bytes, expected 100",
        request=REQUEST,
    )
    ours = from_httpx(exc)
    assert isinstance(ours, errors.ProtocolError)
    assert "closed the connection before the whole response arrived" in ours.message


def test_plain_os_errors_are_mapped_too() -> None:
    assert isinstance(from_httpx(ConnectionRefusedError(111, "refused")), errors.ConnectionRefused)
    assert isinstance(from_httpx(ConnectionResetError(104, "reset")), errors.NetworkError)
    assert isinstance(from_httpx(ssl.SSLError(1, "wrong version number")), errors.TLSError)
    assert isinstance(from_httpx(ValueError("bad")), errors.InvalidRequest)


def test_our_own_errors_pass_through() -> None:
    mine = errors.LoginFailed()
    assert from_httpx(mine) is mine


def test_the_message_is_one_line_with_the_detail() -> None:
    error = errors.ReadTimeout(detail="timed out\nafter 5s")
    assert error.message == (
        "The server accepted the request but sent no answer in time. (timed out after 5s)"
    )
    assert str(error) == error.message
    assert errors.TLSError().message == errors.TLSError.explanation


def test_every_error_class_documents_itself() -> None:
    for name in errors.__all__:
        value = getattr(errors, name)
        if isinstance(value, type) and issubclass(value, RestwalkError):
            assert value.__doc__
            assert value.explanation.endswith(".")
            assert name in (errors.__doc__ or "")


def test_a_server_hanging_up_without_an_answer_may_want_https() -> None:
    exc = httpx.RemoteProtocolError("Server disconnected without sending a response.")
    ours = from_httpx(exc, URL)
    assert isinstance(ours, errors.ProtocolError)
    assert ours.explanation == "The server closed the connection without answering."
    assert "https://" in ours.hint


@pytest.mark.parametrize(
    ("url", "facts"),
    [
        ("https://127.0.0.1:8443/", ConnectionFacts(reused=False)),  # https already
        (URL, ConnectionFacts(reused=False, answered_before=True)),  # it spoke http
        (URL, ConnectionFacts(reused=True, answered_before=True)),  # a kept-alive one
        (URL, ConnectionFacts(reused=False, answered_before=True, retried=True)),
    ],
)
def test_try_https_only_where_it_fits(url: str, facts: ConnectionFacts) -> None:
    exc = httpx.RemoteProtocolError("Server disconnected without sending a response.")
    ours = from_httpx(exc, url, connection=facts)
    assert isinstance(ours, errors.ProtocolError)
    assert "https" not in ours.hint
    assert ours.hint


def test_a_kept_alive_connection_closed_under_a_request_is_named() -> None:
    exc = httpx.RemoteProtocolError("Server disconnected without sending a response.")
    facts = ConnectionFacts(reused=True, answered_before=True)
    ours = from_httpx(exc, URL, connection=facts)
    assert "kept-alive connection" in ours.explanation
    assert "send it again" in ours.hint


# -- what a server sent that is not HTTP, in words (QA 1, item 14) --------------------------


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (
            "illegal status line: bytearray(b'HTTP/1.1 2OO \\x1b[31mOK')",
            'The server\'s status line is not HTTP: "HTTP/1.1 2OO ␛[31mOK".',
        ),
        (
            "illegal header line: bytearray(b'Bad Header\\x1b: x')",
            "A header line of the server's answer is not 'Name: value': \"Bad Header␛: x\".",
        ),
        (
            "illegal chunk header: bytearray(b'ZZ\\r\\n')",
            'A chunk of the server\'s body does not start with its size: "ZZ␍␊".',
        ),
        ("bad Content-Length", "The server's Content-Length is not a number of bytes."),
    ],
)
def test_h11_messages_become_words_with_the_bytes_as_text(message: str, words: str) -> None:
    ours = from_httpx(httpx.RemoteProtocolError(message), URL)
    assert isinstance(ours, errors.ProtocolError)
    assert ours.message == words
    assert "bytearray" not in ours.message
    assert "\\x" not in ours.message


def test_a_repr_in_another_message_is_shown_as_its_text() -> None:
    ours = from_httpx(httpx.RemoteProtocolError("odd: b'caf\\xc3\\xa9\\x07' and more"), URL)
    assert ours.message == 'The server broke the HTTP protocol. (odd: "café␇" and more)'


@given(st.binary(max_size=200))
def test_no_repr_and_no_control_is_left_of_any_bytes(raw: bytes) -> None:
    ours = from_httpx(httpx.RemoteProtocolError(f"illegal status line: {bytearray(raw)!r}"), URL)
    assert "bytearray(" not in ours.message
    assert CONTROL.search(ours.message) is None


def test_an_error_without_a_message_is_told_in_words_not_by_its_class_name() -> None:
    # httpx.ReadError("") came out as "The connection broke during the exchange. (ReadError)".
    error = from_httpx(httpx.ReadError(""), "http://api.test/")
    assert error.detail == "the connection ended while the answer was being read"
    assert "ReadError" not in str(error)
    unnamed = from_httpx(httpx.RequestError(""), "http://api.test/")
    assert "RequestError" not in str(unnamed)


def test_a_hint_naming_a_command_line_flag_has_one_for_the_browser() -> None:
    for error in (errors.TooManyRedirects(), errors.RedirectRefused()):
        assert "--no-redirects" in error.hint
        assert "--no-redirects" not in error.hint_in_browser
        assert "Trip tab (t)" in error.hint_in_browser
    plain = errors.ConnectionRefused()
    assert plain.hint_in_browser == plain.hint
    given = errors.RedirectRefused(hint="cli", browser_hint="browser")
    assert (given.hint, given.hint_in_browser) == ("cli", "browser")
