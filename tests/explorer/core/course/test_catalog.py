"""A lesson folder read strictly: the bundled course is good, every bad file is one line."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.core.course.catalog import bundled_course, bundled_folder, check_folder

GOOD = """+++
id = "{id}"
chapter = "basics"
order = {order}
title = "A lesson"
task = "Do it."

[check]
[[check.steps]]
method = "GET"
+++
Text.
"""


def folder(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "chapters.toml").write_text('[[chapters]]\nid = "basics"\ntitle = "Basics"\n')
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_bundled_course_is_good_and_follows_the_chapters() -> None:
    assert check_folder(bundled_folder()) == []
    course = bundled_course()
    assert [c.id for c in course.chapters][:6] == [
        "resources",
        "methods",
        "statuses",
        "hypermedia",
        "paging",
        "negotiation",
    ]
    order = [course.chapters.index(course.chapter(lesson.chapter)) for lesson in course.lessons]
    assert order == sorted(order)
    assert (bundled_folder() / "FORMAT.md").is_file()


def test_no_lesson_says_the_spec() -> None:
    # QA: "the spec" meant restwalk's own spec, which a learner cannot tell from an RFC:
    # a lesson names the RFC and section, or says the choice is restwalk's mock's.
    lessons = sorted((bundled_folder() / "lessons").rglob("*.md"))
    assert lessons
    said = [p.name for p in lessons if re.search(r"\bthe spec\b|\bspec's\b", p.read_text(), re.I)]
    assert said == []


def test_every_bad_file_is_named_once(tmp_path: Path) -> None:
    good = GOOD.format(id="one", order=1)
    place = tmp_path / "lessons"
    place.mkdir()
    root = folder(
        tmp_path,
        {
            "a.md": good,
            "lessons/b.md": GOOD.format(id="one", order=2),  # the same id
            "c.md": "no front matter",
            "d.md": good.replace('chapter = "basics"', 'chapter = "nope"').replace('"one"', '"d"'),
            "e.md": good.replace('"one"', '"e"')
            .replace("[check]", 'more_hints = ["x"]\n[check]')
            .replace('method = "GET"', 'method = "GET"\nstart = "/"'),
            "f.md": good.replace('"one"', '"f"')
            .replace("order = 1", "order = 3")
            .replace("Text.\n", ""),
            "README.md": "not a lesson",
        },
    )
    lines = sorted(problem.line() for problem in check_folder(root))
    assert len(lines) == 5
    assert lines[0].startswith(f"{root / 'c.md'}: the file must start with a +++ line")
    assert "chapter: no chapter 'nope'" in lines[1]
    assert "'start' is a key of the lesson, not of a step" in lines[2]
    assert "has no text after the front matter" in lines[3]
    assert "id: 'one' is the id of" in lines[4]
