"""Read the ``.http`` format of the JetBrains HTTP Client and the VS Code REST Client.

The file is split into blocks at ``###`` lines; a block is, in order::

    ### name                          separator (its text names the request)
    @host = example.com               file variables
    # @name other  / # @no-redirect   directives; other # and // lines are comments
    < {% pre-request script %}        kept, never run
    POST http://{{host}}/a HTTP/1.1   request line: method optional (GET)
        ?page=2                       continuation lines: indented, or ? / & first
    Content-Type: application/json    headers until a blank line (indented: folded)

    { "body": true }                  body until the block ends; < ./file includes one
    > {% response handler %}          kept, never run (so are > handler.js, >> file)
    <> previous-response.json         a link to an old response: kept, ignored

Reading never raises: what is not understood is a :class:`~.model.Problem` on
its line, and the lines themselves are kept exactly, so writing the file back
gives the same bytes (see :mod:`explorer.core.httpfile.writer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from explorer.core.http.field_syntax import is_token
from explorer.core.http.request import STANDARD_METHODS
from explorer.core.httpfile.model import (
    BodyLine,
    Directive,
    FileRef,
    FileVariable,
    HttpFile,
    HttpRequest,
    Problem,
    Script,
    ScriptKind,
)

__all__ = [
    "content_of",
    "ends_body",
    "is_file_ref",
    "is_separator",
    "parse_http",
    "parse_request_line",
    "separator_name",
    "split_lines",
]

_LINE_END = re.compile(r"\r\n|\r|\n")
_COMMENT = re.compile(r"^\s*(#|//)")
_DIRECTIVE = re.compile(r"^\s*(?:#|//)\s*@([A-Za-z][\w.-]*)(?:\s*=\s*|\s+|$)(.*)$")
_FILE_VARIABLE = re.compile(r"^\s*@([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$")
# The method is a token without '.', ':' or '/', so "example.com/a b" is no method.
_METHOD = re.compile(r"^([A-Za-z][A-Za-z0-9!#$%&'*+^_`|~-]*)\s+(\S.*)$")
_VERSION = re.compile(r"^(.*?)\s+(HTTP/\d+(?:\.\d+)?(?:\s+\(Prior Knowledge\))?)$", re.IGNORECASE)
_FILE_REF = re.compile(r"^<(?:(@)(\w+)?)?\s+(.+?)\s*$")
_SCRIPT_OPEN = re.compile(r"^([<>])\s*\{%")
_SCRIPT_FILE = re.compile(r"^>\s+(\S.*?\.js)\s*$")
_PRE_SCRIPT_FILE = re.compile(r"^<\s+(\S.*?\.js)\s*$")
_OUTPUT = re.compile(r"^>>!?\s+(\S.*?)\s*$")
_RESPONSE_REF = re.compile(r"^<>\s+(\S.*?)\s*$")


def split_lines(text: str) -> list[str]:
    """``text`` cut into lines, each with its own ending (LF, CR LF or CR) kept."""
    lines: list[str] = []
    start = 0
    for match in _LINE_END.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def content_of(line: str) -> str:
    """A line without its ending (and without a byte order mark)."""
    return line.rstrip("\r\n").removeprefix("\ufeff")


def is_separator(content: str) -> bool:
    """``###`` (or more ``#``), with or without a name after it."""
    return content.startswith("###")


def separator_name(content: str) -> str | None:
    """The name a ``### name`` line gives, or None for a bare ``###``."""
    name = content.lstrip("#").strip()
    return name or None


def is_file_ref(content: str) -> bool:
    """True for a body line ``< ./file`` or ``<@ ./file`` (the file goes in its place)."""
    return _FILE_REF.match(content) is not None


def _is_blank(content: str) -> bool:
    return not content.strip()


def ends_body(content: str) -> bool:
    """True for a line that ends a body: a handler, an output redirect, a response link."""
    handler = content.startswith(">") and _SCRIPT_OPEN.match(content) is not None
    return handler or any(p.match(content) for p in (_SCRIPT_FILE, _OUTPUT, _RESPONSE_REF))


@dataclass
class _Block:
    """What is found in one block while reading it."""

    lines: list[str]
    start: int  # index of the block's first line in the file
    problems: list[Problem] = field(default_factory=list)
    variables: list[FileVariable] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)
    scripts: list[Script] = field(default_factory=list)

    def content(self, index: int) -> str:
        return content_of(self.lines[index])

    def number(self, index: int) -> int:
        """The 1-based line number of the block's line ``index``."""
        return self.start + index + 1

    def problem(self, index: int, message: str) -> None:
        self.problems.append(Problem(self.number(index), message))

    def script(self, index: int, kind: ScriptKind) -> int:
        """Read a ``{% ... %}`` script starting on line ``index``; returns the next line."""
        first = self.content(index)
        texts = [first[first.find("{%") :]]
        end = index
        while "%}" not in texts[-1][2 if end == index else 0 :]:
            end += 1
            if end == len(self.lines):
                self.problem(index, f"the {kind} opened here is not closed with %}}")
                break
            texts.append(self.content(end))
        self.scripts.append(Script(kind, "\n".join(texts).strip(), self.number(index)))
        return end + 1


def parse_http(text: str, path: str = "") -> HttpFile:
    """Parse ``text`` as a ``.http`` file; never raises (see the module docstring)."""
    lines = split_lines(text)
    requests: list[HttpRequest] = []
    variables: list[FileVariable] = []
    problems: list[Problem] = []
    starts = [i for i, line in enumerate(lines) if is_separator(content_of(line))]
    bounds = list(zip([0, *starts], [*starts, len(lines)], strict=True))
    for start, end in bounds:
        if start == end:
            continue
        block = _Block(lines[start:end], start)
        request = _read_block(block)
        variables += block.variables
        problems += block.problems
        if request is not None:
            requests.append(request)
    return HttpFile(
        tuple(lines), tuple(requests), tuple(variables), tuple(sorted(problems, key=_at)), path
    )


def _at(problem: Problem) -> int:
    return problem.line


def _read_block(block: _Block) -> HttpRequest | None:
    """The request of one block (None when it holds only variables and comments)."""
    index = 0
    name: str | None = None
    separator_line = 0
    if is_separator(block.content(0)):
        name = separator_name(block.content(0))
        separator_line = block.number(0)
        index = 1
    name_line = 0
    # The part before the request line: variables, directives, comments, scripts.
    while index < len(block.lines):
        content = block.content(index)
        directive = _DIRECTIVE.match(content)
        variable = _FILE_VARIABLE.match(content)
        if _is_blank(content):
            index += 1
        elif directive:
            value = directive.group(2).strip()
            block.directives.append(Directive(directive.group(1), value, block.number(index)))
            if directive.group(1) == "name" and value:
                name, name_line = value, block.number(index)
            index += 1
        elif _COMMENT.match(content):
            index += 1
        elif variable:
            block.variables.append(
                FileVariable(variable.group(1), variable.group(2), block.number(index))
            )
            index += 1
        elif _SCRIPT_OPEN.match(content.lstrip()) and content.lstrip().startswith("<"):
            index = block.script(index, "pre-request script")
        elif _PRE_SCRIPT_FILE.match(content.strip()):
            path = content.strip()[1:].strip()
            block.scripts.append(Script("pre-request script", path, block.number(index)))
            index += 1
        else:
            break
    if index >= len(block.lines):
        return None
    return _read_request(block, index, name, separator_line, name_line)


def parse_request_line(content: str) -> tuple[str | None, str, str | None]:
    """``[METHOD ]target[ HTTP/x.y]`` as (method, target, version)."""
    text = content.strip()
    method: str | None = None
    match = _METHOD.match(text)
    if match:
        method, text = match.group(1), match.group(2)
    version: str | None = None
    versioned = _VERSION.match(text)
    if versioned:
        text, version = versioned.group(1), versioned.group(2)
    return method, text.strip(), version


def _read_request(
    block: _Block, index: int, name: str | None, separator_line: int, name_line: int
) -> HttpRequest:
    """The request whose request line is the block's line ``index``."""
    first = index
    method, url, version = parse_request_line(block.content(index))
    if method is None and url in STANDARD_METHODS:
        # "GET" alone is a method whose URL was forgotten, not a host named GET.
        block.problem(index, f"{url} and no URL: a request line is 'METHOD URL [HTTP/version]'")
    index += 1
    # Continuation lines of the URL: indented (JetBrains), or starting with ? or & (VS Code).
    last = index
    while index < len(block.lines):
        content = block.content(index)
        stripped = content.strip()
        if not stripped or (_COMMENT.match(content) and not content[:1].isspace()):
            break
        if not (content[:1].isspace() or stripped[:1] in ("?", "&")):
            break
        if not _COMMENT.match(content):
            url += stripped
        index += 1
        last = index
    headers: list[tuple[str, str]] = []
    # Headers: until a blank line. An indented line goes on with the header above it.
    while index < len(block.lines):
        content = block.content(index)
        if _is_blank(content):
            break
        if ends_body(content):
            break
        if _COMMENT.match(content):
            index += 1
            continue
        if content[:1].isspace() and headers:
            header, value = headers[-1]
            headers[-1] = (header, f"{value} {content.strip()}".strip())
        else:
            header, sep, value = content.partition(":")
            if not sep or not header.strip():
                block.problem(
                    index,
                    f"{content.strip()!r} is not a header ('Name: value'); "
                    "a blank line must come before the body",
                )
            else:
                if not is_token(header.strip()):
                    block.problem(
                        index, f"the header name {header.strip()!r} is not valid (one token)"
                    )
                headers.append((header.strip(), value.strip()))
        index += 1
        last = index
    body: list[BodyLine] = []
    body_end = last
    if index < len(block.lines) and _is_blank(block.content(index)):
        index += 1
        while index < len(block.lines) and not ends_body(block.content(index)):
            content = block.content(index)
            ref = _FILE_REF.match(content)
            if ref:
                body.append(
                    FileRef(ref.group(3), block.number(index), bool(ref.group(1)), ref.group(2))
                )
            else:
                body.append(content)
            index += 1
            if not _is_blank(content):
                body_end = index
        while body and isinstance(body[-1], str) and _is_blank(body[-1]):
            body.pop()
        while body and isinstance(body[0], str) and _is_blank(body[0]):
            body.pop(0)
    _read_tail(block, index)
    return HttpRequest(
        url=url,
        method=method,
        http_version=version,
        headers=tuple(headers),
        body=tuple(body),
        name=name,
        directives=tuple(block.directives),
        scripts=tuple(block.scripts),
        line=block.number(first),
        span=(block.start + first, block.start + body_end),
        block=(block.start, block.start + len(block.lines)),
        separator_line=separator_line,
        name_line=name_line,
    )


def _read_tail(block: _Block, index: int) -> None:
    """Response handlers, output redirects and response links after the body."""
    while index < len(block.lines):
        content = block.content(index)
        if _SCRIPT_OPEN.match(content) and content.startswith(">"):
            index = block.script(index, "response handler")
            continue
        handler = _SCRIPT_FILE.match(content)
        output = _OUTPUT.match(content)
        if handler:
            block.scripts.append(Script("response handler", handler.group(1), block.number(index)))
        elif output:
            block.scripts.append(Script("output redirect", output.group(1), block.number(index)))
        elif not (_is_blank(content) or _COMMENT.match(content) or _RESPONSE_REF.match(content)):
            block.problem(
                index,
                "only response handlers (> {% %}), output redirects (>> file) and "
                "comments may follow them; this line is not part of the request",
            )
        index += 1
