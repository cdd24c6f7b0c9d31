"""HTTP's rules as pure functions: what the RFCs decide, with no server around them.

Preconditions and dates (RFC 9110 section 13), byte ranges (section 14), weighted
lists (section 12.4.2), problem details (RFC 9457), the status table of the spec,
API versions, entity tags, reading request bodies, JSON Patch (RFC 6902) and Merge
Patch (RFC 7396), the fields every answer carries, and lost-update guards; and
what keeps a browser from turning the mock against its user: the host names it
answers (:mod:`.hosts`), the media types an echo never serves
(:mod:`.active_content`), the secrets shown masked (:mod:`.masking`). The layers
and resources call these; none of them opens a socket or knows a route.
"""
