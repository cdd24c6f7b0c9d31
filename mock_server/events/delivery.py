"""Webhook deliveries: each event POSTed to the subscriptions that want it, signed, retried.

The hub hands the deliverer every event its process made, once the event's
transaction committed (:meth:`Deliverer.offer`); with ``--workers`` each
event is delivered once, by the process whose write made it. For each
subscription whose types match, a delivery is queued; :data:`WORKERS` tasks
send them with one httpx client:

- the body is the event's JSON document (:func:`mock_server.events.wire.document`),
  its data in the subscription's API version and its URL absolute (the
  scheme and host the subscription was made at);
- signed as Standard Webhooks says (:mod:`mock_server.events.signing`), with the
  event's id as ``webhook-id`` on every try;
- a 2xx answer delivers it; anything else (a 3xx too: redirects are never
  followed), no answer within :data:`TIMEOUT_SECONDS`, or a refused
  connection is a failure, tried again after each of the delays given
  (``--webhook-retries``, default 1, 5 and 30 s), then given up;
- the callback is checked again before every try (:mod:`.callbacks`), and the
  answer's body is never read.

Every try is an :class:`~mock_server.store.webhook_book.Attempt` in the
book, listed at the subscription's URL. Memory is bounded: at most
:data:`MAX_PENDING` deliveries wait (queued, or for a retry); past that an
event's delivery is dropped, and the attempt list says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING

import orjson

from mock_server.events.callbacks import CallbackPolicy
from mock_server.events.hub import EventHub
from mock_server.events.signing import signature_headers
from mock_server.events.wire import document, event_id
from mock_server.http.versions import DEFAULT_VERSION, is_versioned_path
from mock_server.store.event_log import Event
from mock_server.store.webhook_book import Attempt, Subscription, WebhookBook

if TYPE_CHECKING:
    import httpx

logger = logging.getLogger("mock_server.webhooks")

#: Deliveries sent at once.
WORKERS = 4
#: Deliveries waiting at most (queued or for a retry); more are dropped.
MAX_PENDING = 1000
#: How long a receiver has to answer one try.
TIMEOUT_SECONDS = 5.0
#: The pauses between tries, unless the settings say otherwise.
DEFAULT_RETRIES: tuple[float, ...] = (1.0, 5.0, 30.0)
USER_AGENT = "restwalk-mock webhooks"


def matches(types: tuple[str, ...], event_type: str) -> bool:
    """True when a subscription to ``types`` wants ``event_type`` (``*`` and ``kind.*`` too)."""
    kind = event_type.partition(".")[0]
    return any(wanted in ("*", event_type, f"{kind}.*") for wanted in types)


def event_url(subscription: Subscription, path: str) -> str:
    """The absolute URL of ``path`` in the subscription's version (``/v2`` where versioned)."""
    version = subscription.version
    prefix = f"/v{version}" if version != DEFAULT_VERSION and is_versioned_path(path) else ""
    return subscription.base.rstrip("/") + prefix + path


@dataclass(frozen=True)
class Delivery:
    """Try ``number`` of sending ``event`` to subscription ``webhook``."""

    webhook: int
    event: Event
    number: int = 1


class Deliverer:
    """Sends the hub's events to the subscriptions in ``book``."""

    def __init__(
        self,
        book: WebhookBook,
        hub: EventHub,
        policy: CallbackPolicy,
        retries: tuple[float, ...] = DEFAULT_RETRIES,
    ) -> None:
        self.book = book
        self.hub = hub
        self.policy = policy
        self.retries = retries
        self.closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[Delivery] | None = None
        self._runner: asyncio.Task[None] | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._pending = 0
        hub.listeners.append(self.offer)

    # Taking events ---------------------------------------------------------------------

    def offer(self, event: Event) -> None:
        """Queue ``event`` for every subscription that wants it (called after its commit)."""
        if self.closed:
            return
        wanted = [s for s in self.book.all() if matches(s.types, event.type)]
        if not wanted:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            logger.debug("no event loop here: %s is not delivered", event.type)
            return
        for subscription in wanted:
            self._submit(loop, Delivery(subscription.id, event))

    def _submit(self, loop: asyncio.AbstractEventLoop, delivery: Delivery) -> None:
        queue = self._started(loop)
        if self._pending >= MAX_PENDING:
            self._record(
                delivery,
                None,
                "dropped",
                f"{MAX_PENDING} deliveries were already waiting; this one was not tried",
                0,
            )
            return
        self._pending += 1
        queue.put_nowait(delivery)

    def _started(self, loop: asyncio.AbstractEventLoop) -> asyncio.Queue[Delivery]:
        """The queue, with its workers running on ``loop`` (started at the first delivery)."""
        if self._queue is None or self._loop is not loop or self._runner is None:
            self._loop = loop
            self._queue = asyncio.Queue()
            self._pending = 0
            self._runner = loop.create_task(self._run(self._queue))
        return self._queue

    # Sending ---------------------------------------------------------------------------

    async def _run(self, queue: asyncio.Queue[Delivery]) -> None:
        # httpx at the first delivery, not when the mock starts (as .callbacks does).
        import httpx

        async with (
            httpx.AsyncClient(
                follow_redirects=False,
                trust_env=False,
                timeout=TIMEOUT_SECONDS,
                headers={"User-Agent": USER_AGENT},
            ) as client,
            asyncio.TaskGroup() as group,
        ):
            for _ in range(WORKERS):
                group.create_task(self._work(client, queue))

    async def _work(self, client: httpx.AsyncClient, queue: asyncio.Queue[Delivery]) -> None:
        while True:
            delivery = await queue.get()
            try:
                await self._attempt(client, delivery)
            except Exception:  # a bug must not stop the deliveries after it
                logger.exception("delivering %s failed", delivery.event.type)
            finally:
                self._pending -= 1

    async def _attempt(self, client: httpx.AsyncClient, delivery: Delivery) -> None:
        import httpx  # (imported by _run already)

        subscription = self.book.get(delivery.webhook)
        if subscription is None:
            return  # deleted since the event came
        refusal = self.policy.refusal(subscription.url)
        if refusal is not None:
            self._record(delivery, None, "gave-up", f"the callback URL {refusal}", 0)
            return
        event = delivery.event
        message_id = event_id(event.seq, self.hub.origin)
        data = self.hub.describer.render(event, subscription.version)
        body = orjson.dumps(
            document(event, self.hub.origin, event_url(subscription, event.path), data)
        )
        headers = {
            "Content-Type": "application/json",
            **signature_headers(subscription.secret, message_id, int(time.time()), body),
        }
        started = time.monotonic()
        status: int | None = None
        try:
            async with client.stream("POST", subscription.url, content=body, headers=headers) as r:
                status = r.status_code
                detail = f"answered {status} {_phrase(status)}".rstrip()
                if r.is_redirect:
                    detail += f" to {r.headers.get('location', '?')} (redirects are not followed)"
        except httpx.TimeoutException:
            detail = f"no answer within {TIMEOUT_SECONDS:g} s"
        except httpx.HTTPError as error:
            detail = f"{type(error).__name__}: {error}".splitlines()[0]
        duration = round((time.monotonic() - started) * 1000)
        if status is not None and HTTPStatus.OK <= status < HTTPStatus.MULTIPLE_CHOICES:
            self._record(delivery, status, "delivered", detail, duration)
        elif delivery.number <= len(self.retries) and not self.closed:
            delay = self.retries[delivery.number - 1]
            self._record(delivery, status, "failed", detail, duration, delay)
            self._retry(Delivery(delivery.webhook, event, delivery.number + 1), delay)
        else:
            self._record(delivery, status, "gave-up", detail, duration)

    def _retry(self, delivery: Delivery, delay: float) -> None:
        loop, queue = self._loop, self._queue
        assert loop is not None
        assert queue is not None
        self._pending += 1

        def again() -> None:
            self._timers.discard(handle)
            if self.closed or queue is not self._queue:
                return
            queue.put_nowait(delivery)

        handle = loop.call_later(delay, again)
        self._timers.add(handle)

    def _record(
        self,
        delivery: Delivery,
        status: int | None,
        outcome: str,
        detail: str,
        duration_ms: int,
        retry_in: float | None = None,
    ) -> None:
        now = self.hub.clock()
        self.book.record(
            Attempt(
                webhook=delivery.webhook,
                event=event_id(delivery.event.seq, self.hub.origin),
                type=delivery.event.type,
                number=delivery.number,
                time=now,
                status=status,
                outcome=outcome,
                detail=detail,
                duration_ms=duration_ms,
                retry_at=None if retry_in is None else now + retry_in,
            )
        )

    # Closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stop sending (from any thread): waiting deliveries are forgotten."""
        self.closed = True
        loop, runner = self._loop, self._runner
        if loop is None or runner is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed already
            loop.call_soon_threadsafe(self._stop, runner)

    def _stop(self, runner: asyncio.Task[None]) -> None:
        runner.cancel()
        for handle in list(self._timers):
            handle.cancel()
        self._timers.clear()


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
