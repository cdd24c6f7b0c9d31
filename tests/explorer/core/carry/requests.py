"""What the carry tests compare: the request restwalk would send, and specs to make one."""

from __future__ import annotations

import string

from hypothesis import strategies as st

from explorer.core.http.request import (
    BasicAuth,
    BearerAuth,
    CookieSession,
    RequestSpec,
    build_request,
)
from explorer.core.http.upload import FileReader, FormPart

#: The files the generated requests name, and what reading them gives.
FILES = {
    "body.json": b'{"a": 1}\n',
    "photo.png": b"\x89PNG\r\n\x1a\n\x00\x01",
    "notes.txt": b"x\ny",
}


def read(path: str) -> bytes:
    """A stand-in file system: the bytes of one of :data:`FILES`."""
    return FILES[path]


def sent(
    spec: RequestSpec, reader: FileReader | None = None
) -> tuple[str, str, list[tuple[bytes, bytes]], bytes]:
    """Method, URL, headers and body of the request ``spec`` becomes.

    Headers are in order by name (fields of different names may come in any order,
    RFC 9110 section 5.3; those of one name keep theirs).
    """
    request = build_request(spec, read=reader or read)
    headers = sorted(request.headers.raw, key=lambda pair: pair[0].lower())
    return request.method, str(request.url), headers, request.content


# Text a person types in a field: printable, no NUL, no surrogates.
_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30
)
_value = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x00\r\n"),
    max_size=20,
).map(str.strip)
_token = st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=12)
_header_name = _token.filter(
    lambda n: n.lower() not in ("content-type", "cookie", "authorization", "content-length")
)
_path = st.lists(st.text(string.ascii_letters + string.digits + "-._~", min_size=1), max_size=3)
_url = st.builds(
    lambda host, path, query: (
        f"https://{host}.example/{'/'.join(path)}" + (f"?{query}" if query else "")
    ),
    st.text(string.ascii_lowercase, min_size=1, max_size=8),
    _path,
    st.sampled_from(["", "a=1", "q=x%20y&n=2", "flag"]),
)
_auth = st.one_of(
    st.none(),
    st.builds(BearerAuth, _token),
    st.builds(BasicAuth, _token, _value),
    st.builds(
        lambda pairs: CookieSession(tuple(pairs)),
        st.lists(st.tuples(_token, _token), min_size=1, max_size=3),
    ),
)
_part = st.one_of(
    st.builds(FormPart, _token, _value),
    st.builds(
        lambda name, file, ctype: FormPart(name, file=file, content_type=ctype),
        _token,
        st.sampled_from(sorted(FILES)),
        st.sampled_from([None, "image/png", "text/plain"]),
    ),
)


@st.composite
def request_specs(draw: st.DrawFn) -> RequestSpec:
    """Any request a person can make in restwalk (with files from :data:`FILES`)."""
    body_kind = draw(st.sampled_from(["none", "text", "file", "form"]))
    method = draw(st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "BREW"]))
    spec = RequestSpec(
        method=method,
        url=draw(_url),
        query=tuple(draw(st.lists(st.tuples(_token, _value), max_size=2))),
        headers=tuple(draw(st.lists(st.tuples(_header_name, _value), max_size=3))),
        auth=draw(_auth),
        content_type=draw(st.sampled_from([None, "application/json", "text/plain"])),
    )
    if body_kind == "text":
        return RequestSpec(**{**spec.__dict__, "body": draw(_text)})
    if body_kind == "file":
        return RequestSpec(**{**spec.__dict__, "body_file": draw(st.sampled_from(sorted(FILES)))})
    if body_kind == "form":
        parts = tuple(draw(st.lists(_part, min_size=1, max_size=3)))
        return RequestSpec(**{**spec.__dict__, "form": parts, "content_type": None})
    return spec
