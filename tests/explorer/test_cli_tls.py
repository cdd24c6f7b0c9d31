"""TLS certificates not checked is never silent: ``-k`` and ``verify = false`` say so once a
command on stderr, naming which turned the checks off; against the mock served over TLS."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run

#: What -k says on stderr, once a command.
UNCHECKED_BY_K = (
    "restwalk: warning: TLS certificates are not checked (-k/--insecure): anyone on the "
    "way to the server can read and change this exchange\n"
)


@pytest.fixture(scope="module")
def tls_server() -> Iterator[BackgroundServer]:
    """``restwalk-mock --tls``: its own certificate, which no one trusts."""
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None, tls=True)) as server:
        yield server


@pytest.mark.parametrize(
    "argv",
    [
        ("request", "GET", "{url}/", "-k"),
        ("request", "GET", "{url}/", "--insecure", "--follow", "rw:customers"),
        ("links", "{url}/", "-k", "--follow", "rw:customers"),
    ],
    ids=["request", "request --follow", "links --follow"],
)
def test_k_says_so_once_a_command(
    capsys: pytest.CaptureFixture[str], tls_server: BackgroundServer, argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *(word.format(url=tls_server.url) for word in argv))
    assert code == 0
    assert err == UNCHECKED_BY_K
    assert out


def test_verify_false_in_the_config_says_so_naming_the_file(
    capsys: pytest.CaptureFixture[str], tls_server: BackgroundServer, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[connection]\nverify = false\n")
    code, out, err = run(capsys, "--config", str(config), "request", "GET", tls_server.url + "/")
    assert code == 0
    assert out.startswith("HTTP/1.1 200 OK\n")
    assert err == (
        f"restwalk: warning: TLS certificates are not checked (verify = false in {config}): "
        "anyone on the way to the server can read and change this exchange\n"
    )


def test_curl_s_k_is_named_as_such(
    capsys: pytest.CaptureFixture[str], tls_server: BackgroundServer
) -> None:
    code, _, err = run(capsys, "request", "--from-curl", f"curl -k {tls_server.url}/")
    assert code == 0
    assert "(-k in --from-curl)" in err
    assert err.count("\n") == 1


def test_checked_certificates_say_nothing(
    capsys: pytest.CaptureFixture[str], tls_server: BackgroundServer, tmp_path: Path
) -> None:
    assert tls_server.certificate is not None
    config = tmp_path / "config.toml"
    config.write_text("[connection]\nverify = false\n")  # --cacert wins over it
    ca = str(tls_server.certificate.ca)
    argv = ("--config", str(config), "request", "GET", tls_server.url + "/", "--cacert", ca)
    assert run(capsys, *argv)[::2] == (0, "")
    code, out, err = run(capsys, "request", "GET", tls_server.url + "/")
    assert (code, out) == (1, "")  # refused: the certificate is no one's
    assert "warning" not in err


def test_an_unreadable_ca_bundle_fails_the_https_request_naming_the_variable(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tls_server: BackgroundServer,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    code, out, err = run(capsys, "request", "GET", tls_server.url + "/")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith("restwalk: ")
    assert f"SSL_CERT_FILE={tmp_path / 'missing.pem'}" in err
    # Trusting the mock's own CA instead, the same request goes (nothing else was loosened).
    assert tls_server.certificate is not None
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_server.certificate.ca))
    assert run(capsys, "request", "GET", tls_server.url + "/")[::2] == (0, "")
