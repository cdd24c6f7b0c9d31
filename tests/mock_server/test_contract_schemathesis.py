"""Schemathesis, run with the document the mock serves, finds no failure (``--openapi``).

Four documents of tests/mock_server/documents: the Swagger Petstore as OpenAPI 3.0 and
3.1 (every phase, stateful links included: POST then GET, PUT, DELETE), and two large
real-world ones, STAPI (3.0, 120 operations) and ReadMe's API (3.1, 54 operations),
with the coverage phase only (its boundary cases find the most; marked ``interop``: the
slowest). The settings file says which check is off where, and why: only where the
document lists no status for what the mock must answer.

One worker, as in test_schemathesis.py: schemathesis' workers are threads, and the run
is bound by the one server anyway.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from mock_server.serving import BackgroundServer
from tests.mock_server.conftest import make_settings

DOCUMENTS = Path(__file__).with_name("documents")
CONFIG = Path(__file__).with_name("contract_schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")

#: Schemathesis runs of several seconds each: started early (see tests/conftest.py).
pytestmark = pytest.mark.early


def run_schemathesis(document: Path, tmp_path: Path, *options: str) -> str:
    with BackgroundServer(make_settings(openapi=document)) as server:
        token = httpx.post(f"{server.url}/auth/token", auth=("alice", "wonderland")).json()
        credential = token["access_token"]
        result = subprocess.run(
            [
                str(SCHEMATHESIS),
                "--config-file",
                str(CONFIG),
                "--no-color",
                "run",
                str(document),
                "--url",
                server.url,
                "--header",
                f"Authorization: Bearer {credential}",
                "--header",
                f"api_key: {credential}",
                "--exclude-method",
                "QUERY",
                "--seed",
                "1",
                "--workers",
                "1",
                *options,
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=280,
            check=False,
        )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-8000:]
    assert "passed" in output
    return output


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", ["petstore-3.0.json", "petstore-3.1.json"])
def test_the_petstore_is_served_as_documented(name: str, tmp_path: Path) -> None:
    output = run_schemathesis(DOCUMENTS / name, tmp_path, "--max-examples", "2")
    assert "Stateful" in output


@pytest.mark.interop
@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", ["star-trek-3.0.json", "readme-3.1.json"])
def test_large_real_documents_are_served_as_documented(name: str, tmp_path: Path) -> None:
    run_schemathesis(DOCUMENTS / name, tmp_path, "--phases", "coverage")
