"""What can be wrong with a ``.http`` file, its variables or its environment files.

Each error names the file and the line, so a person can go straight there::

    InvalidRequest                      (explorer.core.http.errors: nothing was sent)
    └── HttpFileError                   a .http file, env file or .env file cannot be used
        ├── FileProblem                 a line of a .http file is not what the format allows
        ├── UndefinedVariable           {{name}} has no value in any source
        ├── BadVariable                 a system variable with wrong arguments, a missing .env
        └── EnvFileError                http-client.env.json (or a .env) cannot be read

They are :class:`~explorer.core.http.errors.InvalidRequest` subclasses: the command
line exits 2 (bad input), and nothing is sent.
"""

from __future__ import annotations

from explorer.core.http.errors import InvalidRequest

__all__ = ["BadVariable", "EnvFileError", "FileProblem", "HttpFileError", "UndefinedVariable"]


class HttpFileError(InvalidRequest):
    """A ``.http`` file, or a file of its variables, cannot be used as it is."""

    explanation = "The .http file cannot be used as it is."
    hint = ""


class FileProblem(HttpFileError):
    """A line of a ``.http`` file is not what the format allows."""


class UndefinedVariable(HttpFileError):
    """A ``{{name}}`` that no environment, file variable or ``.env`` defines."""

    def __init__(self, explanation: str, *, name: str, hint: str | None = None) -> None:
        super().__init__(explanation, hint=hint)
        #: The variable's name, as written between the braces.
        self.name = name


class BadVariable(HttpFileError):
    """A system variable (``{{$randomInt a b}}``...) given arguments it cannot use."""


class EnvFileError(HttpFileError):
    """An environment file (``http-client.env.json``, a ``.env``) that cannot be read.

    The file is never rewritten because of it.
    """
