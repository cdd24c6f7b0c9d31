"""``{{name}}`` in a URL, a header or a body, replaced by its value.

Where a name's value comes from, first match wins:

1. ``--var NAME=VALUE`` given on the command line;
2. the chosen environment (``http-client.private.env.json`` over
   ``http-client.env.json``, each over its ``$shared`` environment), as the
   JetBrains client ranks environment variables over the file's own;
3. the file's variables, ``@name = value`` (a value may use other variables);
4. the ``.env`` file beside the ``.http`` file.

A name found nowhere is an error (:class:`UndefinedVariable`), never an empty
string. ``{{%name}}`` is the value percent-encoded (VS Code); ``{{$...}}`` are
system variables: those of :mod:`.system_variables`, plus ``$processEnv NAME``
and ``$env.NAME`` (the process environment), ``$dotenv NAME`` and ``$shared
NAME``; ``$processEnv %name`` and ``$dotenv %name`` look up the variable whose
name is ``name``'s value; ``$auth.token("id")`` and ``$auth.idToken("id")`` are the
tokens of an OAuth 2.0 login of the environment (:mod:`.auth_configs`), got by the
run before it resolves the request. ``{{login.response.body.$.token}}`` reads an
earlier response of the same run (:mod:`.request_variables`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import quote

from explorer.core.httpfile.auth_configs import auth_reference, auth_value_key
from explorer.core.httpfile.errors import BadVariable, UndefinedVariable
from explorer.core.httpfile.system_variables import system_value

__all__ = [
    "REFERENCE",
    "Lookup",
    "ResponseValues",
    "VariableSources",
    "references",
    "substitute",
]

#: ``{{ ... }}`` on one line.
REFERENCE = re.compile(r"\{\{(.*?)\}\}")
_NAME = re.compile(r"^[\w.-]+$")
_REQUEST_VARIABLE = re.compile(r"^([\w-]+)\.(request|response)\.(body|headers)\.(.+)$")
#: How deep variables may refer to variables (a loop is caught before this).
_MAX_DEPTH = 32


class Lookup(Protocol):
    """Where a ``{{$...}}`` variable's value is found by name: a mapping, or the process
    environment each look-up of which is checked (:mod:`.local_reads`)."""

    def get(self, name: str, /) -> str | None:
        """The value of ``name``, None when it has none."""
        ...


class ResponseValues(Protocol):
    """What the run has received so far, for request variables."""

    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        """The value of ``{{name.part.kind.path}}``, None if ``name`` has not run."""
        ...


@dataclass(frozen=True)
class VariableSources:
    """Every place a variable's value may come from (see the module docstring)."""

    given: Mapping[str, str] = field(default_factory=dict)
    environment: Mapping[str, str] = field(default_factory=dict)
    shared: Mapping[str, str] = field(default_factory=dict)
    file: Mapping[str, str] = field(default_factory=dict)
    dotenv: Mapping[str, str] = field(default_factory=dict)
    #: The process environment (``$processEnv``, ``$env.NAME``).
    process: Lookup = field(default_factory=dict[str, str])
    responses: ResponseValues | None = None
    #: The tokens of the environment's OAuth 2.0 logins (``token:id``, ``idToken:id``).
    auth: Lookup = field(default_factory=dict[str, str])

    def named(self, name: str) -> str | None:
        """The raw value of ``name`` (before its own variables are substituted)."""
        for source in (self.given, self.environment, self.file, self.dotenv):
            if name in source:
                return source[name]
        return None


def references(text: str) -> list[str]:
    """What is between the braces of each ``{{...}}`` in ``text``, stripped."""
    return [match.group(1).strip() for match in REFERENCE.finditer(text)]


def substitute(text: str, sources: VariableSources) -> str:
    """``text`` with every ``{{...}}`` replaced by its value.

    Raises :class:`UndefinedVariable` for a name with no value, and
    :class:`BadVariable` for a system variable restwalk does not know or
    cannot use as written.
    """
    return _Substitution(sources).text(text, ())


class _Substitution:
    def __init__(self, sources: VariableSources) -> None:
        self.sources = sources

    def text(self, text: str, stack: tuple[str, ...]) -> str:
        if "{{" not in text:
            return text
        return REFERENCE.sub(lambda match: self.reference(match.group(1).strip(), stack), text)

    def reference(self, reference: str, stack: tuple[str, ...]) -> str:
        encode = reference.startswith("%")
        if encode:
            reference = reference[1:].strip()
        value = self.system(reference, stack) if reference.startswith("$") else None
        if value is None:
            value = self.name(reference, stack)
        return quote(value, safe="!~*'()") if encode else value

    def name(self, name: str, stack: tuple[str, ...]) -> str:
        raw = self.sources.named(name)
        if raw is None:
            found = self.request_variable(name)
            if found is not None:
                return found
            if not _NAME.match(name):
                raise BadVariable(
                    f"{{{{{name}}}}} is not a variable name (letters, digits, _ - .)."
                )
            raise UndefinedVariable(f"{{{{{name}}}}} is not defined", name=name)
        if name in stack:
            loop = " → ".join((*stack[stack.index(name) :], name))
            raise BadVariable(f"The variable {name!r} refers to itself: {loop}.")
        if len(stack) >= _MAX_DEPTH:
            raise BadVariable(f"The variable {name!r} refers to variables {_MAX_DEPTH} deep.")
        return self.text(raw, (*stack, name))

    def request_variable(self, name: str) -> str | None:
        match = _REQUEST_VARIABLE.match(name)
        responses = self.sources.responses
        if match is None or responses is None:
            return None
        request, part, kind, path = match.groups()
        return responses.value(request, part, kind, path)

    def lookup(self, name: str, stack: tuple[str, ...]) -> str:
        """``%name``: the value of the variable ``name``; else ``name`` itself."""
        return self.name(name[1:], stack) if name.startswith("%") else name

    def system(self, reference: str, stack: tuple[str, ...]) -> str:
        head, _, rest = reference.partition(" ")
        argument = rest.strip()
        if head == "$processEnv" or head.startswith("$env."):
            name = self.lookup(argument, stack) if head == "$processEnv" else head[5:]
            return self.mapped(self.sources.process, name, reference, "the environment")
        if head == "$dotenv":
            name = self.lookup(argument, stack)
            return self.mapped(self.sources.dotenv, name, reference, "the .env file")
        if head == "$shared":
            return self.mapped(self.sources.shared, argument, reference, "$shared")
        login = auth_reference(reference)
        if login is not None:
            value = self.sources.auth.get(auth_value_key(login))
            if value is None:
                raise UndefinedVariable(
                    f"{{{{{reference}}}}}: no token (the environment has no Security.Auth "
                    f"login {login[1]!r}, or it is not logged in)",
                    name=reference,
                )
            return value
        value = system_value(reference)
        if value is None:
            raise BadVariable(
                f"{{{{{reference}}}}} is not a system variable restwalk provides "
                "($uuid, $timestamp, $datetime, $randomInt, $random.*, $processEnv, "
                "$env.NAME, $dotenv...)."
            )
        return value

    def mapped(self, values: Lookup, name: str, reference: str, where: str) -> str:
        if not name:
            raise BadVariable(f"{{{{{reference}}}}} needs a variable name.")
        value = values.get(name)
        if value is None:
            raise UndefinedVariable(f"{{{{{reference}}}}}: {name} is not set in {where}", name=name)
        return value
