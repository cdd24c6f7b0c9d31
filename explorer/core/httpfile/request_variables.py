"""Request variables: ``{{login.response.body.$.token}}`` from an earlier request of a run.

VS Code's chaining syntax, ``{{NAME.(request|response).(body|headers).WHAT}}``:
``WHAT`` is ``*`` (the whole body), a JSONPath (``$.id``, read with
python-jsonpath) or a header's name (any case). Asking for a request of the
file that has not been sent yet in this run is an error that says so; XPath
(for XML bodies) is not supported and says so too.
"""

from __future__ import annotations

from collections.abc import Iterable

import jsonpath
import orjson

from explorer.core.http.exchange import Exchange
from explorer.core.httpfile.errors import BadVariable, UndefinedVariable

__all__ = ["RunResponses"]


class RunResponses:
    """The exchanges of a run so far, by request name (a
    :class:`~explorer.core.httpfile.variables.ResponseValues`)."""

    def __init__(self, names: Iterable[str]) -> None:
        #: The names of the file's requests (a reference to another name is no request variable).
        self.names = set(names)
        self.exchanges: dict[str, Exchange] = {}
        #: Requests of the run that were tried and got no answer.
        self.failed: set[str] = set()

    def record(self, name: str | None, exchange: Exchange) -> None:
        """Keep ``exchange`` as the latest one of the request ``name``."""
        if name:
            self.exchanges[name] = exchange
            self.failed.discard(name)

    def record_failure(self, name: str | None) -> None:
        """Remember that the request ``name`` was tried and got no answer."""
        if name and name not in self.exchanges:
            self.failed.add(name)

    def sent_to(self, name: str) -> str:
        """The URL the request ``name`` was sent to in this run (empty: not sent)."""
        exchange = self.exchanges.get(name)
        return exchange.request.url if exchange is not None else ""

    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        """The value of ``{{name.part.kind.path}}`` (None when ``name`` is no request)."""
        reference = f"{{{{{name}.{part}.{kind}.{path}}}}}"
        if name not in self.names:
            return None
        exchange = self.exchanges.get(name)
        if exchange is None and name in self.failed:
            raise UndefinedVariable(
                f"{reference} reads the {part} of request {name!r}, which failed earlier "
                "in this run",
                name=f"{name}.{part}.{kind}.{path}",
            )
        if exchange is None:
            raise UndefinedVariable(
                f"{reference} reads the {part} of request {name!r}, which has not been "
                "sent yet in this run",
                name=f"{name}.{part}.{kind}.{path}",
                hint=f"Run {name!r} before it (restwalk run FILE --name {name} --name ...).",
            )
        if part == "request":
            headers, body = exchange.request.headers, exchange.request.body
        else:
            headers, body = exchange.response.headers, exchange.response.body
        if kind == "headers":
            found = next((v for k, v in headers if k.lower() == path.lower()), None)
            if found is None:
                raise UndefinedVariable(
                    f"{reference}: the {part} of {name!r} has no header {path!r}", name=path
                )
            return found
        text = body.decode("utf-8", "replace")
        if path == "*":
            return text
        if not path.startswith("$"):
            raise BadVariable(f"{reference}: only * and JSONPath ($.field) read a body here.")
        try:
            matches = jsonpath.findall(path, orjson.loads(body))
        except orjson.JSONDecodeError:
            raise BadVariable(f"{reference}: the {part} body of {name!r} is not JSON.") from None
        except jsonpath.JSONPathError as exc:
            raise BadVariable(f"{reference}: {path!r} is not a JSONPath ({exc}).") from None
        if not matches:
            raise UndefinedVariable(
                f"{reference}: nothing at {path} in the {part} body of {name!r}", name=path
            )
        value = matches[0]
        return value if isinstance(value, str) else orjson.dumps(value).decode("utf-8")
