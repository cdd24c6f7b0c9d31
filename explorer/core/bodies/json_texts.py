"""A body of JSON texts one a line, sent as one JSON document.

Some servers answer ``application/json`` with JSON lines (httpbin's ``/stream/N``,
Elasticsearch's bulk answers, log exports): one JSON text a line, which no JSON
parser reads as one document. :func:`json_texts` tells such a body, so it is
shown as what it is and its links are found in each text, rather than said to
be "not valid JSON".
"""

from __future__ import annotations

import orjson

__all__ = ["MIN_TEXTS", "json_texts"]

#: A body is JSON lines with at least this many texts (one is a JSON document).
MIN_TEXTS = 2


def json_texts(data: bytes) -> list[object] | None:
    """The JSON texts of ``data``, one a line (blank lines aside), when every line is one
    and there are at least :data:`MIN_TEXTS`; else None."""
    texts: list[object] = []
    for line in data.removeprefix(b"\xef\xbb\xbf").split(b"\n"):
        if not line.strip():
            continue
        try:
            texts.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            return None
    return texts if len(texts) >= MIN_TEXTS else None
