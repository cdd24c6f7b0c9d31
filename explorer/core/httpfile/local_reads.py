"""What a ``.http`` file may read on this machine, checked before it is read, and named.

A ``.http`` file may come from someone else (a repository, a colleague, a tutorial),
and what its requests read goes to its host: ``< /home/me/.aws/credentials`` as a
body, ``{{$processEnv AWS_SECRET_ACCESS_KEY}}`` in a header. So a request reads,
without being told it may:

- a file inside the ``.http`` file's folder (a ``< path`` body, an environment
  file beside it), its path resolved first, symlinks and ``..`` included:
  ``< ../secret`` and a link to ``~/.ssh/id_ed25519`` are outside;
- an environment variable the environment files beside it name: written as
  ``{{$processEnv NAME}}`` or ``{{$env.NAME}}`` in a value of
  ``http-client.env.json`` or ``http-client.private.env.json``, or as ``${NAME}``
  in ``.env`` (python-dotenv's syntax), or in a ``--var`` value the person gave.

Anything else needs the person's word (:class:`Allowed`: ``--allow-file PATH``,
a file or a folder with all under it; ``--allow-env NAME``; ``allow_files`` and
``allow_env`` in config.toml's ``[http_files]``; the TUI's "Allow" button).
Without it the read is refused before it happens (:class:`ReadRefused`), and
nothing is sent. Every read that happens is recorded as a :class:`Read`, once
each, for the command line to name on stderr before a request goes, and the TUI
on screen.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, TypeVar

from explorer.core.httpfile.errors import HttpFileError

__all__ = [
    "ALLOW_HINT",
    "Allowed",
    "LocalReads",
    "Read",
    "ReadKind",
    "ReadRefused",
    "process_names",
]

T = TypeVar("T")
#: What a read is of.
ReadKind = Literal["file", "variable"]
#: How to allow a read, in the words of the command line and config.toml.
ALLOW_HINT = {
    "file": (
        "If you trust this .http file, allow it: --allow-file {name} (a folder allows all "
        "under it), or allow_files in config.toml's [http_files]."
    ),
    "variable": (
        "If you trust this .http file, allow it: --allow-env {name}, or allow_env in "
        "config.toml's [http_files]; or name it in an environment file beside the "
        '.http file ("token": "{{{{$processEnv {name}}}}}").'
    ),
}
# ``{{$processEnv NAME}}`` and ``{{$env.NAME}}`` (a literal name, not ``%variable``).
_PROCESS_REFERENCE = re.compile(r"\{\{\s*%?\s*\$(?:processEnv\s+([^\s%}][^\s}]*)|env\.([^\s}]+))")


def process_names(text: str) -> set[str]:
    """The environment variables ``text`` names as ``{{$processEnv NAME}}`` or ``{{$env.NAME}}``."""
    return {a or b for a, b in _PROCESS_REFERENCE.findall(text)}


@dataclass(frozen=True)
class Allowed:
    """What the person allowed a ``.http`` file to read besides its folder and named variables."""

    #: Files, or folders and all under them (resolved when read).
    files: tuple[Path, ...] = ()
    variables: frozenset[str] = frozenset()

    @classmethod
    def of(cls, files: Iterable[str | Path], variables: Iterable[str]) -> Allowed:
        """The allowances of ``--allow-file`` / ``--allow-env`` (or config.toml's lists)."""
        return cls(tuple(Path(f).expanduser() for f in files), frozenset(variables))

    def with_read(self, kind: ReadKind, name: str) -> Allowed:
        """These allowances, and the read ``kind`` of ``name`` (the TUI's "Allow")."""
        if kind == "file":
            return replace(self, files=(*self.files, Path(name)))
        return replace(self, variables=self.variables | {name})

    def allows_file(self, resolved: Path) -> bool:
        """Whether ``resolved`` (a resolved path) is, or is under, one of :attr:`files`."""
        return any(resolved.is_relative_to(allowed.resolve()) for allowed in self.files)


@dataclass(frozen=True)
class Read:
    """One file or environment variable a ``.http`` file read, and why it could."""

    kind: ReadKind
    #: The file's resolved path, or the variable's name.
    name: str
    #: Why it was allowed: "in the .http file's folder", "named in .env", "allowed".
    why: str

    def __str__(self) -> str:
        what = (
            f"the file {self.name}" if self.kind == "file" else f"${self.name} of the environment"
        )
        return f"read {what} ({self.why})"


class ReadRefused(HttpFileError):
    """A read of a ``.http`` file's request that the person has not allowed; nothing is sent."""

    def __init__(
        self, explanation: str, *, kind: ReadKind, name: str, hint: str | None = None
    ) -> None:
        super().__init__(explanation, hint=hint or ALLOW_HINT[kind].format(name=name))
        self.kind: ReadKind = kind
        #: The file's resolved path, or the variable's name: what to allow.
        self.name = name

    def placed(self, explanation: str) -> ReadRefused:
        """The same refusal, its explanation saying where (the request, the line)."""
        return ReadRefused(explanation, kind=self.kind, name=self.name, hint=self.hint)


@dataclass
class LocalReads:
    """The reads of one ``.http`` file's requests: checked (see the module docstring) and
    recorded. ``folder`` is the file's; ``environ`` the process environment."""

    folder: Path
    allowed: Allowed = field(default_factory=Allowed)
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    #: Each variable the environment files (or ``--var``) name, and which names it.
    named: dict[str, str] = field(default_factory=dict)
    #: Every read so far, in order, each once.
    reads: list[Read] = field(default_factory=list)
    _said: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.folder = self.folder.absolute().resolve()

    def name_variables(self, names: Iterable[str], where: str) -> None:
        """Note that ``where`` (an environment file, ``--var``) names ``names``."""
        for name in names:
            self.named.setdefault(name, where)

    def allow(self, kind: ReadKind, name: str) -> None:
        """Allow the read ``kind`` of ``name`` from now on (the person said so)."""
        self.allowed = self.allowed.with_read(kind, name)

    def record(self, read: Read) -> None:
        """Note that ``read`` happened (once: a read made again is not noted again)."""
        if all((r.kind, r.name) != (read.kind, read.name) for r in self.reads):
            self.reads.append(read)

    def check_file(self, path: Path, what: str = "The file") -> Read:
        """The read of ``path`` (its resolved path), to :meth:`record` once made;
        :class:`ReadRefused` when it is outside the folder and not allowed. ``what``
        names the file in the refusal."""
        resolved = path.absolute().resolve()
        if resolved.is_relative_to(self.folder):
            return Read("file", str(resolved), "in the .http file's folder")
        if self.allowed.allows_file(resolved):
            return Read("file", str(resolved), "allowed")
        led = f" (it leads to {resolved})" if resolved != path.absolute() else ""  # symlink, ..
        raise ReadRefused(
            f"{what} {path} is outside the .http file's folder {self.folder}{led}: "
            "not read, as it would be sent to the file's host.",
            kind="file",
            name=str(resolved),
        )

    def read(self, path: Path, what: str, reader: Callable[[Path], T]) -> T:
        """``reader`` of ``path`` resolved, once :meth:`check_file` let it; recorded when
        ``reader`` returned."""
        read = self.check_file(path, what)
        result = reader(Path(read.name))
        self.record(read)
        return result

    def variable(self, name: str) -> str | None:
        """The value of the environment variable ``name`` (None when unset), checked and
        recorded; :class:`ReadRefused` when no environment file names it and it is not
        allowed."""
        if name in self.named:
            why = f"named in {self.named[name]}"
        elif name in self.allowed.variables:
            why = "allowed"
        else:
            raise ReadRefused(
                f"The environment variable {name} is not named in the environment files "
                "beside the .http file: not read, as it would be sent to the file's host.",
                kind="variable",
                name=name,
            )
        value = self.environ.get(name)
        if value is not None:
            self.record(Read("variable", name, why))
        return value

    def get(self, name: str, /) -> str | None:
        """:meth:`variable`: the process environment as ``{{$processEnv NAME}}`` sees it."""
        return self.variable(name)

    def unsaid(self) -> list[Read]:
        """The reads not handed out by an earlier call, in order (to name each once)."""
        fresh = self.reads[self._said :]
        self._said = len(self.reads)
        return fresh
