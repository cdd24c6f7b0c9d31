"""The default TLS context: httpx's own, its CA certificates read at the first handshake
(never for a plain http:// server), checking as much as httpx's; errors made clear."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.http.connection import ca_file_context
from explorer.core.http.errors import TLSError
from explorer.core.http.request import RequestSpec
from explorer.core.http.tls import DefaultContext
from mock_server import BackgroundServer, Settings

#: What makes a context check certificates, and how strictly.
CHECKS = (
    "protocol",
    "verify_mode",
    "check_hostname",
    "verify_flags",
    "options",
    "minimum_version",
    "maximum_version",
    "post_handshake_auth",
    "security_level",
)


@pytest.fixture
def certifi_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CA variables: httpx's default, certifi's bundle."""
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[BackgroundServer, BackgroundServer]]:
    """The mock over TLS (its own certificate, which no one trusts) and over plain HTTP."""
    settings = Settings(host="127.0.0.1", port=0, rate_limit=None)
    with (
        BackgroundServer(Settings(**{**vars(settings), "tls": True})) as tls,
        BackgroundServer(settings) as plain,
    ):
        yield tls, plain


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[DefaultContext]:
    """Every context that read its CA certificates, in order."""
    read: list[DefaultContext] = []
    trust = DefaultContext.trust

    def counted(self: DefaultContext) -> None:
        read.append(self)
        trust(self)

    monkeypatch.setattr(DefaultContext, "trust", counted)
    return read


def get(client: Client, url: str) -> int:
    async def go() -> int:
        async with client:
            return (await client.send(RequestSpec(url=url))).response.status

    return asyncio.run(go())


def test_the_default_context_checks_as_httpx_does_and_trusts_the_same(
    certifi_bundle: None,
) -> None:
    context = DefaultContext()
    made_by_httpx = httpx.create_ssl_context()
    for check in CHECKS:
        assert getattr(context, check) == getattr(made_by_httpx, check), check
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0  # nothing read yet
    context.trust()
    context.trust()  # (once)
    assert context.cert_store_stats() == made_by_httpx.cert_store_stats()
    assert context.get_ca_certs() == made_by_httpx.get_ca_certs()


def test_an_http_server_reads_no_certificate_and_https_reads_them_before_its_handshake(
    certifi_bundle: None, servers: tuple[BackgroundServer, BackgroundServer], reads: list[object]
) -> None:
    tls, plain = servers
    assert get(Client(), plain.url + "/") == 200
    assert reads == []
    with pytest.raises(TLSError, match="certificate") as refused:
        get(Client(), tls.url + "/")  # certifi's CAs do not include the mock's own
    assert len(reads) == 1
    assert "verify failed" in refused.value.detail


def test_the_default_context_honours_ssl_cert_file_at_its_first_handshake(
    monkeypatch: pytest.MonkeyPatch, servers: tuple[BackgroundServer, BackgroundServer]
) -> None:
    tls, _ = servers
    assert tls.certificate is not None
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", str(tls.certificate.ca))
    assert get(Client(), tls.url + "/") == 200


def test_a_ca_file_given_is_trusted_and_no_checks_is_no_checks(
    certifi_bundle: None, servers: tuple[BackgroundServer, BackgroundServer], reads: list[object]
) -> None:
    tls, _ = servers
    assert tls.certificate is not None
    assert get(Client(verify=ca_file_context(str(tls.certificate.ca))), tls.url + "/") == 200
    assert get(Client(verify=False), tls.url + "/") == 200
    assert reads == []  # neither read the default bundle


@pytest.mark.parametrize(
    ("content", "detail"),
    [(None, "No such file"), (b"not a certificate\n", "no certificate")],
    ids=["missing", "not-pem"],
)
def test_an_unusable_ssl_cert_file_is_a_tls_error_naming_it_at_each_https_request(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    servers: tuple[BackgroundServer, BackgroundServer],
    content: bytes | None,
    detail: str,
) -> None:
    tls, plain = servers
    bundle = tmp_path / "bundle.pem"
    if content is not None:
        bundle.write_bytes(content)
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    assert get(Client(), plain.url + "/") == 200  # nothing read for plain HTTP: no error

    async def twice() -> list[TLSError]:
        failed = []
        async with Client() as client:
            for _ in range(2):  # never trusted by a second try
                with pytest.raises(TLSError) as caught:
                    await client.send(RequestSpec(url=tls.url + "/"))
                failed.append(caught.value)
        return failed

    for error in asyncio.run(twice()):
        assert f"SSL_CERT_FILE={bundle}" in error.explanation
        assert detail.lower() in error.detail.lower()
        assert "unset them" in error.hint
    context = DefaultContext()
    with pytest.raises(TLSError, match="SSL_CERT_FILE"):
        context.trust()
    assert context.cert_store_stats()["x509_ca"] == 0
