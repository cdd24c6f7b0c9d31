"""Keep a token in ``http-client.private.env.json`` and write ``{{token}}`` in the ``.http`` file.

The JetBrains convention for a credential: the shared ``.http`` file says
``Authorization: Bearer {{token}}`` and the value sits in the private
environment file, which stays out of version control. :func:`token_as_variable`
makes that change to a request about to be saved; :func:`set_private_variable`
puts the value in the private file: only that one value changes, the rest of
the file (other environments, other variables, their order, its indentation)
is kept, and the file is written readable by its owner only.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from explorer.core.files import replace_file
from explorer.core.httpfile.environments import PRIVATE_ENV_FILE, SHARED, read_env_file
from explorer.core.httpfile.errors import EnvFileError
from explorer.core.httpfile.model import HttpRequest

__all__ = ["TOKEN_VARIABLE", "bearer_token", "set_private_variable", "token_as_variable"]

#: The variable a saved token is written as.
TOKEN_VARIABLE = "token"
#: A token written out: ``Bearer <token>``, or Django REST Framework's ``Token <key>``.
_BEARER = re.compile(r"^(bearer|token)\s+(\S+)$", re.IGNORECASE)
_INDENT = re.compile(r"^[ \t]+(?=\S)", re.MULTILINE)


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``request``'s ``Authorization: Bearer`` (or ``Token``) header, when written out
    (not already a ``{{variable}}``)."""
    for name, value in request.headers:
        match = _BEARER.match(value.strip())
        if name.lower() == "authorization" and match and "{{" not in value:
            return match.group(2)
    return None


def token_as_variable(request: HttpRequest, variable: str = TOKEN_VARIABLE) -> HttpRequest:
    """``request`` with its Bearer token written as ``{{variable}}``."""
    token = bearer_token(request)
    if token is None:
        return request
    headers = tuple(
        (name, _as_variable(value, variable)) if name.lower() == "authorization" else (name, value)
        for name, value in request.headers
    )
    return replace(request, headers=headers)


def _as_variable(value: str, variable: str) -> str:
    """``Bearer <token>`` as ``Bearer {{variable}}`` (``Token`` kept as it is)."""
    match = _BEARER.match(value.strip())
    return f"{match.group(1)} {{{{{variable}}}}}" if match else value


def _no_twice(pairs: list[tuple[str, object]]) -> dict[str, object]:
    names = [name for name, _ in pairs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise EnvFileError(f"{PRIVATE_ENV_FILE} has {twice!r} twice in one object; not rewritten.")
    return dict(pairs)


def set_private_variable(
    directory: Path, environment: str | None, name: str, value: str
) -> tuple[Path, bool]:
    """Set ``name`` to ``value`` in ``environment`` (None: ``$shared``, which every
    environment has) of the private environment file in ``directory``.

    Returns the file and whether it changed. Raises :class:`EnvFileError` for a
    file that is not an object of environments (it is then left as it is) and
    ``OSError`` when it cannot be written.
    """
    path = directory / PRIVATE_ENV_FILE
    key = environment or SHARED
    text = ""
    if path.exists():
        read_env_file(path)  # not JSON, or not environments: said, and not touched
        text = path.read_text(encoding="utf-8-sig")
        document = json.loads(text, object_pairs_hook=_no_twice)
    else:
        document = {}
    section = document.setdefault(key, {})
    if section.get(name) == value:
        return path, False
    section[name] = value
    indent_match = _INDENT.search(text)
    indent: str | None = indent_match.group(0) if indent_match else ("  " if not text else None)
    new_text = json.dumps(document, indent=indent, ensure_ascii=False)
    if not text or text.endswith("\n"):
        new_text += "\n"
    replace_file(path, new_text.encode("utf-8"))  # (made 0600: a file of secrets)
    return path, True
