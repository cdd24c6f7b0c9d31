"""Which documented answer a request gets: status, media type, example. Prism's rules.

As Prism's negotiator (``packages/http/src/mocker/negotiator``) decides:

- no status asked for: the lowest ``2xx`` the operation documents (``2XX`` counts
  as 200), else ``default`` (as 200), else the first one it lists;
- ``Prefer: code=404``: exactly 404, else ``4XX``, else ``default``; a code the
  operation does not document at all is a 404 problem saying which it does; a
  code that is no final status (``abc``, ``99``, ``101``, ``600``) or a ``dynamic``
  neither true nor false is a 400 problem;
- the same asked in the query, ``?__code=404&__example=cat&__dynamic=true``, as Prism
  reads it for a client that cannot set a header (the ``Prefer`` header first, when
  both are sent); those parameters are the mock's, never the operation's;
- ``Prefer: example=cat``: that named example of the chosen answer (404 when it
  has none by that name); ``Prefer: dynamic=true``: generated from the schema
  even when the document has examples;
- the media type: the one ``Accept`` prefers among the answer's (RFC 9110
  section 12.5.1); none acceptable is 406; no ``Accept``: JSON first, else the first;
  a browser opening a page (HTML first, XML at q=0.9) is treated as no ``Accept``
  when it takes JSON at all, as Prism shows a browser JSON;
- an invalid request takes the operation's 422, else 400, else ``4XX``, else
  ``default``, else the status this mock would give (its problem document).

``Preference-Applied`` (RFC 7240) says which preferences were honoured.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

from mock_server.contract.operations import Content, Operation, ResponseSpec
from mock_server.http.negotiation import parse_accept, select_for_reader, wants_a_page
from mock_server.http.problems import Problem


@dataclass(frozen=True)
class Preferences:
    """What ``Prefer`` asked of the mock (RFC 7240 syntax, Prism's names)."""

    code: str | None = None
    example: str | None = None
    dynamic: bool | None = None

    def applied(self) -> str | None:
        """The ``Preference-Applied`` value for what was asked."""
        parts = []
        if self.code is not None:
            parts.append(f"code={self.code}")
        if self.example is not None:
            parts.append(f'example="{self.example}"')
        if self.dynamic is not None:
            parts.append(f"dynamic={'true' if self.dynamic else 'false'}")
        return ", ".join(parts) or None


NONE = Preferences()


#: The statuses ``Prefer: code=`` may ask for: a final answer's (RFC 9110 section 15).
FINAL_STATUSES = range(200, 600)


#: Prism's query parameters for the preferences, and the ``Prefer`` name of each.
QUERY_PREFERENCES = {"__code": "code", "__example": "example", "__dynamic": "dynamic"}


def query_preferences(
    query: list[tuple[str, str]],
) -> tuple[list[tuple[str, str]], str | None]:
    """``query`` without Prism's ``__code``, ``__example`` and ``__dynamic``, and what they
    ask as a ``Prefer`` value (None when none is there)."""
    kept: list[tuple[str, str]] = []
    asked: list[str] = []
    for name, value in query:
        if name in QUERY_PREFERENCES:
            asked.append(f'{QUERY_PREFERENCES[name]}="{value}"')
        else:
            kept.append((name, value))
    return kept, ", ".join(asked) or None


def _bad_preference(detail: str, value: str, in_query: bool) -> Problem:
    said = "in the query, as __code, __example, __dynamic" if in_query else f"Prefer: {value}"
    return Problem(
        HTTPStatus.BAD_REQUEST,
        f"{detail} ({said}). Ask for code=NNN (200 to 599), example=NAME, or dynamic=true|false.",
        title="Bad preference in the query" if in_query else "Bad Prefer header",
        extra={"prefer": value},
    )


def preferences(prefer: str | None, in_query: bool = False) -> Preferences:
    """The preferences of a ``Prefer`` header value (other preferences ignored, as RFC 7240
    says), or of :func:`query_preferences`' value with ``in_query``; a :class:`Problem`
    (400) when ``code`` or ``dynamic`` has a value the mock cannot honour, rather than an
    answer that silently ignores what was asked."""
    if not prefer:
        return NONE
    found: dict[str, str] = {}
    for element in prefer.replace(";", ",").split(","):
        name, _, value = element.strip().partition("=")
        name = name.strip().lower()
        if name in ("code", "example", "dynamic") and name not in found:
            found[name] = value.strip().strip('"')
    code = found.get("code")
    if code is not None:
        if not (code.isascii() and code.isdigit() and len(code) == 3):
            raise _bad_preference(f"code={code!r} is not a status code", prefer, in_query)
        if int(code) not in FINAL_STATUSES:
            raise _bad_preference(
                f"code={code} cannot be sent as an answer: a final status is 200 to 599 "
                "(1xx are interim answers)",
                prefer,
                in_query,
            )
    dynamic = found.get("dynamic")
    if dynamic is not None and dynamic.lower() not in ("true", "false"):
        raise _bad_preference(f"dynamic={dynamic!r} is neither true nor false", prefer, in_query)
    return Preferences(
        code=code,
        example=found.get("example") or None,
        dynamic=None if dynamic is None else dynamic.lower() == "true",
    )


def _code_of(response: ResponseSpec, wanted: str | None = None) -> int:
    """The status to send for ``response``: ``2XX`` as 200, ``default`` as ``wanted`` or 200."""
    status = response.status.upper()
    if status.isdigit():
        return int(status)
    if status.endswith("XX") and status[0].isdigit():
        return int(wanted) if wanted and wanted[0] == status[0] else int(status[0]) * 100
    return int(wanted) if wanted else HTTPStatus.OK


def documented(operation: Operation, code: str) -> ResponseSpec | None:
    """The answer ``operation`` documents for ``code``: exact, ``NXX``, or ``default``."""
    return (
        operation.response(code)
        or operation.response(f"{code[0]}XX")
        or operation.response("default")
    )


def chosen_response(operation: Operation, prefer: Preferences) -> tuple[int, ResponseSpec | None]:
    """The status and documented answer for a valid request."""
    if prefer.code is not None:
        found = documented(operation, prefer.code)
        if found is None:
            listed = ", ".join(r.status for r in operation.responses) or "nothing"
            raise Problem(
                HTTPStatus.NOT_FOUND,
                f"Prefer asks for status {prefer.code}, which {operation.label} does not "
                f"document (it documents {listed}).",
                extra={"documented": [r.status for r in operation.responses]},
            )
        return _code_of(found, prefer.code), found
    successes = sorted(
        (r for r in operation.responses if r.status[:1] == "2"), key=lambda r: r.status
    )
    if successes:
        return _code_of(successes[0]), successes[0]
    fallback = operation.response("default") or (
        operation.responses[0] if operation.responses else None
    )
    if fallback is None:
        return HTTPStatus.OK, None
    return _code_of(fallback), fallback


def error_response(operation: Operation, preferred: int) -> tuple[int, ResponseSpec | None]:
    """The status and documented answer for a request refused with ``preferred``."""
    if preferred in (HTTPStatus.BAD_REQUEST, HTTPStatus.UNPROCESSABLE_ENTITY):
        order = [preferred] + [
            s for s in (HTTPStatus.UNPROCESSABLE_ENTITY, HTTPStatus.BAD_REQUEST) if s != preferred
        ]
    else:
        order = [preferred]
    for status in order:
        found = operation.response(str(int(status)))
        if found is not None:
            return int(status), found
    found = operation.response(f"{str(preferred)[0]}XX") or operation.response("default")
    return preferred, found


def chosen_content(response: ResponseSpec, accept: str | None) -> Content | None:
    """The answer's media type ``Accept`` prefers (JSON first without one); None: none fits.

    An answer without contents has no body: it fits any ``Accept``.
    """
    if not response.contents:
        return None
    offered = [c.media_type for c in response.contents]
    if not accept or not accept.strip() or accept.strip() == "*/*":
        return next((c for c in response.contents if is_json(c.media_type)), response.contents[0])
    lowered = [m.lower() for m in offered]
    if wants_a_page(parse_accept(accept), lowered):
        lowered.sort(key=lambda media_type: not is_json(media_type))  # stable: JSON first
    media = select_for_reader(accept, lowered)
    if media is None:
        raise Problem(
            HTTPStatus.NOT_ACCEPTABLE,
            f"None of the media types in Accept ({accept}) is documented for this answer; "
            f"it has {', '.join(offered)}.",
            headers={"Vary": "Accept"},
            extra={"available": offered},
        )
    return next(c for c in response.contents if c.media_type.lower() == media)


def is_json(media_type: str) -> bool:
    """True for ``application/json`` and every ``+json`` type."""
    essence = media_type.partition(";")[0].strip().lower()
    return essence == "application/json" or essence.endswith("+json")
