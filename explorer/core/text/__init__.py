"""Text as a person reads it: made safe for a terminal, searched, counted, sized.

Server text with its control characters made visible (:mod:`.terminal_text`: the one
filter every printed server string goes through), finding text in a view
(:mod:`.text_search`; a body's, in a child process, is
:mod:`explorer.core.bodies.search_process`'s), counting in words (:mod:`.plural`),
sizes as people write them (:mod:`.sizes`), a server's text quoted short in a message
(:mod:`.quoting`), what a copy to the clipboard may hold
(:mod:`.copy_text`), what a paste into the URL bar becomes (:mod:`.url_paste`), and a
regular expression compiled when first used, not at import (:mod:`.lazy_pattern`).
"""
