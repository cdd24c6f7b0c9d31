"""The explorer's UI-free core: no Textual import, no terminal, fully unit-tested.

A package per idea: :mod:`~explorer.core.http` (requests, the client, exchanges,
errors), :mod:`~explorer.core.hypermedia` (links found in a response, URI templates),
:mod:`~explorer.core.bodies` (bodies shown, filtered, saved), :mod:`~explorer.core.text`
(terminal-safe text, search), :mod:`~explorer.core.session` (what a browser tab knows
and decides), :mod:`~explorer.core.knowledge` (every status, header and method
explained, and the linter's notes), :mod:`~explorer.core.storage` (history and
bookmarks), :mod:`~explorer.core.httpfile` (``.http`` files),
:mod:`~explorer.core.carry` (other tools' formats), :mod:`~explorer.core.survey` (the
API whole: map, audit, diff), :mod:`~explorer.core.streams` (bodies that do not end,
cut into events as they come), :mod:`~explorer.core.listening` (requests a local
endpoint receives, webhook signatures checked). At the root: ``config.toml``
(:mod:`.config`), where files live (:mod:`.paths`) and how one is written whole or not
at all (:mod:`.files`). The bundled mock server's port and what follows it:
:mod:`.bundled`. For the start's sake: the garbage collector paused while it works
(:mod:`.gc_pause`); a pattern compiled when first used is
:mod:`explorer.core.text.lazy_pattern`'s.

An immutable record that ``restwalk``'s first screen imports is a ``NamedTuple`` where it
can be (no ``dataclasses.replace``, no cached property, never compared with a record of
another kind, never serialized as an object): defining a frozen dataclass compiles
six generated methods (some 0.6 ms a class here; the first screen defined some sixty),
a NamedTuple class costs a fifth of that, and its instances are made faster too
(:class:`~explorer.core.hypermedia.link.Link` is one for that reason). A record that is
changed in place, or made once and only read, and never compared (a session's state per
origin, its trail, a walk's tally, a link search) is a plain class: a dataclass's
generated methods would go unused. config.toml's sections are NamedTuples whose
annotations name each key's check (:mod:`.config`).

The packages import one another one way (import-linter checks it): text, bodies,
hypermedia, knowledge, streams, http, listening, httpfile and carry below the session
(a browser tab, its map, the :class:`~explorer.core.session.tab.Tab`), storage and
survey above it.
"""
