"""HTTP's rules as pure functions: what the RFCs decide, with no server around them.

Preconditions and dates (RFC 9110 section 13), byte ranges (section 14), weighted
lists (section 12.4.2) and the ``Accept`` negotiation built on them (section
12.5.1: :mod:`.negotiation`), problem details (RFC 9457) in JSON and in XML
(:mod:`.xml_values`, loaded with the first XML answer), the status table of the
spec, API versions, entity tags, reading request bodies, JSON Patch (RFC 6902) and
Merge Patch (RFC 7396), the rate limit's fields (:mod:`.rate_limit_fields`), and
the fields every answer carries; and what keeps a browser from turning the mock
against its user: the host names it answers (:mod:`.hosts`), the media types an
echo never serves (:mod:`.active_content`), the secrets shown masked
(:mod:`.masking`). The layers and resources call these; none of them opens a
socket, knows a route or imports another package of the mock.
"""
