"""Syntax highlighting of one line at a time (pygments), in the theme's foreground colours."""

from __future__ import annotations

from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from rich.segment import Segment
from rich.style import Style
from rich.syntax import PygmentsSyntaxTheme
from textual.strip import Strip

__all__ = ["LineHighlighter", "lexer_for"]


@lru_cache(maxsize=64)
def lexer_for(language: str | None) -> Lexer | None:
    """The pygments lexer for ``language`` (an alias), None for plain text.

    One lexer for each language: the lines a :class:`LineHighlighter` keeps are kept for
    their lexer, and a lexer made for each body kept none from one body to the next (a
    page's ``},`` and ``"_links": {``, a page followed back: some 20 lines lexed again a
    followed page). A lexer keeps only its options; lexing reads them, from any thread.
    """
    if not language:
        return None
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


#: Lines kept highlighted (see :meth:`LineHighlighter.strip`), forgotten all at once past this.
LINES_KEPT = 2000
#: Lines up to this long are kept.
KEPT_LENGTH = 200


class LineHighlighter:
    """Turns a line into highlighted segments; token styles are worked out once each, and
    a short line once for each lexer (a body repeats its ``},`` and ``"_links": {``, and
    pages their lines: a page followed back draws its lines without pygments)."""

    def __init__(self, theme: str = "monokai") -> None:
        self._theme = PygmentsSyntaxTheme(theme)
        self._token_styles: dict[object, Style] = {}
        # (a plain dict, only got, set and cleared: a thread highlights with it too)
        self._lines: dict[tuple[Lexer, str], Strip] = {}

    def _token_style(self, token_type: object) -> Style:
        # The theme's foreground only: its background would box each token on our surface.
        style = self._token_styles.get(token_type)
        if style is None:
            themed = self._theme.get_style_for_token(token_type)  # type: ignore[arg-type]
            style = Style(color=themed.color, bold=themed.bold, italic=themed.italic)
            self._token_styles[token_type] = style
        return style

    def strip(self, lexer: Lexer, line: str) -> Strip:
        """``line`` highlighted by ``lexer`` (plain text in, never markup), as the segments
        drawn: made straight from the tokens, five times quicker than a ``Text`` rendered.
        A line highlighted before by ``lexer`` is the strip it was (a line alone is lexed
        the same each time)."""
        short = len(line) <= KEPT_LENGTH
        if short and (kept := self._lines.get((lexer, line))) is not None:
            return kept
        segments = [
            Segment(piece, self._token_style(token_type))
            for token_type, value in lexer.get_tokens(line)
            if (piece := value.rstrip("\n"))
        ]
        strip = Strip(segments, len(line) if line.isascii() else None)
        if short:
            if len(self._lines) >= LINES_KEPT:
                self._lines.clear()
            self._lines[lexer, line] = strip
        return strip
