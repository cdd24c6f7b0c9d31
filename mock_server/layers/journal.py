"""Journal layer: every request goes into the request journal, with its answer's status.

Outermost, so the journal sees the status the client really got (even the
500 the error layer makes of a fault). The entry joins the journal when the
answer starts, before the client can read it: a test that got its answer
finds its request there. Requests to ``/_journal`` itself are not recorded,
so reading the journal does not change it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.request_journal import Entry, is_journal_path
from mock_server.service import Service


class JournalLayer:
    """Records each request in ``service.requests``."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_journal_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        journal = self.service.requests
        raw_path = scope.get("raw_path")
        client = scope.get("client")
        entry: Entry = journal.new_entry(
            time=self.service.clock(),
            method=scope["method"],
            path=raw_path.decode("latin-1") if isinstance(raw_path, bytes) else scope["path"],
            query=scope.get("query_string", b"").decode("latin-1"),
            headers=scope.get("headers", ()),
            client=client[0] if client else None,
        )
        added = False
        size_when_added = 0

        async def receive_recording() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                entry.add_body(message.get("body", b""))
            return message

        async def send_recording(message: Message) -> None:
            nonlocal added, size_when_added
            if message["type"] == "http.response.start" and not added:
                entry.status = message["status"]
                journal.add(entry)
                added, size_when_added = True, entry.body_size
            await send(message)

        try:
            await self.app(scope, receive_recording, send_recording)
        finally:
            if not added:
                # No answer at all (a fault that drops the connection): still received.
                journal.add(entry)
            elif entry.body_size != size_when_added:
                # Body read after the answer began: a journal kept elsewhere learns of it.
                journal.update(entry)
