"""The REST audit: how well an API keeps the constraints the spec describes, in figures.

:func:`run_audit` maps the API (:func:`~explorer.core.survey.crawl.crawl`,
with most of the time allowed), sends the safe probes
(:mod:`~explorer.core.survey.audit_probes`) with the rest, reads the API's
description when it links one (``rel="service-desc"``), and measures five
constraints (:mod:`~explorer.core.survey.audit_figures`): hypermedia, the
uniform interface, cacheability, statelessness and error bodies; it also says
which versioning style the API uses (:mod:`~explorer.core.survey.versioning`).

Each constraint scores the mean of its figures' shares; the audit's score is
the mean of the constraints', and its grade a letter (A: 90 % and more, B: 75,
C: 60, D: 40, else F). The Richardson maturity level says the same in the
field's words, step by step (:mod:`~explorer.core.survey.richardson`): 0 one
endpoint, 1 resources, 2 HTTP's methods and statuses used as meant (the uniform
interface scores half or more), 3 hypermedia too (links the API writes, half or more).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link_kinds import normal_url
from explorer.core.session.api_map import ApiMap
from explorer.core.survey.audit_figures import (
    Constraint,
    cacheability,
    error_bodies,
    statelessness,
    uniform_interface,
)
from explorer.core.survey.audit_hypermedia import hypermedia
from explorer.core.survey.audit_probes import MAX_SAMPLES, Probes, probe
from explorer.core.survey.crawl import (
    CrawlLimits,
    CrawlResult,
    Visit,
    crawl,
    polite_sender,
    same_origin_spec,
)
from explorer.core.survey.description import Description, read_description
from explorer.core.survey.polite import Clock, OutOfTime, PoliteSender, Send, Sleep
from explorer.core.survey.richardson import LevelStep, level_of, level_steps
from explorer.core.survey.versioning import Versioning, versioning_of

__all__ = ["CRAWL_SHARE", "Audit", "grade_of", "measure", "run_audit"]

#: The share of the time limit the audit's crawl may use; the probes get the rest.
CRAWL_SHARE = 0.7
_GRADES = ((0.9, "A"), (0.75, "B"), (0.6, "C"), (0.4, "D"))


@dataclass(frozen=True)
class Audit:
    """The audit of one API: its constraints' figures, versioning, score, grade, level."""

    entry: str
    constraints: tuple[Constraint, ...]
    versioning: Versioning
    score: float | None
    grade: str
    level: int
    crawl: CrawlResult
    probes: Probes
    #: Where the description came from, and how many GET paths it lists.
    description: tuple[str, int] | None = None
    #: Requests the probes (and the description) took, besides the crawl's.
    probe_requests: int = 0
    seconds: float = 0.0
    #: The Richardson model's steps: what was seen and what is missing for each.
    steps: tuple[LevelStep, ...] = ()

    @property
    def requests(self) -> int:
        """Requests sent in all: the crawl's and the probes'."""
        return self.crawl.requests + self.probe_requests


def grade_of(score: float | None) -> str:
    """The letter of a score between 0 and 1 (``?`` when nothing was measured)."""
    if score is None:
        return "?"
    return next((letter for bound, letter in _GRADES if score >= bound), "F")


def measure(
    result: CrawlResult,
    probes: Probes,
    described: Description | None = None,
    description_url: str | None = None,
) -> Audit:
    """The audit's figures from a crawl and its probes (pure: no request is sent)."""
    resources = result.api_map.resources()
    constraints = (
        hypermedia(result, resources, described.paths if described else None),
        uniform_interface(result, probes),
        cacheability(result, probes),
        statelessness(result, probes),
        error_bodies(result, probes),
    )
    scores = [c.score for c in constraints if c.score is not None]
    # Without one answer from the API there is nothing to grade (the probes alone
    # would grade a server that answered nothing).
    score = sum(scores) / len(scores) if scores and result.visits else None
    steps = level_steps(constraints, result)
    return Audit(
        entry=result.entry,
        constraints=constraints,
        versioning=versioning_of(result, described),
        score=score,
        grade=grade_of(score),
        level=level_of(steps),
        crawl=result,
        probes=probes,
        description=(
            (description_url, len(described.paths))
            if description_url and described and described.paths
            else None
        ),
        steps=steps,
    )


async def run_audit(
    entry: str,
    send: Send,
    *,
    limits: CrawlLimits | None = None,
    base: RequestSpec | None = None,
    without_cookies: Send | None = None,
    max_samples: int = MAX_SAMPLES,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
    on_visit: Callable[[Visit], None] | None = None,
    api_map: ApiMap | None = None,
) -> Audit:
    """Crawl from ``entry``, probe, and measure (see the module docstring).

    ``limits.time_limit`` bounds the whole audit: the crawl gets
    :data:`CRAWL_SHARE` of it. ``without_cookies`` sends a request leaving the
    cookie jar out (the statelessness probe); ``api_map`` (the TUI session's) takes
    in what the crawl meets. Never raises for what the server does.
    """
    limits = limits or CrawlLimits()
    base = base or RequestSpec()
    started = clock()
    sender = polite_sender(send, limits, clock=clock, sleep=sleep)
    crawl_limits = replace(limits, time_limit=limits.time_limit * CRAWL_SHARE)
    result = await crawl(
        entry,
        send,
        limits=crawl_limits,
        base=base,
        on_visit=on_visit,
        sender=sender,
        api_map=api_map,
    )
    sent = sender.sent
    probes = await probe(
        result, sender, base, without_cookies=without_cookies, max_samples=max_samples
    )
    description_url, described = await _description(result, sender, base)
    audit = measure(result, probes, described, description_url)
    return replace(audit, probe_requests=sender.sent - sent, seconds=clock() - started)


async def _description(
    result: CrawlResult, sender: PoliteSender, base: RequestSpec
) -> tuple[str | None, Description | None]:
    """The API's description, when a ``service-desc`` link leads to an OpenAPI document."""
    for record in result.api_map.urls.values():
        if "service-desc" not in record.rels:
            continue
        url = normal_url(record.url)
        try:
            exchange = await sender.send(same_origin_spec(base, url, result.entry))
        except (RestwalkError, OutOfTime):
            return None, None
        return url, read_description(exchange.response.body)
    return None, None
