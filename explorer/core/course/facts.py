"""What a check can see of one exchange: its facts, read once, and the references to them.

An :class:`ExchangeFacts` is one exchange of a lesson as the check vocabulary
names it: the request as the learner made it (method, URL, path, query,
headers, body, its JSON fields), and the final response (status, headers,
body's JSON fields, HTTP version, what the cache did, whether redirects were
followed). :meth:`ExchangeFacts.ref` answers a reference's field
(``response.ETag``, ``json.name``...) as text, the form a ``${step.field}``
puts into a pattern.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import parse_qsl, urlsplit

from explorer.core.http.exchange import Exchange

__all__ = ["MISSING", "REF_FIELDS", "REF_PREFIXES", "ExchangeFacts", "json_at", "json_text"]

#: The fields a reference names as they are (``${read.path}``).
REF_FIELDS = frozenset({"method", "url", "path", "final_path", "status", "http_version"})
#: The fields a reference names with a name after them (``${read.response.ETag}``).
REF_PREFIXES = frozenset({"request", "response", "query", "json", "response_json"})

#: What a JSON path finds when there is nothing there (None is JSON's null).
MISSING = object()


def json_at(document: object, dotted: str) -> object:
    """The value at ``dotted`` (``a.b.0.c``: keys, and indexes into arrays) of a JSON
    ``document``; :data:`MISSING` when there is none."""
    value = document
    for key in dotted.split("."):
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return MISSING
    return value


def json_text(value: object) -> str:
    """A JSON value as a pattern compares it: a string itself, anything else its JSON text."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _path(url: str) -> str:
    try:
        return urlsplit(url).path or "/"
    except ValueError:
        return url


def _document(body: bytes) -> object:
    if not body:
        return MISSING
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return MISSING


@dataclass(frozen=True)
class ExchangeFacts:
    """One exchange of a lesson, as the check vocabulary sees it."""

    exchange: Exchange
    #: Its place among the lesson's exchanges (0: the first).
    index: int = 0

    @property
    def method(self) -> str:
        return self.exchange.request.method

    @property
    def url(self) -> str:
        """The URL asked for, without its fragment."""
        return self.exchange.request.url.partition("#")[0]

    @cached_property
    def path(self) -> str:
        return _path(self.exchange.request.url)

    @cached_property
    def final_path(self) -> str:
        """The path of the request that got the final response (after redirects)."""
        return _path(self.exchange.final.url)

    @cached_property
    def query(self) -> dict[str, list[str]]:
        """The query parameters asked for, each name's values in order."""
        try:
            pairs = parse_qsl(urlsplit(self.exchange.request.url).query, keep_blank_values=True)
        except ValueError:
            pairs = []
        found: dict[str, list[str]] = {}
        for name, value in pairs:
            found.setdefault(name, []).append(value)
        return found

    @property
    def status(self) -> int:
        return self.exchange.response.status

    @property
    def http_version(self) -> str:
        return self.exchange.response.http_version

    @property
    def redirected(self) -> bool:
        return bool(self.exchange.hops)

    @property
    def cache(self) -> str:
        """What the session's cache did ("fresh", "revalidated"...), "none" without a cache."""
        note = self.exchange.cache
        return note.outcome if note is not None else "none"

    def request_headers(self, name: str) -> list[str]:
        """Every value of request header ``name`` as sent (case-insensitive name)."""
        lname = name.lower()
        return [v for k, v in self.exchange.request.headers if k.lower() == lname]

    def response_headers(self, name: str) -> list[str]:
        """Every value of response header ``name`` (case-insensitive name)."""
        return self.exchange.response.header_values(name)

    @cached_property
    def body(self) -> str:
        """The request body as text (bytes that are not UTF-8 replaced)."""
        return self.exchange.request.body.decode("utf-8", "replace")

    @cached_property
    def request_json(self) -> object:
        return _document(self.exchange.request.body)

    @cached_property
    def response_json(self) -> object:
        return _document(self.exchange.response.body)

    def ref(self, field_name: str) -> str | None:
        """The text of reference field ``field_name`` (``path``, ``response.ETag``,
        ``json.address.city``...); None when this exchange has none."""
        if field_name in REF_FIELDS:
            return str(getattr(self, field_name))
        prefix, _, name = field_name.partition(".")
        values: list[str]
        if prefix == "request":
            values = self.request_headers(name)
        elif prefix == "response":
            values = self.response_headers(name)
        elif prefix == "query":
            values = self.query.get(name, [])
        else:
            document = self.request_json if prefix == "json" else self.response_json
            value = json_at(document, name) if document is not MISSING else MISSING
            values = [] if value is MISSING else [json_text(value)]
        return values[0] if values else None
