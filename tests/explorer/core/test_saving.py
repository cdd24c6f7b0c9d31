"""Saving a response body: the name suggested, and never replacing a file unasked."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.core.bodies.saving import FileExists, SaveProblem, save_body, suggested_name


@pytest.mark.parametrize(
    ("url", "content_type", "disposition", "name"),
    [
        ("http://x.example/customers/1", "application/hal+json", None, "1.json"),
        ("http://x.example/report.csv", "text/csv", None, "report.csv"),
        ("http://x.example/", "text/html; charset=utf-8", None, "response.html"),
        ("http://x.example/a%20b", None, None, "a b"),
        (
            "http://x.example/x",
            "image/png",
            'attachment; filename="../../etc/passwd"',
            "passwd.png",
        ),
        (
            "http://x.example/x",
            None,
            "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
            "r_sum_.pdf",
        ),
    ],
)
def test_suggested_name(
    url: str, content_type: str | None, disposition: str | None, name: str
) -> None:
    assert suggested_name(url, content_type, disposition) == name


def test_the_exact_bytes_are_written_and_nothing_is_replaced_unasked(tmp_path: Path) -> None:
    body = bytes(range(256))
    target = tmp_path / "body.bin"
    assert save_body(target, body) == target.resolve()
    assert target.read_bytes() == body
    with pytest.raises(FileExists, match=r"body\.bin exists"):
        save_body(target, b"other")
    assert target.read_bytes() == body
    save_body(target, b"other", overwrite=True)
    assert target.read_bytes() == b"other"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["body.bin"]  # no temporary left


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o664])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    """QA pass 2, 7: a file replaced became 0600 (the temporary file's mode)."""
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    target.chmod(mode)
    save_body(target, b"new", overwrite=True)
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == mode


def test_a_setuid_bit_is_not_carried_to_the_body(tmp_path: Path) -> None:
    target = tmp_path / "tool"
    target.write_bytes(b"old")
    target.chmod(0o4755)
    save_body(target, b"new", overwrite=True)
    assert target.stat().st_mode & 0o7777 == 0o755


def test_bad_places_are_explained(tmp_path: Path) -> None:
    with pytest.raises(SaveProblem, match="does not exist"):
        save_body(tmp_path / "no" / "such.bin", b"x")
    with pytest.raises(SaveProblem, match="directory"):
        save_body(tmp_path, b"x")
    with pytest.raises(SaveProblem, match="cannot be written: File name too long"):
        save_body(tmp_path / ("x" * 300), b"x")  # (stat fails too, not only open)
