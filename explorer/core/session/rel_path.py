"""A walk as a path of link relations from an entry point, and that path walked again.

A URL bookmark breaks when the API moves a resource; a rel path does not. The
walk root → ``rw:customers`` → the customer titled "Ada Lovelace" →
``rw:orders`` is kept as the entry point's URL and, for each step, the words
that choose that link on the page before it, in the syntax of
:mod:`~explorer.core.session.choice` (``rw:customers``,
``item[title=Ada Lovelace]``, ``next#2``). Walking it again follows whatever
URLs those links carry then.

:func:`rel_path` reads the path from a session's trail: back from the page
shown, as long as each page was reached by following a link of the page
before; the page where that chain starts (a typed URL) is the entry point.
:func:`walk_path` follows a path with a loader the front end gives (the TUI's
session or the command line's client), stopping where a step no longer matches
and saying why.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qsl, unquote, urlsplit

from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.templates import TemplateError, expand_template, template_variables
from explorer.core.session.choice import candidates, choose_link, parse_words, relations
from explorer.core.session.next_step import SAFE_METHODS
from explorer.core.session.ordering import reads
from explorer.core.session.trail import Page
from explorer.core.text.terminal_text import visible_line

__all__ = [
    "PathError",
    "RelPath",
    "Step",
    "Walked",
    "rel_path",
    "template_values",
    "walk_path",
    "words_for",
]


class PathError(ValueError):
    """The page shown cannot be reached by a rel path; the message says why."""


@dataclass(frozen=True)
class Step:
    """One link followed: the words that choose it, a template's values, where it led."""

    follow: str
    #: A templated link's variables, as they were filled in.
    variables: tuple[tuple[str, str], ...] = ()
    #: The URL it led to when the path was made (to say what changed, never to go).
    was: str = ""


@dataclass(frozen=True)
class RelPath:
    """An entry point's URL and the steps from it."""

    entry: str
    steps: tuple[Step, ...] = ()

    def describe(self) -> str:
        """``/ > rw:customers > item[title=Ada] > rw:orders``, for lists."""
        return " > ".join([_short(self.entry), *(step.follow for step in self.steps)])


def _short(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "") or "/"


# --- words that choose a link ----------------------------------------------------------------


def _same(a: Link | None, b: Link) -> bool:
    return a is not None and (a.rel, a.href, a.method) == (b.rel, b.href, b.method)


def _quoted(value: str) -> str:
    """A title or name as the words' brackets hold it (quoted when it holds ``]`` or ``#``)."""
    if any(c in value for c in "[]#\"'") or value != value.strip():
        quote = "'" if '"' in value else '"'
        return f"{quote}{value}{quote}"
    return value


def words_for(links: Sequence[Link], target: Link) -> str | None:
    """The words that choose ``target`` among ``links`` (given in the session's order).

    The plainest that works: the relation alone; for an item of the page, ``item``
    by its title or name or position; the relation narrowed by title or name; the
    relation and position (``next#2``). None when no words choose it (it is not
    among ``links``).
    """
    item = is_embedded(target) and target.rel == "self"
    # An item of the page is named as one (``item[title=Ada]``), not as "a self link".
    rels = ["item", target.rel] if item else [target.rel]
    tries: list[str] = [] if item else [target.rel]
    for rel in rels:
        for key in ("title", "name"):
            value = getattr(target, key)
            if value:
                tries.append(f"{rel}[{key}={_quoted(value)}]")
        wanted = parse_words(rel)
        found = candidates(links, wanted) if wanted is not None else []
        for position, candidate in enumerate(found, start=1):
            if _same(candidate, target):
                tries.append(f"{rel}#{position}")
                break
    return next((words for words in tries if _same(choose_link(links, words), target)), None)


# --- a template's values, read back from the URL it gave -------------------------------------

_EXPRESSION = re.compile(r"\{([^{}]*)\}")


def _expression_pattern(body: str, number: int) -> str:
    """A regular expression matching what the expression ``{body}`` expands to."""
    operator = body[0] if body and body[0] in "+#./;?&" else ""
    names = [n.split(":")[0].rstrip("*") for n in (body[1:] if operator else body).split(",")]
    groups = [f"v{number}_{index}" for index in range(len(names))]
    if operator in ("?", "&"):
        return f"(?P<q{number}>(?:[?&][^#]*)?)"
    if operator == "#":
        return f"(?:#(?P<{groups[0]}>.*))?"
    if operator == "+":
        return ",".join(f"(?P<{g}>[^?#]*?)" for g in groups)
    if operator in ("/", "."):
        separator = re.escape(operator)
        return "".join(f"(?:{separator}(?P<{g}>[^/?#.]*))?" for g in groups)
    if operator == ";":
        pairs = zip(names, groups, strict=True)
        return "".join(f"(?:;{re.escape(n)}=?(?P<{g}>[^;/?#]*))?" for n, g in pairs)
    return ",".join(f"(?P<{g}>[^/?#,]*)" for g in groups)


def template_values(template: str, url: str) -> dict[str, str] | None:
    """The values that expand ``template`` to ``url``, or None when none found do.

    Read back by matching the expansion's shape, then checked by expanding again:
    what is returned always gives ``url``.
    """
    try:
        names = template_variables(template)
    except TemplateError:
        return None
    pattern = ""
    bodies: list[str] = []
    position = 0
    for number, match in enumerate(_EXPRESSION.finditer(template)):
        pattern += re.escape(template[position : match.start()])
        pattern += _expression_pattern(match.group(1), number)
        bodies.append(match.group(1))
        position = match.end()
    pattern += re.escape(template[position:])
    found = re.fullmatch(pattern, url)
    if found is None:
        return None
    values: dict[str, str] = {}
    for number, body in enumerate(bodies):
        operator = body[0] if body and body[0] in "+#./;?&" else ""
        specs = [n.split(":")[0].rstrip("*") for n in (body[1:] if operator else body).split(",")]
        if operator in ("?", "&"):
            query = found.group(f"q{number}") or ""
            pairs = dict(parse_qsl(query.lstrip("?&"), keep_blank_values=True))
            values.update({name: pairs[name] for name in specs if name in pairs})
            continue
        for index, name in enumerate(specs):
            value = found.group(f"v{number}_{index}")
            if value is not None and name not in values:
                values[name] = unquote(value)
    values = {name: value for name, value in values.items() if name in names}
    try:
        again = expand_template(template, values)
    except TemplateError:
        return None
    return values if again == url else None


# --- the path of a trail ----------------------------------------------------------------------


def _step_into(previous: Page, page: Page) -> Step | None:
    """The step that led from ``previous`` to ``page``, when ``page`` came by one of its links."""
    if page.spec.method not in SAFE_METHODS:
        return None
    url = page.spec.url
    followed = [link for link in previous.links if link.rel == page.via]
    for link in followed:
        if link.method != page.spec.method:
            continue
        if link.templated:
            variables = template_values(link.href, url)
            if variables is None:
                continue
        elif link.href != url:
            continue
        else:
            variables = {}
        words = words_for(previous.links, link)
        if words is not None:
            return Step(words, tuple(variables.items()), was=_landed(page))
    return None


def _landed(page: Page) -> str:
    return page.exchange.response.url if page.exchange else page.spec.url


def rel_path(trail: Sequence[Page]) -> RelPath:
    """The rel path to the last page of ``trail`` (the session's trail, first page first).

    Raises :class:`PathError` when the last page is not a GET reached by a chain of
    links from a page that can be asked again (a typed URL).
    """
    if not trail:
        raise PathError("There is no page to bookmark yet.")
    steps: list[Step] = []
    index = len(trail) - 1
    while index > 0:
        step = _step_into(trail[index - 1], trail[index])
        if step is None:
            break
        steps.append(step)
        index -= 1
    entry = trail[index]
    if entry.spec.method != "GET":
        raise PathError(
            f"This page came from a {entry.spec.method} request, not from following links: "
            "a bookmark replays links from a page it can ask for again with GET."
        )
    return RelPath(entry.spec.url, tuple(reversed(steps)))


# --- walking a path ---------------------------------------------------------------------------

#: How a front end loads a page: the request, and how it was reached (the step's relation).
#: The page it returns has its links read.
Loader = Callable[[RequestSpec, str], Awaitable[Page]]


def bookmark_name(trail: Sequence[Page]) -> str:
    """A name for a bookmark of the trail's last page: the title of the link that led
    there (``Orders of Alan Turing``), else the page's path; "" for no trail."""
    if not trail:
        return ""
    page = trail[-1]
    if len(trail) > 1:
        for link in trail[-2].links:
            if link.rel == page.via and link.href == page.spec.url and link.title:
                return visible_line(link.title)
    return visible_line(page.label)


@dataclass
class Walked:
    """Where a walk got: the pages loaded, and why it stopped early (None: it got there)."""

    pages: list[Page] = field(default_factory=list)
    problem: str | None = None

    @property
    def arrived(self) -> bool:
        """True when every step was followed."""
        return self.problem is None


def _failure(page: Page, what: str) -> str | None:
    """Why ``page`` (loaded for ``what``) ends the walk, or None when it can go on."""
    if page.error is not None:
        return f"{what} failed: {page.error.message}"
    status = page.status
    if status is not None and status >= HTTPStatus.BAD_REQUEST:
        reason = page.exchange.response.reason if page.exchange else ""
        return f"{what} answered {status} {reason}".rstrip() + "."
    return None


async def walk_path(
    path: RelPath,
    load: Loader,
    *,
    entry: str | None = None,
    on_page: Callable[[Page], None] | None = None,
) -> Walked:
    """Follow ``path`` from its entry point (or ``entry``, when the API moved), one page at a
    time through ``load``; ``on_page`` sees each page as it comes.

    The walk stops where a step matches no link, or at a page that failed or
    answered 4xx/5xx before the last step (the last page is shown whatever it is).
    """
    walked = Walked()
    start = entry or path.entry
    page = await load(RequestSpec(url=start), "url")
    walked.pages.append(page)
    if on_page is not None:
        on_page(page)
    what = f"The entry point {start}"
    total = len(path.steps)
    for number, step in enumerate(path.steps, start=1):
        # A page the walk goes on from must have answered; the last one is shown as it is.
        walked.problem = _failure(page, what)
        if walked.problem is not None:
            break
        link = choose_link(page.links, step.follow)
        if link is None:
            was = f" When bookmarked it led to {step.was}." if step.was else ""
            walked.problem = (
                f"Step {number} of {total}, {step.follow!r}, matches no link on "
                f"{_landed(page)} (its relations: {relations(page.links)}).{was}"
            )
            break
        if not reads(link):
            walked.problem = (
                f"Step {number} of {total}, {step.follow!r}, is an action ({link.method} "
                f"{link.href}): a bookmark only follows links that read."
            )
            break
        url = link.href
        if link.templated:
            try:
                url = expand_template(link.href, dict(step.variables))
            except TemplateError as error:
                walked.problem = f"Step {number}, {step.follow!r}: its template is broken: {error}"
                break
        page = await load(RequestSpec(method=link.method, url=url), link.rel)
        walked.pages.append(page)
        if on_page is not None:
            on_page(page)
        what = f"Step {number} of {total}, {step.follow!r} ({url}),"
    return walked
