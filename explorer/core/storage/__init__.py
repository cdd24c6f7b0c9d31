"""What restwalk keeps between runs, in its data directory (:mod:`explorer.core.paths`).

- :mod:`~explorer.core.storage.history`: every exchange, in SQLite, searchable and
  bounded (:mod:`~explorer.core.storage.history_query` reads a search,
  :mod:`~explorer.core.storage.history_rows` writes an exchange's rows,
  :mod:`~explorer.core.storage.history_entry` is one as a list shows it);
- :mod:`~explorer.core.storage.recorder`: the history written off the caller's thread;
- :mod:`~explorer.core.storage.bookmarks`: rel-path bookmarks, in a JSON file a person
  can edit;
- :mod:`~explorer.core.storage.database`: SQLite shared by processes, a damaged file
  moved aside.

What of an exchange is a secret, and its masking before anything is kept, is
:mod:`explorer.core.http.masking`'s.
"""
