"""Representations: one neutral resource model, rendered in each media type.

Resources build a :class:`~mock_server.representations.model.Resource`
(properties, links, embedded resources, actions); a renderer per media type
turns it into bytes. So the same links appear in every representation.
"""
