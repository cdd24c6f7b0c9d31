"""httpbin (the Kenneth Reitz / Postman service, from PyPI) served on a free 127.0.0.1 port.

A server no one here wrote: its own WSGI app, run by Werkzeug's WSGI server (the one
Flask ships) in a thread, for as long as the ``with`` block lasts.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from werkzeug.serving import WSGIRequestHandler, make_server


class _Quiet(WSGIRequestHandler):
    def log(self, type: str, message: str, *args: Any) -> None:
        """Requests are not logged: the test's output stays the test's."""


class HttpbinServer:
    """``with HttpbinServer() as server: server.url``"""

    def __enter__(self) -> HttpbinServer:
        logging.getLogger("httpbin").setLevel(logging.ERROR)  # "flasgger is not installed"
        import httpbin

        self._server = make_server(
            "127.0.0.1", 0, httpbin.app, threaded=True, request_handler=_Quiet
        )
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._thread.join(5)
        self._server.server_close()
