"""Where restwalk's response cache keeps what it stores: in memory, within bounds.

hishel decides what is stored, reused and revalidated (RFC 9111); a storage only
keeps entries. hishel ships SQLite and Redis storages, files and servers a
browsing session has no use for, so this one keeps its entries in the process,
and bounded: at most :data:`DEFAULT_MAX_BYTES` of bodies and headers in all, at
most :data:`DEFAULT_MAX_ENTRIES` entries, no body over :data:`DEFAULT_MAX_ENTRY`;
the least recently used entries go first. It follows hishel's storage contract
(:class:`hishel.AsyncBaseStorage`): an entry is seen only once its whole body was
read, a body over the limit is handed on whole but not kept, and a stored body
is served again as many times as asked.
"""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace

import hishel
from hishel import Entry, Headers, Request, Response

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_ENTRY",
    "MemoryStorage",
]

#: What the whole cache holds at most (bodies and header fields), in bytes.
DEFAULT_MAX_BYTES = 64 * 1000 * 1000
#: The largest body kept; a larger one is passed on and not stored.
DEFAULT_MAX_ENTRY = 10 * 1000 * 1000
#: Entries kept at most, whatever their size.
DEFAULT_MAX_ENTRIES = 1000


@dataclass
class _Stored:
    request: Request
    response: Response
    key: str
    body: bytes
    size: int
    #: When the entry goes, by its TTL (monotonic seconds), and its TTI.
    ttl_deadline: float | None = None
    tti: float | None = None
    last_used: float = field(default_factory=time.monotonic)

    def expired(self, now: float) -> bool:
        limits = [self.ttl_deadline] if self.ttl_deadline is not None else []
        if self.tti is not None:
            limits.append(self.last_used + self.tti)
        return bool(limits) and now >= min(limits)


def _headers_size(headers: Headers) -> int:
    pairs = ((name, value) for name in headers for value in headers.get_list(name) or [])
    return sum(len(name) + len(value) + 4 for name, value in pairs)


async def _replay(body: bytes) -> AsyncIterator[bytes]:
    yield body


class MemoryStorage(hishel.AsyncBaseStorage):
    """hishel's entries in memory, least recently used first out, within size bounds."""

    def __init__(
        self,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_entry: int = DEFAULT_MAX_ENTRY,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        default_ttl: float | None = None,
        default_tti: float | None = None,
    ) -> None:
        super().__init__(
            default_ttl=default_ttl,
            default_tti=default_tti,
            max_stream_size=min(max_entry, max_bytes),
        )
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._entries: OrderedDict[uuid.UUID, _Stored] = OrderedDict()
        #: Bytes held now.
        self.size = 0
        #: The keys whose last response was read whole but not kept, and why.
        self.refused: dict[str, str] = {}

    @property
    def count(self) -> int:
        """How many entries are held. (No ``__len__``: hishel takes an empty storage,
        falsy then, for none given, and makes a SQLite file of its own instead.)"""
        return len(self._entries)

    @property
    def max_entry(self) -> int:
        """The largest body kept."""
        return self.max_stream_size or 0

    async def create_entry(
        self,
        request: Request,
        response: Response,
        key: str,
        *,
        ttl: float | None = None,
        tti: float | None = None,
    ) -> Entry:
        """An entry whose body is kept as it is read, and stored once read whole."""
        entry_id = uuid.uuid4()
        headers = _headers_size(request.headers) + _headers_size(response.headers)
        ttl_deadline, entry_tti = self._limits(ttl, tti, time.monotonic())
        self.refused.pop(key, None)

        async def saving(source: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
            chunks: list[bytes] | None = []
            size = 0
            async for chunk in source:
                if chunks is not None:
                    size += len(chunk)
                    if size > self.max_entry:
                        chunks = None  # handed on whole, not kept
                    else:
                        chunks.append(chunk)
                yield chunk
            if chunks is None:
                self.refused[key] = (
                    f"its body is larger than the {self.max_entry:,} bytes the cache keeps "
                    "of one response"
                )
                return
            body = b"".join(chunks)
            stored = _Stored(
                request,
                replace(response, stream=None),
                key,
                body,
                len(body) + headers,
                ttl_deadline,
                entry_tti,
            )
            self._put(entry_id, stored)

        source = response.stream
        if source is None:
            stream: AsyncIterator[bytes] = saving(_replay(b""))
        elif isinstance(source, AsyncIterator):
            stream = saving(source)
        else:
            stream = saving(_replay(b"".join(source)))
        return Entry(entry_id, request, replace(response, stream=stream))

    def _put(self, entry_id: uuid.UUID, stored: _Stored) -> None:
        self._entries[entry_id] = stored
        self.size += stored.size
        while self._entries and (
            self.size > self.max_bytes or len(self._entries) > self.max_entries
        ):
            _, oldest = self._entries.popitem(last=False)
            self.size -= oldest.size

    def _live(self, key: str) -> list[tuple[uuid.UUID, _Stored]]:
        now = time.monotonic()
        for entry_id in [i for i, s in self._entries.items() if s.expired(now)]:
            self._drop(entry_id)
        return [(i, s) for i, s in self._entries.items() if s.key == key]

    async def get_entries(self, key: str) -> list[Entry]:
        """The entries stored under ``key``, each with a fresh stream of its body."""
        found = []
        for entry_id, stored in self._live(key):
            stored.last_used = time.monotonic()
            self._entries.move_to_end(entry_id)
            response = replace(stored.response, stream=_replay(stored.body))
            found.append(Entry(entry_id, stored.request, response))
        return found

    def peek(self, key: str) -> list[Entry]:
        """The entries under ``key`` as they are, without using them (no stream, no TTI
        restart): what an explanation of the cache's next step reads."""
        return [Entry(i, s.request, s.response) for i, s in self._live(key)]

    async def update_headers(self, id: uuid.UUID, headers: Headers) -> None:
        """Replace an entry's response headers (a 304 refreshes them)."""
        stored = self._entries.get(id)
        if stored is not None:
            old = _headers_size(stored.response.headers)
            stored.response = replace(stored.response, headers=headers)
            change = _headers_size(headers) - old
            stored.size += change
            self.size += change

    async def remove_entry(self, id: uuid.UUID) -> None:
        """Forget an entry."""
        self._drop(id)

    def _drop(self, entry_id: uuid.UUID) -> None:
        stored = self._entries.pop(entry_id, None)
        if stored is not None:
            self.size -= stored.size

    def clear(self, host: str | None = None) -> int:
        """Forget every entry, or those of URLs on ``host``; returns how many went."""
        from urllib.parse import urlsplit

        doomed = [
            entry_id
            for entry_id, stored in self._entries.items()
            if host is None or urlsplit(stored.request.url).hostname == host
        ]
        for entry_id in doomed:
            self._drop(entry_id)
        return len(doomed)
