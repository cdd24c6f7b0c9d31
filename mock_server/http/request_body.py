"""Reading request bodies: length, media type, and JSON syntax, in that order.

- neither ``Content-Length`` nor ``Transfer-Encoding: chunked``: **411** (the
  server cannot tell where the body ends, RFC 9112 section 6.3);
- a ``Content-Type`` the target does not take: **415**, with ``Accept-Post``
  (POST and PUT; the header comes from the W3C Linked Data Platform) or
  ``Accept-Patch`` (PATCH, RFC 5789) naming what it takes;
- an empty body where one is required, bytes that are not UTF-8 (said by the
  first bad byte and its offset), or text that is not JSON: **400**.

Shape and field rules come later (422, see :mod:`mock_server.domain.schemas`).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import orjson
from starlette.requests import Request

from mock_server.http.problems import Problem
from mock_server.http.versions import requested_path

JSON = "application/json"
HAL_JSON = "application/hal+json"
MERGE_PATCH = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"

#: What POST and PUT take (a HAL document read back is fine: its links are ignored).
ENTITY_TYPES: tuple[str, ...] = (JSON, HAL_JSON)
#: What PATCH takes.
PATCH_TYPES: tuple[str, ...] = (MERGE_PATCH, JSON_PATCH)
#: The deepest nesting of arrays and objects a body may have.
MAX_DEPTH = 32


def media_type_of(request: Request) -> str:
    """The request's ``Content-Type`` without parameters, lower case ("" when absent)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def has_framing(request: Request) -> bool:
    """True when the request says how long its body is (Content-Length or chunked)."""
    if "content-length" in request.headers:
        return True
    codings = request.headers.get("transfer-encoding", "").lower()
    return "chunked" in [c.strip() for c in codings.split(",")]


def _accept_header(method: str) -> str:
    return "Accept-Patch" if method == "PATCH" else "Accept-Post"


def check_media_type(request: Request, accepted: tuple[str, ...]) -> str:
    """The body's media type if ``accepted`` has it; else a 415 problem naming the accepted."""
    media_type = media_type_of(request)
    if media_type in accepted:
        return media_type
    listed = ", ".join(accepted)
    got = f"'{media_type}'" if media_type else "no Content-Type"
    merge = "application/merge-patch+json"
    hint = (
        f" An object of the fields to change is a JSON Merge Patch (RFC 7396): send it as {merge}."
        if request.method == "PATCH" and media_type == "application/json" and merge in accepted
        else ""
    )
    raise Problem(
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
        f"{request.method} {requested_path(request.scope)} takes {listed}; "
        f"the request sent {got}.{hint}",
        headers={_accept_header(request.method): listed},
        extra={"accepted": list(accepted)},
    )


def nesting_depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        current, depth = pending.pop()
        if isinstance(current, dict):
            pending.extend((inner, depth + 1) for inner in current.values())
        elif isinstance(current, list):
            pending.extend((inner, depth + 1) for inner in current)
        else:
            continue
        deepest = max(deepest, depth + 1)
    return deepest


def not_utf8(raw: bytes, what: str = "The request body") -> Problem | None:
    """The 400 for ``raw`` when it is not UTF-8, naming its first bad byte and where
    it is (``extra``: ``offset``); None when it is UTF-8."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return Problem(
            HTTPStatus.BAD_REQUEST,
            f"{what} is not UTF-8 (byte 0x{raw[error.start]:02x} at offset {error.start}).",
            extra={"offset": error.start},
        )
    return None


def utf8_text(raw: bytes, what: str = "The request body") -> str:
    """``raw`` as text; the :func:`not_utf8` problem when it is not UTF-8."""
    problem = not_utf8(raw, what)
    if problem is not None:
        raise problem
    return raw.decode("utf-8")


def parse_json(raw: bytes) -> Any:
    """The JSON value in ``raw``; a 400 problem saying where the syntax broke.

    Bodies nested deeper than :data:`MAX_DEPTH` are refused too: no entity
    needs it, and the patch algorithms recurse over the structure.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        # orjson checks UTF-8 first and says "str is not valid UTF-8: surrogates not
        # allowed ... (char 0)" whatever the byte: the byte and its offset say more.
        raise not_utf8(raw) or Problem(
            HTTPStatus.BAD_REQUEST, f"The request body is not valid JSON: {error}."
        ) from None
    if nesting_depth(value) > MAX_DEPTH:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"The request body nests arrays and objects more than {MAX_DEPTH} levels deep.",
        )
    return value


async def read_json(request: Request, accepted: tuple[str, ...]) -> tuple[str, Any]:
    """The body of a write as (media type, JSON value), or the problem that says why not."""
    if not has_framing(request):
        raise Problem(
            HTTPStatus.LENGTH_REQUIRED,
            f"{request.method} needs a body, sent with Content-Length "
            "(or Transfer-Encoding: chunked).",
        )
    media_type = check_media_type(request, accepted)
    raw = await request.body()
    if not raw.strip():
        raise Problem(HTTPStatus.BAD_REQUEST, f"{request.method} needs a body; it was empty.")
    return media_type, parse_json(raw)
