"""A browser tab: what it knows and decides, with no Textual (the TUI and every command).

- :mod:`~explorer.core.session.tab`: the :class:`~explorer.core.session.tab.Tab`, one
  browser tab: its session and the client it sends with; following, logging in,
  paging, the API's description (found and read by
  :mod:`~explorer.core.session.description_search`), a history entry, a bookmark;
  what its login, logout and reopening answer, :mod:`~explorer.core.session.tab_answers`;
- :mod:`~explorer.core.session.session`: the :class:`Session`: the trail shown, reload
  and login rules; what it keeps per origin (credential, API version, kept headers)
  and puts on a request, :mod:`~explorer.core.session.origin_state`; what to do next
  and which methods go again unasked, :mod:`~explorer.core.session.next_step`; a
  typed URL read, :mod:`~explorer.core.session.typed_url`;
- :mod:`~explorer.core.session.trail`: pages visited, back and forward (the trail;
  "history" is the store of exchanges, :mod:`explorer.core.storage.history`);
- :mod:`~explorer.core.session.ordering`, :mod:`~explorer.core.session.choice` and
  :mod:`~explorer.core.session.following`: link order and numbers, what following a
  link does (one rule), choosing a link by number, relation or title, the next page;
- :mod:`~explorer.core.session.loading` and :mod:`~explorer.core.session.reading`: a
  page sent and its response read (its links and advice);
  :mod:`~explorer.core.session.start_page`: the start page, asked for before its
  screen is shown;
- :mod:`~explorer.core.session.derived`: a request made from another keeps its secrets
  to their origin;
- :mod:`~explorer.core.session.actions`, :mod:`~explorer.core.session.page_stack`,
  :mod:`~explorer.core.session.rel_path`, :mod:`~explorer.core.session.reopen`: an
  action as a pre-filled request, pages shown one below the other (``+``), a walk as
  a path of relations (bookmarks), a kept exchange reopened;
- :mod:`~explorer.core.session.page_walk` and :mod:`~explorer.core.session.walk_tally`:
  ``--all``'s walk from page to page, and what a walk of pages read and why it ended
  (never silently short);
- :mod:`~explorer.core.session.api_map`, :mod:`~explorer.core.session.fold` and
  :mod:`~explorer.core.session.map_resources`: the map of what the tab met, its URLs
  folded into resources;
- :mod:`~explorer.core.session.hints`, :mod:`~explorer.core.session.credentials`,
  :mod:`~explorer.core.session.version`, :mod:`~explorer.core.session.errors`: the next
  key, what is kept per server, and why a link is not followed.

Sockets are the client's (:mod:`explorer.core.http`); keeping anything between runs
is :mod:`explorer.core.storage`'s.
"""

from __future__ import annotations

from explorer.core.session.next_step import Next
from explorer.core.session.session import Session
from explorer.core.session.trail import Page, Trail

__all__ = ["Next", "Page", "Session", "Trail"]
