"""A hostile HTTP/1.1 server: each path one way a server can try to hurt its client.

Stdlib sockets on 127.0.0.1 and a free port, one thread per connection, so a
response can be anything at all: control characters in every field, markup,
decompression bombs, endless or slow streams, deep and huge documents, redirects
to other schemes, charsets that are no charsets. Large bodies are made when first
asked for (and kept for the session), never stored in the repository.

``python -m tests.explorer.hostile.server`` serves it until interrupted, to try
restwalk against it by hand (``restwalk http://127.0.0.1:PORT/``).
"""

from __future__ import annotations

import functools
import gzip
import json
import socket
import sys
import time
import zlib
from collections.abc import Callable, Iterator

from tests.explorer.servers import RawServer, read_head

#: What a terminal would obey: OSC 52 (set the clipboard), OSC 0 (window title),
#: CSI 2J (clear the screen) as ESC and as C1 controls, a bell, a carriage return.
OSC52 = "\x1b]52;c;cm0gLXJmIH4gIyBwYXN0ZWQgZnJvbSBzZXJ2ZXI=\x07"
ESCAPES = OSC52 + "\x1b]0;pwned\x07\x1b[2J\x9b2J\x9d0;title\x9c\rX\x00\x7f"
#: Unicode's formatting characters a terminal's bidi layout obeys: RLO turns
#: ``txt.exe`` into ``exe.txt`` (CVE-2021-42574), isolates, marks, line separators.
BIDI = "invoice-\u202efdp.exe \u2066iso\u2069 \u200emark\u200f \u061c line\u2028para\u2029"
#: Every byte, a tab among them, as one line of text.
EVERY_BYTE = bytes(range(256)) + b"\nafter\ta tab\n"
#: Textual/Rich markup that would run an action, close a tag never opened, style.
MARKUP = "[@click=app.quit]CLICK[/] [/] [b]bold[/b] [@click=app.bell]"

Handler = Callable[[socket.socket], None]


def head(status: str, *headers: tuple[str, str | bytes]) -> bytes:
    """A response head: ``HTTP/1.1 {status}``, the headers (str as UTF-8), a blank line.

    Every answer closes its connection, and says so.
    """
    lines = [f"HTTP/1.1 {status}".encode("latin-1"), b"Connection: close"]
    for name, value in headers:
        raw = value if isinstance(value, bytes) else value.encode("utf-8")
        lines.append(name.encode("ascii") + b": " + raw)
    return b"\r\n".join(lines) + b"\r\n\r\n"


def answer(
    body: bytes, content_type: str = "text/plain", *headers: tuple[str, str | bytes]
) -> Handler:
    """A handler sending one complete response."""

    def handle(conn: socket.socket) -> None:
        conn.sendall(
            head(
                "200 OK",
                ("Content-Type", content_type),
                ("Content-Length", str(len(body))),
                *headers,
            )
            + body
        )

    return handle


def redirect(location: str) -> Handler:
    """A 302 to ``location``."""

    def handle(conn: socket.socket) -> None:
        conn.sendall(head("302 Found", ("Location", location), ("Content-Length", "0")))

    return handle


def trickle(data: bytes, every: float = 0.5) -> Handler:
    """``data`` one byte every ``every`` seconds, forever if need be."""

    def handle(conn: socket.socket) -> None:
        for byte in data:
            conn.sendall(bytes([byte]))
            time.sleep(every)

    return handle


# --- documents made when first asked for ---------------------------------------------------


@functools.cache
def _zeros_deflate(megabytes: int) -> bytes:
    """Raw deflate of ``megabytes`` MiB of zeros, made in milliseconds: after a full
    flush each MiB compresses to the same bytes, so one is compressed and repeated."""
    block = bytes(1 << 20)
    out = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = out.compress(block) + out.flush(zlib.Z_FULL_FLUSH)
    again = out.compress(block) + out.flush(zlib.Z_FULL_FLUSH)
    return first + again * (megabytes - 1) + out.flush(zlib.Z_FINISH)


def _checksums(megabytes: int) -> tuple[int, int]:
    block = bytes(1 << 20)
    crc, adler = 0, 1
    for _ in range(megabytes):
        crc, adler = zlib.crc32(block, crc), zlib.adler32(block, adler)
    return crc, adler


@functools.cache
def zeros_gzip(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, gzipped (about 1,000 times smaller)."""
    crc, _ = _checksums(megabytes)
    size = (megabytes << 20) & 0xFFFFFFFF
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = crc.to_bytes(4, "little") + size.to_bytes(4, "little")
    return header + _zeros_deflate(megabytes) + trailer


@functools.cache
def zeros_deflate(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros in the zlib format (``Content-Encoding: deflate``)."""
    _, adler = _checksums(megabytes)
    return b"\x78\xda" + _zeros_deflate(megabytes) + adler.to_bytes(4, "big")


@functools.cache
def nested_gzip() -> bytes:
    """gzip of gzip of 512 MiB of zeros: 2 kB inflate to 500 kB, those to 512 MiB."""
    return gzip.compress(zeros_gzip(512), 9)


def layered_gzip(layers: int) -> bytes:
    """A small HAL document gzipped ``layers`` times over, each layer a valid gzip member."""
    body = hal("layers")
    for _ in range(layers):
        body = gzip.compress(body, 1, mtime=0)
    return body


def layered(layers: int) -> Handler:
    """HAL coded ``layers`` times, ``Content-Encoding: gzip, gzip, ...`` saying so."""
    return answer(
        layered_gzip(layers),
        "application/hal+json",
        ("Content-Encoding", ", ".join(["gzip"] * layers)),
    )


def many_variables(count: int) -> bytes:
    """HAL whose ``many`` link is a template of ``count`` query variables (``/m{?v0,...}``)."""
    import json

    names = ",".join(f"v{n}" for n in range(count))
    doc = {
        "_links": {
            "self": {"href": "/"},
            "many": {"href": f"/template/landing{{?{names}}}", "templated": True},
        }
    }
    return json.dumps(doc).encode("utf-8")


def echo_target(conn: socket.socket, target: str) -> None:
    """A JSON document saying which request target was asked for."""
    import json

    answer(json.dumps({"target": target}).encode("utf-8"), "application/json")(conn)


@functools.cache
def json_array(size: int) -> bytes:
    """``[1,1,1,...]`` of about ``size`` bytes."""
    return b"[" + b"1," * (size // 2 - 1) + b"1]"


def json_deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def xml_deep(depth: int) -> bytes:
    return b"<?xml version='1.0'?>" + b"<a>" * depth + b"</a>" * depth


@functools.cache
def html_anchors(count: int) -> bytes:
    anchors = b"".join(b'<a href="/p%d">p</a>\n' % n for n in range(count))
    return b"<!doctype html><html><body>\n" + anchors + b"</body></html>\n"


def hal(title: str, extra: str = "") -> bytes:
    """A HAL document whose links carry ``title`` everywhere a server can put text."""
    import json

    doc = {
        "_links": {
            "self": {"href": "/"},
            "next": {"href": f"/next?{title}", "title": title},
            "search": {"href": "/find{?q}", "templated": True, "title": title},
            "odd": {"href": "/odd{?x" + extra + "}", "templated": True, "title": title},
        },
        "message": title,
    }
    return json.dumps(doc).encode("utf-8")  # ESC and C1 as \u001b, \u009b: JSON escapes


def hal_raw_c1(title: str) -> bytes:
    """HAL whose strings hold the control characters raw (C1 as UTF-8 bytes)."""
    import json

    doc = {"_links": {"self": {"href": "/"}, "next": {"href": "/n", "title": title}}}
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


# --- the endless ones ----------------------------------------------------------------------


def endless_chunked(conn: socket.socket) -> None:
    conn.sendall(head("200 OK", ("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")))
    chunk = b"%x\r\n%s\r\n" % (65536, b"y" * 65536)
    while True:
        conn.sendall(chunk)


def endless_event_line(conn: socket.socket) -> None:
    """An event stream whose one ``data:`` line never ends."""
    conn.sendall(head("200 OK", ("Content-Type", "text/event-stream")) + b"data: ")
    block = b"a" * 65536
    while True:
        conn.sendall(block)


#: Bytes of the one event of ``/stream/100mb-event``.
BIG_EVENT = 100_000_000


def big_event(conn: socket.socket) -> None:
    """An event stream: an event of 100 MB of data, then a small one, then the end."""
    conn.sendall(head("200 OK", ("Content-Type", "text/event-stream")) + b"id: 1\ndata: ")
    block = b"b" * 1_000_000
    for _ in range(BIG_EVENT // len(block)):
        conn.sendall(block)
    conn.sendall(b"\n\nid: 2\ndata: after\n\n")


def escapes_stream(conn: socket.socket) -> None:
    """An event stream with terminal escapes in each field, and in JSON data."""
    text = ESCAPES.replace("\r", "").replace("\n", "")  # a CR or LF would end the line
    json_text = json.dumps({"x": ESCAPES + BIDI})
    conn.sendall(
        head("200 OK", ("Content-Type", "text/event-stream"))
        + f"id: {text}\nevent: {text}\ndata: {text}\ndata: {BIDI}\n\n".encode()
        + f"event: json\ndata: {json_text}\n\n".encode()
    )


def escapes_json_lines(conn: socket.socket) -> None:
    """JSON lines with terminal escapes: in a JSON string, and in a line that is not JSON."""
    conn.sendall(
        head("200 OK", ("Content-Type", "application/x-ndjson"))
        + json.dumps({"x": ESCAPES + BIDI}).encode()
        + b"\n"
        + f"not json {ESCAPES}\n".encode()
    )


def huge_length(conn: socket.socket) -> None:
    conn.sendall(head("200 OK", ("Content-Type", "text/plain"), ("Content-Length", str(2 << 30))))
    block = b"z" * 65536
    while True:
        conn.sendall(block)


def endless_1xx(conn: socket.socket) -> None:
    while True:
        conn.sendall(b"HTTP/1.1 102 Processing\r\n\r\n")
        time.sleep(0.01)


def slow_headers(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    trickle(b"X-Slow: " + b"s" * 1000 + b"\r\n\r\n")(conn)


def slow_body(conn: socket.socket) -> None:
    conn.sendall(head("200 OK", ("Content-Type", "text/plain"), ("Content-Length", "1000")))
    trickle(b"x" * 1000)(conn)


def bomb(coding: str, body: Callable[[], bytes]) -> Handler:
    def handle(conn: socket.socket) -> None:
        data = body()
        conn.sendall(
            head(
                "200 OK",
                ("Content-Type", "text/plain"),
                ("Content-Encoding", coding),
                ("Content-Length", str(len(data))),
            )
            + data
        )

    return handle


def escapes_everywhere(conn: socket.socket) -> None:
    """Control characters in the reason (C1, as obs-text), headers, Link and Location."""
    c1 = "\x9b2J\x9d0;title\x9c"
    body = f"text {ESCAPES} end\n".encode()
    conn.sendall(
        head(
            f"200 OK{c1}".encode("latin-1").decode("latin-1"),
            ("Content-Type", "text/plain"),
            ("Content-Length", str(len(body))),
            ("X-Evil", f"v{c1}"),
            ("Link", f'</next{c1}>; rel="next"; title="t{c1}"'),
            ("Location", f"/else{c1}"),
            ("WWW-Authenticate", f'Bearer realm="r{c1}"'),
            ("Set-Cookie", f"s=1{c1}; Path=/"),
        )
        + body
    )


def bidi_everywhere(conn: socket.socket) -> None:
    """Bidi controls in a header, a Link title and a HAL body (raw UTF-8)."""
    body = hal_raw_c1(BIDI)
    conn.sendall(
        head(
            "200 OK",
            ("Content-Type", "application/hal+json"),
            ("Content-Length", str(len(body))),
            ("X-Bidi", BIDI),
            ("Link", f'</l>; rel="alt"; title="{BIDI}"'),
        )
        + body
    )


def markup_everywhere(conn: socket.socket) -> None:
    body = hal(MARKUP, extra="[/]")
    conn.sendall(
        head(
            "200 [b]OK[/b] [@click=app.quit]",
            ("Content-Type", "application/hal+json"),
            ("Content-Length", str(len(body))),
            ("Link", f'</l>; rel="alt"; title="{MARKUP}"'),
            ("X-Markup", MARKUP),
        )
        + body
    )


#: The reason phrase of QA pass 3, defect 7: clear the screen, OSC 52, an OSC 8 link
#: whose ST is ESC and a backslash, OSC 0, and Rich markup.
QA_REASON = (
    "\x1b[2J\x1b[H\x1b]52;c;cHduZWQ=\x07\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\"
    "\x1b]0;HACKED TITLE\x07[bold red]x[/] [@click=app.quit]quit[/] [link=http://evil.example]L[/]"
)
#: A realm written in Markdown: a link, emphasis, code, HTML, an entity, block openers.
MARKDOWN_REALM = "[x](http://evil.example) *em* _u_ `c` <b>&amp; # 1. > q ~~s~~"


#: An Atom feed whose DTD declares entities (expanded 100 times in a title).
ENTITY_FEED = (
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
    b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    b'<feed xmlns="http://www.w3.org/2005/Atom"><link rel="next" href="/n" title="&b;"/></feed>'
)


ROUTES: dict[str, Handler] = {
    # Terminal escapes.
    "/escape/everywhere": escapes_everywhere,
    "/escape/text": answer(f"a {ESCAPES} b\n\x00\x01\x02\x03 binary-ish\n".encode()),
    "/escape/json": answer(hal(ESCAPES), "application/hal+json"),
    "/escape/json-raw": answer(hal_raw_c1("\x9b2J\x9d0;t\x9c\x7f"), "application/hal+json"),
    "/escape/xml": answer(f"<r><t>{ESCAPES}</t></r>".encode(), "application/xml"),
    "/escape/problem": answer(
        f'{{"type": "about:blank", "title": "{OSC52}"}}'.encode().replace(b"\x1b", b"\\u001b"),
        "application/problem+json",
    ),
    "/escape/redirect": redirect("/escape/text?\x9b2J"),
    "/escape/location": redirect(f"/escape/text?{OSC52}z"),
    "/links/not-http": answer(
        b'{"_links": {"js": {"href": "javascript:alert(1)"}, "file": {"href": "file:///etc/x"}}}',
        "application/hal+json",
    ),
    "/escape/bidi": bidi_everywhere,
    "/escape/bytes": answer(EVERY_BYTE),
    "/escape/status-line": lambda conn: conn.sendall(b"HTTP/1.1 2OO \x1b[31mOK\r\n\r\n"),
    # Markup.
    "/markup/everywhere": markup_everywhere,
    # Memory.
    "/bomb/gzip": bomb("gzip", lambda: zeros_gzip(256)),
    "/bomb/deflate": bomb("deflate", lambda: zeros_deflate(256)),
    "/bomb/nested": bomb("gzip, gzip", nested_gzip),
    "/bomb/unknown": bomb("br", lambda: zeros_gzip(256)),
    "/codings/5": layered(5),
    "/codings/6": layered(6),
    "/codings/1000": layered(1000),
    "/huge/length": huge_length,
    "/huge/chunked": endless_chunked,
    # Streams: a line that never ends, an event of 100 MB, escapes in events.
    "/stream/endless-line": endless_event_line,
    "/stream/100mb-event": big_event,
    "/stream/escapes": escapes_stream,
    "/stream/escapes-ndjson": escapes_json_lines,
    # Time.
    "/slow/status": trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
    "/slow/headers": slow_headers,
    "/slow/body": slow_body,
    "/endless-1xx": endless_1xx,
    # Documents.
    "/json/array-50mb": lambda conn: answer(json_array(50_000_000), "application/json")(conn),
    "/json/deep-300": answer(json_deep(300), "application/json"),
    "/json/deep-100000": answer(json_deep(100_000), "application/json"),
    "/xml/deep-5000": answer(xml_deep(5000), "application/xml"),
    "/escape/reason-qa3": lambda conn: conn.sendall(
        head(f"418 {QA_REASON}", ("Content-Type", "text/plain"), ("Content-Length", "2")) + b"hi"
    ),
    "/escape/markdown-realm": lambda conn: conn.sendall(
        head(
            "401 Unauthorized",
            ("WWW-Authenticate", f'Bearer realm="{MARKDOWN_REALM}"'),
            ("Content-Length", "0"),
        )
    ),
    "/xml/entities": answer(ENTITY_FEED, "application/atom+xml"),
    "/xml/entities-linked": answer(ENTITY_FEED, "application/atom+xml", ("Link", "</up>; rel=up")),
    "/template/10000-variables": answer(many_variables(10_000), "application/hal+json"),
    "/html/million-anchors": lambda conn: answer(html_anchors(1_000_000), "text/html")(conn),
    # Redirects.
    "/redirect/javascript": redirect("javascript:alert(1)"),
    "/redirect/data": redirect("data:text/html,<script>alert(1)</script>"),
    "/redirect/file": redirect("file:///etc/passwd"),
    "/redirect/port-0": redirect("http://127.0.0.1:0/"),
    "/redirect/port-99999": redirect("http://127.0.0.1:99999/"),
    # Charsets.
    "/charset/rot13": answer(b"hello", "text/plain; charset=rot13"),
    "/charset/idna": answer("h\u00e9llo".encode(), "text/plain; charset=idna"),
    "/charset/zlib": answer(zlib.compress(b"hi"), "text/plain; charset=zlib_codec"),
    "/charset/garbage": answer(b"hello", "text/plain; charset=\xff\xfe-nonsense"),
}


def _route(conn: socket.socket) -> None:
    request = read_head(conn)
    target = request.split(b" ", 2)[1].decode("latin-1") if request.count(b" ") >= 2 else "/"
    path = target.split("?", 1)[0]
    if path == "/template/landing":
        echo_target(conn, target)
        conn.shutdown(socket.SHUT_RDWR)
        return
    handler = ROUTES.get(path)
    if handler is None:
        index = "\n".join(sorted(ROUTES)).encode()
        handler = answer(index + b"\n") if path == "/" else answer(b"no such case\n")
    handler(conn)
    conn.shutdown(socket.SHUT_RDWR)


class HostileServer(RawServer):
    """The hostile server; ``case(path)`` is one case's URL."""

    def __init__(self) -> None:
        super().__init__(_route)

    def case(self, path: str) -> str:
        return f"{self.url}{path}"


def cases() -> Iterator[str]:
    """Every case's path."""
    return iter(ROUTES)


if __name__ == "__main__":
    with HostileServer() as server:
        print(f"hostile server on {server.url}/ (ctrl+c stops it)", file=sys.stderr)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


# --- HTTP/2 (cleartext, prior knowledge): frames written by hand --------------------------

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def _h2_answer(conn: socket.socket, kind: str) -> None:
    """Read the client's preface and first HEADERS, then break HTTP/2 the way ``kind`` says."""
    from hpack import Encoder
    from hyperframe.frame import ContinuationFrame, Frame, HeadersFrame, SettingsFrame

    data = b""
    while not data.startswith(_PREFACE) or len(data) < len(_PREFACE) + 9:
        chunk = conn.recv(65536)
        if not chunk:
            return
        data += chunk
    conn.sendall(SettingsFrame(0).serialize() + SettingsFrame(0, flags=["ACK"]).serialize())
    data = data[len(_PREFACE) :]
    stream = 1
    while True:  # read frames until the request's HEADERS
        while len(data) < 9:
            data += conn.recv(65536)
        frame, length = Frame.parse_frame_header(memoryview(data[:9]))
        while len(data) < 9 + length:
            data += conn.recv(65536)
        data = data[9 + length :]
        if isinstance(frame, HeadersFrame):
            stream = frame.stream_id
            break
    if kind == "bad-status":
        block = Encoder().encode([(":status", "abc")])
        conn.sendall(HeadersFrame(stream, block, flags=["END_HEADERS", "END_STREAM"]).serialize())
    elif kind == "hpack-bomb":
        # One 4,000-byte header in the dynamic table, then 20,000 one-byte references to it:
        # 80 MB of header list from 24 kB on the wire.
        value = b"A" * 4000
        literal = b"\x40" + bytes([6]) + b"x-bomb" + b"\x7f" + _hpack_int(len(value) - 127) + value
        block = literal + b"\xbe" * 20_000
        pieces = [block[i : i + 16_000] for i in range(0, len(block), 16_000)]
        frames = [HeadersFrame(stream, pieces[0])]
        frames += [ContinuationFrame(stream, piece) for piece in pieces[1:]]
        frames[-1].flags.add("END_HEADERS")
        conn.sendall(b"".join(frame.serialize() for frame in frames))
    else:  # continuation flood: a header block that never ends
        conn.sendall(HeadersFrame(stream, Encoder().encode([(":status", "200")])).serialize())
        filler = ContinuationFrame(stream, b"\x40\x01x\x01y" * 3000).serialize()
        while True:
            conn.sendall(filler)
    time.sleep(1)


def _hpack_int(value: int) -> bytes:
    """The continuation bytes of an HPACK integer past its prefix (RFC 7541 §5.1)."""
    out = bytearray()
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


class HostileH2Server(RawServer):
    """Speaks HTTP/2 with prior knowledge, and breaks it as ``kind`` says:
    ``bad-status``, ``hpack-bomb`` or ``continuation-flood``."""

    def __init__(self, kind: str) -> None:
        super().__init__(lambda conn: _h2_answer(conn, kind))
