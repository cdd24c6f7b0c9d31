"""A lesson followed: its check over exchanges in order, near misses, show me, progress."""

from __future__ import annotations

import json
from pathlib import Path

from explorer.core.course.catalog import Chapter, Course
from explorer.core.course.lesson import parse_lesson
from explorer.core.course.progress import Progress
from explorer.core.course.run import CourseRun
from tests.explorer.core.course.exchanges import ORIGIN, exchange

LOST_UPDATE = """+++
id = "lost-update"
chapter = "conditional"
order = 1
title = "The lost update"
start = "/products"
task = "Change product 1's price without overwriting a colleague's change."
more_hints = ["Read it first.", "Send If-Match."]

[check]
[[check.steps]]
name = "refused"
method = ["PUT", "PATCH"]
path = "/products/1"
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
text = "You sent If-Match, but with an ETag from another resource."
[[hints.steps]]
name = "other"
method = "GET"
not = { path = "/products/1" }
[[hints.steps]]
path = "/products/1"
request_headers = { "If-Match" = "${other.response.ETag}" }

[show_me]
method = "PATCH"
url = "/products/1"
headers = { "If-Match" = "${last.response.ETag}" }
body = '{"cost": 1}'

[[others]]
after = { method = "GET", path = "/products/1" }
method = "PATCH"
url = "/products/1"
body = '{"cost": 2}'
say = "A colleague changed it."
+++
Text.
"""


def course(*texts: str) -> Course:
    lessons = tuple(parse_lesson(text, f"l{n}.md") for n, text in enumerate(texts))
    chapters = tuple(Chapter(c, c) for c in dict.fromkeys(lesson.chapter for lesson in lessons))
    return Course("t", (*chapters,), lessons, "here")


def run_of(*texts: str, progress: Progress | None = None) -> CourseRun:
    run = CourseRun(course(*texts), ORIGIN, progress or Progress.load(None, "t"))
    run.open(0)
    return run


def etagged(method: str, path: str, etag: str, status: int = 200) -> object:
    return exchange(method, path, status, answer=(("ETag", etag),))


def test_the_start_page_is_kept_but_is_not_the_learners_work() -> None:
    run = run_of(LOST_UPDATE.replace('start = "/products"', 'start = "/products/1"'))
    assert run.start_url == ORIGIN + "/products/1"
    # The start page matches the "read" step of a near miss: it says nothing yet.
    start = run.observe(etagged("GET", "/products/1", '"v1"'))
    assert start.kind == "nothing"
    assert [o.say for o in start.others] == ["A colleague changed it."]
    assert len(run.state.exchanges) == 1
    # A later exchange may use it as an earlier step.
    refused = run.observe(exchange("PATCH", "/products/1", 412))
    assert refused.kind == "nothing"
    assert len(run.state.exchanges) == 2


def test_the_lost_update_in_order_and_with_the_right_etag() -> None:
    run = run_of(LOST_UPDATE)
    run.observe(exchange("GET", "/products"))  # the start page
    first = run.observe(etagged("GET", "/products/1", '"v1"'))
    assert [o.say for o in first.others] == ["A colleague changed it."]
    refused = exchange("PATCH", "/products/1", 412, headers=(("If-Match", '"v1"'),))
    assert run.observe(refused).kind == "nothing"
    # The ETag of the first read is not the one that makes the retry succeed: the check
    # ties If-Match to the read after the 412.
    assert run.observe(etagged("GET", "/products/1", '"v2"')).kind == "nothing"
    stale = exchange("PATCH", "/products/1", 200, headers=(("If-Match", '"v1"'),))
    assert run.observe(stale).kind == "nothing"
    assert not run.done
    good = exchange("PATCH", "/products/1", 200, headers=(("If-Match", '"v2"'),))
    assert run.observe(good).kind == "passed"
    assert run.done
    assert run.progress.done == {"lost-update"}


def test_a_near_miss_speaks_of_the_newest_exchange_only() -> None:
    run = run_of(LOST_UPDATE)
    run.observe(etagged("GET", "/products/2", '"other"'))
    miss = exchange("PATCH", "/products/1", 412, headers=(("If-Match", '"other"'),))
    outcome = run.observe(miss)
    assert outcome.kind == "near-miss"
    assert "another resource" in outcome.text
    assert run.observe(exchange("GET", "/")).kind == "nothing"  # the next one: not again


def test_hints_one_by_one_and_show_me_fills_the_etag_read() -> None:
    run = run_of(LOST_UPDATE)
    assert [run.hint(), run.hint(), run.hint()] == [
        "Read it first.",
        "Send If-Match.",
        "Send If-Match.",
    ]
    spec, note = run.show_me() or (None, "")
    assert spec is not None
    assert dict(spec.headers)["If-Match"] == "${last.response.ETag}"
    assert "Fill in ${last.response.ETag}" in note
    run.observe(etagged("GET", "/products/1", '"v7"'))
    spec, note = run.show_me() or (None, "")
    assert spec is not None
    assert spec.method == "PATCH"
    assert spec.url == ORIGIN + "/products/1"
    assert dict(spec.headers)["If-Match"] == '"v7"'
    assert spec.body == '{"cost": 1}'


def test_progress_survives_and_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    other = Progress.load(path, "other")
    other.mark("x")
    run = run_of(LOST_UPDATE, progress=Progress.load(path, "mine"))
    run.observe(etagged("GET", "/products/1", '"v"'))
    run.observe(exchange("PATCH", "/products/1", 412))
    run.observe(etagged("GET", "/products/1", '"w"'))
    run.observe(exchange("PATCH", "/products/1", 204, headers=(("If-Match", '"w"'),)))
    again = Progress.load(path, "mine")
    assert again.done == {"lost-update"}
    assert again.current == "lost-update"
    again.reset()
    assert Progress.load(path, "mine").done == set()
    assert Progress.load(path, "other").done == {"x"}  # another course's progress stays
    path.write_text("{not json")
    Progress(path, "mine").reset()  # starting over mends a broken file
    assert json.loads(path.read_text()) == {}


POLL = """+++
id = "poll"
chapter = "conditional"
order = 1
title = "Poll the job"
task = "Start a job and follow it."

[check]
[[check.steps]]
method = "POST"

[show_me]
url = "${last.response.Location}"
headers = { Accept = "${last.response.Content-Type}" }
+++
Text.
"""


def test_show_me_whose_url_refers_takes_the_newest_exchange_having_it() -> None:
    run = run_of(POLL)
    spec, note = run.show_me() or (None, "")
    assert spec is not None
    assert spec.url == ORIGIN + "/${last.response.Location}"
    assert "Fill in ${last.response.Location}" in note
    run.observe(exchange("GET", "/reports", answer=(("Content-Type", "text/csv"),)))
    run.observe(exchange("GET", "/customers/1"))
    run.observe(
        exchange("PUT", "/reports", 202, answer=(("Location", "/jobs/7"), ("Content-Type", "a/b")))
    )
    spec, note = run.show_me() or (None, "")
    assert spec is not None
    assert spec.url == ORIGIN + "/jobs/7"
    assert dict(spec.headers)["Accept"] == "a/b"
    assert "Fill in" not in note
    run.observe(exchange("GET", "/reports/7", 404))  # no Location: the 202 still gives it
    spec, _ = run.show_me() or (None, "")
    assert spec is not None
    assert spec.url == ORIGIN + "/jobs/7"
