"""Is a body text? The one answer every view gives (body, raw wire text, exports).

The media type decides when it is clear: ``text/*``, the structured syntax
suffixes (``+json``, ``+xml``, ``+yaml``: ``application/problem+yaml`` too) and
a list of text types that are not ``text/*`` are text; images, audio, video,
fonts and known archive or binary formats are not. For any other type, or
none, the first bytes decide: a NUL, or bytes that are not UTF-8, mean binary.
Text is read in the charset its Content-Type names (:func:`charset_of`).
"""

from __future__ import annotations

import codecs

__all__ = ["TEXT_TYPES", "charset_of", "is_text", "media_type_of"]

#: Media types whose bodies are text although they are not ``text/*``.
TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-www-form-urlencoded",
        "application/x-ndjson",
        "application/jsonl",
        "application/json-seq",
        "application/graphql",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/sql",
        "application/csv",
        "application/x-sh",
        "message/http",
        "image/svg+xml",
    }
)
_TEXT_SUFFIXES = ("+json", "+xml", "+yaml", "+json-seq")
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/", "model/")
_BINARY_TYPES = frozenset(
    {
        "application/octet-stream",
        "application/pdf",
        "application/zip",
        "application/gzip",
        "application/x-tar",
        "application/x-protobuf",
        "application/protobuf",
        "application/grpc",
        "application/cbor",
        "application/msgpack",
        "application/x-msgpack",
        "application/wasm",
    }
)
#: Bytes sniffed when the type does not decide.
SNIFF = 4096


def media_type_of(content_type: str | None) -> str | None:
    """The media type of a Content-Type value: no parameters, lower case (None if empty)."""
    if not content_type:
        return None
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type or None


def is_text(media_type: str | None, body: bytes) -> bool:
    """True when ``body`` is text to show; False for images, archives and the like.

    ``media_type`` may be a whole Content-Type value; its parameters are ignored.
    An empty body is text (there is nothing to summarise).
    """
    if not body:
        return True
    media_type = media_type_of(media_type)
    if media_type is not None:
        if (
            media_type.startswith("text/")
            or media_type in TEXT_TYPES
            or media_type.endswith(_TEXT_SUFFIXES)
        ):
            return True
        if media_type.startswith(_BINARY_PREFIXES) or media_type in _BINARY_TYPES:
            return False
    head = body[:SNIFF]
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the sample's end is still text.
        return error.reason == "unexpected end of data" and error.start >= len(head) - 3
    return True


#: Codecs Python knows that are no charset a body can be in: they decode only ASCII
#: (idna, punycode), always fail (undefined), or read escapes as characters.
_NOT_CHARSETS = frozenset(
    {"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape", "utf-7"}
)


def charset_of(content_type: str | None) -> tuple[str, str | None]:
    """The codec for a Content-Type's ``charset`` (UTF-8 when none), and a note when the
    charset named cannot be used, so UTF-8 stands in for it.

    Python's codec registry holds more than charsets (``rot13``, ``zlib``, ``base64``,
    ``idna``): only text encodings that read bytes as they come are used.
    """
    name = None
    for param in (content_type or "").split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            name = value.strip().strip('"')
    if name is None:
        return "utf-8", None
    try:
        info = codecs.lookup(name)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        shown = name if len(name) <= 40 else name[:40] + "…"
        return "utf-8", f"The charset {shown!r} is not one restwalk can decode: read as UTF-8."
    return info.name, None
