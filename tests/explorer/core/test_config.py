"""config.toml: every key checked, and a bad file named with its line, never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.core.config import Config, ConfigProblem, load_config, parse_config

FULL = """\
theme = "nord"

[connection]
timeout = 5
max_time = 12.5
max_body = "5MB"
redirects = false
max_redirects = 3
verify = false
ca_bundle = "~/ca.pem"
proxy = "http://127.0.0.1:3128"
http2 = true

[history]
enabled = false
max_entries = 50
max_bytes = 1_000_000
mask_secrets = false

[http_files]
allow_files = ["~/shared", "/etc/ssl/client.pem"]
allow_env = ["GITHUB_TOKEN"]
"""


def test_every_key_is_read() -> None:
    config = parse_config(FULL, Path("config.toml"))
    assert config.theme == "nord"
    connection = config.connection
    assert (connection.timeout, connection.max_time, connection.max_body) == (5.0, 12.5, 5_000_000)
    assert (connection.redirects, connection.max_redirects) == (False, 3)
    assert (connection.verify, connection.http2) == (False, True)
    assert connection.ca_bundle == str(Path("~/ca.pem").expanduser())
    assert connection.proxy == "http://127.0.0.1:3128"
    history = config.history
    assert (history.enabled, history.max_entries, history.max_bytes) == (False, 50, 1_000_000)
    assert history.mask_secrets is False
    http_files = config.http_files
    assert http_files.allow_files == (str(Path("~/shared").expanduser()), "/etc/ssl/client.pem")
    assert http_files.allow_env == ("GITHUB_TOKEN",)


def test_an_empty_or_missing_file_is_the_defaults(tmp_path: Path) -> None:
    assert parse_config("", Path("x")) == Config()
    assert load_config(tmp_path / "absent.toml") == Config()


def test_dotted_keys_are_tables_too() -> None:
    config = parse_config("connection.timeout = 7\nhistory = { max_entries = 9 }\n", Path("c"))
    assert (config.connection.timeout, config.history.max_entries) == (7.0, 9)


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        ("[connection\ntimeout = 3\n", 1, "is not valid TOML"),
        ('theme = "a"\ntheme = "b"\n', 2, "is not valid TOML"),
        ("\n\n[connection]\ntimeot = 3\n", 4, "unknown key 'connection.timeot' (known: timeout"),
        ("[conection]\ntimeout = 3\n", 1, "unknown key 'conection' (known: theme, connection"),
        ('[connection]\n\ntimeout = "fast"\n', 3, "connection.timeout must be a number of"),
        ("[connection]\ntimeout = 0\n", 2, "above 0"),
        ('[connection]\nverify = "no"\n', 2, "connection.verify must be true or false"),
        ('[connection]\nmax_body = "lots"\n', 2, "is not a size such as"),
        ('[connection]\nproxy = "127.0.0.1:3128"\n', 2, "must be a URL"),
        ("[history]\nmax_entries = -1\n", 2, "history.max_entries must be a whole number"),
        ("[history]\nmax_entries = 1.5\n", 2, "must be a whole number"),
        ("connection = 5\n", 1, "'connection' must be a table"),
        ("theme = 1\n", 1, "theme must be a non-empty string"),
        ("connection.verify = 1\n", 1, "connection.verify must be true or false"),
        ('[http_files]\nallow_env = "A"\n', 2, "http_files.allow_env must be a list of"),
        ('[http_files]\nallow_files = [""]\n', 2, "must be a list of non-empty strings"),
    ],
)
def test_a_bad_file_names_itself_and_the_line(text: str, line: int, said: str) -> None:
    with pytest.raises(ConfigProblem) as raised:
        parse_config(text, Path("/home/u/.config/restwalk/config.toml"))
    problem = raised.value
    assert problem.line == line
    assert said in problem.message
    assert str(problem).startswith(f"/home/u/.config/restwalk/config.toml:{line}: ")
    assert "\n" not in str(problem)


def test_a_file_that_is_not_text_is_named_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    raw = b'theme = "nord"\n\xff\xfe garbage\n'
    path.write_bytes(raw)
    with pytest.raises(ConfigProblem) as raised:
        load_config(path)
    assert (raised.value.line, raised.value.message) == (2, "is not UTF-8 text")
    assert path.read_bytes() == raw  # never rewritten


def test_a_directory_in_its_place_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "config.toml").mkdir()
    with pytest.raises(ConfigProblem, match="cannot be read"):
        load_config(tmp_path / "config.toml")
