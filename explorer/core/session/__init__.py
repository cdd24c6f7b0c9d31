"""The browsing session: what a browser tab knows, with no Textual and no I/O.

- :mod:`~explorer.core.session.trail`: pages visited, back and forward;
- :mod:`~explorer.core.session.session`: the :class:`Session`: per-origin
  credential, API version and kept headers, typed URLs, reload and login rules;
- :mod:`~explorer.core.session.ordering` and :mod:`~explorer.core.session.choice`:
  link order and numbers, choosing a link by number, relation or title;
- :mod:`~explorer.core.session.reading`: a response's links and advice;
- :mod:`~explorer.core.session.actions`: an action link as a pre-filled request;
- :mod:`~explorer.core.session.hints`: the next step for a page;
- :mod:`~explorer.core.session.credentials`, :mod:`~explorer.core.session.version`,
  :mod:`~explorer.core.http.secret_rules`: what is kept per server, and for which.
"""

from __future__ import annotations

from explorer.core.session.session import Next, Session
from explorer.core.session.trail import Page, Trail

__all__ = ["Next", "Page", "Session", "Trail"]
