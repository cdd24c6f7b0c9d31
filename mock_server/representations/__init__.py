"""Representations: one neutral resource model, rendered in each media type.

Resources build a :class:`~mock_server.representations.model.Resource`
(properties, links, embedded resources, actions); a renderer per media type
(HAL, Siren, JSON:API, XML) turns it into bytes, so the same links appear in every
representation. Also here: turning a resource into the response asked for
(:mod:`.respond`), link targets that keep the request's version (:mod:`.urls`), the
RFC 8288 ``Link`` header, 207 Multi-Status bodies, and the caches of members and
pages made once per store state. Which media type a request asked for is HTTP's
rule (:mod:`mock_server.http.negotiation`).
"""
