"""The layered architecture: one ASGI middleware per cross-cutting rule.

``LAYERS`` lists them outermost first, as the design orders them. Each is a
class ``Layer(app, service)`` with ``async __call__(scope, receive, send)``. A layer
knows no resource: what the app serves reaches it through the service (the method
policy's ``service.routes``, the guest's :class:`~mock_server.guest.GuestApi`), and
the rules it applies are :mod:`mock_server.http`'s and :mod:`mock_server.auth`'s. A
layer that must see a 200's whole body before it decides (the conditional and range
layers) reads it with :func:`~mock_server.layers.whole_answer.read_whole`.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp

from mock_server.layers.authentication import AuthenticationLayer
from mock_server.layers.compression import CompressionLayer
from mock_server.layers.conditional import ConditionalLayer
from mock_server.layers.connection import ConnectionLayer
from mock_server.layers.cors import CorsLayer
from mock_server.layers.cross_origin import CrossOriginLayer
from mock_server.layers.errors import ErrorLayer
from mock_server.layers.faults import FaultsLayer
from mock_server.layers.freshness import FreshnessLayer
from mock_server.layers.host_check import HostCheckLayer
from mock_server.layers.journal import JournalLayer
from mock_server.layers.method_policy import MethodPolicyLayer
from mock_server.layers.negotiation import NegotiationLayer
from mock_server.layers.preload import PreloadLayer
from mock_server.layers.protocol_limits import ProtocolLimitsLayer
from mock_server.layers.ranges import RangeLayer
from mock_server.layers.rate_limit import RateLimitLayer
from mock_server.layers.versioning import VersioningLayer
from mock_server.service import Service

LayerFactory = Callable[[ASGIApp, Service], ASGIApp]

#: Outermost first. Each request passes them in this order before a resource.
LAYERS: list[LayerFactory] = [
    # Test-backend layers: the connection (for faults) from the server's own send; the
    # journal sees the status the client got; the host check once the target's form is
    # known (an absolute URL's host is the Host); CORS before the rate limit and the
    # credentials, so a preflight passes and a 429 or 401 stays readable by the page; the
    # cross-origin check right after it, refusing what a page sent unasked (403).
    ConnectionLayer,
    JournalLayer,
    ErrorLayer,
    FreshnessLayer,
    ProtocolLimitsLayer,
    HostCheckLayer,
    CorsLayer,
    CrossOriginLayer,
    RateLimitLayer,
    MethodPolicyLayer,
    FaultsLayer,
    AuthenticationLayer,
    VersioningLayer,
    NegotiationLayer,
    PreloadLayer,
    # Ranges are cut from the 200 the preconditions let through, coded as it was sent.
    RangeLayer,
    ConditionalLayer,
    CompressionLayer,
]


def wrap(app: ASGIApp, service: Service) -> ASGIApp:
    """``app`` inside every layer of :data:`LAYERS`, the first one outermost."""
    for layer in reversed(LAYERS):
        app = layer(app, service)
    return app
