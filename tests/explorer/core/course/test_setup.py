"""How a course starts beside the browser: the server its lessons are for, and whether it
says that server is not reset (explorer.core.course.setup, without Textual)."""

from __future__ import annotations

from explorer.core.course.setup import UNRESET_NOTE, CourseStart


def test_the_lessons_are_on_the_course_s_server_else_the_page_s() -> None:
    assert CourseStart().origin_on("http://shop:8000/customers?page=2") == "http://shop:8000"
    assert CourseStart(origin="http://mock").origin_on("http://shop/") == "http://mock"
    assert CourseStart().origin_on("") == ""  # no page yet: nowhere to start


def test_only_the_bundled_course_without_a_reset_says_so() -> None:
    assert CourseStart().unreset_note == UNRESET_NOTE

    async def reset() -> None:
        return None

    assert CourseStart(reset=reset).unreset_note == ""
