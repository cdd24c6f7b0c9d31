"""``restwalk``'s entry point: parse, run one command or the TUI, map failures to exit statuses.

Every failure is one line on stderr; no traceback ever reaches the user
(``RESTWALK_DEBUG=1`` lets one through, for developers).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence

from explorer.cli.commands import COMMANDS
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.lean_imports import libraries_on_first_use, without_httpx_cli
from explorer.cli.options import tui_defaults
from explorer.cli.settings import load_settings

__all__ = ["main"]


def _dispatch(argv: list[str]) -> ExitStatus:
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        from explorer.cli.tui import looks_like_a_command, open_tui, unknown_command

        if len(argv) <= 1 and not any(word.startswith("-") for word in argv):
            # The common start, ``restwalk [URL]``, needs no parser (argparse is
            # milliseconds of the first screen).
            return open_tui(tui_defaults(argv[0] if argv else None))
        from explorer.cli.leading_options import command_first
        from explorer.cli.parser import build_tui_parser

        tui_parser = build_tui_parser()
        moved = command_first(argv, tui_parser, COMMANDS)  # restwalk --config F request ...
        if moved is None:
            tui_args, extra = tui_parser.parse_known_args(argv)
            if extra:
                misplaced = _option_of_a_command(extra)
                if misplaced is not None:
                    raise misplaced
                if tui_args.url and looks_like_a_command(tui_args.url):
                    raise unknown_command(tui_args.url, one=False)
                raise UsageError(
                    f"unrecognized arguments: {' '.join(extra)} (see 'restwalk --help')"
                )
            return open_tui(tui_args)
        argv = moved
    from explorer.cli.commands import command_module
    from explorer.cli.parser import build_parser

    args, extra = build_parser().parse_known_args(argv)
    if args.command is None:
        raise UsageError("give a URL or a command (see 'restwalk --help')")
    if extra:
        raise UsageError(
            f"unrecognized arguments: {' '.join(extra)} (see 'restwalk {args.command} --help')"
        )
    warning = load_settings(args)
    if warning is not None:
        from explorer.cli.output import error_line

        error_line(f"warning: {warning}")
    return command_module(args.command).run(args)


def _option_of_a_command(extra: list[str]) -> UsageError | None:
    """The error for an option of the commands given to the TUI (``restwalk --follow
    customers URL``), which would otherwise read its value as an unknown command; None
    when no word of ``extra`` is one."""
    import argparse

    from explorer.cli.parser import build_parser

    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    commands: dict[str, argparse.ArgumentParser] = actions[0].choices if actions else {}
    for word in extra:
        option = word.partition("=")[0]
        if not option.startswith("-"):
            continue
        taking = [name for name, sub in commands.items() if option in sub._option_string_actions]
        if taking:
            first, *others = taking
            also = f" (and of {', '.join(others[:3])})" if others else ""
            return UsageError(
                f"{option} is an option of 'restwalk {first}'{also}, not of the TUI: it "
                f"comes after the command, as in 'restwalk {first} ... {option} ...' "
                f"(see 'restwalk {first} --help')"
            )
    return None


def _fail(message: str, status: ExitStatus) -> ExitStatus:
    from explorer.cli.output import error_line

    error_line(message)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``restwalk`` with ``argv`` (default: the process arguments); returns the exit status."""
    without_httpx_cli()
    libraries_on_first_use()
    from explorer.core.http.errors import InvalidRequest, RestwalkError

    args = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    try:
        return int(_dispatch(args))
    except SystemExit as exc:  # --help and --version exit through argparse
        return exc.code if isinstance(exc.code, int) else ExitStatus.OK
    except CommandError as exc:
        return _fail(str(exc), exc.status)
    except InvalidRequest as exc:
        return _fail(f"{exc.message} {exc.hint}", ExitStatus.USAGE)
    except RestwalkError as exc:
        return _fail(f"{exc.message} {exc.hint}", ExitStatus.FAILED)
    except KeyboardInterrupt:
        return _fail("interrupted", ExitStatus.INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (``restwalk links URL | head``): stop quietly.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitStatus.FAILED
    except Exception as exc:
        if os.environ.get("RESTWALK_DEBUG"):
            raise
        return _fail(f"internal error: {type(exc).__name__}: {exc}", ExitStatus.FAILED)
