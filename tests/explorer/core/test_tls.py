"""The default TLS context: what httpx would build, loaded on a thread, errors made clear."""

from __future__ import annotations

import ssl
import threading
from pathlib import Path

import pytest

from explorer.core.http.client import Client
from explorer.core.http.errors import TLSError
from explorer.core.http.tls import default_context, load_default_context


@pytest.fixture
def certifi_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CA variables: httpx's default, certifi's bundle."""
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)


def test_the_default_context_verifies_certificates_and_host_names(certifi_bundle: None) -> None:
    context = default_context()
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0


def test_loading_on_a_thread_gives_the_same_context(certifi_bundle: None) -> None:
    threads_before = threading.active_count()
    result = load_default_context()
    context = result()
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.cert_store_stats() == default_context().cert_store_stats()
    assert result() is context  # collecting it twice waits for nothing
    assert threading.active_count() <= threads_before + 1


@pytest.mark.parametrize(
    ("content", "detail"),
    [(None, "No such file"), (b"not a certificate\n", "no certificate")],
    ids=["missing", "not-pem"],
)
def test_an_unusable_ssl_cert_file_is_a_tls_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: bytes | None, detail: str
) -> None:
    bundle = tmp_path / "bundle.pem"
    if content is not None:
        bundle.write_bytes(content)
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    with pytest.raises(TLSError) as caught:
        default_context()
    assert f"SSL_CERT_FILE={bundle}" in caught.value.explanation
    assert detail.lower() in caught.value.detail.lower()
    assert "unset them" in caught.value.hint
    # The thread hands the same error to whoever collects the context.
    result = load_default_context()
    with pytest.raises(TLSError, match="SSL_CERT_FILE"):
        result()


def test_a_client_reports_an_unusable_bundle_as_a_tls_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    with pytest.raises(TLSError, match="could not be loaded"):
        Client()
    Client(verify=False)  # nothing to load: no error
