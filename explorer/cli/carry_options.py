"""``restwalk request``'s options that carry a request in or out of another tool.

``--from-curl 'curl ...'`` builds the request from a curl command line (the
other options then override it or add to it: ``-H`` adds a header, ``-d`` or
``-F`` replaces the body, ``--user`` or ``--bearer`` the credential, METHOD and
URL their own); ``--as curl|httpie`` prints the request in that tool's syntax
instead of sending it. (``-F``, a multipart form as curl's ``-F`` reads it, is one
of every command's options: :func:`explorer.cli.options.form_parts`.)
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.errors import UsageError
from explorer.cli.options import connection_settings
from explorer.cli.settings import settings_of

if TYPE_CHECKING:
    import argparse

    from explorer.core.carry.curl import CurlCommand, CurlOptions
    from explorer.core.http.request import RequestSpec

__all__ = ["curl_command", "export_options", "exported", "with_curl"]


def curl_command(text: str) -> CurlCommand:
    """The curl line of ``--from-curl``: variables from the environment; what restwalk
    cannot do of it is bad usage, named in one line."""
    from explorer.core.carry.curl import parse_curl

    command = parse_curl(text, env=os.environ)
    if command.problem is not None:
        raise UsageError(f"--from-curl: {command.problem}")
    return command


def with_curl(args: argparse.Namespace, command: CurlCommand) -> None:
    """Put the curl line's connection options on ``args`` where the command line says nothing.

    curl follows no redirect without ``-L``: neither does the request it describes.
    """
    options = command.options
    if options.insecure and not args.insecure:
        args.insecure, args.insecure_from = True, "-k in --from-curl"
    if not options.location:
        args.no_redirects = True
    if args.max_time is None and options.max_time is not None:
        args.max_time = options.max_time
    if args.max_redirects is None and options.max_redirs is not None:
        args.max_redirects = options.max_redirs
    if args.proxy is None and options.proxy is not None:
        args.proxy = options.proxy
    if args.cacert is None and options.cacert is not None:
        args.cacert = options.cacert
    args.http2 = args.http2 or options.http2
    args.http2_prior_knowledge = args.http2_prior_knowledge or options.http2_prior_knowledge


def merged(base: RequestSpec, given: RequestSpec, args: argparse.Namespace) -> RequestSpec:
    """The curl line's request, with what the other options said put over it."""
    spec = base
    if args.method:
        spec = replace(spec, method=given.method)
    if args.url:
        spec = replace(spec, url=given.url)
    if given.headers:
        names = {name.lower() for name, _ in given.headers}
        kept = tuple((k, v) for k, v in spec.headers if k.lower() not in names)
        spec = replace(spec, headers=kept + given.headers)
    if given.has_body:
        spec = replace(
            spec,
            body=given.body,
            body_file=given.body_file,
            form=given.form,
            content_type=given.content_type,
        )
    if given.auth is not None:
        spec = replace(spec, auth=given.auth)
    if given.api_version is not None:
        spec = replace(
            spec,
            api_version=given.api_version,
            version_style=given.version_style,
            version_name=given.version_name,
            base_path=given.base_path,
        )
    return spec


def export_options(args: argparse.Namespace) -> CurlOptions:
    """The connection of ``args`` (and config.toml), as another tool's options say it."""
    from explorer.core.carry.tool_options import tool_options

    cacert = args.cacert or settings_of(args).connection.ca_bundle
    return tool_options(connection_settings(args, load_ca=False), cacert=cacert)


def exported(args: argparse.Namespace, spec: RequestSpec) -> str:
    """``spec`` written as ``--as`` asks (curl, httpie, or http: a ``.http`` file's text);
    what the format cannot say of the connection goes to stderr as a note."""
    from explorer.cli.output import error_line
    from explorer.core.carry import export_request, protocol_note

    options = export_options(args)
    note = protocol_note(args.export, options)
    if note is not None:
        error_line(f"note: {note}")
    return export_request(spec, args.export, options)
