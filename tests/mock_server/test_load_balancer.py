"""The README's nginx configuration, as written there, in front of two instances on one
PostgreSQL: a client sees one server.

The ``nginx`` block is read from README.md (so what users copy is what runs),
its upstream names and port replaced by the two instances' and a free
127.0.0.1 port. nginx is Debian's (``make test`` installs it when missing).
Slow (two processes, a proxy): marked ``interop``, run once per CI run.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.mock_server.conftest import EDITOR, StoreUnderTest
from tests.mock_server.mock_process import Process
from tests.mock_server.postgresql_server import free_port

pytestmark = pytest.mark.interop

ROOT = Path(__file__).resolve().parents[2]
SECTION = "### Several instances: one PostgreSQL behind a load balancer"
UPSTREAMS = ("mock-1.internal:8000", "mock-2.internal:8000")


def readme_block() -> str:
    """The ```nginx block of the README's section on several instances."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    found = re.search(r"```nginx\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the README's section has no nginx block"
    return found.group(1)


def find_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.fail("nginx is not installed: `make test` installs it, or apt-get install nginx")
    return found


@pytest.fixture
def balancer(postgresql_url: str, processes: list[Process]) -> Iterator[tuple[str, list[Process]]]:
    """nginx on a free port in front of two instances; its URL and the instances."""
    database = StoreUnderTest("postgresql", url=postgresql_url)
    for _ in range(2):
        processes.append(Process(database, "--rate-limit", "off", "--log-level", "warning"))
    block = readme_block()
    for upstream, process in zip(UPSTREAMS, processes, strict=True):
        assert upstream in block
        block = block.replace(upstream, process.url.removeprefix("http://"))
    port = free_port()
    block = block.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    folder = Path(tempfile.mkdtemp(prefix="restwalk-nginx-"))
    temp_paths = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log off;\n{temp_paths}\n{block}\n}}\n"
    )
    nginx = subprocess.Popen(
        [find_nginx(), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            assert nginx.poll() is None, (folder / "error.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", processes
    finally:
        nginx.terminate()
        nginx.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def test_two_instances_behind_nginx_are_one_server(balancer: tuple[str, list[Process]]) -> None:
    url, instances = balancer
    with httpx.Client(base_url=url, timeout=10) as client:
        # Each create is read back at once, whichever instance nginx picks (round robin).
        locations = []
        for n in range(20):
            body = {"name": f"Balanced {n}", "address": "1 A St, B, C 1"}
            created = client.post("/customers", json=body, headers=EDITOR)
            assert created.status_code == 201
            read = client.get(created.headers["location"])
            assert read.status_code == 200
            assert read.content == created.content
            locations.append(created.headers["location"])
        ids = [int(location.rsplit("/", 1)[1]) for location in locations]
        assert ids == sorted(set(ids))
        # Both instances took part: each answered requests straight too, and agrees.
        for instance in instances:
            assert instance.client.get(locations[-1]).content == read.content

        # Two PUTs with one If-Match through the balancer: one wins, one 412.
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def put(etag: str, cost: float) -> None:
            with httpx.Client(base_url=url, timeout=10) as own:
                barrier.wait()
                answer = own.put(
                    "/products/2",
                    json={"name": "Mouse", "cost": cost},
                    headers={**EDITOR, "If-Match": etag},
                )
                statuses.append(answer.status_code)

        for round_ in range(5):
            statuses.clear()
            etag = client.get("/products/2").headers["etag"]
            threads = [threading.Thread(target=put, args=(etag, round_ + c)) for c in (0.25, 0.5)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(10)
            assert sorted(statuses) == [200, 412], statuses

    # One instance gone: nginx sends the requests to the other, which has everything.
    instances[0].kill()
    with httpx.Client(base_url=url, timeout=10) as client:
        for location in locations:
            assert client.get(location).status_code == 200
