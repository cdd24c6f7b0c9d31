"""``restwalk learn``: check a lesson folder, list with ticks, start over, open the TUI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from explorer.cli import main
from explorer.core.course.catalog import bundled_course
from explorer.core.course.progress import PROGRESS_FILE

GOOD = """+++
id = "{id}"
chapter = "basics"
order = {order}
title = "Lesson {id}"
task = "Do it."

[check]
[[check.steps]]
method = "GET"
+++
Text.
"""


@pytest.fixture
def data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """restwalk's data directory, empty, for this test."""
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def lessons(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "lessons"
    root.mkdir()
    (root / "chapters.toml").write_text('[[chapters]]\nid = "basics"\ntitle = "Basics"\n')
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_prints_a_line_per_bad_file_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = lessons(tmp_path, {"a.md": GOOD.format(id="a", order=1), "b.md": "+++\nid = 1\n"})
    code, out, err = run(capsys, "learn", "check", str(root))
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        f"{root / 'b.md'}: the front matter is never closed: end it with a +++ line"
    ]
    (root / "b.md").unlink()
    code, out, err = run(capsys, "learn", "check", str(root))
    assert (code, out, err) == (0, f"{root}: 1 lesson in 1 chapter, all good.\n", "")


def test_check_of_the_bundled_course_is_good(capsys: pytest.CaptureFixture[str]) -> None:
    from explorer.core.course.catalog import bundled_folder

    code, out, _ = run(capsys, "learn", "check", str(bundled_folder()))
    assert code == 0
    assert "all good" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("learn", "check"), "give one folder to check"),
        (("learn", "check", "a", "b"), "give one folder to check"),
        (("learn", "http://a.test", "http://b.test"), "give at most one URL"),
        (("learn", "--lessons", "/no/such/folder", "--list"), "is not a folder"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], data: Path, argv: tuple[str, ...], said: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1
    assert said in err


def test_list_ticks_what_was_done_and_reset_starts_over(
    capsys: pytest.CaptureFixture[str], data: Path
) -> None:
    course = bundled_course()
    first = course.lessons[0]
    data.mkdir()
    (data / PROGRESS_FILE).write_text(
        json.dumps({"bundled": {"done": [first.id], "current": first.id}})
    )
    code, out, _ = run(capsys, "learn", "--list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{course.title}: 1 of {len(course.lessons)} lessons done"
    assert f"✓ 1.1 {first.title}" in out
    assert f"  1. {course.chapters[0].title} (1/" in out
    code, out, _ = run(capsys, "learn", "--reset")
    assert (code, out) == (0, f"{course.title}: starting over (1 lessons were done).\n")
    code, out, _ = run(capsys, "learn", "--list")
    assert "✓" not in out


def test_a_broken_progress_file_is_one_line_and_reset_mends_it(
    capsys: pytest.CaptureFixture[str], data: Path
) -> None:
    data.mkdir()
    (data / PROGRESS_FILE).write_text("{broken")
    code, out, err = run(capsys, "learn", "--list")
    assert (code, out) == (1, "")
    assert "is not JSON: restwalk learn --reset starts over" in err
    assert run(capsys, "learn", "--reset")[0] == 0
    assert run(capsys, "learn", "--list")[0] == 0


def test_a_teachers_folder_has_its_own_progress(
    capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path
) -> None:
    root = lessons(tmp_path, {"a.md": GOOD.format(id="a", order=1)})
    code, out, _ = run(capsys, "learn", "--lessons", str(root), "--list")
    assert code == 0
    assert out.splitlines() == [
        "Learn HTTP: 0 of 1 lessons done",
        "  1. Basics (0/1)",
        "       1.1 Lesson a",
    ]


def test_learn_opens_the_tui_with_the_course_shown(
    capsys: pytest.CaptureFixture[str], data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from explorer.cli import tui
    from explorer.ui import app

    opened: dict[str, Any] = {}

    def run_app(url: str, settings: object, **kw: Any) -> int:
        opened.update(kw, url=url)
        return 0

    monkeypatch.setattr(tui, "check_terminal", lambda: None)
    monkeypatch.setattr(app, "run_app", run_app)
    monkeypatch.setenv("RESTWALK_MOCK_PORT", "0")
    assert run(capsys, "learn")[0] == 0
    course = opened["course"]
    assert course.opened
    assert course.reset is not None  # the bundled mock, reset in-process
    assert opened["url"].startswith("http://127.0.0.1:")
    assert course.course.title == bundled_course().title
    assert run(capsys, "learn", "http://127.0.0.1:9/")[0] == 0
    assert opened["url"] == "http://127.0.0.1:9/"
    assert opened["course"].reset is None  # another server: the course's [reset], if any


def test_a_lesson_file_is_text_never_terminal_control(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = lessons(
        tmp_path,
        {"a.md": GOOD.format(id="a", order=1).replace("[check]", '"\\u001b[2J" = 1\n[check]')},
    )
    code, out, _ = run(capsys, "learn", "check", str(root))
    assert code == 1
    assert "\x1b" not in out
    assert "unknown key" in out
