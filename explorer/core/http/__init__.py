"""HTTP as restwalk speaks it: a request described, sent, and recorded as an exchange.

The request a person describes (:mod:`.request`, its uploads and API version), the
client that sends it (:mod:`.client`, with :mod:`.connection` choices, default
:mod:`.limits`, TLS, the httpx :mod:`.pool` under it, the :mod:`.logins` it remembers
and a 401's second try, OAuth 2.0 tokens from a :mod:`.token_source`; :mod:`.one_off`
sends one request without keeping a client): each exchange sent as a call chose
(:mod:`.sending`), a :mod:`.trip` of redirects one hop at a time (:mod:`.redirects`),
each hop (:mod:`.one_hop`) with the cookie header and content codings undone within
bounds, its body counted as it comes for whoever waits (:mod:`.progress`), down a stack
of transports (the private cache, :mod:`.cache`; a retry on a closed keep-alive
connection, :mod:`.retry`), a stream read as it comes and an event stream reconnected
(:mod:`.stream_reading`), the :class:`.exchange.Exchange` it records, its wire text
(:mod:`.wire`), which names hold secrets and which origin may receive them
(:mod:`.secret_rules`), an exchange with its secrets masked (:mod:`.masking`,
:mod:`.secret_values`), and every way it can fail as our own error types
(:mod:`.errors`, made from httpx's in :mod:`.httpx_errors`, from a broken answer in
:mod:`.malformed`). What a response's body means is not here: see
:mod:`explorer.core.bodies` and :mod:`explorer.core.hypermedia`.
"""
