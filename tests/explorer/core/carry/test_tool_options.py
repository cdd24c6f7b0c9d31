"""The connection written for another tool: the protocol first, restwalk's defaults left out."""

from __future__ import annotations

import httpx

from explorer.core.carry import export_request, protocol_note
from explorer.core.carry.curl import CurlOptions, parse_curl
from explorer.core.carry.tool_options import tool_options
from explorer.core.http.client import Client
from explorer.core.http.connection import ConnectionSettings
from explorer.core.http.request import RequestSpec

SPEC = RequestSpec(url="http://127.0.0.1:8000/customers")


def test_restwalks_defaults_are_only_follow_redirects() -> None:
    assert tool_options(ConnectionSettings(verify=True)) == CurlOptions(location=True)


def test_each_setting_becomes_its_option() -> None:
    settings = ConnectionSettings(
        http2_prior_knowledge=True,
        verify=False,
        proxy="http://127.0.0.1:3128",
        max_time=5,
        max_redirects=3,
    )
    line = export_request(SPEC, "curl", tool_options(settings, cacert="ca.pem"))
    assert line == (
        "curl -k -L --http2-prior-knowledge --max-time 5 --max-redirs 3 "
        "-x 'http://127.0.0.1:3128' 'http://127.0.0.1:8000/customers'"
    )  # no --cacert: nothing is checked
    options = parse_curl(line).options
    assert (options.http2_prior_knowledge, options.insecure) == (True, True)


def test_the_client_as_it_is_now() -> None:
    client = Client(transport=httpx.MockTransport(lambda r: httpx.Response(204)), http2=True)
    options = tool_options(ConnectionSettings.of(client))
    assert (options.http2, options.http2_prior_knowledge, options.location) == (True, False, True)
    assert export_request(SPEC, "http", options).splitlines()[1] == f"GET {SPEC.url} HTTP/2"
    assert protocol_note("httpie", options) is not None
    assert protocol_note("curl", options) is None
    assert protocol_note("httpie", CurlOptions()) is None
