"""Reading an OpenAPI document: JSON or YAML, its ``$ref``\\ s followed across local files.

:func:`load` reads the file named on the command line; a ``$ref`` to another
file (``schemas/pet.yaml#/Pet``) is read relative to the file that holds it,
once, and resolved by its JSON pointer (RFC 6901). Only local files are
followed: a ``$ref`` to an ``http(s)`` URL is refused at start, since the
mock must serve the same answers offline. Every problem is a
:class:`DocumentError` whose message is one line: file, place, reason.

YAML is read without its timestamp rule (an unquoted ``2024-01-01`` stays the
string it is in JSON) and mapping keys become strings (a ``200:`` response
key is ``"200"``), so a YAML document means what its JSON twin means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag

import orjson

YAML_SUFFIXES = (".yaml", ".yml")
#: The largest file read (a document, or a file it refers to).
MAX_FILE_BYTES = 32 * 1024 * 1024
#: The OpenAPI versions served: 3.0.x and 3.1.x.
SUPPORTED = ("3.0", "3.1")


class DocumentError(ValueError):
    """The document cannot be served; the message says where and why, on one line."""


@dataclass(frozen=True)
class Located:
    """A node of the document and the file it was read from (its ``$ref``\\ s are relative
    to that file)."""

    node: Any
    file: Path


@dataclass
class Document:
    """A loaded OpenAPI document: the root, and every file its ``$ref``\\ s reach."""

    path: Path
    root: dict[str, Any]
    files: dict[Path, Any] = field(default_factory=dict)

    @property
    def version(self) -> str:
        """``3.0`` or ``3.1``: the OpenAPI version, without its patch number."""
        return str(self.root["openapi"])[:3]

    @property
    def base(self) -> Path:
        """The document's own file, absolute: what its local ``$ref``\\ s are relative to."""
        return self.path.resolve()

    def located(self, node: Any) -> Located:
        """A node of the root file, ready to :meth:`resolve`."""
        return Located(node, self.base)

    @property
    def title(self) -> str:
        """The document's ``info.title`` (what a 401 challenge names as its realm)."""
        info = self.root.get("info")
        title = info.get("title") if isinstance(info, dict) else None
        return title if isinstance(title, str) and title else self.path.name

    def resolve(self, located: Located) -> Located:
        """``located`` with its ``$ref`` chain followed (itself when it is no reference)."""
        seen: set[tuple[Path, str]] = set()
        while isinstance(located.node, dict) and isinstance(located.node.get("$ref"), str):
            target = self.target(located.node["$ref"], located.file)
            key = (target.file, located.node["$ref"])
            if key in seen:
                raise DocumentError(f"{located.file}: $ref {located.node['$ref']} refers to itself")
            seen.add(key)
            located = target
        return located

    def target(self, ref: str, base: Path) -> Located:
        """What ``ref`` (relative to the file ``base``) points at."""
        address, pointer = urldefrag(ref)
        if address.startswith(("http://", "https://", "//")):
            raise DocumentError(
                f"{base}: $ref {ref} is remote; only local files are followed "
                "(download it beside the document and refer to it by path)"
            )
        file = base if not address else (base.parent / unquote(address)).resolve()
        if file not in self.files:
            self.files[file] = _read(file)
        return Located(_walk(self.files[file], pointer, file, ref), file)

    def ref_key(self, ref: str, base: Path) -> tuple[Path, str]:
        """A key naming the target of ``ref`` wherever it is written from."""
        address, pointer = urldefrag(ref)
        file = base if not address else (base.parent / unquote(address)).resolve()
        return file, pointer


def _walk(root: Any, pointer: str, file: Path, ref: str) -> Any:
    """The node at JSON ``pointer`` (RFC 6901, percent-decoded as a URI fragment)."""
    node = root
    if not pointer:
        return node
    if not pointer.startswith("/"):
        raise DocumentError(f"{file}: $ref {ref}: the fragment is not a JSON pointer")
    for raw in pointer[1:].split("/"):
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise DocumentError(f"{file}: $ref {ref}: nothing at {pointer}")
    return node


def _yaml_loader() -> Any:
    """PyYAML's safe loader (the C one when built), without the timestamp rule."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc,valid-type]
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    return Loader


def _string_keys(node: Any) -> Any:
    """``node`` with every mapping key a string (YAML reads ``200:`` as a number)."""
    if isinstance(node, dict):
        return {str(key): _string_keys(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_string_keys(value) for value in node]
    return node


def _parse(file: Path, data: bytes) -> Any:
    if file.suffix.lower() not in YAML_SUFFIXES:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as error:
            if file.suffix.lower() == ".json":
                raise DocumentError(f"{file}:{error.lineno}:{error.colno}: {error.msg}") from None
    try:
        import yaml
    except ImportError:
        raise DocumentError(
            f"{file}: reading YAML needs PyYAML: pip install 'restwalk[yaml]'"
        ) from None
    try:
        return _string_keys(yaml.load(data, Loader=_yaml_loader()))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else "1:1"
        raise DocumentError(f"{file}:{where}: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise DocumentError(f"{file}: {str(error).splitlines()[0]}") from None


def _read(file: Path) -> Any:
    try:
        with file.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise DocumentError(f"{file}: no such file") from None
    except OSError as error:
        raise DocumentError(f"{file}: cannot read it: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise DocumentError(f"{file}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    return _parse(file, data)


def load(path: Path) -> Document:
    """The OpenAPI 3.0 or 3.1 document at ``path``; :class:`DocumentError` if it is not one."""
    file = path.resolve()
    root = _read(file)
    if not isinstance(root, dict):
        raise DocumentError(f"{path}: not an OpenAPI document (no mapping at the top)")
    version = root.get("openapi")
    if not isinstance(version, str):
        hint = " (Swagger 2.0: convert it to OpenAPI 3 first)" if "swagger" in root else ""
        raise DocumentError(f"{path}: no openapi version field{hint}")
    if version[:3] not in SUPPORTED:
        raise DocumentError(f"{path}: OpenAPI {version} is not served; 3.0 and 3.1 are")
    if not isinstance(root.get("paths", {}), dict):
        raise DocumentError(f"{path}: paths is not a mapping")
    if "paths" not in root:
        # OpenAPI 3.0 requires paths; 3.1 lets a document hold only webhooks or
        # components, which a mock has nothing to answer with. (A missing info, which
        # both require, is let through, as Prism does: it changes nothing served.)
        raise DocumentError(f"{path}: no paths: nothing to serve")
    return Document(path=path, root=root, files={file: root})
