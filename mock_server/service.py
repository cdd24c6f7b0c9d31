"""The state one mock server instance shares between its layers and resources."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mock_server.auth import Authenticator
from mock_server.domain.jobs import JobBoard
from mock_server.events.callbacks import Allowed, CallbackPolicy
from mock_server.events.delivery import Deliverer
from mock_server.events.hub import EventHub
from mock_server.request_journal import RequestJournal
from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.event_log import EventLog, MemoryEventLog
from mock_server.store.webhook_book import MemoryWebhookBook, WebhookBook


@dataclass
class Service:
    """Settings, the store, and a clock: everything a layer or a resource may need.

    Layers receive it in their constructor; resources find it on
    ``request.app.state.service``. ``clock`` is injectable so tests can move time.
    """

    settings: Settings
    store: Store
    clock: Callable[[], float] = field(default=time.time)
    maintenance: bool = False
    #: Long-running jobs (``POST /reports``); ``jobs.duration`` is settable for tests.
    jobs: JobBoard = field(default_factory=JobBoard)
    #: The random source of fault injection; tests seed or replace it.
    rng: random.Random = field(default_factory=random.Random)
    auth: Authenticator = field(init=False)
    #: Every request received, for ``/_journal`` and the pytest plugin.
    requests: RequestJournal = field(init=False)
    #: Every change to the data, as events (``/events``); it hears every write of the store.
    events: EventHub = field(init=False)
    #: The webhook deliveries (``/webhooks``): the subscriptions are ``webhooks.book``.
    webhooks: Deliverer = field(init=False)

    def __post_init__(self) -> None:
        self.requests = RequestJournal(self.settings.journal_size)
        self.maintenance = self.settings.maintenance
        persistence = self.store.persistence
        self.auth = Authenticator.for_settings(self.settings, persistence)
        capacity = self.settings.event_backlog
        log: EventLog = (
            MemoryEventLog(capacity) if persistence is None else persistence.event_log(capacity)
        )
        book: WebhookBook = (
            MemoryWebhookBook() if persistence is None else persistence.webhook_book()
        )
        self.events = EventHub(log, lambda: self.clock())
        self.store.watcher = self.events
        policy = CallbackPolicy(tuple(Allowed.parse(e) for e in self.settings.webhook_allow))
        self.webhooks = Deliverer(book, self.events, policy, self.settings.webhook_retries)

    def close(self) -> None:
        """End the open event streams and stop the webhooks (from any thread).

        The server calls it when it stops, so no stream keeps it waiting.
        """
        self.webhooks.close()
        self.events.close()
