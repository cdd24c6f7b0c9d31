"""The audit's figures: each REST constraint measured as shares, with the examples behind them.

Pure functions of a crawl (:class:`~explorer.core.survey.crawl.CrawlResult`)
and the probes' answers (:class:`~explorer.core.survey.audit_probes.Probes`).
A :class:`Figure` is "``passed`` of ``total``" plus a few examples, failing
ones first; a figure with nothing to measure (no 405 was met) has ``total`` 0
and a note, and counts for nothing. A :class:`Constraint` holds its figures, its
score (their mean) and one line saying why. The hypermedia figures are in
:mod:`explorer.core.survey.audit_hypermedia`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urlsplit

import orjson

from explorer.core.knowledge import field_values as fv
from explorer.core.survey.audit_probes import PROBE_METHOD, Answer, Probes
from explorer.core.survey.crawl import CrawlResult, Visit
from explorer.core.text.plural import counted, noun

__all__ = [
    "OK_STATUSES",
    "Constraint",
    "Example",
    "Figure",
    "Tally",
    "cacheability",
    "error_bodies",
    "path_of",
    "pct",
    "statelessness",
    "uniform_interface",
]

#: Examples kept per figure: failing ones first.
MAX_EXAMPLES = 4
OK_STATUSES = range(HTTPStatus.OK, HTTPStatus.MULTIPLE_CHOICES)


@dataclass(frozen=True)
class Example:
    """One answer behind a figure, said in words, and whether it passed."""

    text: str
    ok: bool


@dataclass(frozen=True)
class Figure:
    """``passed`` of ``total`` answers (or resources) met a rule; ``note`` when none could."""

    name: str
    passed: int
    total: int
    examples: tuple[Example, ...] = ()
    note: str = ""

    @property
    def share(self) -> float | None:
        """``passed / total``, or None when nothing was measured."""
        return self.passed / self.total if self.total else None


@dataclass(frozen=True)
class Constraint:
    """One REST constraint: its figures, and why it scored as it did."""

    key: str
    title: str
    figures: tuple[Figure, ...]
    why: str

    @property
    def score(self) -> float | None:
        """The mean share of the figures measured (None when none was)."""
        shares = [f.share for f in self.figures if f.share is not None]
        return sum(shares) / len(shares) if shares else None


class Tally:
    """Counts a figure's cases and keeps a few examples, failing ones first."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.passed = 0
        self.total = 0
        self.good: list[Example] = []
        self.bad: list[Example] = []
        self._said: set[str] = set()

    def add(self, ok: bool, text: str, *, key: str | None = None) -> None:
        """One case; ``key`` groups cases whose example would say the same."""
        self.total += 1
        self.passed += ok
        said = key or text
        if said in self._said:
            return
        self._said.add(said)
        (self.good if ok else self.bad).append(Example(text, ok))

    def figure(self, note: str = "") -> Figure:
        examples = (self.bad + self.good)[:MAX_EXAMPLES]
        return Figure(self.name, self.passed, self.total, tuple(examples), note)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "") or "/"


def _header(headers: Sequence[tuple[str, str]], name: str) -> str | None:
    lname = name.lower()
    return next((value for key, value in headers if key.lower() == lname), None)


def pct(figure: Figure) -> str:
    share = figure.share
    return "n/a" if share is None else f"{round(100 * share)}%"


# --- the uniform interface ----------------------------------------------------------------


def uniform_interface(result: CrawlResult, probes: Probes) -> Constraint:
    """501 for an unknown method, 405 with Allow, HEAD like GET, OPTIONS with Allow."""
    unknown = Tally(f"unknown method ({PROBE_METHOD}) answered 501")
    for answer in probes.unknown_method:
        unknown.add(
            answer.status == HTTPStatus.NOT_IMPLEMENTED,
            f"{PROBE_METHOD} {path_of(answer.url)} → {_status_words(answer)}",
        )
    not_allowed = Tally("405 answers that carry Allow")
    answers: list[tuple[str, int, Sequence[tuple[str, str]]]] = [
        (f"GET {path_of(v.final_url)}", v.status, v.headers) for v in result.visits
    ]
    answers += [(f"{a.method} {path_of(a.url)}", a.status, a.headers) for a in _answers(probes)]
    for what, status, headers in answers:
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            allow = _header(headers, "allow")
            not_allowed.add(
                allow is not None,
                f"{what} → 405 " + (f"Allow: {allow}" if allow else "without Allow"),
            )
    head = Tally("HEAD answered as GET, without a body")
    for sample in probes.samples:
        if sample.head is not None:
            problems = _head_problems(sample.visit, sample.head)
            where = path_of(sample.visit.final_url)
            head.add(
                not problems,
                f"HEAD {where}: "
                + ("; ".join(problems) if problems else "same status and headers"),
                key=None if problems else "same",
            )
    options = Tally("OPTIONS answered with Allow")
    for url, (status, allow) in result.options.items():
        ok = status in OK_STATUSES and allow is not None
        words = f"{status} Allow: {allow}" if allow else f"{status} without Allow"
        options.add(ok, f"OPTIONS {path_of(url)} → {words}", key=None if not ok else "ok")
    figures = (
        unknown.figure(),
        not_allowed.figure("no 405 was met: no probe sends a method a resource refuses"),
        head.figure("no resource answered a GET to compare with"),
        options.figure("OPTIONS was not asked"),
    )
    return Constraint("uniform", "Uniform interface", figures, _why_uniform(figures, probes))


def _status_words(answer: Answer) -> str:
    words = str(answer.status)
    if answer.status == HTTPStatus.METHOD_NOT_ALLOWED:
        allow = answer.header("allow")
        words += f" (Allow: {allow})" if allow else " without Allow"
        words += ": it treats the method as known but refused"
    elif answer.status in OK_STATUSES:
        words += ": it answered as if the method meant something"
    return words


def _head_problems(visit: Visit, head: Answer) -> list[str]:
    problems = []
    if head.status != visit.status:
        problems.append(f"{head.status}, GET answered {visit.status}")
    if head.body_size:
        problems.append(f"a body of {counted(head.body_size, 'byte')}")
    if head.media_type != visit.media_type:
        problems.append(f"Content-Type {head.media_type}, GET's is {visit.media_type}")
    coding, get_coding = head.header("content-encoding"), _header(visit.headers, "content-encoding")
    if coding != get_coding:
        problems.append(f"Content-Encoding {coding or 'none'}, GET's is {get_coding or 'none'}")
    names = ("etag",) if coding != get_coding else ("etag", "content-length")
    for name in names:  # (another coding has another length: said once above)
        got, want = head.header(name), _header(visit.headers, name)
        if got is not None and want is not None and got != want:
            problems.append(f"{name}: {got}, GET's is {want}")
    return problems


def _answers(probes: Probes) -> list[Answer]:
    """Every probe's answer."""
    found = list(probes.unknown_method)
    if probes.missing is not None:
        found.append(probes.missing)
    for sample in probes.samples:
        found += [a for a in (sample.head, sample.conditional, sample.cookieless) if a]
        found += sample.negotiated
    return found


def _why_uniform(figures: tuple[Figure, ...], probes: Probes) -> str:
    unknown, not_allowed, head, options = figures
    parts = []
    if unknown.total:
        statuses = sorted({a.status for a in probes.unknown_method})
        if unknown.passed == unknown.total:
            parts.append("an unknown method gets 501")
        else:
            parts.append(
                "an unknown method gets " + "/".join(map(str, statuses)) + " instead of 501"
            )
    if not_allowed.total and not_allowed.passed < not_allowed.total:
        parts.append("405 without Allow")
    if head.total:
        parts.append("HEAD matches GET" if head.passed == head.total else "HEAD differs from GET")
    if options.total:
        parts.append(
            "OPTIONS lists the methods"
            if options.passed == options.total
            else f"OPTIONS says Allow on {options.passed} of {counted(options.total, 'resource')}"
        )
    return "; ".join(parts) or "nothing could be measured"


# --- caching -------------------------------------------------------------------------------


def cacheability(result: CrawlResult, probes: Probes) -> Constraint:
    """Validators, explicit freshness, 304s, and Vary where content is negotiated."""
    validators = Tally("GET answers with a validator (ETag or Last-Modified)")
    freshness = Tally("GET answers with explicit freshness (max-age, Expires) or no-store")
    for visit in result.visits:
        if visit.status != HTTPStatus.OK:
            continue
        where = path_of(visit.final_url)
        etag, modified = _header(visit.headers, "etag"), _header(visit.headers, "last-modified")
        names = [n for n, v in (("ETag", etag), ("Last-Modified", modified)) if v]
        validators.add(
            bool(names),
            f"{where}: " + (" and ".join(names) if names else "no ETag, no Last-Modified"),
            key="ok" if names else None,
        )
        policy = _freshness(visit.headers)
        freshness.add(
            policy is not None,
            f"{where}: {policy or 'no Cache-Control, no Expires (caches guess)'}",
            key=policy,
        )
    revalidated = Tally("conditional GETs answered 304 Not Modified")
    for sample in probes.samples:
        if sample.conditional is not None:
            status = sample.conditional.status
            revalidated.add(
                status == HTTPStatus.NOT_MODIFIED,
                f"GET {path_of(sample.visit.final_url)} with {sample.condition} → {status}",
                key="304" if status == HTTPStatus.NOT_MODIFIED else None,
            )
    vary = Tally("negotiated answers that say Vary")
    _negotiation(result, probes, vary)
    figures = (
        validators.figure(),
        freshness.figure(),
        revalidated.figure("no answer carried a validator to ask with"),
        vary.figure("no content was negotiated: Vary is not needed"),
    )
    return Constraint("cacheable", "Cacheability", figures, _why_cache(figures))


def _freshness(headers: Sequence[tuple[str, str]]) -> str | None:
    """How an answer says it may be kept, or None when it does not say."""
    directives = fv.parse_directives(fv.values(headers, "Cache-Control"))
    for name in ("no-store", "no-cache", "s-maxage", "max-age"):
        if name in directives:
            value = directives[name]
            return f"Cache-Control {name}" + (f"={value}" if value else "")
    if _header(headers, "expires") is not None:
        return "Expires"
    return None


def _negotiation(result: CrawlResult, probes: Probes, tally: Tally) -> None:
    """Vary: Accept where another Accept got another type; Vary: Accept-Encoding where
    the answer was compressed."""
    for sample in probes.samples:
        visit = sample.visit
        for answer in sample.negotiated:
            if answer.status not in OK_STATUSES or answer.media_type == visit.media_type:
                continue
            for what, headers in (
                ("GET", visit.headers),
                (f"Accept: {answer.media_type}", answer.headers),
            ):
                says = _varies(headers, "accept")
                tally.add(
                    says,
                    f"{path_of(visit.final_url)} ({what}) is negotiated by Accept"
                    + ("; Vary names it" if says else ", and Vary does not say so"),
                    key="accept ok" if says else None,
                )
    for visit in result.visits:
        if visit.status in OK_STATUSES and _header(visit.headers, "content-encoding"):
            says = _varies(visit.headers, "accept-encoding")
            tally.add(
                says,
                f"{path_of(visit.final_url)} is compressed"
                + ("; Vary: Accept-Encoding" if says else ", without Vary: Accept-Encoding"),
                key="encoding ok" if says else f"encoding {visit.template}",
            )


def _varies(headers: Sequence[tuple[str, str]], name: str) -> bool:
    named = {item.lower() for item in fv.list_values(headers, "Vary")}
    return name in named or "*" in named


def _why_cache(figures: tuple[Figure, ...]) -> str:
    validators, freshness, revalidated, vary = figures
    parts = []
    for figure, said in ((validators, "validators"), (freshness, "explicit freshness")):
        if figure.total:
            parts.append(f"{pct(figure)} of GET answers have {said}")
    if revalidated.total:
        parts.append(f"{revalidated.passed} of {revalidated.total} conditional GETs got 304")
    if vary.total and vary.passed < vary.total:
        parts.append("negotiated answers lack Vary")
    return "; ".join(parts) or "no GET answered 200"


# --- statelessness -------------------------------------------------------------------------


def statelessness(result: CrawlResult, probes: Probes) -> Constraint:
    """Cookies set by answers, and whether answers change without them."""
    setting = Tally("answers that set no cookie")
    for visit in result.visits:
        cookies = [
            v.split("=", 1)[0].strip() for k, v in visit.headers if k.lower() == "set-cookie"
        ]
        where = path_of(visit.final_url)
        setting.add(
            not cookies,
            f"{where} sets " + ", ".join(cookies) if cookies else f"{where}: no Set-Cookie",
            key="none" if not cookies else None,
        )
    needing = Tally("answers the same without cookies")
    for sample in probes.samples:
        alone = sample.cookieless
        if alone is None:
            continue
        visit = sample.visit
        same = alone.status == visit.status
        text = f"GET {path_of(visit.final_url)} without cookies → {alone.status}"
        text += "" if same else f" (with them {visit.status}): state kept on the server"
        needing.add(same, text, key="same" if same else None)
    figures = (
        setting.figure(),
        needing.figure("no cookie was set or sent: there is nothing a request could need"),
    )
    set_any = setting.total - setting.passed
    if set_any == 0:
        why = "no answer sets a cookie: each request carries all it needs"
    elif needing.total and needing.passed == needing.total:
        why = (
            f"{counted(set_any, 'answer')} {noun(set_any, 'sets', 'set')} cookies, "
            "but the answers are the same without them"
        )
    elif needing.total:
        why = "answers change without the cookies: the server keeps session state"
    else:
        why = f"{counted(set_any, 'answer')} {noun(set_any, 'sets', 'set')} cookies"
    return Constraint("stateless", "Statelessness", figures, why)


# --- error bodies --------------------------------------------------------------------------


def error_bodies(result: CrawlResult, probes: Probes) -> Constraint:
    """Error answers in RFC 9457 problem details, or at least in a format a program reads."""
    problem = Tally("error answers in problem details (RFC 9457)")
    readable = Tally("error answers a program can read (JSON or XML)")
    cases: list[tuple[str, int, str | None, bytes]] = [
        (f"GET {path_of(v.final_url)}", v.status, v.media_type, v.error_body)
        for v in result.visits
        if v.status >= HTTPStatus.BAD_REQUEST
    ]
    cases += [
        (f"{a.method} {path_of(a.url)}", a.status, a.media_type, a.body_head)
        for a in _answers(probes)
        if a.status >= HTTPStatus.BAD_REQUEST and a.method != "HEAD"
    ]
    for what, status, media_type, body in cases:
        kind = body_kind(media_type, body)
        key = f"{status} {kind}"
        text = f"{what} → {status} {media_type or 'no Content-Type'}: {kind}"
        problem.add(kind == "problem details", text, key=key)
        readable.add(kind in ("problem details", "JSON", "XML"), text, key=key)
    figures = (
        problem.figure("no error was met"),
        readable.figure("no error was met"),
    )
    if not problem.total:
        why = "no error answer was met"
    elif problem.passed == problem.total:
        why = "every error is problem details"
    else:
        kinds = sorted({body_kind(m, b) for _, _, m, b in cases})
        why = "errors come as " + ", ".join(kinds)
    return Constraint("errors", "Error bodies", figures, why)


def body_kind(media_type: str | None, body: bytes) -> str:
    """What an error body is: problem details, JSON, XML, a web page, text, or none."""
    if not body.strip():
        return "no body"
    media = (media_type or "").lower()
    if media in ("application/problem+json", "application/problem+xml"):
        return "problem details"
    if media.endswith(("/json", "+json")):
        try:
            orjson.loads(body)
        except orjson.JSONDecodeError:
            return "broken JSON"  # (or cut at the bytes kept)
        return "JSON"
    if media in ("text/html", "application/xhtml+xml"):
        return "a web page"
    if media.endswith(("/xml", "+xml")):
        return "XML"
    return "text"
