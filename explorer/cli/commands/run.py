"""``restwalk run FILE.http [--env NAME] [--name REQUEST]...``: send a file's saved requests.

Every request of the file (or those named, in the order named) is checked
first: a problem in its lines, an undefined variable, a body file that is not
there stops the run before anything is sent (exit 2). Then each is sent in
turn and printed as ``restwalk request`` prints it, under a ``###`` line
naming it. Cookies set by one request go with the next ones (one cookie jar
for the run), except for a request marked ``# @no-cookie-jar``.

What the requests read on this machine is checked first and named on stderr, one
line each, before anything is sent: a ``< file`` outside the file's folder, or an
environment variable no environment file beside it names, is read only with
``--allow-file`` / ``--allow-env`` (or config.toml's ``[http_files]``); else it is
refused, exit 2, nothing sent (:mod:`explorer.core.httpfile.local_reads`).

Any HTTP answer is a success, as for ``restwalk request``; with
``--check-status`` (HTTPie's name; ``--fail`` is curl's) a 4xx or 5xx answer
counts as a failure. A request that failed does not stop the others; the exit
status is 1 when one failed.
"""

from __future__ import annotations

import getpass
import sys
from dataclasses import replace
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.errors import UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, template_variables

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.http.client import Client
    from explorer.core.http.exchange import Exchange
    from explorer.core.httpfile.model import HttpRequest
    from explorer.core.httpfile.request_variables import RunResponses
    from explorer.core.httpfile.resolve import ResolvedRequest
    from explorer.core.httpfile.versions import Protocol
    from explorer.core.httpfile.workspace import Workspace

__all__ = ["add_parser", "run"]

#: Names of prompt variables whose answer is not shown as it is typed (VS Code's list).
_SECRET_PROMPTS = frozenset({"password", "passwd", "pass"})


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk run``'s parser."""
    from explorer.cli.arguments import add_connection

    parser = commands.add_parser(
        "run",
        prog="restwalk run",
        help="send the requests saved in a .http file",
        description=paragraphs(
            "Send the requests of a .http file (the format of the JetBrains HTTP Client "
            "and the VS Code REST Client), all of them in order or those --name names in "
            "the order named, and print each as 'restwalk request' does.",
            "{{name}} variables come from --var, then the environment --env chooses in "
            "http-client.env.json and http-client.private.env.json beside the file "
            "(the private one's values win), then the file's own '@name = value' lines, "
            "then the .env file beside it. An undefined variable stops the run before "
            "anything is sent. Response handler scripts and '>> file' redirects are kept "
            "in the file and named, never run.",
            "What the file reads on this machine goes to its host, so it reads, unasked, "
            "only files in its folder and environment variables its environment files "
            "name ({{$processEnv NAME}} in http-client.env.json, ${NAME} in .env); "
            "anything else needs --allow-file or --allow-env (or allow_files and "
            "allow_env in config.toml's [http_files]). Each file and variable read is "
            "named on stderr before anything is sent.",
        ),
        epilog=paragraphs(
            "exit codes: 0 every request was answered (any HTTP status, unless "
            "--check-status), 1 a request failed (refused, timeout, TLS...; with "
            "--check-status also a 4xx or 5xx answer), 2 bad usage, a bad file or a "
            "read not allowed (nothing was sent).",
        ),
        formatter_class=formatter,
    )
    parser.add_argument("file", metavar="FILE.http", help="the .http file to run")
    parser.add_argument(
        "--env", metavar="NAME", help="the environment of http-client.env.json to use"
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="REQUEST",
        help="run only the request of this name (repeatable, run in the order given)",
    )
    parser.add_argument(
        "--var",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variable's value, over every other source (repeatable)",
    )
    parser.add_argument(
        "--allow-file",
        action="append",
        default=[],
        metavar="PATH",
        help="let the file's requests read PATH (a folder: all under it) though it is "
        "outside the file's folder (repeatable)",
    )
    parser.add_argument(
        "--allow-env",
        action="append",
        default=[],
        metavar="NAME",
        help="let the file's requests read the environment variable NAME though no "
        "environment file beside it names it (repeatable)",
    )
    parser.add_argument(
        "--check-status",
        "--fail",
        action="store_true",
        help="count a 4xx or 5xx answer as a failure (exit 1); by default any answer is "
        "a success, as in 'restwalk request'",
    )
    parser.add_argument(
        "--json", action="store_true", help="print each exchange as one JSON object per line"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also print each request as sent"
    )
    add_connection(parser)


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk run``."""
    return run_printing(_run, args)


def _open(args: argparse.Namespace) -> Workspace:
    from explorer.cli.settings import settings_of
    from explorer.core.httpfile.errors import HttpFileError
    from explorer.core.httpfile.local_reads import Allowed, ReadRefused
    from explorer.core.httpfile.workspace import open_workspace

    path = Path(args.file).expanduser()
    if not path.exists():
        raise UsageError(f"{args.file}: no such file")
    configured = settings_of(args).http_files
    allowed = Allowed.of(
        [*configured.allow_files, *args.allow_file], [*configured.allow_env, *args.allow_env]
    )
    try:
        return open_workspace(path, args.env, template_variables(args.var), allowed)
    except ReadRefused as error:  # an environment file leading out of the folder
        raise UsageError(f"{error.explanation} {error.hint} Nothing was sent.") from None
    except HttpFileError as error:
        raise UsageError(f"{error.explanation} {error.hint}".strip()) from None


def _say_reads(workspace: Workspace) -> None:
    """Name on stderr, one line each, what the requests read since last said."""
    from explorer.cli.output import error_line

    for read in workspace.local_reads.unsaid():
        error_line(str(read))


def _ask_prompts(workspace: Workspace, requests: list[HttpRequest]) -> Workspace:
    """``# @prompt name`` variables not given otherwise: asked on a terminal, once each."""
    sources = workspace.sources()
    given = dict(workspace.given)
    for request in requests:
        for directive in request.directives:
            name, _, description = directive.value.partition(" ")
            if directive.name != "prompt" or not name or name in given:
                continue
            if sources.named(name) is not None:
                continue
            if not sys.stdin.isatty():
                continue  # then it is undefined, and the check says how to give it
            question = f"{description.strip() or name}: "
            secret = name.lower() in _SECRET_PROMPTS
            given[name] = getpass.getpass(question) if secret else input(question)
    return replace(workspace, given=given)


def _check(workspace: Workspace, requests: list[HttpRequest]) -> None:
    """Resolve every request before sending any: the run never stops half way on a typo."""
    from explorer.core.http.errors import InvalidRequest
    from explorer.core.http.request import build_request
    from explorer.core.httpfile.errors import UndefinedVariable
    from explorer.core.httpfile.resolve import placed

    problems: list[str] = []
    undefined: set[str] = set()
    earlier = _Placeholders({r.name for r in workspace.http_file.requests if r.name})
    workspace = replace(workspace, auth=workspace.auth_placeholders())
    for request in requests:
        try:
            resolved = workspace.resolve(request, earlier)
        except InvalidRequest as error:
            problems.append(f"{error.message} {error.hint}".strip())
            if isinstance(error, UndefinedVariable):
                undefined.add(error.name)
        else:
            try:
                build_request(resolved.spec)
            except InvalidRequest as error:
                where = placed(request, workspace.http_file)
                problems.append(f"{error.message.rstrip('.')} {where}. {error.hint}".strip())
        earlier.sent.add(request.name or "")
    _say_reads(workspace)
    if problems:
        from explorer.cli.output import error_line

        for problem in problems[:-1]:
            error_line(problem)
        raise UsageError(
            f"{problems[-1]} Nothing was sent.{_environment_hint(workspace, undefined)}"
        )


def _environment_hint(workspace: Workspace, undefined: set[str]) -> str:
    """When no environment was chosen and one beside the file defines what was missing:
    which, and how to choose it (" ..." to add to the error, or "")."""
    environments = workspace.environments
    if workspace.environment is not None or not undefined:
        return ""
    needed = {_what(name) for name in undefined}
    defining = [name for name in environments.names if needed <= _defined(workspace, name)]
    if not defining:
        return ""
    which = " and ".join(defining) if len(defining) < 3 else ", ".join(defining)
    verb = "defines" if len(defining) == 1 else "define"
    what = "it" if len(undefined) == 1 else "them"
    return f" No environment was chosen; {which} {verb} {what}: add --env {defining[0]}."


def _what(name: str) -> tuple[str, str]:
    """An undefined name as what defines it: ``("login", id)`` for ``$auth.token("id")``,
    else ``("variable", name)``."""
    from explorer.core.httpfile.auth_configs import auth_reference

    login = auth_reference(name)
    return ("login", login[1]) if login is not None else ("variable", name)


def _defined(workspace: Workspace, environment: str) -> set[tuple[str, str]]:
    """What ``environment`` defines: its variables, and its ``Security.Auth`` logins."""
    environments = workspace.environments
    return {("variable", name) for name in environments.variables(environment)} | {
        ("login", auth_id) for auth_id in environments.auth(environment)
    }


class _Placeholders:
    """Request variables during the check: an earlier request's response is not here yet."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.sent: set[str] = set()

    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        from explorer.core.httpfile.request_variables import RunResponses

        if name in self.names and name in self.sent:
            return "placeholder"
        return RunResponses(self.names).value(name, part, kind, path)


async def _run(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """Check every request, then send each in turn."""
    from explorer.cli.oauth_login import with_tokens
    from explorer.cli.output import error_line, said_undecoded
    from explorer.core.http.errors import RestwalkError
    from explorer.core.httpfile.auth_tokens import FileLogins
    from explorer.core.httpfile.request_variables import RunResponses
    from explorer.core.httpfile.resolve import describe
    from explorer.core.httpfile.versions import Protocol

    workspace = _open(args)
    requests = workspace.select(args.name) if args.name else workspace.select([])
    if not requests:
        raise UsageError(f"{args.file}: no request in it")
    workspace = _ask_prompts(workspace, requests)
    _check(workspace, requests)
    responses = RunResponses(r.name for r in workspace.http_file.requests if r.name)
    failed = False
    async with client_from(args) as client:
        logins = FileLogins(client)  # the OAuth 2.0 logins of $auth.token("id"), for the run
        chosen = Protocol(client.http2, client.http2_prior_knowledge)  # --http2...
        for request in requests:
            try:
                workspace = await with_tokens(args, workspace, request, logins)
            except RestwalkError as error:
                error_line(
                    f"{describe(request, workspace.http_file)}: {error.message} {error.hint}"
                )
                responses.record_failure(request.name)
                failed = True
                continue
            exchange = await _send_one(args, workspace, request, client, responses, chosen)
            if exchange is None:
                failed = True
                continue
            undecoded = said_undecoded(exchange)
            failed |= _bad_status(args, request, exchange) or undecoded
    return ExitStatus.FAILED if failed else ExitStatus.OK


async def _send_one(
    args: argparse.Namespace,
    workspace: Workspace,
    request: HttpRequest,
    client: Client,
    responses: RunResponses,
    chosen: Protocol,
) -> Exchange | None:
    """Send one request as the core says it goes (:mod:`explorer.core.httpfile.sending`) and
    print it; None (and one line on stderr) when it failed. ``chosen`` is how the command
    line set the connection."""
    from explorer.cli.output import error_line, say_withheld, write_out
    from explorer.core.http.errors import RestwalkError
    from explorer.core.httpfile.resolve import describe
    from explorer.core.httpfile.sending import how_to_send, send_resolved

    try:
        resolved = workspace.resolve(request, responses)
    except RestwalkError as error:  # its message names the file and the line
        _say_reads(workspace)
        error_line(f"{error.message} {error.hint}")
        responses.record_failure(request.name)
        return None
    _say_reads(workspace)  # (a path or a name an earlier answer gave)
    spec, note = resolved.spec, ""
    if resolved.origin_from:  # a server's answer chose where it goes
        from explorer.core.session.derived import scoped_to

        derived = scoped_to(spec, responses.sent_to(resolved.origin_from[0]))
        spec, note = derived.spec, derived.note
    said: set[str] = set()
    try:
        how = how_to_send(resolved, spec, client, chosen)
        if not args.json:
            write_out(_heading(workspace, resolved))
        say_withheld(note, said)
        exchange = await send_resolved(how, client, lambda: client_from(args))
    except RestwalkError as error:
        error_line(f"{describe(request, workspace.http_file)}: {error.message} {error.hint}")
        responses.record_failure(request.name)
        return None
    say_withheld(exchange.withheld, said)
    responses.record(request.name, exchange)
    write_out(_shown(args, resolved, exchange))
    return exchange


def _heading(workspace: Workspace, resolved: ResolvedRequest) -> str:
    """``### name  (api.http, line 12)`` and the notes: what is run, and what is not."""
    request = resolved.request
    where = f"{workspace.path.name}, line {request.line}"
    lines = [f"### {request.title}  ({where})"]
    lines += [f"# {note}" for note in resolved.notes]
    lines += [
        f"# not run: the {script.kind} at line {script.line} (restwalk runs no scripts)"
        for script in resolved.not_run
    ]
    return "\n".join(lines) + "\n"


def _shown(args: argparse.Namespace, resolved: ResolvedRequest, exchange: Exchange) -> str:
    import orjson

    from explorer.cli.output import exchange_json, format_exchange
    from explorer.core.text.terminal_text import json_visible

    if not args.json:
        return format_exchange(exchange, verbose=args.verbose).rstrip("\n") + "\n\n"
    request = resolved.request
    document = {
        "name": request.name,
        "line": request.line,
        "not_run": [{"kind": s.kind, "line": s.line, "text": s.text} for s in resolved.not_run],
        **orjson.loads(exchange_json(exchange)),
    }
    return json_visible(orjson.dumps(document)).decode("utf-8") + "\n"


def _bad_status(args: argparse.Namespace, request: HttpRequest, exchange: Exchange) -> bool:
    """With --check-status, a 4xx or 5xx answer is a failure (said on stderr)."""
    from explorer.cli.output import error_line

    response = exchange.response
    if not args.check_status or response.status < HTTPStatus.BAD_REQUEST:
        return False
    error_line(
        f"{request.title} answered {response.status} {response.reason} "
        "(a failure with --check-status)"
    )
    return True
