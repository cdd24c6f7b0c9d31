"""What a HAR export holds: the exchanges of the walk (the tab's trail) or of the history.

Each comes with when it was sent, in order. The walk's are masked as config.toml's
``mask_secrets`` says (the history's were masked when they were kept), so a HAR
file of either never holds a secret the person did not choose to keep. Writing
the file is the caller's (a dialog's thread, or the command line).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from explorer.core.http.exchange import Exchange
from explorer.core.http.masking import mask_exchange
from explorer.core.session.trail import Page
from explorer.core.storage.history import HistoryStore
from explorer.core.storage.history_query import HistoryQuery

__all__ = ["Dated", "history_exchanges", "walk_exchanges"]

#: An exchange and when it was sent (seconds since the epoch).
Dated = tuple[Exchange, float]


def walk_exchanges(pages: Iterable[Page], *, mask: bool) -> list[Dated]:
    """The exchanges of the walk's pages, in order (masked when ``mask``); a page that got
    no answer has none."""
    items = []
    for page in pages:
        if page.exchange is None:
            continue
        exchange = mask_exchange(page.exchange) if mask else page.exchange
        items.append((exchange, page.sent_at or time.time()))
    return items


def history_exchanges(
    store: HistoryStore, query: HistoryQuery, limit: int | None = None
) -> list[Dated]:
    """The history entries ``query`` asks for (all of them when it is empty), oldest first
    as the store gives them, at most ``limit``."""
    return [(exchange, entry.at) for entry, exchange in store.exchanges(query, limit=limit)]
