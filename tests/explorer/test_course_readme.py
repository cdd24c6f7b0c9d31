"""The README's "Learn HTTP" shows a real lesson file, whole, and a real screenshot."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.core.course.catalog import bundled_folder

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_lesson_is_the_file_it_names() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Learn HTTP") :]
    named = re.search(r"This is `explorer/course/(lessons/[^`]+\.md)`, whole", section)
    assert named is not None
    shown = re.search(r"```markdown\n(.*?)```", section, re.S)
    assert shown is not None
    assert shown.group(1) == (bundled_folder() / named.group(1)).read_text(encoding="utf-8")
    assert (ROOT / "screenshots" / "course.svg").is_file()
    assert "(screenshots/course.svg)" in section
