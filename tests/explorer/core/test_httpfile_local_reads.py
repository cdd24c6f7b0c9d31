"""What a .http file's requests may read on this machine: its folder's files and the
environment variables its environment files name, anything else only when allowed; each
read recorded once. No server, no terminal: the core decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.core.httpfile.dotenv_files import parse_dotenv
from explorer.core.httpfile.local_reads import Allowed, LocalReads, Read, ReadRefused
from explorer.core.httpfile.workspace import open_workspace

ENVIRON = {"AWS_SECRET_ACCESS_KEY": "aws-secret", "GITHUB_TOKEN": "gh-token", "HOME": "/home/u"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """``tmp_path/project`` beside ``tmp_path/secret``, with a body file of its own."""
    folder = tmp_path / "project"
    (folder / "bodies").mkdir(parents=True)
    (folder / "bodies" / "one.json").write_text('{"one": 1}')
    (tmp_path / "secret").write_text("TOP SECRET")
    return folder


def _workspace(project: Path, text: str, allowed: Allowed | None = None) -> LocalReads:
    (project / "api.http").write_text(text)
    workspace = open_workspace(project / "api.http", allowed=allowed)
    workspace.local_reads.environ = ENVIRON
    return workspace.local_reads


def _body(project: Path, text: str, allowed: Allowed | None = None) -> bytes:
    (project / "api.http").write_text(text)
    workspace = open_workspace(project / "api.http", allowed=allowed)
    workspace.local_reads.environ = ENVIRON
    resolved = workspace.resolve(workspace.http_file.requests[0])
    return resolved.spec.body_bytes


def test_a_file_of_its_folder_is_read_and_named(project: Path) -> None:
    reads = LocalReads(project)
    read = reads.check_file(project / "bodies" / ".." / "bodies" / "one.json")
    assert read == Read("file", str(project / "bodies" / "one.json"), "in the .http file's folder")
    assert reads.reads == []  # checked, not yet read
    assert reads.read(project / "bodies/one.json", "The body file", Path.read_text) == (
        '{"one": 1}'
    )
    assert reads.read(project / "bodies/one.json", "The body file", Path.read_text)
    assert [str(r) for r in reads.unsaid()] == [
        f"read the file {project / 'bodies/one.json'} (in the .http file's folder)"
    ]
    assert reads.unsaid() == []  # each said once


@pytest.mark.parametrize(
    "written",
    ["< ../secret", "< {secret}", "< ./link", "< ./bodies/../../secret"],
    ids=["dot-dot", "absolute", "symlink", "dot-dot-inside"],
)
def test_a_body_file_out_of_the_folder_is_refused_before_it_is_read(
    project: Path, written: str
) -> None:
    secret = project.parent / "secret"
    (project / "link").symlink_to(secret)
    text = f"POST http://api.test/x\n\n{written.format(secret=secret)}\n"
    with pytest.raises(ReadRefused) as refused:
        _body(project, text)
    error = refused.value
    assert (error.kind, error.name) == ("file", str(secret))
    assert "is outside the .http file's folder" in error.explanation
    assert error.explanation.endswith("(api.http, line 3).")
    assert f"--allow-file {secret}" in error.hint
    assert _body(project, text, Allowed.of([secret], [])) == b"TOP SECRET"
    assert _body(project, text, Allowed.of([project.parent], [])) == b"TOP SECRET"  # a folder


def test_an_environment_variable_no_env_file_names_is_refused_set_or_not(project: Path) -> None:
    for name in ("AWS_SECRET_ACCESS_KEY", "NOT_SET_AT_ALL"):
        text = f"GET http://api.test/\nX-Key: {{{{$processEnv {name}}}}}\n"
        with pytest.raises(ReadRefused) as refused:
            _body(project, text)
        assert (refused.value.kind, refused.value.name) == ("variable", name)
        assert refused.value.explanation.endswith("(api.http, line 2).")
        assert f"--allow-env {name}" in refused.value.hint
    reads = _workspace(project, "GET http://api.test/\n", Allowed.of([], ["AWS_SECRET_ACCESS_KEY"]))
    assert reads.variable("AWS_SECRET_ACCESS_KEY") == "aws-secret"
    assert reads.unsaid() == [Read("variable", "AWS_SECRET_ACCESS_KEY", "allowed")]


def test_the_environment_files_name_the_variables_they_read(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RESTWALK_TEST_WHERE", "/w")
    monkeypatch.delenv("NOT_SET", raising=False)
    (project / "http-client.env.json").write_text('{"dev": {"token": "{{$env.GITHUB_TOKEN}}"}}')
    (project / "http-client.private.env.json").write_text(
        '{"dev": {"key": "{{ $processEnv AWS_SECRET_ACCESS_KEY }}"}}'
    )
    (project / ".env").write_text("WHERE=${RESTWALK_TEST_WHERE}/x\nUNSET=${NOT_SET:-fallback}\n")
    (project / "api.http").write_text("GET http://api.test/\n")
    workspace = open_workspace(project / "api.http")
    assert workspace.environments.dotenv == {"WHERE": "/w/x", "UNSET": "fallback"}
    reads = workspace.local_reads
    reads.environ = ENVIRON
    assert reads.named == {
        "GITHUB_TOKEN": "http-client.env.json",
        "AWS_SECRET_ACCESS_KEY": "http-client.private.env.json",
        "RESTWALK_TEST_WHERE": ".env",
        "NOT_SET": ".env",
    }
    assert reads.variable("GITHUB_TOKEN") == "gh-token"
    assert reads.variable("NOT_SET") is None  # named, unset: nothing read, nothing said
    assert [r.name for r in reads.reads] == [
        str(project / "http-client.env.json"),
        str(project / "http-client.private.env.json"),
        str(project / ".env"),
        "RESTWALK_TEST_WHERE",  # ${...} of .env, read as the file was
        "GITHUB_TOKEN",
    ]


def test_dotenv_expands_as_python_dotenv_does_through_the_lookup() -> None:
    asked: list[str] = []

    class Environment(dict[str, str]):
        def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
            asked.append(name)
            return super().get(name, default)

    text = 'A=1\nB=${A}-${OUT}\nC=${MISSING:-dflt}\nD\nE="${D}x"\n'
    values = parse_dotenv(text, process=Environment(OUT="o"))
    assert values == {"A": "1", "B": "1-o", "C": "dflt", "E": "x"}
    assert asked == ["OUT", "MISSING"]  # an earlier line's value is not asked for


def test_an_environment_file_leading_out_of_the_folder_is_refused(project: Path) -> None:
    (project.parent / "elsewhere.env").write_text("TOKEN=stolen\n")
    (project / ".env").symlink_to(project.parent / "elsewhere.env")
    (project / "api.http").write_text("GET http://api.test/?t={{$dotenv TOKEN}}\n")
    with pytest.raises(ReadRefused) as refused:
        open_workspace(project / "api.http")
    assert refused.value.name == str(project.parent / "elsewhere.env")
    assert refused.value.explanation.startswith(f"The .env file {project / '.env'} is outside")
    allowed = Allowed.of([project.parent / "elsewhere.env"], [])
    workspace = open_workspace(project / "api.http", allowed=allowed)
    resolved = workspace.resolve(workspace.http_file.requests[0])
    assert resolved.spec.url == "http://api.test/?t=stolen"


def test_a_var_value_names_the_variables_it_reads(project: Path) -> None:
    (project / "api.http").write_text("GET http://api.test/?t={{t}}\n")
    workspace = open_workspace(project / "api.http", given={"t": "{{$processEnv GITHUB_TOKEN}}"})
    workspace.local_reads.environ = ENVIRON
    resolved = workspace.resolve(workspace.http_file.requests[0])
    assert resolved.spec.url == "http://api.test/?t=gh-token"
    assert workspace.local_reads.unsaid() == [Read("variable", "GITHUB_TOKEN", "named in --var")]


def test_the_person_s_allow_takes_effect_at_once(project: Path) -> None:
    reads = LocalReads(project, environ=ENVIRON)
    with pytest.raises(ReadRefused):
        reads.variable("GITHUB_TOKEN")
    reads.allow("variable", "GITHUB_TOKEN")
    reads.allow("file", str(project.parent / "secret"))
    assert reads.variable("GITHUB_TOKEN") == "gh-token"
    assert reads.check_file(project.parent / "secret").why == "allowed"
