"""Split a command line into words as a POSIX shell does, without running anything.

What a shell would do to a pasted ``curl ...`` line before curl sees it:

- ``'...'`` is literal; ``"..."`` is literal but for ``\\`` before ``$ ` " \\``
  and a line break, and ``$NAME``; ``$'...'`` (bash, zsh, ksh) reads C escapes
  (``\\n``, ``\\x41``, ``\\u00e9``...); outside quotes ``\\`` keeps the next
  character as it is, and ``\\`` at the end of a line joins the next one;
- ``$NAME`` and ``${NAME}`` are replaced by the value ``env`` gives them; a
  name ``env`` does not hold is kept as written and listed in
  :attr:`ShellLine.unset` (a shell would put an empty string there, silently);
- ``$(...)`` and backquotes are never run: they are kept as written and listed;
- ``|``, ``||``, ``&&``, ``;`` and ``&`` end the command (``| jq .`` is the
  shell's business, listed in :attr:`ShellLine.after`); ``> file``, ``2>&1``,
  ``< file`` are redirections, listed and left out; ``#`` starts a comment.

Bytes written as ``\\xHH`` that are not UTF-8 are kept as surrogate escapes
(``word.encode("utf-8", "surrogateescape")`` gives them back).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ShellLine", "ShellSyntaxError", "quote_word", "split_line"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMETER = re.compile(r"[0-9@*#?$!-]")
_C_ESCAPES = {
    "a": 7,
    "b": 8,
    "e": 27,
    "E": 27,
    "f": 12,
    "n": 10,
    "r": 13,
    "t": 9,
    "v": 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
}
_REDIRECTION = re.compile(r"(?:[0-9]*|&)(?:>>|>&|>\||>|<<<|<<|<>|<&|<)")
_OPERATORS = ("||", "&&", "|&", "|", ";", "&")
_DOUBLE_QUOTE_ESCAPES = '$`"\\'


class ShellSyntaxError(ValueError):
    """The line is not a complete shell command (an unclosed quote, a dangling ``\\``)."""


@dataclass
class ShellLine:
    """The words of one command, and what the shell would have done besides."""

    words: list[str] = field(default_factory=list)
    #: ``$NAME`` the environment given holds no value for (kept as written).
    unset: list[str] = field(default_factory=list)
    #: ``$NAME`` replaced by their values.
    expanded: list[str] = field(default_factory=list)
    #: ``$(...)`` and backquoted commands, kept as written, never run.
    substitutions: list[str] = field(default_factory=list)
    #: Redirections left out, as written (``> out.json``, ``2>&1``).
    redirections: list[str] = field(default_factory=list)
    #: The rest of the line after an operator that ends the command (``| jq .``).
    after: str = ""
    #: What a here-document (``<< EOF``) or here-string (``<<< text``) gives as input.
    stdin: str | None = None
    #: The file ``< FILE`` gives as input.
    stdin_file: str | None = None


class _Reader:
    """One pass over the text, word by word."""

    def __init__(self, text: str, env: Mapping[str, str] | None) -> None:
        # A backslash before a line break joins the lines, outside single quotes;
        # it is undone as the text is read (inside '...' it stays).
        self.text = text
        self.pos = 0
        self.env = env
        self.line = ShellLine()

    def peek(self, count: int = 1) -> str:
        return self.text[self.pos : self.pos + count]

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    # -- words -----------------------------------------------------------------------

    def run(self) -> ShellLine:
        while True:
            self.skip_blanks()
            if self.at_end():
                return self.line
            char = self.peek()
            if char == "#":
                self.skip_comment()
                continue
            operator = next((op for op in _OPERATORS if self.text.startswith(op, self.pos)), None)
            if operator is not None:
                self.line.after = self.text[self.pos :].strip()
                return self.line
            redirection = _REDIRECTION.match(self.text, self.pos)
            if redirection is not None and redirection.group(0):
                self.redirect(redirection.group(0))
                continue
            self.line.words.append(self.word())

    def skip_blanks(self) -> None:
        while not self.at_end():
            if self.peek(2) == "\\\n":
                self.pos += 2
            elif self.peek(3) == "\\\r\n":
                self.pos += 3
            elif self.peek() in " \t\r\n":
                self.pos += 1
            else:
                return

    def skip_comment(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end + 1

    def redirect(self, operator: str) -> None:
        start = self.pos
        self.pos += len(operator)
        target = None
        if not operator.endswith("&") or self.peek() in "0123456789-":
            self.skip_blanks()
            if not self.at_end() and self.peek() not in "|;&":
                target = self.word()
        written = self.text[start : self.pos].strip()
        bare = operator.lstrip("0123456789")
        if bare == "<<" and target is not None:
            self.here_document(target, strip_tabs=target.startswith("-"))
        elif bare == "<<<" and target is not None:
            self.line.stdin = target + "\n"
        elif bare == "<" and target is not None:
            self.line.stdin_file = target
        self.line.redirections.append(written)

    def here_document(self, delimiter: str, *, strip_tabs: bool) -> None:
        """Take the lines after this one, up to ``delimiter``, out of the text as input."""
        delimiter = delimiter.lstrip("-")
        newline = self.text.find("\n", self.pos)
        if newline < 0:
            raise ShellSyntaxError(f"the here-document <<{delimiter} has no lines")
        body: list[str] = []
        index = newline + 1
        while index <= len(self.text):
            end = self.text.find("\n", index)
            end = len(self.text) if end < 0 else end
            line = self.text[index:end]
            if (line.lstrip("\t") if strip_tabs else line).rstrip("\r") == delimiter:
                self.line.stdin = "".join(f"{each}\n" for each in body)
                self.text = self.text[: newline + 1] + self.text[end + 1 :]
                return
            body.append(line.lstrip("\t") if strip_tabs else line)
            index = end + 1
        raise ShellSyntaxError(f"the here-document <<{delimiter} never ends with {delimiter}")

    def word(self) -> str:
        parts: list[str] = []
        while not self.at_end():
            char = self.peek()
            if char in " \t\r\n|;&<>":
                break
            if char == "\\":
                nxt = self.text[self.pos + 1 : self.pos + 2]
                if nxt == "\n":
                    self.pos += 2
                elif self.text.startswith("\r\n", self.pos + 1):
                    self.pos += 3
                elif nxt:
                    parts.append(nxt)
                    self.pos += 2
                else:
                    self.pos += 1  # a lone backslash at the very end: nothing to escape
            elif char == "'":
                parts.append(self.single_quoted())
            elif char == '"':
                parts.append(self.double_quoted())
            elif char == "$":
                parts.append(self.dollar(quoted=False))
            elif char == "`":
                parts.append(self.backquoted())
            else:
                parts.append(char)
                self.pos += 1
        return "".join(parts)

    # -- quotes ----------------------------------------------------------------------

    def single_quoted(self) -> str:
        start = self.pos
        end = self.text.find("'", start + 1)
        if end < 0:
            raise ShellSyntaxError(f"the single quote at character {start + 1} is never closed")
        self.pos = end + 1
        return self.text[start + 1 : end]

    def double_quoted(self) -> str:
        start = self.pos
        self.pos += 1
        parts: list[str] = []
        while True:
            if self.at_end():
                raise ShellSyntaxError(f"the double quote at character {start + 1} is never closed")
            char = self.peek()
            if char == '"':
                self.pos += 1
                return "".join(parts)
            if char == "\\":
                nxt = self.text[self.pos + 1 : self.pos + 2]
                if nxt == "\n":
                    self.pos += 2
                elif nxt and nxt in _DOUBLE_QUOTE_ESCAPES:
                    parts.append(nxt)
                    self.pos += 2
                else:
                    parts.append("\\")
                    self.pos += 1
            elif char == "$":
                parts.append(self.dollar(quoted=True))
            elif char == "`":
                parts.append(self.backquoted())
            else:
                parts.append(char)
                self.pos += 1

    def ansi_c_quoted(self) -> str:
        """``$'...'``: the C escapes read, as bytes, then decoded (bad bytes kept)."""
        start = self.pos
        self.pos += 2
        data = bytearray()
        while True:
            if self.at_end():
                raise ShellSyntaxError(f"the quote $' at character {start + 1} is never closed")
            char = self.peek()
            self.pos += 1
            if char == "'":
                return data.decode("utf-8", "surrogateescape")
            if char != "\\":
                data += char.encode("utf-8", "surrogateescape")
                continue
            data += self.c_escape()

    def c_escape(self) -> bytes:
        char = self.peek()
        if not char:
            return b"\\"
        self.pos += 1
        if char in _C_ESCAPES:
            return bytes([_C_ESCAPES[char]])
        if char == "x":
            digits = re.match(r"[0-9A-Fa-f]{1,2}", self.text[self.pos : self.pos + 2])
            if digits is None:
                return b"\\x"
            self.pos += len(digits.group(0))
            return bytes([int(digits.group(0), 16)])
        if char in "uU":
            size = 4 if char == "u" else 8
            digits = re.match(rf"[0-9A-Fa-f]{{1,{size}}}", self.text[self.pos : self.pos + size])
            if digits is None:
                return b"\\" + char.encode()
            self.pos += len(digits.group(0))
            code = int(digits.group(0), 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return b"\\" + char.encode() + digits.group(0).encode()
            return chr(code).encode("utf-8")
        if char in "01234567":
            digits = re.match(r"[0-7]{1,3}", self.text[self.pos - 1 : self.pos + 2])
            assert digits is not None
            self.pos += len(digits.group(0)) - 1
            return bytes([int(digits.group(0), 8) & 0xFF])
        if char == "c" and self.peek():
            control = self.peek()
            self.pos += 1
            return bytes([ord(control) & 0x1F]) if control.isascii() else control.encode()
        return b"\\" + char.encode("utf-8", "surrogateescape")

    # -- expansions ------------------------------------------------------------------

    def dollar(self, *, quoted: bool) -> str:
        nxt = self.text[self.pos + 1 : self.pos + 2]
        if nxt == "'" and not quoted:
            return self.ansi_c_quoted()
        if nxt == '"' and not quoted:
            self.pos += 1  # $"..." is "..." translated: the same text here
            return self.double_quoted()
        if nxt == "(":
            return self.substitution()
        if nxt == "{":
            end = self.text.find("}", self.pos + 2)
            if end < 0:
                raise ShellSyntaxError(f"the ${{ at character {self.pos + 1} is never closed")
            written = self.text[self.pos : end + 1]
            self.pos = end + 1
            name = written[2:-1]
            if not _NAME.fullmatch(name):
                self.line.unset.append(written)  # ${NAME:-default} and such: kept
                return written
            return self.variable(name, written)
        name_match = _NAME.match(self.text, self.pos + 1)
        if name_match is not None:
            self.pos = name_match.end()
            return self.variable(name_match.group(0), f"${name_match.group(0)}")
        special = _SPECIAL_PARAMETER.match(self.text, self.pos + 1)
        if special is not None:
            self.pos = special.end()
            written = f"${special.group(0)}"
            self.line.unset.append(written)
            return written
        self.pos += 1
        return "$"

    def variable(self, name: str, written: str) -> str:
        value = self.env.get(name) if self.env is not None else None
        if value is None:
            self.line.unset.append(written)
            return written
        self.line.expanded.append(written)
        return value

    def substitution(self) -> str:
        start = self.pos
        depth = 0
        index = self.pos + 1
        while index < len(self.text):
            char = self.text[index]
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        else:
            raise ShellSyntaxError(f"the $( at character {start + 1} is never closed")
        self.pos = index + 1
        written = self.text[start : self.pos]
        self.line.substitutions.append(written)
        return written

    def backquoted(self) -> str:
        start = self.pos
        end = self.text.find("`", start + 1)
        if end < 0:
            raise ShellSyntaxError(f"the backquote at character {start + 1} is never closed")
        self.pos = end + 1
        written = self.text[start : self.pos]
        self.line.substitutions.append(written)
        return written


def split_line(text: str, env: Mapping[str, str] | None = None) -> ShellLine:
    """The words of the first command in ``text``, as a POSIX shell would hand them over.

    ``env`` gives the values of ``$NAME`` (None: every variable is kept as written).
    A terminal pastes line breaks as CR, which the terminal driver turns into LF
    before a shell reads them (``icrnl``): so are they here. Raises
    :class:`ShellSyntaxError` for an unclosed quote or substitution.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _Reader(text, env).run()


_BARE = re.compile(r"[A-Za-z0-9@%+=:,./_-]+")
_NEEDS_ANSI_C = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def quote_word(word: str, *, always: bool = False) -> str:
    """``word`` written so that a POSIX shell hands it over unchanged.

    Plain words stay bare (unless ``always``); others go in single quotes, or in
    ``$'...'`` when they hold control characters or bytes that are not UTF-8
    (surrogate escapes), which single quotes would pass to the terminal raw.
    A NUL cannot be passed in a command line at all: :class:`ValueError`.
    """
    if "\x00" in word:
        raise ValueError("a command line cannot carry a NUL character")
    if not always and _BARE.fullmatch(word):
        return word
    if not _NEEDS_ANSI_C.search(word):
        return "'" + word.replace("'", "'\\''") + "'"
    out = []
    for char in word:
        code = ord(char)
        if char in "\\'":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept as a surrogate
            out.append(f"\\x{code - 0xDC00:02x}")
        elif _NEEDS_ANSI_C.match(char):
            out.append("".join(f"\\x{byte:02x}" for byte in char.encode("utf-8", "replace")))
        else:
            out.append(char)
    text = "".join(out)
    return f"$'{text}'"
