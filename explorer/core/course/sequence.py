"""Steps in order over a lesson's exchanges: the check, and each near miss.

A sequence holds when its steps match exchanges of the lesson in their order,
not necessarily one right after the other (a learner looks around in
between); each named step binds the exchange it matched for the steps after
it.

The search places the last step first (on the newest exchange, when asked:
the run asks after every exchange, so a way that ended earlier was found
then), then each step before it on an earlier exchange, newest first. A
step's keys that refer to no other step are tested as soon as it is placed;
the keys that refer to earlier steps as soon as the earliest of those is
placed. So "a PATCH whose If-Match is the ETag of a GET of its path" tries
each GET once and keeps only the one whose ETag fits, and a lesson of
hundreds of exchanges is searched in about as many tests. The search is
bounded anyway, by :data:`BUDGET` exchanges tried, so no lesson can stall the
screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.steps import Step

__all__ = ["BUDGET", "Steps"]

#: The most placements of a step on an exchange one search tries.
BUDGET = 20_000


@dataclass(frozen=True)
class Steps:
    """Steps matched in order."""

    steps: tuple[Step, ...]

    def match(
        self, exchanges: Sequence[ExchangeFacts], *, ending_with: int | None = None
    ) -> dict[str, ExchangeFacts] | None:
        """The named exchanges of a way the steps match ``exchanges`` in order, None when
        there is none; ``ending_with``: the last step must be that exchange (its index)."""
        steps = self.steps
        count = len(steps)
        if not count or not exchanges:
            return None
        index_of = {step.name: n for n, step in enumerate(steps) if step.name}
        # A step's keys that refer to others are tested when the earliest one is placed.
        ready_at: list[list[int]] = [[] for _ in steps]
        for n, step in enumerate(steps):
            if step.tied:
                ready_at[min(index_of[ref.step] for ref in step.refs)].append(n)
        alone: dict[tuple[int, int], bool] = {}
        placed: list[ExchangeFacts | None] = [None] * count
        budget = [BUDGET]

        def holds_alone(step: int, at: int) -> bool:
            key = (step, at)
            if key not in alone:
                alone[key] = steps[step].holds_alone(exchanges[at])
            return alone[key]

        def bound() -> dict[str, ExchangeFacts]:
            return {
                step.name: facts
                for step, facts in zip(steps, placed, strict=True)
                if step.name and facts is not None
            }

        def tied_hold(step: int) -> bool:
            """The keys that wait for ``step`` (just placed) hold of their exchanges."""
            names = bound()
            for n in ready_at[step]:
                facts = placed[n]  # placed already: n >= step
                if facts is None or not steps[n].holds_with(facts, names):
                    return False
            return True

        def place(step: int, before: int) -> bool:
            last = step == count - 1 and ending_with is not None
            positions = [ending_with] if last else range(before - 1, -1, -1)
            for at in positions:
                if at is None or not 0 <= at < before:
                    continue
                budget[0] -= 1
                if budget[0] < 0:
                    return False
                if not holds_alone(step, at):
                    continue
                placed[step] = exchanges[at]
                if tied_hold(step) and (step == 0 or place(step - 1, at)):
                    return True
            placed[step] = None
            return False

        if not place(count - 1, len(exchanges)):
            return None
        return bound()
