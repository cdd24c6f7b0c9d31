"""A client run against --data: restwalk walks the relations; the journal shows what it sent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mock_server import BackgroundServer
from tests.mock_server.conftest import make_settings

LIBRARY = Path(__file__).with_name("data") / "library.json"


def test_restwalk_follows_the_relations_and_the_journal_saw_it() -> None:
    settings = make_settings(data=LIBRARY, read_only_data=True)
    with BackgroundServer(settings) as server:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "explorer",
                "request",
                "GET",
                f"{server.url}/",
                *("--follow", "books", "--follow", "item"),
                *("--follow", "author", "--follow", "books"),
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        entries = server.app.service.requests.entries()
    assert run.returncode == 0, run.stderr
    exchanges = [json.loads(line) for line in run.stdout.splitlines()]
    walked = [e["response"]["url"].removeprefix(server.url) for e in exchanges]
    assert walked == ["/", "/books", "/books/1", "/authors/1", "/books?authorId=1"]
    last = exchanges[-1]["response"]["json"]
    assert [b["title"] for b in last["_embedded"]["books"]] == [
        "The Dispossessed",
        "The Left Hand of Darkness",
    ]
    # The journal, read after the run, holds exactly what the client sent.
    assert [(e.method, e.url, e.status) for e in entries] == [("GET", path, 200) for path in walked]
    assert all(str(e.header("user-agent")).startswith("restwalk/") for e in entries)
