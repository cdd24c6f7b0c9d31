"""The API version a person asks every request to a server for, and how it is asked."""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.core.http.api_version import DEFAULT_VERSION_NAMES, Version, VersionStyle
from explorer.core.http.request import RequestSpec

__all__ = ["VersionChoice"]


@dataclass(frozen=True)
class VersionChoice:
    """The version to ask for (None: none), the style, and its form (empty: the spec's).

    ``name`` is the query parameter (``api-version``), the header (``Accept-Version``,
    or ``Custom-Header: api-version={version}``) or the media type
    (``application/vnd.example+json; version={version}``) that carries the number.
    """

    version: Version | None
    style: VersionStyle
    name: str = ""
    #: For ``uri``: the path before the version segment (``/api``).
    base_path: str = ""

    @property
    def active(self) -> bool:
        """True when a version is asked for."""
        return self.version is not None and self.style != "none"

    @property
    def form(self) -> str:
        """The form in use: ``name``, or the spec's default for the style."""
        return self.name or DEFAULT_VERSION_NAMES.get(self.style, "")

    @property
    def label(self) -> str:
        """``v2 (header)``, or empty when no version is asked for."""
        if not self.active:
            return ""
        return f"v{self.version} ({self.style})"

    def asked_in(self, spec: RequestSpec) -> RequestSpec:
        """``spec`` asking for this version, this way."""
        return replace(
            spec,
            api_version=self.version,
            version_style=self.style,
            version_name=self.name,
            base_path=self.base_path,
        )
