"""The audit's hypermedia figures: links in the answers, typed links, actions offered, reach.

How much of the API a client can find by following links alone, measured from
a crawl. The entry is given, not reached: it counts as reached by links only when
a link leads back to it, so an API whose answers hold no link is reached by none.
The shared pieces (:class:`~explorer.core.survey.audit_figures.Figure`
and its tally) are in :mod:`explorer.core.survey.audit_figures`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from explorer.core.http.secret_rules import origin_of
from explorer.core.session.map_resources import Resource
from explorer.core.survey.audit_figures import (
    OK_STATUSES,
    Constraint,
    Figure,
    Tally,
    path_of,
    pct,
)
from explorer.core.survey.crawl import CrawlResult, Visit
from explorer.core.text.plural import counted, noun

__all__ = ["hypermedia"]


def _gets(result: CrawlResult) -> list[Visit]:
    """The crawl's answered GETs with a body (2xx)."""
    return [v for v in result.visits if v.status in OK_STATUSES]


def hypermedia(
    result: CrawlResult, resources: list[Resource], described: Sequence[str] | None
) -> Constraint:
    """Answers carrying links; resources reached by links the API writes (not guesses)."""
    carrying = Tally("answers that carry links")
    typed = Tally("answers whose links say their relation (a format or Link header)")
    acting = Tally("resources that accept changes and offer them as actions or forms")
    actions: dict[str, int] = {}
    for visit in _gets(result):
        if visit.body_size == 0 or not _could_link(visit.media_type):
            continue  # a stylesheet, a script, an image: no place for links
        where = path_of(visit.final_url)
        actions[visit.template] = max(actions.get(visit.template, 0), visit.action_links)
        if visit.declared_links:
            carrying.add(True, f"{where}: {counted(visit.declared_links, 'link')}", key="links")
        elif visit.guessed_links:
            carrying.add(
                False,
                f"{where}: no link; restwalk made {visit.guessed_links} by convention "
                "(ids and page numbers)",
                key=f"guessed {visit.template}",
            )
        else:
            carrying.add(False, f"{where}: no link at all", key=f"none {visit.template}")
        if visit.declared_links:
            bare = visit.declared_links - visit.typed_links
            strings = noun(bare, "is a bare URL string", "are bare URL strings")
            typed.add(
                bare == 0,
                f"{where}: " + (f"{counted(bare, 'link')} {strings}" if bare else "typed links"),
                key="typed" if bare == 0 else f"bare {visit.template}",
            )
    changeable = _changeable(resources)
    for template, count in actions.items():
        unsafe = changeable.get(template)
        if not unsafe:
            continue  # nothing says it accepts a change: no action is owed
        acting.add(
            count > 0,
            f"{template} allows {' '.join(unsafe)}: "
            + (f"{counted(count, 'action')} in its answer" if count else "its answer offers none"),
            key="acts" if count else None,
        )
    reached = Tally("resources reached by links the API writes")
    origin = origin_of(result.entry)
    resources = [r for r in resources if r.origin == origin]  # the API's, not the web's
    for resource in resources:
        if _only_the_entry(resource):
            continue  # given, not reached: an API of one page links nowhere
        if resource.declared:
            reached.add(True, f"{resource.template} ({_rels(resource)})", key="declared")
        else:
            reached.add(
                False,
                f"{resource.template}: reached only by links restwalk made by convention",
                key=f"guess {resource.template}",
            )
    unlinked = _unlinked(resources, described or ())
    for path in unlinked:
        reached.add(False, f"{path}: in the API's description, no link leads there")
    figures = (
        carrying.figure("no answer could carry links"),
        typed.figure("no answer carried links"),
        acting.figure("no Allow or OPTIONS said a resource accepts a change"),
        reached.figure("no resource but the entry was found"),
    )
    return Constraint(
        "hypermedia", "Hypermedia (HATEOAS)", figures, _why_hypermedia(figures, unlinked)
    )


_UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


def _changeable(resources: list[Resource]) -> dict[str, list[str]]:
    """Each resource's template → the unsafe methods its ``Allow`` (or OPTIONS) lists."""
    found: dict[str, list[str]] = {}
    for resource in resources:
        unsafe = [
            method
            for method, where in resource.methods
            if method in _UNSAFE and ({"Allow", "OPTIONS"} & set(where))
        ]
        if unsafe:
            found[resource.template] = unsafe
    return found


def _could_link(media_type: str | None) -> bool:
    """True for a representation that can carry links: JSON, XML, HTML, or none said."""
    media = (media_type or "").lower()
    return not media or media.endswith(("json", "xml", "/html")) or media == "text/plain"


def _only_the_entry(resource: Resource) -> bool:
    """True for the entry's resource when no link leads there: the crawl was given it."""
    return resource.depth == 0 and not resource.rels


def _rels(resource: Resource) -> str:
    rels = [rel for rel, _ in resource.rels[:2]]
    return "← " + ", ".join(rels) if rels else "a template or an action"


def _shape(path: str) -> str:
    """A path with every variable as ``{}``: ``/customers/{id}`` and ``/customers/{cid}`` agree."""
    parts = []
    for segment in path.rstrip("/").split("/"):
        parts.append("{}" if "{" in segment else segment)
    return "/".join(parts) or "/"


def _unlinked(resources: list[Resource], described: Iterable[str]) -> list[str]:
    """Described GET paths that no resource of the map matches."""
    known = {_shape(r.template) for r in resources}
    return [path for path in described if _shape(path) not in known]


def _why_hypermedia(figures: tuple[Figure, ...], unlinked: list[str]) -> str:
    carrying, typed, acting, reached = figures
    if carrying.total and carrying.passed == 0:
        why = "no answer carries a link: a client must know every URL in advance"
    elif carrying.share is not None and carrying.share < 1:
        why = f"{pct(carrying)} of answers carry links"
    else:
        why = "every answer carries links"
    if typed.total and typed.passed < typed.total:
        bare = typed.total - typed.passed
        gives = noun(bare, "gives", "give")
        why += f"; {counted(bare, 'answer')} {gives} bare URL strings, no relation"
    if acting.total:
        why += (
            f"; {acting.passed} of {counted(acting.total, 'resource')} that "
            f"{noun(acting.total, 'accepts', 'accept')} changes "
            f"{noun(acting.passed, 'offers', 'offer')} them as actions"
        )
    if reached.total and reached.passed < reached.total:
        missing = reached.total - reached.passed
        why += (
            f"; {missing} of {counted(reached.total, 'resource')} "
            f"{noun(missing, 'is', 'are')} not reached by a link the API writes"
        )
        if unlinked:
            why += f" ({len(unlinked)} only in its description)"
    elif reached.total:
        why += (
            "; the one resource besides the entry is reached from it by links alone"
            if reached.total == 1
            else f"; all {reached.total} resources are reached from the entry by links alone"
        )
    return why
