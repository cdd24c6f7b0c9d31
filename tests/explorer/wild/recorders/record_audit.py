"""Record every exchange of ``restwalk audit`` against a live server, for the tests to replay.

    .venv/bin/python tests/explorer/wild/recorders/record_audit.py NAME "FRAMEWORK VERSION" URL

writes ``tests/explorer/wild/fixtures/audit/NAME.json``: the audit's limits and
each request the transport saw (method, URL, the headers that pick an answer)
with the answer (status, headers, body as text, or base64 when it is not
UTF-8). ``tests/explorer/survey/test_audit_wild.py`` replays them through
``httpx.MockTransport``, so the audit runs again on the same answers, with no
server. Start the servers as ``record_all.sh`` does (see ../README.md).
"""

from __future__ import annotations

import asyncio
import base64
import sys
from pathlib import Path

import httpx
import orjson

from explorer.core.http.client import Client
from explorer.core.survey.audit import run_audit
from explorer.core.survey.audit_probes import ALTERNATIVE_TYPES
from explorer.core.survey.crawl import client_sends
from explorer.core.survey.render_audit import audit_text
from tests.explorer.survey.replay import LIMITS, SAMPLES, request_key

FIXTURES = Path(__file__).parent.parent / "fixtures" / "audit"


class Recording(httpx.AsyncBaseTransport):
    """A transport that sends for real and keeps each exchange."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.exchanges: list[dict[str, object]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        # The bytes as sent (still compressed): the client undoes the coding on replay.
        body = b"".join([chunk async for chunk in response.aiter_raw()])
        await response.aclose()
        body = _kept(request, response, body)
        try:
            text: dict[str, str] = {"text": body.decode("utf-8")}
        except UnicodeDecodeError:
            text = {"base64": base64.b64encode(body).decode()}
        self.exchanges.append(
            {
                "key": list(request_key(request)),
                "status": response.status_code,
                "headers": [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in response.headers.raw
                ],
                **text,
            }
        )
        return httpx.Response(response.status_code, headers=response.headers.raw, content=body)

    async def aclose(self) -> None:
        await self.inner.aclose()


#: Bytes kept of an answer the audit only needs the head of (see _kept).
KEPT = 2048


def _kept(request: httpx.Request, response: httpx.Response, body: bytes) -> bytes:
    """What the recording keeps of a body, to stay small: an image's or other binary
    body is dropped (the audit reads no link in it), and the answer to another Accept
    (DRF's browsable HTML page) is cut: the audit reads only its status and headers."""
    if "content-encoding" in response.headers:
        return body  # cut, it could not be decoded
    media = response.headers.get("content-type", "").split(";")[0].strip().lower()
    textual = media.startswith("text/") or media.endswith(("json", "xml", "javascript"))
    if not textual or request.headers.get("accept") in ALTERNATIVE_TYPES:
        body = body[: KEPT if textual else 0]
        if "content-length" in response.headers:
            response.headers["content-length"] = str(len(body))
    return body


async def record(name: str, framework: str, url: str) -> None:
    transport = Recording()
    async with Client(transport=transport) as client:
        send, without_cookies = client_sends(client)
        audit = await run_audit(
            url,
            send,
            limits=LIMITS,
            without_cookies=without_cookies,
            max_samples=SAMPLES,
        )
    print(audit_text(audit))
    document = {"framework": framework, "url": url, "exchanges": transport.exchanges}
    (FIXTURES / f"{name}.json").write_bytes(orjson.dumps(document) + b"\n")


if __name__ == "__main__":
    asyncio.run(record(*sys.argv[1:4]))
