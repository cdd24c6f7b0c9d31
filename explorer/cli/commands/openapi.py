"""``restwalk openapi URL|FILE [--json]``: the operations an OpenAPI 3 document describes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import answered, run_printing
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.carry.openapi import ApiDescription, Operation
    from explorer.core.hypermedia.link import Link

__all__ = ["add_parser", "run"]


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk openapi``'s parser."""
    openapi = commands.add_parser(
        "openapi",
        prog="restwalk openapi",
        parents=[shared],
        help="list the operations of an OpenAPI 3 document",
        description=paragraphs(
            "List the operations an OpenAPI 3.0 or 3.1 document describes: method, path, "
            "summary, operationId, parameters (with an example value), the request body's "
            "media type and the security schemes. SOURCE is a file (JSON, or YAML with "
            "restwalk[yaml]) or a URL: the document itself, or a page that links to it "
            'with rel="service-desc", or any page of an API whose root links to it; '
            "when nothing links to one, where frameworks serve it: openapi.json under the "
            "page's first folders, /openapi.json (FastAPI), /v3/api-docs (springdoc), "
            "/swagger/v1/swagger.json (ASP.NET), /schema/openapi.json (Litestar), "
            "/api/schema/ (drf-spectacular), /swagger.json.",
        ),
        epilog=paragraphs(
            "exit codes: 0 listed, 1 the request failed, 2 bad usage or not an OpenAPI 3 document."
        ),
        formatter_class=formatter,
    )
    openapi.add_argument("url", metavar="SOURCE", help="a URL or a file")
    openapi.add_argument(
        "--json", action="store_true", help="one JSON object per operation and line"
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk openapi``."""
    from pathlib import Path

    source = args.url
    looks_like_a_file = source.startswith(("/", ".", "~")) or source.endswith(
        (".json", ".yaml", ".yml")
    )
    if "://" not in source and looks_like_a_file and not Path(source).expanduser().exists():
        raise UsageError(f"{source}: no such file")
    if "://" not in source and Path(source).expanduser().exists():
        description = _from_file(Path(source).expanduser())
        from explorer.cli.output import write_out

        write_out("\n".join(_lines(description, args.json)) + "\n")
        return ExitStatus.OK
    return run_printing(_from_url, args)


def _from_file(path: object) -> ApiDescription:
    from pathlib import Path

    from explorer.core.carry.openapi import OpenApiError, describe, read_document
    from explorer.core.carry.openapi_source import MAX_DOCUMENT

    assert isinstance(path, Path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_DOCUMENT + 1)
    except OSError as exc:
        raise UsageError(f"{path} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_DOCUMENT:
        raise UsageError(f"{path} is larger than {MAX_DOCUMENT // 1_000_000} MB")
    try:
        return describe(read_document(data, name=str(path)))
    except OpenApiError as problem:
        if path.suffix.lower() not in (".http", ".rest"):
            raise
        raise OpenApiError(
            problem.message, hint=f"'restwalk run {path}' sends its requests."
        ) from None


async def _from_url(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """The description the URL answers with, or the one its answer or its server's root
    links to: found and read by the tab, as the TUI's ``O`` finds it."""
    from dataclasses import replace

    from explorer.core.carry.openapi import OpenApiError
    from explorer.core.carry.openapi_source import DOCUMENT_ACCEPT
    from explorer.core.session.tab import Tab

    spec = spec_from(args)
    if not any(name.lower() == "accept" for name, _ in spec.headers):
        spec = replace(spec, headers=(*spec.headers, ("Accept", DOCUMENT_ACCEPT)))
    async with client_from(args) as client:
        tab = Tab(client, given=spec)
        page = await tab.load(spec)
        answered(page)
        try:
            description = await tab.fetch_description(
                page.url, page, itself=True, found=_say_guessed
            )
        except OpenApiError as problem:  # asked and answered, none found: as --follow's miss
            raise CommandError(f"{problem.message} {problem.hint}".rstrip()) from None
    assert description is not None  # (an answer that is none raises instead)
    out.extend(_lines(description, args.json))
    return ExitStatus.OK


def _say_guessed(link: Link) -> None:
    """Say on stderr where a description nothing links to was found (a linked one is
    where the person pointed)."""
    if link.guess:
        from explorer.cli.output import error_line

        error_line(f"note: the description is at {link.href} (guessed: nothing links to it)")


def _lines(description: ApiDescription, as_json: bool) -> list[str]:
    from explorer.core.text.terminal_text import visible_line

    if as_json:
        return [_json(description, operation) for operation in description.operations]
    head = f"{description.title} {description.version} (OpenAPI {description.openapi})"
    lines = [visible_line(head)]
    lines += [visible_line(f"server: {server}") for server in description.servers]
    for operation in description.operations:
        lines.extend(_operation_lines(operation))
    return lines


def _operation_lines(operation: Operation) -> list[str]:
    from explorer.core.text.terminal_text import visible_line

    title = f"{operation.method:<7} {operation.path}"
    if operation.summary:
        title += f"  {operation.summary}"
    if operation.operation_id:
        title += f"  [{operation.operation_id}]"
    if operation.deprecated:
        title += "  (deprecated)"
    lines = [title]
    for parameter in operation.parameters:
        need = "required" if parameter.required else "optional"
        example = f" e.g. {parameter.example}" if parameter.example is not None else ""
        lines.append(f"    {parameter.location} {parameter.name} ({need}){example}")
    if operation.body_media_type:
        lines.append(f"    body {operation.body_media_type}")
    if operation.security:
        lines.append("    security " + ", ".join(s.label for s in operation.security))
    return [visible_line(line) for line in lines]


def _json(description: ApiDescription, operation: Operation) -> str:
    from dataclasses import asdict

    import orjson

    from explorer.core.text.terminal_text import json_visible

    document = asdict(operation)
    document["servers"] = list(description.servers)
    return json_visible(orjson.dumps(document)).decode("utf-8")
