"""What every hostile test asserts of what reached the terminal."""

from __future__ import annotations

import re

# C0 but tab, line feed and a carriage return ending a line; DEL; C1 (as UTF-8); and
# the bidi controls and line separators (U+061C, U+200E-F, U+2028-E, U+2066-9).
_CONTROL_BYTES = re.compile(
    rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|\xc2[\x80-\x9f]"
    rb"|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
)


def control_bytes(data: bytes) -> list[bytes]:
    """The bytes in ``data`` a terminal would act on (none must come from a server)."""
    return _CONTROL_BYTES.findall(data)


def one_line_error(err: bytes) -> str:
    """The one ``restwalk: ...`` line of a failure (and no traceback)."""
    text = err.decode("utf-8")
    assert "Traceback" not in text
    assert "internal error" not in text
    lines = text.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("restwalk: ")
    return lines[0]
