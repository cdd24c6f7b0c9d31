"""Saved requests as ``.http`` files (the JetBrains HTTP Client / VS Code REST Client format).

- :mod:`.model`: what a file holds; :mod:`.parser` reads it (never raising);
  :mod:`.writer` writes a request and saves one into a file, nothing else changed;
- :mod:`.variables` substitutes ``{{name}}`` (:mod:`.system_variables`: ``{{$uuid}}``...);
- :mod:`.environments`: ``http-client.env.json`` and its private twin;
  :mod:`.dotenv_files`: ``.env``;
- :mod:`.resolve`: a request made ready to send; :mod:`.request_variables`:
  ``{{login.response.body.$.token}}`` from an earlier response of the same run;
- :mod:`.workspace`: a file with its environments, as ``restwalk run`` and the TUI use it;
  :mod:`.local_reads`: what its requests may read on this machine (files of its folder,
  environment variables its environment files name, what the person allowed), and
  every read made;
- :mod:`.opened`: a request opened in the TUI, saved back with its ``{{variables}}``
  (:mod:`.retemplate` puts them back into edited text), never a private value;
  :mod:`.private_env`: a token kept in ``http-client.private.env.json``;
  :mod:`.saving`: what S and F2 save, and where.
"""

from __future__ import annotations

from explorer.core.httpfile.errors import (
    BadVariable,
    EnvFileError,
    FileProblem,
    HttpFileError,
    UndefinedVariable,
)
from explorer.core.httpfile.model import HttpFile, HttpRequest
from explorer.core.httpfile.parser import parse_http
from explorer.core.httpfile.writer import (
    CannotWrite,
    format_http_request,
    format_request,
    save_request,
)

__all__ = [
    "BadVariable",
    "CannotWrite",
    "EnvFileError",
    "FileProblem",
    "HttpFile",
    "HttpFileError",
    "HttpRequest",
    "UndefinedVariable",
    "format_http_request",
    "format_request",
    "parse_http",
    "save_request",
]
