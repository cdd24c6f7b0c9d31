"""Steps in order over a lesson's exchanges: the check, and each near miss.

A sequence holds when its steps match exchanges of the lesson in their order,
not necessarily one right after the other (a learner looks around in
between); each named step binds the exchange it matched for the steps after
it. The first way found is taken, earliest exchanges first, trying later
ones when a later step needs it (a search with backtracking, bounded by
:data:`BUDGET` step tests, so a long lesson never stalls the screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.steps import Step

__all__ = ["BUDGET", "Steps"]

#: The most step tests one search makes (a lesson has a few steps and some tens of
#: exchanges: a search usually makes fewer than a hundred).
BUDGET = 50_000


@dataclass(frozen=True)
class Steps:
    """Steps matched in order."""

    steps: tuple[Step, ...]

    def match(
        self, exchanges: Sequence[ExchangeFacts], *, ending_with: int | None = None
    ) -> dict[str, ExchangeFacts] | None:
        """The named exchanges of a way the steps match ``exchanges`` in order, None when
        there is none; ``ending_with``: the last step must be that exchange (its index)."""
        budget = [BUDGET]
        last = len(self.steps) - 1

        def search(
            step: int, start: int, bound: dict[str, ExchangeFacts]
        ) -> dict[str, ExchangeFacts] | None:
            rule = self.steps[step]
            candidates = range(start, len(exchanges))
            if step == last and ending_with is not None:
                candidates = (
                    range(ending_with, ending_with + 1) if ending_with >= start else range(0)
                )
            for at in candidates:
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                facts = exchanges[at]
                if not rule.matches(facts, bound):
                    continue
                here = {**bound, rule.name: facts} if rule.name else bound
                if step == last:
                    return here
                found = search(step + 1, at + 1, here)
                if found is not None:
                    return found
            return None

        if not self.steps:
            return None
        return search(0, 0, {})
