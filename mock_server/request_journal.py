"""The request journal: what the mock received, so tests can assert what a client sent.

Each request (method, target, headers, body, and the status it was answered
with) becomes one :class:`Entry`. The journal keeps the newest
``settings.journal_size`` of them and forgets the oldest; a body is kept up to
:data:`MAX_BODY` bytes. ``/_journal`` shows it (see
:mod:`mock_server.resources.journal`), and the pytest plugin reads it in-process.

Entries keep what was sent, secrets included: a test asserts on the real
``Authorization`` its client sent. Only what ``/_journal`` answers is masked
(:meth:`Entry.to_dict` with ``masked``; :mod:`mock_server.http.masking`).

This module is pure data: the layer that feeds it is
:mod:`mock_server.layers.journal`. The same journal kept in a database for every
instance (``--store postgresql://``) is :class:`mock_server.store.shared.SharedJournal`.
"""

from __future__ import annotations

import base64
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from mock_server.http import masking

#: The most bytes of one request body the journal keeps.
MAX_BODY = 16 * 1024
#: Where the journal is read (and cleared); requests to it are not journaled.
JOURNAL_PATH = "/_journal"


def is_journal_path(path: str) -> bool:
    """True for ``/_journal`` and below: reading the journal is not journaled."""
    return path == JOURNAL_PATH or path.startswith(JOURNAL_PATH + "/")


@dataclass
class Entry:
    """One request the mock received.

    Mutable while the exchange runs: the layer records the entry when the
    answer starts (so a client that got its answer finds its request in the
    journal), and body bytes the handler reads later are still added.
    """

    id: int
    time: float
    method: str
    #: The request target as sent: path and query, still percent-encoded.
    url: str
    path: str
    query: str
    #: The header fields as received (bytes), decoded only when read: see :attr:`headers`.
    raw_headers: list[tuple[bytes, bytes]]
    client: str | None = None
    body: bytearray = field(default_factory=bytearray)
    body_size: int = 0
    status: int | None = None

    @property
    def headers(self) -> list[tuple[str, str]]:
        """Header names in lower case with their values; repeated fields keep every value."""
        return [
            (name.decode("latin-1").lower(), value.decode("latin-1"))
            for name, value in self.raw_headers
        ]

    def add_body(self, chunk: bytes) -> None:
        """Keep ``chunk`` (as much of it as :data:`MAX_BODY` allows)."""
        self.body_size += len(chunk)
        room = MAX_BODY - len(self.body)
        if room > 0:
            self.body += chunk[:room]

    def header(self, name: str) -> str | None:
        """The value of header ``name`` (repeated fields joined by ``, ``), or None."""
        values = [value for key, value in self.headers if key == name.lower()]
        return ", ".join(values) if values else None

    def text(self) -> str | None:
        """The body as text, or None when it is not UTF-8."""
        return _text(bytes(self.body))

    def json(self) -> Any:
        """The body parsed as JSON; None when it is empty or not JSON."""
        return _json(bytes(self.body))

    def to_dict(self, *, masked: bool = False) -> dict[str, Any]:
        """The entry as ``/_journal`` shows it; ``masked``: its secrets as ``****``."""
        fields = self.headers
        body = bytes(self.body)
        query = self.query
        path = self.path
        if masked:
            path = masking.mask_path(path)
            fields = [(name, masking.mask_header(name, value)) for name, value in fields]
            body = masking.mask_body(self.header("content-type") or "", body)
            query = masking.mask_query(query)
        headers: dict[str, str] = {}
        for name, value in fields:
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        text = _text(body)
        return {
            "id": self.id,
            "time": self.time,
            "method": self.method,
            "url": f"{path}?{query}" if query else path,
            "path": path,
            "query": query,
            "headers": headers,
            "client": self.client,
            "body": text if text is not None else base64.b64encode(body).decode("ascii"),
            "bodyEncoding": "utf-8" if text is not None else "base64",
            "bodySize": self.body_size,
            "bodyTruncated": self.body_size > len(self.body),
            "json": _json(body),
            "status": self.status,
        }


def _text(body: bytes) -> str | None:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _json(body: bytes) -> Any:
    if not body:
        return None
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


@dataclass(frozen=True)
class HeaderFilter:
    """``name`` (the header is present) or ``name:value`` (it has that value exactly)."""

    name: str
    value: str | None = None

    @classmethod
    def parse(cls, raw: str) -> HeaderFilter:
        """``"content-type:application/json"`` -> a filter; raises ValueError if empty."""
        name, colon, value = raw.partition(":")
        name = name.strip().lower()
        if not name:
            raise ValueError(f"expected NAME or NAME:VALUE, got {raw!r}")
        return cls(name, value.strip() if colon else None)

    def keeps(self, entry: Entry) -> bool:
        """True when ``entry`` has the header (with the value, if one is asked for)."""
        values = [value for key, value in entry.headers if key == self.name]
        if self.value is None:
            return bool(values)
        return self.value in values or entry.header(self.name) == self.value


def path_matches(pattern: str, path: str) -> bool:
    """``/books`` matches exactly; ``/books*`` matches every path that starts so."""
    if pattern.endswith("*"):
        return path.startswith(pattern[:-1])
    return path == pattern


class RequestJournal:
    """A bounded, thread-safe record of requests, oldest first.

    Thread-safe because the in-process server runs in its own thread while a
    test reads the journal from another.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: deque[Entry] = deque(maxlen=size)
        self._lock = threading.Lock()
        self._next_id = 1

    def new_entry(
        self,
        *,
        time: float,
        method: str,
        path: str,
        query: str,
        headers: Iterable[tuple[bytes, bytes]],
        client: str | None,
    ) -> Entry:
        """A fresh entry with the next id (not yet in the journal: see :meth:`add`)."""
        with self._lock:
            entry_id = self._next_id
            self._next_id += 1
        url = f"{path}?{query}" if query else path
        return Entry(entry_id, time, method, url, path, query, list(headers), client)

    def add(self, entry: Entry) -> None:
        """Keep ``entry``; the oldest one goes when the journal is full."""
        if self.size == 0:
            return
        with self._lock:
            self._entries.append(entry)

    def update(self, entry: Entry) -> None:
        """``entry``, kept earlier, has read more of its body since (kept here as it is)."""

    def clear(self) -> int:
        """Forget every entry; returns how many there were."""
        with self._lock:
            count = len(self._entries)
            self._entries.clear()
            return count

    def entries(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        headers: Iterable[HeaderFilter] = (),
    ) -> list[Entry]:
        """The entries that pass every filter given, oldest first."""
        found = self._kept()
        wanted = list(headers)
        return [
            entry
            for entry in found
            if (method is None or entry.method == method.upper())
            and (path is None or path_matches(path, entry.path))
            and all(f.keeps(entry) for f in wanted)
        ]

    def _kept(self) -> list[Entry]:
        with self._lock:
            return list(self._entries)

    def __len__(self) -> int:
        return len(self._kept())
