"""Transport: the sockets the app is served on, below HTTP's meaning.

Binding the listening socket, the certificate to serve with and uvicorn's
configuration (:mod:`.server`), Hypercorn for HTTP/2 (:mod:`.http2`), the HTTP/1.1
protocol classes that answer what their parsers refuse with problem bodies
(:mod:`.h11_protocol`, :mod:`.httptools_protocol`, and what they share, :mod:`.http1`),
TLS certificates (:mod:`.tls`), request-body deadlines and lingering close
(:mod:`.body_guard`, :mod:`.lingering`), and the faults written to the connection
itself (:mod:`.connection_faults`). Nothing here decides what a request means (that is
the layers' and the resources' work) or knows which app it serves:
:mod:`mock_server.serving` hands it the app factory's.
"""
