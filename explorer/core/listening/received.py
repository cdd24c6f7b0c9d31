"""One request a local endpoint received, as plain data for printing and JSON lines."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.http.content_coding import BodyDecoder, BodyLimitExceeded, CodingError
from explorer.core.http.exchange import SentRequest
from explorer.core.listening.signature import SignatureCheck

__all__ = ["DECODED_LIMIT", "ReceivedRequest"]

#: The most a received body's Content-Encoding is undone to (a small gzip may inflate to
#: gigabytes: past this, the body is shown as it came).
DECODED_LIMIT = 10 * 1024 * 1024


@dataclass(frozen=True)
class ReceivedRequest:
    """A request as it came to the endpoint, what its signature said, and the answer."""

    #: Its place among the requests received, from 1.
    number: int
    #: When its body had come, in seconds since the epoch.
    at: float
    #: Who sent it: ``host:port``.
    client: str
    method: str
    #: The request target as it came: path and query.
    target: str
    #: ``HTTP/1.1``.
    http_version: str
    headers: tuple[tuple[str, str], ...]
    #: The body, at most the endpoint's bound of it.
    body: bytes
    #: Bytes of the body left out past the bound (the rest was not read).
    cut: int
    #: The signature check (None: no secret was given to check with).
    signature: SignatureCheck | None
    #: The status the endpoint answered.
    status: int
    #: Why that status, when it is not the one asked for (too large, too slow, not signed).
    reason: str = ""

    def as_sent(self, origin: str) -> SentRequest:
        """The request in the form every view prints (its URL on ``origin``)."""
        return SentRequest(
            method=self.method,
            url=origin.rstrip("/") + self.target,
            headers=self.headers,
            body=self.body,
            http_version=self.http_version,
        )

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), if it came."""
        lname = name.lower()
        return next((v for k, v in self.headers if k.lower() == lname), None)

    def decoded(self, limit: int = DECODED_LIMIT) -> tuple[bytes, str]:
        """The body with its Content-Encoding (gzip, deflate) undone, and a note on it
        ("gzip undone"; why it was left as it came); the body itself and "" when it has
        no coding. A body cut short is left as it came (its end is missing)."""
        coding = self.header("content-encoding")
        if not coding or coding.strip().lower() == "identity" or not self.body:
            return self.body, ""
        decoder = BodyDecoder(coding, limit)
        if decoder.kept_encoded or self.cut:
            why = "cut short" if self.cut else "a coding restwalk does not undo"
            return self.body, f"{coding} left as it came ({why})"
        try:
            decoded = b"".join([*decoder.decode(self.body), *decoder.flush()])
        except BodyLimitExceeded:
            return self.body, f"{coding} left as it came (it inflates past {limit:,} bytes)"
        except CodingError:
            return self.body, f"left as it came: not {coding} as its Content-Encoding says"
        return decoded, f"{coding} undone"
