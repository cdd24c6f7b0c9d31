"""Outermost layer: no exception ever reaches the client as a traceback.

A fault anywhere inside is logged with its traceback (for the operator) and
answered with a 500 problem body (for the client); the server keeps serving.
The store's database gone away (:class:`~mock_server.store.errors.StoreUnavailable`)
is no fault either: a 503 with ``Retry-After``, logged once by the store.
A client that resets the connection is no fault: one line at info level says
so, and nobody is left to answer. Being outermost, it also gives every answer
the fields all answers carry (:mod:`mock_server.http.every_answer`: Date, Server,
the JSON charset).
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.every_answer import finish
from mock_server.http.problems import Problem
from mock_server.service import Service
from mock_server.store.errors import StoreUnavailable

logger = logging.getLogger("mock_server")


class ErrorLayer:
    """Turns any exception inside the stack into a logged 500 problem response."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = finish(list(message.get("headers", [])), self.service.clock())
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_tracking)
        except Problem as problem:
            if started:
                raise
            await problem.response(scope)(scope, receive, send_tracking)
        except StoreUnavailable as error:
            if started:
                raise
            unavailable = Problem(
                HTTPStatus.SERVICE_UNAVAILABLE,
                error.detail,
                headers={"Retry-After": str(error.retry_after)},
            )
            await unavailable.response(scope)(scope, receive, send_tracking)
        except (ConnectionError, ClientDisconnect) as error:
            client = scope.get("client") or ("-", 0)
            reason = error.strerror if isinstance(error, OSError) and error.strerror else "closed"
            logger.info(
                "%s:%s reset the connection during %s %s (%s)",
                *client[:2],
                scope.get("method"),
                scope.get("path"),
                reason,
            )
        except Exception:
            logger.exception("Unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                # Too late for a status: end the response so the connection closes.
                raise
            fault = Problem(
                HTTPStatus.INTERNAL_SERVER_ERROR,
                "The server met an unexpected condition; it has been logged.",
            )
            await fault.response(scope)(scope, receive, send_tracking)
