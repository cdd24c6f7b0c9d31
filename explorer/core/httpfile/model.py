"""What a ``.http`` file holds, as plain frozen data.

A file is its lines, kept exactly as read (line endings included), and what was
found in them: the requests, the file variables (``@name = value``) and the
problems. Every part knows its line (1-based, as an editor counts), so an error
can point there, and a request knows the lines it was written on, so saving a
new version of it replaces those lines and nothing else
(:mod:`explorer.core.httpfile.writer`).

Scripts (``> {% ... %}``, ``< {% ... %}``, ``> handler.js``) and output
redirects (``>> file``) are kept in the model and reported, never run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

__all__ = [
    "BodyLine",
    "Directive",
    "FileRef",
    "FileVariable",
    "HttpFile",
    "HttpRequest",
    "Problem",
    "Script",
    "ScriptKind",
]

#: What a kept-but-never-run part of a request is.
ScriptKind = Literal["pre-request script", "response handler", "output redirect"]


@dataclass(frozen=True)
class Problem:
    """A line the parser could not make sense of; the line is kept as it is."""

    line: int
    message: str


@dataclass(frozen=True)
class FileVariable:
    """``@name = value``: a variable of the whole file (its value may hold ``{{...}}``)."""

    name: str
    value: str
    line: int


@dataclass(frozen=True)
class Directive:
    """``# @name value`` before a request: ``@name``, ``@no-redirect``, ``@timeout 5``...

    Directives restwalk does not know are kept and written back untouched.
    """

    name: str
    value: str
    line: int


@dataclass(frozen=True)
class Script:
    """A part of a request restwalk keeps and reports but never runs."""

    kind: ScriptKind
    #: The script's text (``{% ... %}`` included), or the file it names.
    text: str
    line: int


@dataclass(frozen=True)
class FileRef:
    """A body line ``< ./file`` (the file's bytes) or ``<@ ./file`` (its text, variables
    substituted; ``<@latin1 ./file`` names the encoding)."""

    path: str
    #: Where it is written (not part of what it is: two refs to one file are equal).
    line: int = field(default=0, compare=False)
    substitute: bool = False
    encoding: str | None = None


#: One line of a body: text as written, or a file put in its place.
BodyLine: TypeAlias = "str | FileRef"


@dataclass(frozen=True)
class HttpRequest:
    """One request of a ``.http`` file, as written (variables not yet substituted).

    ``method`` is None when the line leaves it out (it is then GET); ``url``
    joins the request line's target with its continuation lines. ``body`` is
    its lines, blank lines around it left out; empty when there is none.
    """

    url: str
    method: str | None = None
    http_version: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    body: tuple[BodyLine, ...] = ()
    #: ``### name``, or ``# @name name`` (which wins when both are there).
    name: str | None = None
    directives: tuple[Directive, ...] = ()
    scripts: tuple[Script, ...] = ()
    #: The line of the request line (1-based).
    line: int = 0
    #: Lines (0-based, end excluded) from the request line to the body's last line:
    #: what saving a new version of this request replaces.
    span: tuple[int, int] = (0, 0)
    #: Lines (0-based, end excluded) of the whole block, its ``###`` line included.
    block: tuple[int, int] = (0, 0)
    #: The line of its ``###`` separator (1-based; 0 when it has none).
    separator_line: int = 0
    #: The line of its ``# @name`` directive (1-based; 0 when it has none).
    name_line: int = 0

    @property
    def effective_method(self) -> str:
        """The method sent: the one written, else GET."""
        return self.method or "GET"

    def directive(self, name: str) -> Directive | None:
        """The directive ``# @name`` of this request (the last, if written twice)."""
        found = [d for d in self.directives if d.name == name]
        return found[-1] if found else None

    @property
    def title(self) -> str:
        """How a person recognises it in a list: its name, else its method and URL."""
        return self.name or f"{self.effective_method} {self.url}"


@dataclass(frozen=True)
class HttpFile:
    """A parsed ``.http`` file: its lines exactly as read, and what they hold."""

    lines: tuple[str, ...]
    requests: tuple[HttpRequest, ...] = ()
    variables: tuple[FileVariable, ...] = ()
    problems: tuple[Problem, ...] = ()
    #: Where it was read from (for messages); empty for text given directly.
    path: str = field(default="", compare=False)

    @property
    def text(self) -> str:
        """The file's text exactly as it was read."""
        return "".join(self.lines)

    def named(self, name: str) -> list[HttpRequest]:
        """The requests called ``name`` (a file may repeat a name; usually one)."""
        return [request for request in self.requests if request.name == name]

    def problems_of(self, request: HttpRequest) -> list[Problem]:
        """The problems found on the lines of ``request``'s block."""
        start, end = request.block
        return [p for p in self.problems if start < p.line <= end]
