"""Advice on logging in, read from a 401's or 407's challenges and a 403's
(``WWW-Authenticate``, ``Proxy-Authenticate``): which scheme, what to send, and whether
what was sent was refused."""

from __future__ import annotations

from explorer.core.knowledge import field_values as fv
from explorer.core.knowledge.response_facts import ResponseFacts

__all__ = ["forbidden", "proxy_authenticate", "www_authenticate"]


def www_authenticate(response: ResponseFacts) -> list[str]:
    return _challenges(response, "WWW-Authenticate", "Authorization")


def proxy_authenticate(response: ResponseFacts) -> list[str]:
    """A 407's steps, as a 401's, for the proxy."""
    return _challenges(response, "Proxy-Authenticate", "Proxy-Authorization")


def _challenges(response: ResponseFacts, field: str, credentials: str) -> list[str]:
    challenges = fv.parse_challenges(fv.values(response.headers, field))
    if not challenges:
        return [
            f"The {response.status} carries no {field}, which RFC 9110 requires: the API's "
            "documentation has to say how to authenticate."
        ]
    steps: list[str] = []
    schemes = [challenge.scheme for challenge in challenges]
    if len(challenges) > 1:
        steps.append(
            f"{field} offers {len(challenges)} schemes ({', '.join(schemes)}): any one will do."
        )
    sent = fv.first(response.request_headers, credentials)
    unclosed = list(dict.fromkeys(name for c in challenges for name in c.unclosed))
    if unclosed:
        steps.insert(
            0,
            f"{field} is malformed: the quoted string of {', '.join(unclosed)} is never "
            "closed (RFC 9110, section 5.6.4), so it runs to the end of the field; it is "
            "shown as sent.",
        )
    for challenge in challenges:
        steps.append(_challenge_step(challenge, credentials, mock=not response.another_server))
    if sent is not None and not any(c.param("error") for c in challenges):
        scheme = sent.split(" ", 1)[0]
        offered = {name.lower() for name in schemes}
        if scheme.lower() in _PASTED - offered and offered & _PASTED:
            # a token sent as Bearer to Django REST Framework, which reads "Token <key>"
            steps.append(
                f"You sent {credentials}: {scheme} ..., a scheme this server does not offer "
                f"({', '.join(schemes)}): the same key may do under the scheme it names "
                "(restwalk's --token-scheme, or the scheme field of the login)."
            )
        else:
            steps.append(
                f"You sent {credentials}: {scheme} ... and it was refused: check the user "
                "name and password, or get a fresh token."
            )
    return steps


#: Schemes whose credential is a token sent as it is: one refused under another scheme
#: (Bearer) may be right under this one.
_PASTED = frozenset({"token", "bearer"})


def _challenge_step(challenge: fv.Challenge, credentials: str, *, mock: bool = True) -> str:
    """The step one challenge asks for; ``mock`` adds where the bundled mock's token is."""
    scheme = challenge.scheme
    lower = scheme.lower()
    realm = _quoted(challenge, "realm")
    where = f" (realm {realm})" if realm else ""
    error = (challenge.param("error") or "").lower()
    detail = _quoted(challenge, "error_description")
    said = f" The server says: {detail}." if detail else ""
    if lower == "bearer" and error == "invalid_token":
        return (
            "The token you sent was rejected (expired, revoked or malformed): get a new one"
            f"{' (on restwalk-mock: POST /auth/token)' if mock else ''} and send it as "
            f"`{credentials}: Bearer <token>`.{said}"
        )
    if lower == "bearer" and error == "insufficient_scope":
        scope = _quoted(challenge, "scope")
        needs = f" (scope {scope})" if scope else ""
        return f"Your token lacks the rights this needs{needs}: get one with more scope.{said}"
    if lower == "bearer" and error == "invalid_request":
        return (
            "The credentials were malformed (e.g. a token sent twice or in the wrong place): "
            f"send exactly one `{credentials}: Bearer <token>`.{said}"
        )
    if lower == "bearer":
        on_mock = (
            " (on restwalk-mock: `POST /auth/token` with a user name and password)"
            if mock
            else " (its OpenAPI description names it: tokenUrl)"
        )
        return (
            f"Bearer{where}: get a token from the API's token endpoint{on_mock} and send "
            f"`{credentials}: Bearer <token>`."
        )
    if lower == "basic":
        charset = challenge.param("charset")
        encoding = f", encoded as {charset}" if charset else ""
        return (
            f"Basic{where}: send `{credentials}: Basic <base64 of user:password>`{encoding}; "
            "restwalk builds it from a user name and password."
        )
    if lower == "digest":
        algorithm = challenge.param("algorithm") or "MD5"
        return (
            f"Digest{where}: answer the server's nonce with a {algorithm} hash of your "
            "credentials; the client computes it from a user name and password."
        )
    if lower == "apikey":  # FastAPI's APIKeyHeader, APIKeyQuery and APIKeyCookie
        return (
            f"{scheme}{where}: send the API's key where it reads one, which the challenge "
            "does not say: a header (often `X-API-Key`), a query parameter or a cookie, as "
            "its documentation or its OpenAPI description's securitySchemes names it."
        )
    if lower == "token":  # Django REST Framework's TokenAuthentication (and knox's)
        return (
            f"Token{where}: send `{credentials}: Token <key>`, the key as it is (Django REST "
            "Framework's TokenAuthentication: a key made in its admin or by `manage.py "
            "drf_create_token`, or POSTed for with username and password to the API's "
            'obtain_auth_token view, often /api-token-auth/, which answers {"token": ...}).'
        )
    if lower in ("negotiate", "ntlm"):
        return f"{scheme}: a Kerberos/Windows domain login; it needs an account in that domain."
    return f"{scheme}{where}: send `{credentials}: {scheme} <credentials>` as that scheme defines."


def _quoted(challenge: fv.Challenge, name: str) -> str | None:
    """Parameter ``name`` in quotes; one whose quoted string never closed, as sent."""
    value = challenge.param(name)
    if not value or name in challenge.unclosed:
        return value
    return f'"{value}"'


def forbidden(response: ResponseFacts) -> list[str]:
    """A 403's steps, when they say more than the code's ("use an account with the needed
    rights"): a token short of a scope says which; a request that carried no credential
    at all was most likely refused for that (see :data:`_NO_CREDENTIAL`)."""
    steps = []
    for challenge in fv.parse_challenges(fv.values(response.headers, "WWW-Authenticate")):
        if (challenge.param("error") or "").lower() == "insufficient_scope":
            steps.append(_challenge_step(challenge, "Authorization"))
    if steps:
        return steps
    sent = any(
        word in name.lower() for name, _ in response.request_headers for word in _CREDENTIAL_WORDS
    )
    return [_NO_CREDENTIAL] if not sent and response.method is not None else []


#: What the name of a request header that carries a credential holds: ``Authorization``,
#: ``Cookie``, ``X-API-Key``, ``X-Auth-Token``, ``Private-Token``, ``X-Session-Id``...
_CREDENTIAL_WORDS = ("auth", "cookie", "key", "token", "secret", "session", "password")


#: A 403 to a request with no credential: a server whose authentication sends no
#: challenge answers 403 where RFC 9110 says 401 (Django REST Framework's
#: ``NotAuthenticated`` when its first authentication class is SessionAuthentication:
#: "Authentication credentials were not provided.").
_NO_CREDENTIAL = (
    "You sent no credential, so this 403 most likely means: log in first. A server whose "
    "login sends no `WWW-Authenticate` challenge answers 403 where RFC 9110 says 401 "
    "(Django REST Framework does when its first authentication is a session's); which "
    "credential it takes (a session cookie, `Authorization: Token <key>`, Basic) its "
    "documentation says."
)
