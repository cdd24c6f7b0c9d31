"""``--tls``: the certificate made at start, given certificate files, HTTPS on 127.0.0.1."""

from __future__ import annotations

import datetime
import socket
import ssl
import stat
from pathlib import Path

import httpx
import pytest
from cryptography import x509

from mock_server import BackgroundServer, Settings
from mock_server.transport.tls import LOOPBACK_NAMES, CertificateError, SelfSigned, check_files
from tests.mock_server.conftest import ADMIN, make_settings
from tests.mock_server.rawhttp import Reader, request


def test_made_certificate_names_the_loopback_and_is_signed_by_the_printed_authority() -> None:
    with SelfSigned() as files:
        assert files.ca is not None
        leaf = x509.load_pem_x509_certificates(files.cert.read_bytes())
        authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
        names = leaf[0].extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        shown = {str(n) for n in names.get_values_for_type(x509.IPAddress)}
        shown |= set(names.get_values_for_type(x509.DNSName))
        assert shown == set(LOOPBACK_NAMES)
        # The chain the server presents ends with the authority a client trusts.
        assert leaf[-1] == authority
        leaf[0].verify_directly_issued_by(authority)
        now = datetime.datetime.now(datetime.UTC)
        assert leaf[0].not_valid_before_utc < now < leaf[0].not_valid_after_utc
        assert check_files(files.cert, files.key).cert == files.cert


def test_made_key_is_private_and_removed_on_close() -> None:
    made = SelfSigned()
    assert stat.S_IMODE(made.files.key.stat().st_mode) == 0o600
    assert stat.S_IMODE(made.directory.stat().st_mode) == 0o700
    made.close()
    assert not made.directory.exists()


def test_check_files_names_the_problem(tmp_path: Path) -> None:
    with pytest.raises(CertificateError, match="no such file"):
        check_files(tmp_path / "missing.pem", tmp_path / "missing.key")
    with (
        SelfSigned() as first,
        SelfSigned() as second,
        pytest.raises(CertificateError, match="cannot use"),
    ):
        check_files(first.cert, second.key)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"tls": True, "cert": Path("c.pem")}, "go together"),
        ({"tls": True, "key": Path("k.pem")}, "go together"),
        ({"cert": Path("c.pem"), "key": Path("k.pem")}, "needs tls"),
    ],
)
def test_settings_refuse_half_a_certificate(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings(**overrides)


@pytest.fixture
def https_server() -> BackgroundServer:
    """HTTP/1.1 over TLS (uvicorn, the same protocol as in cleartext)."""
    return BackgroundServer(make_settings(tls=True))


def test_https_without_http2_keeps_the_http1_protocol(https_server: BackgroundServer) -> None:
    with https_server as server:
        assert server.url.startswith("https://127.0.0.1:")
        assert server.certificate is not None
        assert server.certificate.ca is not None
        context = ssl.create_default_context(cafile=str(server.certificate.ca))
        response = httpx.get(server.url + "/customers/1", verify=context, timeout=5)
        assert (response.http_version, response.status_code) == ("HTTP/1.1", 200)
        # The protocol-level answers are the same as in cleartext: a problem body for 505.
        host, port = server.url.removeprefix("https://").split(":")
        with (
            socket.create_connection((host, int(port)), timeout=5) as raw,
            context.wrap_socket(raw, server_hostname=host) as sock,
        ):
            sock.sendall(request("GET", "/", version="2.5"))
            answer = Reader(sock).response()
        assert answer.status == 505
        assert answer.problem()["status"] == 505
        made = server.certificate.ca.parent
    assert not made.exists()


def cookie_attributes(set_cookie: str) -> set[str]:
    """The attributes of a ``Set-Cookie`` value, lower-cased, without their values."""
    return {part.split("=")[0].strip().lower() for part in set_cookie.split(";")[1:]}


@pytest.mark.parametrize("http2", [False, True], ids=["uvicorn", "hypercorn"])
def test_the_session_cookie_is_secure_over_tls(http2: bool) -> None:
    with BackgroundServer(make_settings(tls=True, http2=http2)) as server:
        assert server.certificate is not None
        assert server.certificate.ca is not None
        context = ssl.create_default_context(cafile=str(server.certificate.ca))
        with httpx.Client(base_url=server.url, verify=context, timeout=5) as client:
            login = client.post("/auth/session", headers=ADMIN)
            stale = client.get("/orders", headers={"Cookie": "session=ended"})
            logout = client.delete("/auth/session")
    assert login.status_code == 204
    for answer in (login, stale, logout):
        attributes = cookie_attributes(answer.headers["set-cookie"])
        assert {"secure", "httponly", "samesite", "path"} <= attributes, answer.headers
    assert "samesite=lax" in login.headers["set-cookie"].lower()


def test_the_session_cookie_is_not_secure_in_cleartext() -> None:
    # A Secure cookie set over http:// is refused by browsers (RFC 6265bis 5.7).
    with BackgroundServer(make_settings()) as server:
        login = httpx.post(server.url + "/auth/session", headers=ADMIN, timeout=5)
    assert cookie_attributes(login.headers["set-cookie"]) == {"httponly", "samesite", "path"}


#: An authorization request the mock's own public client makes (its consent page's query).
CONSENT_QUERY = {
    "response_type": "code",
    "client_id": "restwalk-cli",
    "redirect_uri": "http://127.0.0.1:4321/callback",
    "scope": "orders:read",
    "state": "s1",
    # S256 of "v" * 43 (RFC 7636)
    "code_challenge": "7w_YNF9DSfIdPf_pRjSq646_kPr-2-o9NAl16JGghdM",
    "code_challenge_method": "S256",
}


def test_the_consent_pages_csrf_cookie_is_secure_over_tls() -> None:
    """Issue 23, item 9 checked again: the OAuth pages' nonce cookie had no ``Secure``, so a
    browser sent it over plain http to any port of the host."""
    with BackgroundServer(make_settings(tls=True)) as server:
        assert server.certificate is not None
        assert server.certificate.ca is not None
        context = ssl.create_default_context(cafile=str(server.certificate.ca))
        page = httpx.get(
            server.url + "/oauth/authorize", params=CONSENT_QUERY, verify=context, timeout=5
        )
    assert page.status_code == 200
    assert page.headers["set-cookie"].startswith("oauth_csrf=")
    assert "secure" in cookie_attributes(page.headers["set-cookie"])
