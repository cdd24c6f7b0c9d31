"""A bracketed paste stays one Paste event whatever it holds (Textual alone turns a pasted
ESC into key presses, an Enter among them); keys typed around it stay keys."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from explorer.ui.app import create_app
from explorer.ui.pasted_keys import PASTE_END, PASTE_START, _parser_class, paste_safe

#: The paste QA made: a curl line with a colour escape, a BEL, a line break, a $(...).
QA_PASTE = 'curl "unterminated \x1b[31mRED \x07\rline2 $(rm -rf /) `id`'


def parse(parser: XTermParser, chunks: list[str]) -> list[Message]:
    found: list[Message] = []
    for chunk in chunks:
        found += parser.feed(chunk)
    found += parser.feed("")
    return found


def test_textual_alone_turns_a_pasted_escape_into_keys() -> None:
    """Why restwalk filters: when this fails, Textual reads such pastes itself."""
    found = parse(XTermParser(), [PASTE_START + QA_PASTE + PASTE_END])
    assert any(isinstance(m, events.Key) and m.key == "enter" for m in found)


def test_the_qa_paste_is_one_paste_without_its_escape() -> None:
    found = parse(_parser_class()(), [PASTE_START + QA_PASTE + PASTE_END])
    assert [(type(m), getattr(m, "text", None)) for m in found] == [
        (events.Paste, QA_PASTE.replace("\x1b", ""))
    ]


pasted = st.text(alphabet="ab \x1b[201~\r\n\x07$`é", max_size=40).filter(
    lambda text: PASTE_END not in text
)
typed = st.text(alphabet="xyz", max_size=5)


@given(before=typed, text=pasted, after=typed, cuts=st.lists(st.integers(0, 70), max_size=6))
def test_a_paste_read_in_any_pieces_is_one_paste_between_the_keys(
    before: str, text: str, after: str, cuts: list[int]
) -> None:
    stream = before + PASTE_START + text + PASTE_END + after
    points = sorted({min(c, len(stream)) for c in cuts} | {0, len(stream)})
    chunks = [stream[a:b] for a, b in itertools.pairwise(points) if b > a]
    found = parse(_parser_class()(), chunks)
    pastes = [m.text for m in found if isinstance(m, events.Paste)]
    keys = "".join(m.character or "" for m in found if isinstance(m, events.Key))
    assert pastes == [text.replace("\x1b", "")]
    assert keys == before + after


def test_the_app_reads_the_terminal_through_the_filter() -> None:
    driver = create_app("http://127.0.0.1:1/").driver_class
    assert issubclass(driver, LinuxDriver)
    assert driver is paste_safe(LinuxDriver)
    # The hook: Textual's driver builds its parser from its module's name XTermParser.
    assert "XTermParser" in LinuxDriver.run_input_thread.__code__.co_names


def test_keys_outside_a_paste_pass_at_once() -> None:
    from explorer.ui.pasted_keys import PasteFilter

    keys = PasteFilter()
    assert keys.feed("\x1b") == "\x1b"  # the Escape key: never held back
    assert keys.feed("\x1b[A") == "\x1b[A"
    assert keys.feed("\x1b[20") == "\x1b[20"  # perhaps a paste starting: passed on anyway
    assert keys.feed("0~a\x1bb\x1b[20") == "0~ab"  # it was; the end marker may be coming
    assert keys.feed("1~\x1b") == "\x1b[201~\x1b"
