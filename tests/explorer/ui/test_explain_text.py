"""Server text in the explanations' Markdown: shown as visible_line makes it, never read.

Textual's Markdown widget parses with markdown-it-py's "gfm-like" preset (tables,
strikethrough, raw HTML, linkify); :func:`literal` text must come out of it as one
plain text, whatever it holds.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from explorer.core.text.terminal_text import visible_line
from explorer.ui.explain_text import literal

#: Text rich in what Markdown reads: punctuation, URLs, entities, escapes, controls.
_PIECES = [
    *"\\`*_[]()<>!&#~|:/.-+=1 aZ\x1b\x07\t\n\r\u202e",
    *["http://e.x/", "&amp;", "<b>", "](", "![", "~~", "**", "    ", "1. ", "> "],
]
MARKDOWNISH = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


def _shown(markdown: str) -> list[tuple[str, str]]:
    """(type, content) of the inline tokens markdown-it makes of ``markdown``'s one line."""
    (inline,) = [token for token in MarkdownIt("gfm-like").parse(markdown) if token.children]
    return [(child.type, child.content) for child in inline.children or ()]


@given(text=st.one_of(MARKDOWNISH, st.text(max_size=40)))
def test_literal_text_is_one_plain_text_where_it_is_put(text: str) -> None:
    expected = visible_line(text)
    for marker in ("# ", "- ", ""):  # a heading, a list item, a paragraph
        assert _shown(f"{marker}x {literal(text)} y") == [("text", f"x {expected} y")]


def test_the_qa_reason_phrase_is_shown_as_it_came() -> None:
    """QA pass 3, defect 7: linkify made a link of the OSC 8 URL, and inside it the
    escapes showed ("␛\\\\CLICK␛\\]8")."""
    reason = (
        "\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\\x1b]0;HACKED TITLE\x07[bold red]x[/]"
    )
    assert _shown(f"# 418 {literal(reason)}") == [
        ("text", "418 ␛]8;;http://evil.example/␛\\CLICK␛]8;;␛\\␛]0;HACKED TITLE␇[bold red]x[/]")
    ]
