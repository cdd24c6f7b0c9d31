"""What a map says beside its resources: which links wait, which got no answer, which
are no place in the API, and how a crawl ended: one reading for the CLI and the TUI.

The text tree of ``restwalk map`` (:mod:`explorer.core.survey.render_map`) and the
TUI's map screen read the same :class:`MapSummary` of an
:class:`~explorer.core.session.api_map.ApiMap`, so both put a link in the same
group: not followed yet (never asked), no answer (asked, and why it failed), or
not http(s) (``javascript:``, ``file:``: listed, never followed). They end a
crawl with the same words (:func:`crawl_ending`), which say every safe link was
followed only when each one answered. The map and the audit count pages and
resources the same way (:func:`map_counts`): of the map, whatever crawl filled it.
Server text stays as it came: the caller shows it through
:mod:`explorer.core.text.terminal_text`. No I/O here.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.session.api_map import ApiMap
from explorer.core.survey.crawl import CrawlResult
from explorer.core.text.plural import counted

__all__ = [
    "SHOWN",
    "MapCounts",
    "MapSummary",
    "NoAnswer",
    "crawl_ending",
    "map_counts",
    "not_followed",
    "summarize",
]

#: Links listed per group (per relation, no answer, not http(s)) before "and N more".
SHOWN = 50


@dataclass(frozen=True)
class NoAnswer:
    """A URL asked that got no answer, and why."""

    url: str
    #: The error's one line (``No answer within the 15 s…``).
    reason: str
    #: The link that led there (or one to the URL itself, for an entry): what asking
    #: again follows.
    link: Link


@dataclass(frozen=True)
class MapSummary:
    """The links of a map, each in one group, and how many pages answered."""

    #: URLs answered.
    visited: int
    #: Links to URLs never asked, and templates waiting for values, by relation.
    unfollowed: dict[str, list[Link]]
    #: URLs asked that got no answer (none since), in the order they were met.
    no_answer: tuple[NoAnswer, ...]
    #: Links that are not http(s), once each, in the order met.
    not_http: tuple[Link, ...]

    @property
    def waiting(self) -> int:
        """Links not followed yet."""
        return sum(len(links) for links in self.unfollowed.values())

    def counts(self) -> str:
        """One line of counts: ``5 pages visited, 3 links not followed yet, 5 with no
        answer, 2 not http(s)`` (the last two only when there are some)."""
        parts = [
            f"{counted(self.visited, 'page')} visited",
            f"{counted(self.waiting, 'link')} not followed yet",
        ]
        if self.no_answer:
            parts.append(f"{len(self.no_answer)} with no answer")
        if self.not_http:
            parts.append(f"{len(self.not_http)} not http(s)")
        return ", ".join(parts)


@dataclass(frozen=True)
class MapCounts:
    """How much a map holds: the counts ``restwalk map``, ``restwalk audit`` and the TUI's
    map screen all give, so that they agree for one crawl."""

    #: URLs answered.
    pages: int
    #: Resources (URLs folded by template), on every origin.
    resources: int
    #: Resources on the API's own origin (the entry's).
    of_api: int
    #: Resources with at least one URL answered.
    answered: int

    def resources_line(self) -> str:
        """``7 resources (5 of the API, 5 answered)``; ``4 resources (2 answered)`` when
        every one is the API's."""
        of_api = f"{self.of_api} of the API, " if self.of_api != self.resources else ""
        return f"{counted(self.resources, 'resource')} ({of_api}{self.answered} answered)"


def map_counts(api_map: ApiMap, entry: str) -> MapCounts:
    """The counts of ``api_map``, its API being ``entry``'s origin."""
    resources = api_map.resources()
    origin = origin_of(entry)
    return MapCounts(
        pages=api_map.visited_count,
        resources=len(resources),
        of_api=sum(1 for resource in resources if resource.origin == origin),
        answered=sum(1 for resource in resources if resource.visited),
    )


def summarize(api_map: ApiMap) -> MapSummary:
    """The groups of ``api_map``'s links, as both the CLI and the TUI show them."""
    no_answer = tuple(
        NoAnswer(record.url, record.failure, record.link or Link("map", record.url))
        for record in api_map.urls.values()
        if record.failure is not None and not record.visited
    )
    return MapSummary(
        visited=api_map.visited_count,
        unfollowed=api_map.unfollowed(),
        no_answer=no_answer,
        not_http=tuple(api_map.not_http.values()),
    )


def crawl_ending(result: CrawlResult) -> str:
    """How a crawl ended, as a clause without its period: stopped at a bound, every safe
    link followed, or every one asked with how many got no answer."""
    failed = len(result.failures)
    if result.stopped:
        text = f"stopped at {result.stopped}: links were left to follow"
    elif failed:
        text = "every safe link within the bounds was asked for"
    else:
        text = "every safe link within the bounds was followed"
    if failed:
        text += f"; {counted(failed, 'request')} got no answer"
    return text


def not_followed(result: CrawlResult) -> str | None:
    """The links the crawl refused, by reason (``Not followed: 2 (not http(s))``), or
    None when it refused none."""
    if not result.skipped:
        return None
    reasons = ", ".join(f"{count} ({why})" for why, count in result.skipped.most_common())
    return f"Not followed: {reasons}"
