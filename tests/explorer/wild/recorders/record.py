"""Record a running server's answers as fixtures for tests/explorer/wild (see README.md).

``record.py NAME "FRAMEWORK VERSION" URL [URL...] [--accept TYPE]`` GETs each URL
(in order, as restwalk would: no cookies kept) and writes
``fixtures/NAME.json``: one entry per URL with the status, the headers in wire
order, the body as text, and ``links``: the ``[rel, href]`` pairs restwalk finds
there, to be read over by hand against the body before committing (a person's
view of the page; the replaying tests then hold the finder to it).

``record.py NAME --relink`` only rewrites ``links`` from the recorded answers, after
a change to the finder: read the diff before committing it.

``--as http://localhost:18501`` records a server started on another port (the
fixture's own is taken) as if it answered at that origin: the origin is replaced in
URLs, headers and bodies, and must be as long as the real one (so that each
``Content-Length`` still holds).

Run it with the worktree's Python (``.venv/bin/python``), which has httpx and restwalk.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import httpx
import orjson

from explorer.core.hypermedia import find_links
from explorer.core.session.ordering import ordered

FIXTURES = Path(__file__).parent.parent / "fixtures"
#: Headers that change with every run and say nothing of links.
VOLATILE = {"date", "etag", "last-modified", "x-request-id", "server"}


def found_links(entry: dict[str, object]) -> list[list[str]]:
    """The ``[rel, href]`` pairs restwalk finds in a recorded response, in the session's order."""
    headers = [tuple(pair) for pair in entry["headers"]]  # type: ignore[attr-defined]
    media = next((v for k, v in headers if k.lower() == "content-type"), "").split(";")[0]
    body = str(entry["body"]).encode("utf-8")
    links = find_links(
        str(entry["url"]), int(entry["status"]), headers, body, media.strip() or None
    )  # type: ignore[call-overload]
    return [[link.rel, link.href] for link in ordered(tuple(links))]


def relink(name: str) -> None:
    """Write the links restwalk finds now into fixture ``name`` (to review the diff by hand)."""
    target = FIXTURES / f"{name}.json"
    document = orjson.loads(target.read_bytes())
    for entry in document["responses"]:
        entry["links"] = found_links(entry)
    target.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")


def record(urls: list[str], accept: str | None) -> list[dict[str, object]]:
    entries = []
    headers = {"Accept": accept} if accept else {}
    with httpx.Client(timeout=10.0) as client:
        for url in urls:
            response = client.get(url, headers=headers)
            wire = [
                [name.decode("latin-1"), value.decode("latin-1")]
                for name, value in response.headers.raw
                if name.decode("latin-1").lower() not in VOLATILE
            ]
            entry: dict[str, object] = {
                "url": url,
                "request_headers": [[k, v] for k, v in headers.items()],
                "status": response.status_code,
                "headers": wire,
                "body": response.content.decode("utf-8"),
            }
            entry["links"] = found_links(entry)
            entries.append(entry)
    return entries


def recorded_as(entries: list[dict[str, object]], real: str, shown: str) -> None:
    """Write ``real`` (an origin) as ``shown`` in ``entries``, its authority too (a ``Host``
    echoed back), then find their links again."""
    if len(real) != len(shown):
        raise SystemExit(f"--as {shown}: not as long as {real} (Content-Length would be wrong)")
    authority, shown_authority = real.split("://", 1)[1], shown.split("://", 1)[1]

    def moved(text: str) -> str:
        return text.replace(real, shown).replace(authority, shown_authority)

    for entry in entries:
        entry["url"] = moved(str(entry["url"]))
        entry["headers"] = [
            [name, moved(value)]
            for name, value in entry["headers"]  # type: ignore[attr-defined]
        ]
        entry["body"] = moved(str(entry["body"]))
        entry["links"] = found_links(entry)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the fixture's file name, e.g. drf-plain")
    parser.add_argument(
        "framework",
        nargs="?",
        default="",
        help="what served it and its version, e.g. 'djangorestframework 3.18.3'",
    )
    parser.add_argument("urls", nargs="*")
    parser.add_argument("--accept", help="the Accept header to send")
    parser.add_argument("--note", default="", help="how the server was set up")
    parser.add_argument(
        "--as",
        dest="shown_as",
        metavar="ORIGIN",
        help="the origin to record the answers at (the server ran elsewhere, same length)",
    )
    parser.add_argument(
        "--relink", action="store_true", help="only rewrite the links of fixture NAME (no URL)"
    )
    args = parser.parse_args()
    if args.relink:
        relink(args.name)
        return
    entries = record(args.urls, args.accept)
    if args.shown_as:
        real = "/".join(str(args.urls[0]).split("/", 3)[:3])
        recorded_as(entries, real, args.shown_as.rstrip("/"))
    document = {"framework": args.framework, "note": args.note, "responses": entries}
    FIXTURES.mkdir(exist_ok=True)
    target = FIXTURES / f"{args.name}.json"
    target.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")
    for entry in entries:
        print(entry["status"], entry["url"], len(entry["links"]), "links", file=sys.stderr)


if __name__ == "__main__":
    main()
