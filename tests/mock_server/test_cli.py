"""``restwalk-mock`` on the command line: flags, one-line errors, the URL line, signals.

Usage errors are checked in-process (``main`` raises SystemExit before serving);
serving is checked on a real process on a free port, stopped by a signal.
"""

from __future__ import annotations

import logging
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from mock_server.cli import main, settings_from_args
from mock_server.cli_parser import build_parser
from mock_server.settings import RateLimit
from tests.mock_server.processes import Running

FLAGS = (
    "--host",
    "--port",
    "--db",
    "--seed-size",
    "--token-mode",
    "--secret",
    "--rate-limit",
    "--max-uri-length",
    "--max-header-size",
    "--max-body-size",
    "--body-timeout",
    "--http-parser",
    "--disable-method",
    "--require-preconditions",
    "--maintenance",
    "--fault-rate",
    "--latency",
    "--workers",
    "--log-level",
    "--http2",
    "--tls",
    "--cert",
    "--key",
)


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``main(argv)``, expecting exit status 2; the stderr it printed."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_help_lists_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    for flag in FLAGS:
        assert flag in text, flag


@pytest.mark.parametrize(
    "argv",
    [
        ("--no-such-flag",),
        ("--disable-method", "GET"),
        ("--disable-method", "head"),
        ("--disable-method", "BREW"),
        ("--rate-limit", "lots"),
        ("--max-body-size", "-1"),
        ("--port", "70000"),
        ("--body-timeout", "0"),
        ("--body-timeout", "nan"),
        ("--http-parser", "picohttp"),
        ("--cert", "server.pem"),
        ("--key", "server.key"),
        ("--cert", "/nonexistent/server.pem", "--key", "/nonexistent/server.key"),
        ("--http2", "--workers", "2", "--db", "/nonexistent/mock.db"),
        # A tape that cannot be written was a traceback after the listening line.
        ("--record", "http://127.0.0.1:1", "--tape", "/nonexistent/t.har"),
        ("--record", "http://127.0.0.1:1", "--tape", "/"),
    ],
)
def test_bad_setting_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    err = usage_error(capsys, *argv)
    assert err.count("\n") == 1
    assert err.startswith("restwalk-mock: error: ")
    assert "Traceback" not in err


def test_counts_that_may_be_zero_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    # "at least 1" was said of --journal-size and --latency, which take 0.
    for flag in ("--journal-size", "--latency", "--port"):
        assert "expected a number of at least 0, got '-1'" in usage_error(capsys, flag, "-1")
    assert "expected a whole number, got 'x'" in usage_error(capsys, "--journal-size", "x")


def test_a_tape_that_is_no_har_is_refused_before_recording_onto_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tape = tmp_path / "t.har"
    tape.write_text("{")
    err = usage_error(capsys, "--record", "http://127.0.0.1:1", "--tape", str(tape))
    assert err.startswith(f"restwalk-mock: error: {tape}:")
    assert "not JSON" in err
    assert tape.read_text() == "{"


def test_disable_get_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert "GET can never be disabled" in usage_error(capsys, "--disable-method", "GET")


def test_limit_flags_become_settings() -> None:
    args = build_parser().parse_args(
        [
            "--rate-limit",
            "5/2.5s",
            "--max-uri-length",
            "99",
            "--max-header-size",
            "2000",
            "--max-body-size",
            "123",
            "--disable-method",
            "put",
            "--disable-method",
            "TRACE",
        ]
    )
    settings = settings_from_args(args)
    assert settings.rate_limit == RateLimit(5, 2.5)
    assert (settings.max_uri_length, settings.max_header_size) == (99, 2000)
    assert (settings.max_field_size, settings.max_body_size) == (2000, 123)
    assert settings.disabled_methods == {"PUT", "TRACE"}
    assert settings_from_args(build_parser().parse_args(["--rate-limit", "off"])).rate_limit is None


def test_body_timeout_and_parser_flags_become_settings() -> None:
    args = build_parser().parse_args(["--body-timeout", "2.5", "--http-parser", "h11"])
    settings = settings_from_args(args)
    assert (settings.body_timeout_seconds, settings.http_parser) == (2.5, "h11")
    assert settings_from_args(build_parser().parse_args([])).http_parser == "httptools"


@pytest.mark.parametrize(
    ("section", "field"), [(8192, 4096), (2000, 2000), (5000, 4096), (20000, 10000)]
)
def test_raising_the_header_limit_raises_the_field_limit(section: int, field: int) -> None:
    # A user who raises --max-header-size to send one big header must be able to.
    args = build_parser().parse_args(["--max-header-size", str(section)])
    assert settings_from_args(args).max_field_size == field


def test_port_in_use_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = usage_error(capsys, "--port", str(port))
    assert err.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}" in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serves_prints_its_url_and_stops_cleanly(running: list[Running], signum: int) -> None:
    server = Running()
    running.append(server)
    assert server.url.startswith("http://127.0.0.1:")
    assert server.line.count("\n") == 1
    assert httpx.get(server.url + "/", timeout=5).status_code == 200
    status, err = server.stop(signum)
    assert status == 0
    assert "Traceback" not in err


def test_limit_flags_reach_the_server(running: list[Running]) -> None:
    server = Running(
        "--rate-limit", "3/60s", "--max-uri-length", "40", "--disable-method", "delete"
    )
    running.append(server)
    with httpx.Client(base_url=server.url, timeout=5) as client:
        first = client.get("/")
        assert first.headers["ratelimit-limit"] == "3"
        assert client.get("/customers?name=" + "x" * 40).status_code == 414
        deleted = client.delete("/customers/1")
        assert deleted.status_code == 405
        assert "DELETE" not in deleted.headers["allow"]
        # The 414 came from the limits layer, outside the rate limit: not counted.
        assert client.get("/").headers["ratelimit-remaining"] == "0"
        refused = client.get("/")
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) > 0
    status, _ = server.stop(signal.SIGTERM)
    assert status == 0


def test_at_info_it_logs_requests_but_no_start_up_chatter(running: list[Running]) -> None:
    server = Running("--log-level", "info")  # the last --log-level wins
    running.append(server)
    assert httpx.get(server.url + "/", timeout=5).status_code == 200
    status, err = server.stop(signal.SIGTERM)
    assert status == 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert any('"GET / HTTP/1.1" 200' in line for line in lines)
    assert all("uvicorn.access" in line for line in lines), lines


@pytest.mark.parametrize("engine", [(), ("--http2",), ("--workers", "2", "--store")])
def test_the_access_log_masks_secrets_on_every_engine(
    running: list[Running], tmp_path: Path, engine: tuple[str, ...]
) -> None:
    flags = [*engine, f"sqlite:{tmp_path / 'mock.db'}"] if "--store" in engine else [*engine]
    server = Running(*flags, "--log-level", "info")
    running.append(server)
    secrets = ["S3cret-1", "S3cret-2", "S3cret-3", "S3cret-4"]
    sent = [
        f"/anything?access_token={secrets[0]}&limit=5",
        f"/basic-auth/bob/{secrets[1]}",
        f"/anything?password={secrets[2]}",
    ]
    for path in sent:
        httpx.get(server.url + path, headers={"X-Api-Key": secrets[3]}, timeout=10)
    status, err = server.stop(signal.SIGTERM)
    assert status == 0
    if "--http2" not in engine:  # Hypercorn's line shows the path alone
        assert "/anything?access_token=****&limit=5" in err
    assert "/basic-auth/bob/****" in err
    for secret in secrets:
        assert secret not in err


def test_access_lines_are_masked_as_each_engine_logs_them() -> None:
    from hypercorn.logging import AccessLogAtoms

    from mock_server.transport.access_log import MaskedAccessLog

    def logged(args: object, name: str = "uvicorn.access") -> logging.LogRecord:
        record = logging.LogRecord(name, logging.INFO, "", 0, "%s", None, None)
        record.args = args  # type: ignore[assignment]
        MaskedAccessLog().filter(record)
        return record

    uvicorn_args = ("127.0.0.1:5", "GET", "/basic-auth/u/pw?code=c0de&q=1", "1.1", 200)
    assert logged(uvicorn_args).args == (
        "127.0.0.1:5",
        "GET",
        "/basic-auth/u/****?code=****&q=1",
        "1.1",
        200,
    )
    # --record's requests to the upstream, as httpx logs them.
    upstream = ("GET", httpx.URL("https://api.test/v1/x?token=t0k&a=1"), "HTTP/1.1", 200, "OK")
    assert logged(upstream, "httpx").args == (
        "GET",
        "https://api.test/v1/x?token=****&a=1",
        "HTTP/1.1",
        200,
        "OK",
    )
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/basic-auth/u/pw",
        "query_string": b"api_key=k3y",
        "http_version": "2",
        "scheme": "http",
        "client": ("127.0.0.1", 5),
        "headers": [(b"authorization", b"Bearer t0ken"), (b"x-api-key", b"k3y")],
    }
    atoms = logged(AccessLogAtoms(scope, None, 0.1)).args  # type: ignore[arg-type]
    assert isinstance(atoms, dict)
    assert atoms["R"] == "GET /basic-auth/u/****?api_key=**** 2"
    assert atoms["r"] == "GET /basic-auth/u/**** 2"
    assert atoms["q"] == "api_key=****"
    assert atoms["{authorization}i"] == "Bearer ****"
    assert atoms["{x-api-key}i"] == "****"


def test_a_key_that_is_not_the_certificates_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mock_server.transport.tls import SelfSigned

    with SelfSigned() as first, SelfSigned() as second:
        err = usage_error(capsys, "--cert", str(first.cert), "--key", str(second.key))
    assert err.count("\n") == 1
    assert f"cannot use {first.cert} and {second.key}" in err


CURL_GET = ("curl", "--silent", "--show-error", "--max-time", "10", "--output", "/dev/null")


def curl_version_and_status(*argv: str) -> str:
    """``curl``'s "HTTP-version status" for a GET, failing the test when curl fails."""
    done = subprocess.run(
        [*CURL_GET, "--write-out", "%{http_version} %{http_code}", *argv],
        capture_output=True,
        text=True,
        timeout=15,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize(
    ("argv", "served", "version"),
    [
        (("--tls",), "", "1.1"),
        (("--tls", "--http2"), "HTTP/1.1 and h2 by ALPN; ", "2"),
    ],
)
def test_tls_prints_the_certificate_to_trust_and_removes_it_at_exit(
    running: list[Running], argv: tuple[str, ...], served: str, version: str
) -> None:
    server = Running(*argv)
    running.append(server)
    assert server.url.startswith("https://127.0.0.1:")
    note = server.line.split(" ", 4)[4].strip()
    assert note.startswith(f"({served}trust ")
    ca = Path(note.removeprefix(f"({served}trust ").removesuffix(")"))
    assert ca.name == "ca.pem"
    assert curl_version_and_status("--cacert", str(ca), server.url + "/customers/1") == (
        f"{version} 200"
    )
    status, err = server.stop(signal.SIGTERM)
    assert status == 0
    assert "Traceback" not in err
    assert not ca.parent.exists()


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_http2_in_cleartext_says_so_and_speaks_h2c(running: list[Running]) -> None:
    server = Running("--http2")
    running.append(server)
    assert server.line.endswith(" (HTTP/1.1 and h2c)\n")
    prior = curl_version_and_status("--http2-prior-knowledge", server.url + "/customers/1")
    assert prior == "2 200"
    assert curl_version_and_status("--http1.1", server.url + "/customers/1") == "1.1 200"
    status, err = server.stop(signal.SIGINT)
    assert status == 0
    assert "Traceback" not in err


def test_given_certificate_files_are_served(running: list[Running], tmp_path: Path) -> None:
    import ssl

    import trustme

    authority = trustme.CA()
    issued = authority.issue_cert("127.0.0.1")
    cert, key = tmp_path / "server.pem", tmp_path / "server.key"
    issued.cert_chain_pems[0].write_to_path(str(cert))
    issued.private_key_pem.write_to_path(str(key))
    server = Running("--cert", str(cert), "--key", str(key))
    running.append(server)
    # A certificate given is not printed: who issued it is the user's business.
    assert server.line == f"restwalk-mock listening on {server.url}\n"
    context = ssl.create_default_context()
    authority.configure_trust(context)
    assert httpx.get(server.url + "/", verify=context, timeout=5).status_code == 200


def test_tls_without_cryptography_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cryptography", None)  # as if not installed
    err = usage_error(capsys, "--tls")
    assert err.count("\n") == 1
    assert "pip install 'restwalk[tls]', or give --cert and --key" in err
