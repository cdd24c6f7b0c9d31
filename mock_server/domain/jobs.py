"""Long-running work: jobs that finish a while after they were started.

A job is "running" until ``duration`` seconds (by the service's clock) after
it was created, then "done". Nothing runs in the background: the state is
computed from the clock whenever someone asks, so tests move time by
swapping the clock, and no task outlives a request.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

JobState = Literal["running", "done"]

#: How long a report takes, in seconds, unless changed (tests set 0).
DEFAULT_DURATION = 2.0
#: Jobs kept; the oldest are forgotten beyond this (a fuzzer may start thousands).
MAX_JOBS = 1000


@dataclass
class Job:
    """One unit of long work and its result, which exists from creation on."""

    id: int
    created: float
    ready_at: float
    result: bytes
    parameters: dict[str, str] = field(default_factory=dict)

    def state(self, now: float) -> JobState:
        """``running`` before ``ready_at``, then ``done``."""
        return "done" if now >= self.ready_at else "running"

    def retry_after(self, now: float) -> int:
        """Whole seconds until done (at least 1 while running): the ``Retry-After`` value."""
        return max(1, math.ceil(self.ready_at - now))

    def progress(self, now: float) -> int:
        """Percent done, 0-100."""
        span = self.ready_at - self.created
        if span <= 0 or now >= self.ready_at:
            return 100
        return max(0, min(99, int(100 * (now - self.created) / span)))


@dataclass
class JobBoard:
    """The jobs of one server, by id; ids are never reused."""

    duration: float = DEFAULT_DURATION
    jobs: OrderedDict[int, Job] = field(default_factory=OrderedDict)
    next_id: int = 1

    def start(self, result: bytes, now: float, parameters: dict[str, str] | None = None) -> Job:
        """A new job that will be done ``duration`` seconds from ``now``."""
        job = Job(self.next_id, now, now + self.duration, result, dict(parameters or {}))
        self.jobs[job.id] = job
        self.next_id += 1
        while len(self.jobs) > MAX_JOBS:
            self.jobs.popitem(last=False)
        return job

    def get(self, job_id: int) -> Job | None:
        """The job ``job_id``, or None if there never was one (or it was forgotten)."""
        return self.jobs.get(job_id)

    def all(self) -> list[Job]:
        """Every job kept, oldest first."""
        return list(self.jobs.values())
