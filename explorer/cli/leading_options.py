"""Options given before a subcommand: ``restwalk --config F request GET URL``.

The options ``restwalk [OPTIONS] [URL]`` takes (``--config``, ``-k``, ``--proxy``,
``--timeout``...) may also come before a subcommand's name, as git's and docker's
global options do. They are moved after the name, where the subcommand's own
parser reads them, or says in one line that it takes no such option
(``restwalk -k explain 418``).
"""

from __future__ import annotations

import argparse
from collections.abc import Collection

__all__ = ["command_first"]

#: Options that are answered before anything runs: left where they are.
_ANSWERED_AT_ONCE = frozenset({"-h", "--help", "--version"})


def _options_with_a_value(parser: argparse.ArgumentParser) -> frozenset[str]:
    """The option strings of ``parser`` that take a value (``--config FILE``)."""
    # argparse has no public list of a parser's options; ``_actions`` is what its
    # own help formatter reads.
    return frozenset(
        option
        for action in parser._actions
        if action.nargs != 0
        for option in action.option_strings
    )


def command_first(
    argv: list[str], parser: argparse.ArgumentParser, commands: Collection[str]
) -> list[str] | None:
    """``argv`` with the options before its subcommand moved after the subcommand's name.

    ``parser`` is the one that knows the leading options (the TUI's), so that
    ``--config FILE`` is read as an option and its value; an option it does not
    know is taken for a flag. Returns None when the leading options are not
    followed by one of ``commands`` (``restwalk -k URL`` opens the TUI).
    """
    with_value = _options_with_a_value(parser)
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "-" or not word.startswith("-"):
            break
        if word == "--" or word in _ANSWERED_AT_ONCE:
            return None
        index += 1
        if "=" not in word and word in with_value:
            index += 1  # its value
    if index == 0 or index >= len(argv) or argv[index] not in commands:
        return None
    return [argv[index], *argv[:index], *argv[index + 1 :]]
