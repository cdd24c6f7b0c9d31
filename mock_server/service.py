"""The state one mock server instance shares between its layers and resources."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mock_server.auth import Authenticator
from mock_server.domain.jobs import JobBoard
from mock_server.request_journal import RequestJournal, SharedJournal
from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.shared import InstanceSharing


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

    def __post_init__(self) -> None:
        sharing = self.sharing
        self.requests = (
            RequestJournal(self.settings.journal_size)
            if sharing is None
            else SharedJournal(self.settings.journal_size, sharing.journal_table)
        )
        self.maintenance = self.settings.maintenance
        self.auth = Authenticator.for_settings(self.settings, self.store.persistence)

    @property
    def sharing(self) -> InstanceSharing | None:
        """The database that keeps the journal and rate limits for every instance, if any."""
        persistence = self.store.persistence
        return persistence if isinstance(persistence, InstanceSharing) else None
