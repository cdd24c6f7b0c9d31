"""Streams: bodies that do not end, cut into events as their bytes come (sans I/O).

What an event is (:mod:`.event`) and how much of a stream is held (:mod:`.limits`); which
responses are streams and each framing's parser (:mod:`.framing`): server-sent
events as the WHATWG HTML standard reads them (:mod:`.sse`), JSON lines
(:mod:`.json_lines`), RFC 7464 JSON text sequences (:mod:`.json_seq`), and text
lines (:mod:`.lines`, with the bounded line splitter they share); the newest
events kept for a view, searched and filtered (:mod:`.kept`); and an event as a
person or a script reads it (:mod:`.shown`). Every parser is fed bytes and
gives events, bounded whatever the bytes: no socket, no clock, no terminal.
Reading a stream off a connection, and reconnecting an event stream, is
:mod:`explorer.core.http.stream_reading`'s work.
"""
