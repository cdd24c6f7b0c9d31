"""The Richardson maturity level of an API, step by step: what was seen, what is missing.

Leonard Richardson's model (as Martin Fowler tells it,
https://martinfowler.com/articles/richardsonMaturityModel.html) climbs three steps,
each needing the ones before:

1. **resources**: more than one URL answers, each a thing of the API (level 0 is one
   endpoint everything is posted to);
2. **HTTP's methods and statuses**, used as meant: here, the audit's uniform
   interface scores half or more (an unknown method refused with 501 or 405, a 405
   naming what is allowed, HEAD answered as GET, OPTIONS saying the methods);
3. **hypermedia**: the answers carry links a client follows to find the rest; here,
   at least one answer carries a link the API wrote (not one restwalk made from an
   id or a page number) and the audit's hypermedia figures score half or more.

:func:`level_steps` says, for each step, what the crawl and the probes saw and,
for a step not reached, what is missing for it; the level is the last step
reached with every step before it. Pure functions of the audit's figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus

from explorer.core.survey.audit_figures import Constraint, Figure
from explorer.core.survey.crawl import CrawlResult
from explorer.core.text.plural import counted

__all__ = ["HALF", "LevelStep", "level_of", "level_steps"]

#: The share a constraint must score for its step.
HALF = 0.5
#: Templates named as examples of the resources that answered.
_NAMED = 3


@dataclass(frozen=True)
class LevelStep:
    """One step of the model: the ``level`` it leads to, whether the API ``reached`` it,
    what was ``seen``, and what is ``missing`` for it (empty when reached)."""

    level: int
    title: str
    reached: bool
    seen: str
    missing: str = ""


def level_steps(constraints: Sequence[Constraint], result: CrawlResult) -> tuple[LevelStep, ...]:
    """The three steps of the model, as the audit's figures show them."""
    by_key = {constraint.key: constraint for constraint in constraints}
    return (
        _resources(result),
        _methods(by_key.get("uniform")),
        _hypermedia(by_key.get("hypermedia")),
    )


def level_of(steps: Sequence[LevelStep]) -> int:
    """The level the steps reach: the last one reached with every one before it."""
    level = 0
    for step in steps:
        if not step.reached:
            break
        level = step.level
    return level


def _resources(result: CrawlResult) -> LevelStep:
    answered = sorted({v.template for v in result.visits if v.status < HTTPStatus.BAD_REQUEST})
    named = ", ".join(answered[:_NAMED]) + (", …" if len(answered) > _NAMED else "")
    title = "resources"
    if len(answered) > 1:
        return LevelStep(1, title, True, f"{counted(len(answered), 'resource')} answered ({named})")
    seen = f"only {named} answered" if answered else "no resource answered"
    return LevelStep(
        1, title, False, seen, "more than one resource, each at its own URL (a path per thing)"
    )


def _methods(uniform: Constraint | None) -> LevelStep:
    title = "HTTP's methods and statuses"
    if uniform is None or uniform.score is None:
        return LevelStep(
            2, title, False, "nothing was measured", "answers to the probes (none came)"
        )
    seen = f"the uniform interface scores {_pct(uniform.score)}: {_figures(uniform.figures)}"
    if uniform.score >= HALF:
        return LevelStep(2, title, True, seen)
    return LevelStep(2, title, False, seen, _short_of(uniform))


def _hypermedia(hypermedia: Constraint | None) -> LevelStep:
    title = "hypermedia"
    if hypermedia is None or hypermedia.score is None:
        return LevelStep(3, title, False, "no answer could carry links", "answers with links")
    carrying = hypermedia.figures[0]
    seen = f"the hypermedia figures score {_pct(hypermedia.score)}: {_figures(hypermedia.figures)}"
    if carrying.total and carrying.passed == 0:
        return LevelStep(
            3,
            title,
            False,
            seen,
            "a link in the answers that the API writes (a URL under a relation, in a "
            "format such as HAL or in a Link header), so that a client finds the rest "
            "without knowing its URLs",
        )
    if hypermedia.score >= HALF:
        return LevelStep(3, title, True, seen)
    return LevelStep(3, title, False, seen, _short_of(hypermedia))


def _figures(figures: Sequence[Figure]) -> str:
    measured = [f"{f.name} {f.passed} of {f.total}" for f in figures if f.total]
    return "; ".join(measured) if measured else "nothing measured"


def _short_of(constraint: Constraint) -> str:
    """What a constraint under half lacks: its score, and its figures short of full."""
    short = [f"{f.name} {f.passed} of {f.total}" for f in constraint.figures if f.passed < f.total]
    score = _pct(constraint.score or 0.0)
    return f"a score of half or more ({score} now); short of full: " + "; ".join(short)


def _pct(share: float) -> str:
    return f"{round(100 * share)}%"
