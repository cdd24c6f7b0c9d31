"""What restwalk's processes leave unimported still works when it is needed.

Each test runs in a fresh interpreter: what it imported is then its own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HTTP2_LATER = """
import sys, tempfile
from pathlib import Path

from explorer.cli.lean_imports import httpcore_without_h2

httpcore_without_h2()
late = {"h2", "hpack", "hyperframe", "httpcore._async.http2", "httpcore._sync.http2"}
assert "httpcore" in sys.modules
assert not late & set(sys.modules), late & set(sys.modules)
assert all(sys.modules.get(name, 0) is not None for name in late)  # (no block left behind)
httpcore_without_h2()  # a second call does nothing

from explorer.cli import main
from mock_server import Settings, create_app
from tests.explorer.servers import HypercornServer

with tempfile.TemporaryDirectory() as tmp, HypercornServer(
    create_app(Settings(rate_limit=None)), tls=False, tmp_path=Path(tmp)
) as server:
    rc = main(["request", "GET", server.url + "/", "--http2-prior-knowledge"])
assert rc == 0, rc
assert "httpcore._async.http2" in sys.modules
"""


ON_FIRST_USE = """
import os, sys

from explorer.cli.lean_imports import libraries_on_first_use, without_httpx_cli

without_httpx_cli()
libraries_on_first_use()
import httpx
from explorer.core.http.tls import DefaultContext

late = {"certifi.core", "idna.core", "importlib.resources"}
assert not late & set(sys.modules), late & set(sys.modules)
# what httpx does with them, as it does it: a host that is not ASCII, its CA bundle
assert httpx.URL("http://b\u00fccher.example/").host == "b\u00fccher.example"
assert httpx.URL("http://b\u00fccher.example/").raw_host == b"xn--bcher-kva.example"
assert "idna.core" in sys.modules
for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
    os.environ.pop(name, None)
context = DefaultContext()
context.trust()  # certifi's bundle
assert context.cert_store_stats()["x509_ca"] > 10, context.cert_store_stats()
import certifi

assert os.path.isfile(certifi.where())
assert sys.modules["certifi"].where is certifi.where
"""


NO_CONFIG_FILE = """
import sys, tempfile
from pathlib import Path

from explorer.core.config import Config, load_config

with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "config.toml"
    assert load_config(path) == Config()
    assert "tomllib" not in sys.modules  # (no file: nothing to parse)
    path.write_text('theme = "nord"\\n')
    assert load_config(path).theme == "nord"
"""


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_certifi_and_idna_are_imported_when_first_used() -> None:
    result = run_python(ON_FIRST_USE)
    assert result.returncode == 0, result.stderr


def test_without_a_config_file_toml_is_not_imported() -> None:
    result = run_python(NO_CONFIG_FILE)
    assert result.returncode == 0, result.stderr


def test_http2_connections_are_imported_when_a_connection_speaks_http2() -> None:
    result = run_python(HTTP2_LATER)
    assert result.returncode == 0, result.stderr
    # (its stdout a pipe: the body there, the status line said on stderr)
    assert result.stderr.startswith("HTTP/2 200 OK\n")
