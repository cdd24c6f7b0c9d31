"""curl command lines copied from API documentation (tests/explorer/data/curl_corpus).

Each is read as curl would read it, checked against what its documentation
means, written back as curl, and read again: the same request, and from then
on the same text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.core.carry.curl import CurlError, parse_curl
from explorer.core.carry.curl_export import to_curl
from explorer.core.http.request import BasicAuth
from explorer.core.http.upload import FormPart
from tests.explorer.core.carry.requests import sent

CORPUS = Path(__file__).parents[2] / "data" / "curl_corpus"
LINES = sorted(CORPUS.glob("*.sh"))
#: What a shell session would have set for the lines that use variables.
ENV = {
    "SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/T000/B000/XXXX",
    "ES_HOST": "localhost",
    "ES_PORT": "9200",
    "ES_INDEX": "products",
}
#: Lines no request can be made of, and why (as said to the person).
REFUSED = {
    "slack_no_url.sh": "no URL",
    "apifox_relative.sh": "path with no server",
}


def read(path: str) -> bytes:
    return b'{"text": "from a file"}\n'


def test_the_corpus_names_its_sources() -> None:
    assert len(LINES) >= 20
    for line in LINES:
        first = line.read_text().splitlines()[0]
        assert first.startswith("# source: "), line.name


@pytest.mark.parametrize("path", LINES, ids=lambda path: path.name)
def test_round_trip_is_stable(path: Path) -> None:
    text = path.read_text()
    if path.name in REFUSED:
        with pytest.raises(CurlError, match=REFUSED[path.name]):
            parse_curl(text, env=ENV, read=read)
        return
    command = parse_curl(text, env=ENV, read=read)
    assert not command.unsupported
    exported = to_curl(command.spec, command.options)
    again = parse_curl(exported, read=read)
    assert sent(again.spec, read) == sent(command.spec, read)
    assert again.options == command.options
    assert to_curl(again.spec, again.options) == exported


def spec_of(name: str):  # type: ignore[no-untyped-def]
    return parse_curl((CORPUS / name).read_text(), env=ENV, read=read).spec


def test_github() -> None:
    spec = spec_of("github_releases.sh")
    assert (spec.method, spec.url) == ("GET", "https://api.github.com/repos/OWNER/REPO/releases")
    assert ("X-GitHub-Api-Version", "2022-11-28") in spec.headers
    assert parse_curl((CORPUS / "github_releases.sh").read_text()).options.location


def test_stripe_form_data_and_basic_auth_with_an_empty_password() -> None:
    spec = spec_of("stripe_customers.sh")
    assert spec.method == "POST"
    assert spec.auth == BasicAuth("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "")
    assert spec.body == (
        "email=customer@example.com&source=tok_1234567890abcdef&description=Example customer"
    )
    assert spec.content_type == "application/x-www-form-urlencoded"


def test_twilio_url_encodes_the_plus() -> None:
    spec = spec_of("twilio_messages.sh")
    assert str(spec.body).startswith(
        "To=%2B1XXXXXXXXXX&From=%2B1YYYYYYYYYY&Body=Your%20appointment"
    )


def test_openai_keeps_an_unset_key_as_written_and_says_so() -> None:
    command = parse_curl((CORPUS / "openai_chat.sh").read_text(), env={}, read=read)
    assert ("Authorization", "Bearer $OPENAI_API_KEY") in command.spec.headers
    assert command.unset == ("$OPENAI_API_KEY",)
    key = parse_curl((CORPUS / "openai_chat.sh").read_text(), env={"OPENAI_API_KEY": "sk-1"})
    assert ("Authorization", "Bearer sk-1") in key.spec.headers


def test_quotes_glued_together_make_one_word() -> None:
    command = parse_curl((CORPUS / "openai_chat_jq.sh").read_text(), env={"OPEN_API_KEY": "k"})
    assert ("Authorization", "Bearer k") in command.spec.headers
    assert command.ignored == ("-s",)


def test_mailgun_multipart_repeats_a_field() -> None:
    spec = spec_of("mailgun_send.sh")
    assert spec.auth == BasicAuth("api", "YOUR_API_KEY")
    assert spec.form[:3] == (
        FormPart("from", "Excited User <postmaster@YOUR_DOMAIN_NAME>"),
        FormPart("to", "recipient-1@example.com"),
        FormPart("to", "recipient-2@example.com"),
    )


def test_elasticsearch_forms() -> None:
    bulk = spec_of("elasticsearch_bulk.sh")
    assert (bulk.method, bulk.body_file) == ("POST", "accounts.json")
    match = parse_curl((CORPUS / "elasticsearch_match.sh").read_text(), read=read)
    assert match.spec.method == "GET"
    assert match.spec.url.startswith("http://localhost:9200/")
    assert "looks like JSON" in match.notes[0]
    search = spec_of("elasticsearch_search.sh")
    assert search.url == "http://localhost:9200/products/_search"


def test_slack_here_document_is_the_body() -> None:
    spec = spec_of("slack_webhook_heredoc.sh")
    assert spec.url == ENV["SLACK_WEBHOOK_URL"]
    assert spec.body == '{"text":"Deploy completed! :rocket:"}'


def test_a_path_only_url_resolves_against_the_page() -> None:
    text = (CORPUS / "apifox_relative.sh").read_text()
    spec = parse_curl(text, base="http://127.0.0.1:8000/").spec
    assert spec.url == "http://127.0.0.1:8000/v1/customers"
