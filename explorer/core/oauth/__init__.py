"""OAuth 2.0 logins: restwalk as a native app (RFC 8252) logging in to any API.

A :class:`~.login.Login` (:mod:`.login`) is one login: its :mod:`.settings` (from
config.toml's ``[oauth.NAME]``, a ``.http`` environment's ``Security.Auth``, or a
URL alone), what :mod:`.discovery` finds from a 401 or a URL (RFC 9728, RFC 8414,
OpenID Connect Discovery), the grants it runs (:mod:`.flows`: authorization code +
PKCE through the browser, the device code, client credentials, refresh; dynamic
registration) on Authlib's client over restwalk's own (:mod:`.transport`), and the
tokens it holds (:mod:`.tokens`), kept fresh for every request that names it and
kept between runs only when asked (:mod:`.store`). The person sees the tokens
through :mod:`.claims` (each claim explained, never the token itself unless asked)
and the device code as a QR code (:mod:`.qr`). The browser comes back to
:mod:`.loopback`; whether one is opened at all is :mod:`.browser`'s decision.

Not here: how a person is asked or told anything (the command line's
:mod:`explorer.cli.oauth_prompt`, the TUI's login dialog), and sending the token
with a request (:class:`explorer.core.http.request.OAuthBearer`, which the client
resolves through :attr:`explorer.core.http.client.Client.token_sources`).
"""
