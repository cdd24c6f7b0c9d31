"""Seeing an API whole: its map, a REST audit, and the difference between two answers.

- :mod:`~explorer.core.survey.polite`: one request at a time, spaced, ``Retry-After``;
- :mod:`~explorer.core.survey.crawl`: following the safe links, breadth first;
- :mod:`~explorer.core.survey.render_map`: the map as a tree, JSON, Mermaid, DOT;
- :mod:`~explorer.core.survey.audit_probes`, :mod:`~explorer.core.survey.audit_figures`,
  :mod:`~explorer.core.survey.versioning`, :mod:`~explorer.core.survey.description`,
  :mod:`~explorer.core.survey.audit`, :mod:`~explorer.core.survey.render_audit`:
  the REST audit;
- :mod:`~explorer.core.survey.diff`, :mod:`~explorer.core.survey.render_diff`: the
  structural difference of two bodies, and which changes break a client.

The map itself is the session's (:mod:`explorer.core.session.api_map`: what a tab
met); a survey walks and reads it. No Textual and no sockets: every request goes
through a send function given by the caller (the core client's, or one over the
mock's ASGI app in tests).
"""
