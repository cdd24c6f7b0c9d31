"""Syntax highlighting of one line at a time (pygments), in the theme's foreground colours."""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from rich.segment import Segment
from rich.style import Style
from rich.syntax import PygmentsSyntaxTheme
from textual.strip import Strip

__all__ = ["LineHighlighter", "lexer_for"]


def lexer_for(language: str | None) -> Lexer | None:
    """The pygments lexer for ``language`` (an alias), None for plain text."""
    if not language:
        return None
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


class LineHighlighter:
    """Turns a line into highlighted segments; token styles are worked out once each."""

    def __init__(self, theme: str = "monokai") -> None:
        self._theme = PygmentsSyntaxTheme(theme)
        self._token_styles: dict[object, Style] = {}

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
        drawn: made straight from the tokens, five times quicker than a ``Text`` rendered."""
        segments = [
            Segment(piece, self._token_style(token_type))
            for token_type, value in lexer.get_tokens(line)
            if (piece := value.rstrip("\n"))
        ]
        return Strip(segments, len(line) if line.isascii() else None)
