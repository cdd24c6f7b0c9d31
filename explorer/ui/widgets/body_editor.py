"""BodyEditor: the composer's request body, highlighted with pygments.

Textual's TextArea highlights only through tree-sitter, which restwalk does
not depend on. This editor fills TextArea's highlight map from pygments
tokens instead (the same lexers as the response view), using the style
names of TextArea's themes: so JSON and XML bodies are coloured as they are
typed, with nothing more installed. Request bodies are small: the whole text
is lexed again after each edit.
"""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import Token, _TokenType
from pygments.util import ClassNotFound
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult

from explorer.core.text.terminal_text import visible

#: Pygments token type -> TextArea theme style name; the first ancestor found wins.
_STYLE_NAMES: dict[_TokenType, str] = {
    Token.Name.Tag: "json.label",
    Token.Name.Attribute: "css.property",
    Token.Keyword.Constant: "boolean",
    Token.Keyword: "keyword",
    Token.Literal.String: "string",
    Token.Literal.Number: "number",
    Token.Comment: "comment",
    Token.Operator: "operator",
    Token.Name.Builtin: "type.builtin",
}
#: Where XML/HTML names tags differently from JSON's keys.
_MARKUP_STYLE_NAMES: dict[_TokenType, str] = {Token.Name.Tag: "tag"}


def _style_name(token_type: _TokenType, markup: bool) -> str | None:
    while token_type is not Token:
        if markup and token_type in _MARKUP_STYLE_NAMES:
            return _MARKUP_STYLE_NAMES[token_type]
        if token_type in _STYLE_NAMES:
            return _STYLE_NAMES[token_type]
        token_type = token_type.parent
    return None


class BodyEditor(TextArea):
    """A TextArea for request bodies, highlighted as ``syntax`` (a pygments alias)."""

    def __init__(
        self,
        text: str = "",
        *,
        syntax: str | None = "json",
        id: str | None = None,
        show_line_numbers: bool = False,
    ) -> None:
        self._syntax_lexer: Lexer | None = None
        self._markup = False
        super().__init__(visible(text), id=id, show_line_numbers=show_line_numbers)
        self.syntax = syntax

    # What the editor holds may come from a server (a form's suggested values, a
    # resource's body to edit): Textual draws it as it is, so every way text comes
    # in makes its control characters visible (ESC as ␛), tabs and line breaks kept.

    def load_text(self, text: str) -> None:
        """Replace the text (its control characters made visible)."""
        super().load_text(visible(text))

    def edit(self, edit: Edit) -> EditResult:
        """Perform ``edit`` (typed, pasted or made by code), its text made visible."""
        edit.text = visible(edit.text)
        return super().edit(edit)

    @property
    def syntax(self) -> str | None:
        """The pygments lexer alias the body is highlighted as (None: plain)."""
        return self._syntax_lexer.aliases[0] if self._syntax_lexer else None

    @syntax.setter
    def syntax(self, alias: str | None) -> None:
        try:
            lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False) if alias else None
        except ClassNotFound:
            lexer = None
        self._syntax_lexer = lexer
        self._markup = alias in ("xml", "html")
        self._build_highlight_map()
        self.refresh()

    def _build_highlight_map(self) -> None:
        # Called by TextArea whenever the text changes; fills the same map
        # tree-sitter would: row -> [(start byte, end byte, style name)].
        self._line_cache.clear()
        highlights = self._highlights
        highlights.clear()
        lexer = getattr(self, "_syntax_lexer", None)
        if lexer is None:
            return
        row = 0
        column = 0
        for token_type, value in lexer.get_tokens(self.text):
            name = _style_name(token_type, self._markup)
            for index, piece in enumerate(value.split("\n")):
                if index:
                    row += 1
                    column = 0
                size = len(piece.encode("utf-8"))
                if name is not None and size:
                    highlights[row].append((column, column + size, name))
                column += size
