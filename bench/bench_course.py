"""Benchmark the course's check: the time one exchange takes to be checked, as a lesson grows.

The check runs on the event loop after every exchange the learner's client
completes, so it must stay well under a frame (16 ms) in a normal lesson and bounded in
a pathological one. Measured: a lesson of the lost update (three steps tied by
references, two near misses) after N exchanges that almost match (a GET of the
product with its ETag, then a 412, over and over), for the exchange that does not
complete it and for the one that does; and a bundled lesson's one-step check.
``MAX_EXCHANGES`` (500) is the most a lesson keeps.

    .venv/bin/python bench/bench_course.py [--exchanges 500] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explorer.core.course.catalog import Chapter, Course, bundled_course
from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.lesson import parse_lesson
from explorer.core.course.progress import Progress
from explorer.core.course.run import MAX_EXCHANGES, CourseRun
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest

ORIGIN = "http://mock.test"
LOST_UPDATE = """+++
id = "lost-update"
chapter = "c"
order = 1
title = "The lost update"
task = "Change product 1's price without overwriting a colleague's change."

[check]
[[check.steps]]
name = "refused"
method = ["PUT", "PATCH"]
path = "/products/*"
status = 412
[[check.steps]]
name = "read"
method = "GET"
path = "${refused.path}"
response_headers = { ETag = "*" }
[[check.steps]]
method = ["PUT", "PATCH"]
path = "${read.path}"
request_headers = { "If-Match" = "${read.response.ETag}" }
status = "2xx"

[[hints]]
text = "If-Match with another resource's ETag."
[[hints.steps]]
name = "other"
method = "GET"
not = { path = "/products/1" }
[[hints.steps]]
path = "/products/1"
request_headers = { "If-Match" = "${other.response.ETag}" }

[[hints]]
text = "A write without If-Match."
[[hints.steps]]
method = ["PUT", "PATCH"]
status = "2xx"
not = { request_headers = { "If-Match" = "*" } }
+++
Text.
"""


def exchange(
    method: str, path: str, status: int, headers: tuple[tuple[str, str], ...] = (), etag: str = ""
) -> Exchange:
    request = SentRequest(method, ORIGIN + path, headers)
    answer = (("ETag", etag),) if etag else ()
    response = ReceivedResponse(status, "", "HTTP/1.1", answer, b"{}", ORIGIN + path)
    return Exchange(request, request, response)


def filled(course: Course, count: int) -> CourseRun:
    """A run of ``course``'s first lesson after ``count`` exchanges that almost do it."""
    run = CourseRun(course, ORIGIN, Progress.load(None, "bench"))
    run.open(0)
    run.state.start_pending = None
    for n in range(count):
        if n % 2:
            made = exchange("PATCH", "/products/1", 412)
        else:
            made = exchange("GET", "/products/1", 200, etag=f'"{n}"')
        run.state.exchanges.append(ExchangeFacts(made, n))
    return run


def timed(course: Course, count: int, last: Exchange, repeat: int) -> tuple[float, str]:
    """The median milliseconds ``last`` takes to be checked after ``count`` exchanges (the
    lesson's exchanges read once already, as in a session: their facts are kept)."""
    run = filled(course, count)
    times = []
    kind = ""
    for _ in range(repeat + 1):  # the first one reads the facts: not counted
        started = time.perf_counter()
        kind = run.observe(last).kind
        times.append((time.perf_counter() - started) * 1000)
        run.state.exchanges.pop()
        run.state.passed = False
    return statistics.median(times[1:]), kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exchanges", type=int, default=MAX_EXCHANGES - 1)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    lost = Course("b", (Chapter("c", "C"),), (parse_lesson(LOST_UPDATE),), "here")
    first = bundled_course()
    miss = exchange("PATCH", "/products/1", 200, (("If-Match", '"nope"'),))
    good = exchange("PATCH", "/products/1", 200, (("If-Match", '"4"'),))
    print(f"one exchange checked, after {args.exchanges} (median of {args.repeat}):")
    for label, course, last in (
        ("lost update, not done", lost, miss),
        ("lost update, done", lost, good),
        ("first bundled lesson, not done", first, exchange("GET", "/customers/2", 200)),
    ):
        for count in sorted({10, 100, args.exchanges}):
            ms, kind = timed(course, count, last, args.repeat)
            print(f"  {label:32} {count:4} exchanges  {ms:7.2f} ms  ({kind})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
