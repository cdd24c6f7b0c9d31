"""Saving a request opened from a .http file back into it: its {{variables}} stay, no secret
is written, what the session added stays out, only what the person edited changes."""

from __future__ import annotations

import json
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.http.request import BearerAuth, LoginFlow, RequestSpec
from explorer.core.httpfile import CannotWrite, HttpFileError, parse_http
from explorer.core.httpfile.environments import Environments
from explorer.core.httpfile.errors import EnvFileError
from explorer.core.httpfile.model import HttpRequest
from explorer.core.httpfile.opened import open_request, written_back
from explorer.core.httpfile.private_env import set_private_variable
from explorer.core.httpfile.resolve import resolve_request
from explorer.core.httpfile.retemplate import retemplate
from explorer.core.httpfile.saving import Draft, save_into
from explorer.core.httpfile.variables import VariableSources, references
from explorer.core.httpfile.workspace import Workspace, open_workspace

DATA = Path(__file__).parents[1] / "data" / "httpfiles"

#: The QA report's file (item 1): a login whose password is in the private env file.
API = """\
### health
GET {{base}}/

### login
# @name login
POST {{base}}/auth/token
Content-Type: application/json

{"username": "alice", "password": "{{password}}"}

> {% client.global.set("token", response.body.token); %}

### orders
GET {{base}}/orders?customerId=3
Authorization: Bearer {{token}}
X-Request-Id: {{$uuid}}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "api.http").write_text(API)
    (tmp_path / "http-client.env.json").write_text('{"dev": {"base": "http://127.0.0.1:9"}}')
    (tmp_path / "http-client.private.env.json").write_text(
        '{"dev": {"password": "wonderland", "token": "eyJ.secret.token"}}'
    )
    return tmp_path


def _open(project: Path, name: str) -> tuple[Workspace, Draft]:
    workspace = open_workspace(project / "api.http", "dev")
    (request,) = workspace.http_file.named(name)
    resolved, opened = workspace.open(request)
    return workspace, Draft(resolved.spec, opened, resolved.spec)


def _edited(draft: Draft, **changes: object) -> Draft:
    return replace(draft, spec=replace(draft.spec, **changes))  # type: ignore[arg-type]


def test_a_request_saved_back_unchanged_leaves_the_file_byte_for_byte(project: Path) -> None:
    for name in ("health", "login", "orders"):
        _, draft = _open(project, name)
        assert "wonderland" in str(draft.spec.body) or name != "login"
        save_into(project / "api.http", draft, name)
        assert (project / "api.http").read_text() == API


def test_an_edited_request_keeps_its_variables_where_their_values_were_left(
    project: Path,
) -> None:
    _, draft = _open(project, "login")
    draft = _edited(
        draft,
        url="http://127.0.0.1:9/auth/token?remember=1",
        body='{"username": "bob", "password": "wonderland", "scope": "orders"}',
    )
    saved = save_into(project / "api.http", draft, "login")
    text = (project / "api.http").read_text()
    assert text == API.replace("/auth/token\n", "/auth/token?remember=1\n").replace(
        '{"username": "alice", "password": "{{password}}"}',
        '{"username": "bob", "password": "{{password}}", "scope": "orders"}',
    )
    assert saved.line == 6
    assert "wonderland" not in text


def test_a_private_value_is_never_written_wherever_it_is_typed(project: Path) -> None:
    _, draft = _open(project, "health")
    draft = _edited(
        draft,
        method="POST",
        headers=(("X-Password", "wonderland"),),
        body="wonderland and wonderland2",
    )
    request = draft.request("health")
    assert request.headers[0] == ("X-Password", "{{password}}")
    assert request.body == ("{{password}} and {{password}}2",)
    assert request.url == "{{base}}/"
    assert request.method == "POST"


def test_what_the_session_added_is_left_out_and_said(project: Path) -> None:
    _, draft = _open(project, "health")
    login = LoginFlow("http://127.0.0.1:9/auth/token", "alice", "wonderland")
    shown = replace(draft.spec, auth=login, headers=(("X-Kept", "1"),))
    draft = Draft(shown, draft.opened, baseline=shown, token="tok")
    assert draft.session_credential_left_out
    assert not draft.credential
    request = draft.request("health")
    assert request.headers == ()
    # The person's own credential, chosen in the composer, is written (as a token).
    mine = Draft(replace(shown, auth=BearerAuth("mine")), draft.opened, baseline=shown)
    assert mine.request("health").headers == (("Authorization", "Bearer mine"),)
    assert mine.credential
    assert mine.bearer


def test_a_value_that_changes_at_each_use_stays_a_variable_when_the_rest_is_edited(
    project: Path,
) -> None:
    _, draft = _open(project, "orders")
    headers = draft.spec.headers
    assert headers[0] == ("Authorization", "Bearer eyJ.secret.token")
    draft = _edited(draft, url=draft.spec.url.replace("=3", "=4"), headers=(*headers, ("A", "b")))
    request = draft.request("orders")
    assert request.url == "{{base}}/orders?customerId=4"
    assert request.headers == (
        ("Authorization", "Bearer {{token}}"),
        ("X-Request-Id", "{{$uuid}}"),
        ("A", "b"),
    )


def test_a_request_changed_in_the_file_since_it_was_opened_is_not_saved_over(
    project: Path,
) -> None:
    _, draft = _open(project, "login")
    changed = API.replace("alice", "carol")
    (project / "api.http").write_text(changed)
    with pytest.raises(HttpFileError, match=r"changed in api\.http since it was opened"):
        save_into(project / "api.http", draft, "login")
    assert (project / "api.http").read_text() == changed
    save_into(project / "api.http", draft, "login copy")  # another name is fine
    assert "### login copy\n" in (project / "api.http").read_text()


def test_saving_again_after_more_edits_compares_with_what_was_saved(project: Path) -> None:
    _, draft = _open(project, "login")
    first = _edited(draft, url="http://127.0.0.1:9/auth/token2")
    saved = save_into(project / "api.http", first, "login")
    assert saved.opened is not None
    again = Draft(replace(first.spec, method="PUT"), saved.opened, first.baseline)
    save_into(project / "api.http", again, "login")
    text = (project / "api.http").read_text()
    assert "\nPUT {{base}}/auth/token2\n" in text
    assert '"password": "{{password}}"' in text


def test_a_private_value_goes_back_as_the_variable_that_gives_it_or_is_refused(
    project: Path,
) -> None:
    http_file = open_workspace(project / "api.http", "dev").http_file
    (request,) = http_file.named("health")
    # The private $shared password is hidden by the public dev one of the same name.
    environments = Environments(
        project,
        public={"dev": {"base": "http://127.0.0.1:9", "password": "public"}},
        private={"$shared": {"password": "wonderland"}},
    )
    resolved, opened = Workspace(http_file, environments, "dev").open(request)
    assert opened.secrets[0].reference == "$shared password"
    spec = replace(resolved.spec, body="wonderland")
    assert Draft(spec, opened).request("health").body == ("{{$shared password}}",)
    # A value given on the command line hides it under every name: refused, not written.
    environments = Environments(project, private={"dev": {"password": "wonderland"}})
    given = Workspace(http_file, environments, "dev", given={"password": "x", "base": "h"})
    resolved, opened = given.open(request)
    with pytest.raises(CannotWrite, match=r"password of http-client\.private\.env\.json"):
        Draft(replace(resolved.spec, body="wonderland"), opened).request("health")


def test_a_body_file_is_kept_and_form_fields_are_written_as_multipart(tmp_path: Path) -> None:
    (tmp_path / "data.json").write_text('{"a": 1}')
    text = "### put\nPUT http://h/x\nContent-Type: application/json\n\n< ./data.json\n"
    http_file = parse_http(text, str(tmp_path / "a.http"))
    (request,) = http_file.requests
    resolved = resolve_request(request, http_file, VariableSources())
    opened = open_request(
        request, resolved.spec, http_file, Environments(tmp_path), None, VariableSources()
    )
    assert written_back(opened, resolved.spec).body == request.body


# --- text ---------------------------------------------------------------------------------


def test_retemplate_puts_back_what_was_left_and_writes_what_was_typed() -> None:
    values = {"base": "http://h:1", "id": "42"}
    assert retemplate("{{base}}/c/{{id}}", "http://h:1/c/42", "http://h:1/c/42", values) == (
        "{{base}}/c/{{id}}"
    )
    assert retemplate("{{base}}/c/{{id}}", "http://h:1/c/42", "http://h:1/d/42", values) == (
        "{{base}}/d/{{id}}"
    )
    assert retemplate("{{base}}/c/{{id}}", "http://h:1/c/42", "http://h:1/c/43", values) == (
        "{{base}}/c/43"
    )
    assert retemplate("{{base}}/c", "http://h:1/c", "https://other/c", values) == (
        "https://other/c"
    )


_CHUNK = st.text(alphabet='abcS3/:=" \n', min_size=0, max_size=6)


@settings(max_examples=300)
@given(
    chunks=st.lists(st.tuples(_CHUNK, st.sampled_from(["a", "b", "s", None])), max_size=5),
    cut=st.integers(0, 60),
    length=st.integers(0, 8),
    typed=st.text(alphabet="abcXYS3/ \n", max_size=6),
)
def test_any_edit_written_back_gives_the_edited_text_and_no_secret(
    chunks: list[tuple[str, str | None]], cut: int, length: int, typed: str
) -> None:
    values = {"a": "ab", "b": "", "s": "S3cr3tValue"}
    template = "".join(text + ("{{" + name + "}}" if name else "") for text, name in chunks)
    sources = VariableSources(environment=values)
    from explorer.core.httpfile.variables import substitute

    old = substitute(template, sources)
    new = old[:cut] + typed + old[cut + length :]

    def hide(text: str) -> str:
        return text.replace("S3cr3tValue", "{{s}}")

    written = retemplate(template, old, new, values, hide)
    assert substitute(written, sources) == new
    assert "S3cr3tValue" not in written
    assert set(references(written)) <= {"a", "b", "s"}


# --- the examples of the tools' documentation ----------------------------------------------


class _Answers:
    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        return f"answer-of-{name}"


#: Examples restwalk cannot send (see test_httpfile_examples.py): OPTIONS *, a body file
#: of another machine (C:\\Users\\...).
_NOT_SENT = {"jetbrains-spec/11.http", "vscode-restclient/11.http"}


def _example_requests() -> list[tuple[str, int]]:
    out = []
    for path in sorted(DATA.glob("*/*.http")):
        key = f"{path.parent.name}/{path.name}"
        if key not in _NOT_SENT:
            requests = parse_http(path.read_text(encoding="utf-8")).requests
            out += [(key, index) for index in range(len(requests))]
    return out


@pytest.mark.parametrize(("example", "index"), _example_requests())
def test_each_documented_request_opened_and_saved_unchanged_is_written_as_it_was(
    example: str, index: int
) -> None:
    path = DATA / example
    http_file = parse_http(path.read_text(encoding="utf-8"), str(path))
    request = http_file.requests[index]
    texts = [p.read_bytes().decode("utf-8", "replace") for p in path.parent.iterdir()]
    names = {
        reference.removeprefix("%").strip() for text in texts for reference in references(text)
    }
    sources = VariableSources(
        given={name: f"value-of-{name}" for name in names if not name.startswith("$")},
        responses=_Answers(),
        process={"USERNAME": "u"},
        dotenv={"USERNAME": "u"},
    )
    resolved = resolve_request(request, http_file, sources)
    opened = open_request(
        request, resolved.spec, http_file, Environments(path.parent), None, sources
    )
    again: HttpRequest = written_back(opened, resolved.spec)
    assert (again.method, again.url, again.http_version, again.headers, again.body) == (
        request.method,
        request.url,
        request.http_version,
        request.headers,
        request.body,
    )


# --- the private environment file ----------------------------------------------------------


def test_a_private_variable_is_set_keeping_the_rest_of_the_file(tmp_path: Path) -> None:
    private = tmp_path / "http-client.private.env.json"
    private.write_text(
        '{\n    "dev": {\n        "password": "wonderland"\n    },\n    "x": {}\n}\n'
    )
    path, changed = set_private_variable(tmp_path, "dev", "token", "t0k")
    assert (path, changed) == (private, True)
    assert private.read_text() == (
        '{\n    "dev": {\n        "password": "wonderland",\n        "token": "t0k"\n    },\n'
        '    "x": {}\n}\n'
    )
    assert set_private_variable(tmp_path, "dev", "token", "t0k")[1] is False
    set_private_variable(tmp_path, None, "token", "all")
    assert json.loads(private.read_text())["$shared"] == {"token": "all"}


def test_a_new_private_file_is_its_owners_only_and_a_bad_one_is_left_alone(
    tmp_path: Path,
) -> None:
    path, _ = set_private_variable(tmp_path, "dev", "token", "t")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"dev": {"token": "t"}}
    path.write_text('{"dev": {"a": 1, "a": 2}}')
    with pytest.raises(EnvFileError, match="'a' twice"):
        set_private_variable(tmp_path, "dev", "token", "t")
    path.write_text('{"dev": ')
    with pytest.raises(EnvFileError, match="not valid JSON"):
        set_private_variable(tmp_path, "dev", "token", "t")
    assert path.read_text() == '{"dev": '


def test_a_token_saved_privately_is_a_variable_in_the_file_and_runs(tmp_path: Path) -> None:
    spec = RequestSpec(url="http://h/orders", auth=LoginFlow("http://h/login", "u", "p"))
    with pytest.raises(CannotWrite, match="logs in at http://h/login first") as refused:
        Draft(spec).request("orders")
    assert "Send it once" in refused.value.hint
    saved = save_into(
        tmp_path / "api.http",
        Draft(spec, token="eyJ.t"),
        "orders",
        private_token=True,
        environment="dev",
    )
    assert saved.private_file == tmp_path / "http-client.private.env.json"
    text = (tmp_path / "api.http").read_text()
    assert "Authorization: Bearer {{token}}\n" in text
    assert "eyJ.t" not in text
    workspace = open_workspace(tmp_path / "api.http", "dev")
    resolved, _ = workspace.open(workspace.http_file.requests[0])
    assert ("Authorization", "Bearer eyJ.t") in resolved.spec.headers


def test_a_drf_token_saved_privately_keeps_its_scheme_and_stays_out_of_the_file(
    tmp_path: Path,
) -> None:
    login = LoginFlow("http://h/api-token-auth/", "u", "p", scheme="Token")
    spec = RequestSpec(url="http://h/api/books/", auth=login)
    draft = Draft(spec, token="9944b091")
    save_into(tmp_path / "api.http", draft, "books", private_token=True, environment="dev")
    text = (tmp_path / "api.http").read_text()
    assert "Authorization: Token {{token}}\n" in text
    assert "9944b091" not in text
    workspace = open_workspace(tmp_path / "api.http", "dev")
    resolved, _ = workspace.open(workspace.http_file.requests[0])
    assert ("Authorization", "Token 9944b091") in resolved.spec.headers


def test_a_long_body_edited_in_one_line_or_in_several_keeps_every_variable() -> None:
    rows = [{"id": i, "password": "{{password}}"} for i in range(2000)]
    values = {"password": "wonderland"}
    for template in (json.dumps(rows), json.dumps(rows, indent=2)):
        old = template.replace("{{password}}", "wonderland")
        new = old.replace('"id": 7,', '"id": 70,').replace('"id": 1999,', '"id": 2000,')
        assert retemplate(template, old, new, values) == template.replace(
            '"id": 7,', '"id": 70,'
        ).replace('"id": 1999,', '"id": 2000,')
