"""Response bodies: shown, filtered, checked and saved, within bounds.

Preparing a body for display, pretty-printed and indexed by line (:mod:`.display`),
whether it is text at all (:mod:`.media`), filtering JSON with JSONPath or jq, in a
child process for a large one (:mod:`.body_filter`, :mod:`.filter_process`),
searching one's display text in a child process (:mod:`.search_process`), why
bytes are not JSON (:mod:`.json_error`, :mod:`.json_body` for a request's body),
keeping memory low around a large one (:mod:`.memory`), and saving one to a file
(:mod:`.saving`). Reading a body off the wire is :mod:`explorer.core.http`'s work.
"""
