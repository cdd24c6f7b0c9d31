"""The audit's probing requests: safe ones only, sent after the crawl to a few resources.

A crawl only GETs. To see how an API keeps the uniform interface, caching and
statelessness, the audit asks a few more questions, each with a request that
cannot change anything:

================  =================================================================
``HEAD``          each sampled URL: is it the GET's answer without its body?
``GET``           conditional (``If-None-Match`` with the ETag, or
                  ``If-Modified-Since`` with Last-Modified): is it a 304?
``GET``           with another ``Accept`` (``application/xml``, then ``text/html``):
                  is the content negotiated, and does the answer say ``Vary``?
``GET``           without the cookie jar, when the crawl met cookies: does the
                  answer change (state on the server, named by a cookie)?
``GET``           a path no API has (:data:`MISSING_PATH`): the error body's shape
``RESTWALK-PROBE``  a made-up method token, no body, to the entry and one resource:
                  RFC 9110 §15.6.2 asks a 501 for a method the server does not
                  recognise (405, with ``Allow``, is for one it knows but the
                  resource does not allow). No server defines it, so it does nothing.
================  =================================================================

``OPTIONS`` was asked by the crawl already (once per resource). Requests go
through the crawl's :class:`~explorer.core.survey.polite.PoliteSender`, so they
are spaced and bounded by the same deadline. Each answer is kept as an
:class:`Answer` (headers and a bounded head of the body).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from http import HTTPStatus
from urllib.parse import urljoin

from explorer.core.http.errors import RestwalkError
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.survey.crawl import CrawlResult, Visit, body_digest, same_origin_spec
from explorer.core.survey.polite import OutOfTime, PoliteSender, Send

__all__ = [
    "MISSING_PATH",
    "PROBE_METHOD",
    "Answer",
    "Probes",
    "Sample",
    "probe",
    "samples_of",
]

#: The made-up method token of the 501 check (RFC 9110 §9.1: any token is a method).
PROBE_METHOD = "RESTWALK-PROBE"
#: A path the audit GETs to see an error body (relative to the entry's origin).
MISSING_PATH = "/restwalk-audit/no-such-resource"
#: Media types asked for, in turn, to see whether content is negotiated.
ALTERNATIVE_TYPES = ("application/xml", "text/html")
#: Bytes of an error body kept, to read its shape.
BODY_KEPT = 16 * 1024
#: Resources probed at most (one URL of each).
MAX_SAMPLES = 8


@dataclass(frozen=True)
class Answer:
    """One probe's answer: enough to compare and to show, without the whole body."""

    method: str
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    media_type: str | None
    body_size: int
    body_digest: str
    body_head: bytes
    request_headers: tuple[tuple[str, str], ...] = ()

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive)."""
        lname = name.lower()
        return next((value for key, value in self.headers if key.lower() == lname), None)


@dataclass(frozen=True)
class Sample:
    """A resource probed: the crawl's GET of one of its URLs, and what the probes got."""

    visit: Visit
    head: Answer | None = None
    conditional: Answer | None = None
    #: The validator the conditional GET sent: ``If-None-Match`` or ``If-Modified-Since``.
    condition: str | None = None
    negotiated: tuple[Answer, ...] = ()
    cookieless: Answer | None = None


@dataclass
class Probes:
    """Every probe's answer, and the probes that got none."""

    samples: list[Sample] = field(default_factory=list)
    unknown_method: list[Answer] = field(default_factory=list)
    missing: Answer | None = None
    failures: list[tuple[str, str]] = field(default_factory=list)
    #: True when the deadline stopped the probes before they were all sent.
    out_of_time: bool = False


def answer_of(exchange: Exchange) -> Answer:
    """An :class:`Answer` from an exchange."""
    response = exchange.response
    return Answer(
        method=exchange.final.method,
        url=response.url,
        status=response.status,
        headers=response.headers,
        media_type=response.media_type,
        body_size=len(response.body),
        body_digest=body_digest(response.body),
        body_head=response.body[:BODY_KEPT],
        request_headers=exchange.final.headers,
    )


def samples_of(result: CrawlResult, limit: int = MAX_SAMPLES) -> list[Visit]:
    """One answered GET (2xx) per resource, the entry's first, at most ``limit``."""
    chosen: dict[str, Visit] = {}
    for visit in result.visits:
        if not HTTPStatus.OK <= visit.status < HTTPStatus.MULTIPLE_CHOICES:
            continue
        key = origin_of(visit.final_url) + visit.template
        chosen.setdefault(key, visit)
    return list(chosen.values())[:limit]


def cookies_in_play(result: CrawlResult) -> bool:
    """True when the crawl met a ``Set-Cookie`` or sent a ``Cookie``."""
    for visit in result.visits:
        if any(name.lower() == "set-cookie" for name, _ in visit.headers):
            return True
        if any(name.lower() == "cookie" for name, _ in visit.request_headers):
            return True
    return False


async def probe(
    result: CrawlResult,
    sender: PoliteSender,
    base: RequestSpec,
    *,
    without_cookies: Send | None = None,
    max_samples: int = MAX_SAMPLES,
) -> Probes:
    """Send the audit's probes (see the module docstring) for the crawl ``result``.

    ``without_cookies`` sends a request leaving the cookie jar out; without it the
    statelessness probe is not made. Never raises for what the server does.
    """
    probes = Probes()
    asker = _Asker(sender, base, result.entry, probes)
    try:
        await _probe_all(result, asker, probes, without_cookies, max_samples)
    except OutOfTime:
        probes.out_of_time = True
    return probes


async def _probe_all(
    result: CrawlResult,
    asker: _Asker,
    probes: Probes,
    without_cookies: Send | None,
    max_samples: int,
) -> None:
    visits = samples_of(result, max_samples)
    # The two answers every API gives, first: they grade error bodies and methods.
    others = [v.final_url for v in visits if v.final_url != result.entry]
    targets = [result.entry, *others[:1]]
    for url in targets:
        answer = await asker.ask(PROBE_METHOD, url)
        if answer is not None:
            probes.unknown_method.append(answer)
    probes.missing = await asker.ask("GET", urljoin(result.entry, MISSING_PATH))
    cookies = without_cookies is not None and cookies_in_play(result)
    for visit in visits:
        probes.samples.append(
            await _probe_sample(visit, asker, without_cookies if cookies else None)
        )


async def _probe_sample(visit: Visit, asker: _Asker, without_cookies: Send | None) -> Sample:
    url = visit.final_url
    sample = Sample(visit, head=await asker.ask("HEAD", url))
    headers = dict((name.lower(), value) for name, value in visit.headers)
    condition = None
    if "etag" in headers:
        condition = ("If-None-Match", headers["etag"])
    elif "last-modified" in headers:
        condition = ("If-Modified-Since", headers["last-modified"])
    if condition is not None:
        sample = replace(
            sample,
            conditional=await asker.ask("GET", url, (condition,)),
            condition=condition[0],
        )
    negotiated = []
    for media_type in ALTERNATIVE_TYPES:
        answer = await asker.ask("GET", url, (("Accept", media_type),))
        if answer is not None:
            negotiated.append(answer)
            if answer.media_type != visit.media_type and answer.status < HTTPStatus.BAD_REQUEST:
                break  # negotiated: one other representation is enough to say so
    sample = replace(sample, negotiated=tuple(negotiated))
    if without_cookies is not None:
        sample = replace(sample, cookieless=await asker.ask("GET", url, send=without_cookies))
    return sample


class _Asker:
    """Sends one probe through the polite sender; a failure is noted, not raised."""

    def __init__(self, sender: PoliteSender, base: RequestSpec, entry: str, probes: Probes) -> None:
        self.sender = sender
        self.base = base
        self.entry = entry
        self.probes = probes

    async def ask(
        self,
        method: str,
        url: str,
        headers: tuple[tuple[str, str], ...] = (),
        *,
        send: Send | None = None,
    ) -> Answer | None:
        spec = same_origin_spec(self.base, url, self.entry, method)
        if headers:
            names = {name.lower() for name, _ in headers}
            kept = tuple(pair for pair in spec.headers if pair[0].lower() not in names)
            spec = replace(spec, headers=kept + headers)
        try:
            exchange = await self.sender.send(spec, using=send)
        except RestwalkError as error:
            self.probes.failures.append((f"{method} {url}", error.message))
            return None
        return answer_of(exchange)
