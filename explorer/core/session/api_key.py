"""An API key in a header of the API's own (``X-API-Key: <key>``), given as a login is.

Most plain JSON APIs read their key from a header they name: ``X-API-Key``,
``Api-Key``, ``X-Auth-Token``. The key is kept for the origin it was given for, as
the composer's kept headers are, so it goes to that server only (a link to another
one goes without it, as any secret header does: :mod:`~explorer.core.session.derived`).
The page shown is asked again with it, as after a login (:meth:`Session.again`); a
401 to that request drops it again, and logging out (``x``) forgets it.

A person may type the credential as a header in the composer instead, its "keep" box
ticked: an ``Authorization`` header is never kept as a header (the session sends the
credential itself), so :func:`keep_composed` makes it the server's credential.
"""

from __future__ import annotations

from dataclasses import replace

from explorer.core.http.field_syntax import breaks_a_line, is_token
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.session.credentials import auth_label, credential_in
from explorer.core.session.next_step import Next
from explorer.core.session.session import Session

__all__ = ["DEFAULT_KEY_HEADER", "give_key", "keep_composed", "key_problem", "with_what_is_kept"]

#: The header an API key goes in unless the API names another (FastAPI's and many
#: gateways' examples; OpenAPI's apiKey schemes name theirs).
DEFAULT_KEY_HEADER = "X-API-Key"
#: Headers that cannot carry a key: the session sets them itself, or they are the
#: credential's own (the login's other kinds send ``Authorization``).
_NOT_A_KEY_HEADER = frozenset({"authorization", "cookie", "host", "content-type", "content-length"})


def key_problem(name: str, value: str) -> str:
    """Why ``name: value`` cannot be sent as a key ("" when it can)."""
    if not value:
        return "Paste the key first."
    if not is_token(name):
        return f"The header name {name!r} is not one word such as X-API-Key."
    if name.lower() in _NOT_A_KEY_HEADER:
        return f"{name} is not a key's header: choose Paste a token for Authorization."
    if breaks_a_line(value):
        return "The key holds a line break: paste it on one line."
    return ""


def give_key(session: Session, url: str, name: str, value: str) -> Next | None:
    """Keep ``name: value`` for ``url``'s origin, and say what is sent now.

    Raises ValueError (with :func:`key_problem`'s words) for a header that cannot be one.
    """
    problem = key_problem(name, value)
    if problem:
        raise ValueError(problem)
    session.keep_headers(url, ((name, value),))
    session.unproven = origin_of(url)
    session.unproven_header = name.lower()
    return session.again(f"{name} given. ")


def keep_composed(
    session: Session, url: str, headers: tuple[tuple[str, str], ...], keep: bool
) -> tuple[list[str], str]:
    """The composer sent ``headers`` to ``url`` with its "keep" box ``keep``: keep them
    for the server (or none), and an ``Authorization`` among them as its credential.

    Returns the names kept and the credential taken ("" when none was), as its badge
    says it (``token``, ``alice (basic)``).
    """
    names = session.set_kept_headers(url, headers if keep else ())
    auth = credential_in(headers) if keep else None
    if auth is None or auth == session.credential(url):
        return names, ""
    session.set_credential(url, auth)
    return names, auth_label(auth).removeprefix("🔑 ")


def with_what_is_kept(session: Session, spec: RequestSpec, note: str) -> tuple[RequestSpec, str]:
    """An OpenAPI operation's request (``O``) and its note, the blanks of its security
    scheme left to what the session already keeps for the server.

    The operation asks for its scheme's credential with an empty one (a header row
    ``X-API-Key:`` with no value, an empty token): the credential given for the server
    (``a``) goes instead, or the empty row would replace the key kept and bring a 401.
    The note's ``Security:`` line says so, instead of asking to fill it in.
    """
    kept = {name.lower() for name, _ in session.kept_headers(spec.url)}
    left = [name for name, value in spec.headers if not value and name.lower() in kept]
    said = ""
    if left:
        gone = {name.lower() for name in left}
        headers = tuple(pair for pair in spec.headers if pair[0].lower() not in gone)
        spec = replace(spec, headers=headers)
        said = f"the {', '.join(left)} kept for this server goes with it (x forgets it)."
    if spec.auth is not None and session.credential(spec.url) is not None:
        spec = replace(spec, auth=None)  # the credential this session has for it
        said = "the credential given for this server goes with it (x forgets it)."
    if not said:
        return spec, note
    lines = note.split("\n")
    security = next((n for n, line in enumerate(lines) if line.startswith("Security: ")), None)
    if security is None:
        return spec, f"{note}\n{said[0].upper()}{said[1:]}"
    lines[security] = f"{lines[security].partition('; ')[0]}; {said}"
    return spec, "\n".join(lines)
