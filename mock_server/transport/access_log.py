"""The access log, secrets masked: what a request line would show of a credential.

uvicorn logs ``"GET /anything?access_token=abc HTTP/1.1" 200``, Hypercorn the same
and, among its atoms, every request header, and httpx (``--record``'s requests to
the upstream) the URL it sent; a log is pasted into bug reports and chats, so the
password in ``/basic-auth/u/p``, a token in a query and a credential header never
reach it in clear. The rule is :func:`mock_server.http.masking.mask_target`
(the journal's); ``--journal-secrets`` does not apply here: it is for ``/_journal``.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping

from mock_server.http import masking

#: The loggers of both engines' access lines, and of httpx's requests (``--record``).
ACCESS_LOGGERS = ("uvicorn.access", "hypercorn.access", "httpx")
#: Hypercorn's atoms that hold the request target (see ``hypercorn.logging``).
_TARGET_ATOMS = ("r", "R", "U", "Uq", "q")


class MaskedAccessLog(logging.Filter):
    """Masks the secrets of each access line's request target (and headers, for Hypercorn)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.name == "httpx" and isinstance(args, tuple) and len(args) >= 2:
            # httpx: (method, URL, ...): the URL's path and query masked
            url = str(args[1])
            split = url.find("/", url.find("//") + 2) if "//" in url else -1
            if split > 0:
                record.args = (args[0], url[:split] + masking.mask_target(url[split:]), *args[2:])
        elif isinstance(args, tuple) and len(args) == 5:
            # uvicorn: (client address, method, path with query, HTTP version, status)
            record.args = (*args[:2], masking.mask_target(str(args[2])), *args[3:])
        elif isinstance(args, MutableMapping):
            _mask_atoms(args)
        return True


def _mask_atoms(atoms: MutableMapping[str, object]) -> None:
    """Hypercorn's access-log atoms with their secrets masked, in place."""
    for key in _TARGET_ATOMS:
        value = atoms.get(key)
        if not isinstance(value, str):
            continue
        if key in ("r", "R"):
            method, _, rest = value.partition(" ")
            target, _, protocol = rest.rpartition(" ")
            atoms[key] = f"{method} {masking.mask_target(target)} {protocol}"
        elif key == "q":
            atoms[key] = masking.mask_query(value)
        else:
            atoms[key] = masking.mask_target(value)
    for key, value in list(atoms.items()):
        if key.startswith("{") and key.endswith("}i") and isinstance(value, str):
            name = key[1:-2]
            if masking.is_secret_header(name):
                atoms[key] = masking.mask_header(name, value)


def install() -> None:
    """Mask every access line of this process, whichever engine serves."""
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, MaskedAccessLog) for f in logger.filters):
            logger.addFilter(MaskedAccessLog())
