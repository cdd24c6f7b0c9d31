"""The state one mock server instance shares between its layers and resources."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mock_server.auth import Authenticator
from mock_server.domain.jobs import JobBoard
from mock_server.guest import GuestApi
from mock_server.request_journal import RequestJournal
from mock_server.settings import Settings
from mock_server.store import Store


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
    #: Your API, served in place of the teaching one (``--openapi``, ``--replay``, ``--record``).
    guest: GuestApi | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.requests = RequestJournal(self.settings.journal_size)
        self.maintenance = self.settings.maintenance
        self.auth = Authenticator.for_settings(self.settings, self.store.persistence)
