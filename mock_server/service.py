"""The state one mock server instance shares between its layers and resources."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from mock_server.auth import Authenticator, Principal, Refusal
from mock_server.domain.jobs import JobBoard
from mock_server.events.callbacks import Allowed, CallbackPolicy
from mock_server.events.delivery import Deliverer
from mock_server.events.hub import EventHub
from mock_server.guest import GuestApi
from mock_server.oauth.metadata import check_client_ids
from mock_server.request_journal import RequestJournal
from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.event_log import EventLog, MemoryEventLog
from mock_server.store.shared import InstanceSharing, SharedJournal
from mock_server.store.webhook_book import MemoryWebhookBook, WebhookBook

if TYPE_CHECKING:
    from mock_server.oauth.server import OAuthServer


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
    _oauth: OAuthServer | None = field(init=False, default=None, repr=False)
    #: Every request received, for ``/_journal`` and the pytest plugin.
    requests: RequestJournal = field(init=False)
    #: Your API, served in place of the teaching one (``--openapi``, ``--replay``, ``--record``).
    guest: GuestApi | None = field(default=None, init=False)
    #: The routes the app serves, set by the app factory: a path allows the methods its
    #: routes accept (the method policy layer's ``Allow``).
    routes: list[BaseRoute] = field(default_factory=list, init=False)
    #: Every change to the data, as events (``/events``); it hears every write of the store.
    events: EventHub = field(init=False)
    #: The webhook deliveries (``/webhooks``): the subscriptions are ``webhooks.book``.
    webhooks: Deliverer = field(init=False)

    def __post_init__(self) -> None:
        sharing = self.sharing
        self.requests = (
            RequestJournal(self.settings.journal_size)
            if sharing is None
            else SharedJournal(self.settings.journal_size, sharing.journal_table)
        )
        self.maintenance = self.settings.maintenance
        persistence = self.store.persistence
        self.auth = Authenticator.for_settings(self.settings, persistence)
        if self.settings.oauth:
            ids = (spec.client_id for spec in self.settings.oauth_clients)
            check_client_ids(ids, self.auth.users.names())
            self.auth.access_tokens = _OAuthAccessTokens(self)
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

    def reset_data(self) -> None:
        """Every collection back to where it started: the seed, a ``--data`` file's
        members, an ``--openapi`` document's collections, a ``--replay`` tape's first
        recordings (``POST /_reset``, the pytest plugin's ``reset()``)."""
        self.store.reset()
        if self.guest is not None:
            self.guest.reset()

    def close(self) -> None:
        """End the open event streams and stop the webhooks (from any thread).

        The server calls it when it stops, so no stream keeps it waiting.
        """
        self.webhooks.close()
        self.events.close()

    @property
    def sharing(self) -> InstanceSharing | None:
        """The database that keeps the journal and rate limits for every instance, if any."""
        persistence = self.store.persistence
        return persistence if isinstance(persistence, InstanceSharing) else None

    @property
    def oauth(self) -> OAuthServer | None:
        """The OAuth 2.0 authorization server (None with ``--no-oauth``).

        Made at its first use, so that Authlib and joserfc load with the first OAuth
        request or token rather than at every start (a tenth of a second), and the OAuth
        state's records (dataclasses, some 4 ms to make) with them.
        """
        if self._oauth is None and self.settings.oauth:
            from mock_server.oauth.server import OAuthServer  # late: see the docstring
            from mock_server.oauth.state import OAuthStateKeeper

            keeper = self.store.persistence
            self._oauth = OAuthServer(
                secret=self.auth.secret,
                users=self.auth.users,
                clock=lambda: self.clock(),
                lifetime=self.settings.token_lifetime_seconds,
                clients=self.settings.oauth_clients,
                state=keeper.oauth_state if isinstance(keeper, OAuthStateKeeper) else None,
            )
        return self._oauth


class _OAuthAccessTokens:
    """The OAuth server's token checks, for the authenticator, made with the first token."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def check(self, token: str, now: float) -> Principal | Refusal:
        """Who ``token`` speaks for, or why it is refused."""
        server = self.service.oauth
        if server is None:
            return Refusal("The bearer token is not one this server issued.", invalid_token=True)
        return server.checker.check(token, now)
