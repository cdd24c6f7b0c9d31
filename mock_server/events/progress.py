"""A long job's progress, told on the event stream while it runs.

A job (``POST /reports``) is computed from the clock whenever it is asked
for (:mod:`mock_server.domain.jobs`); its events need something that wakes
while nobody asks. :func:`follow` starts one task per running job, in the
hub (so it stops when the server does): every :data:`STEP_SECONDS` or so, at
most :data:`MAX_STEPS` times, a ``job.progress`` event with the job as it is
then, and ``job.completed`` when it is done. A job that is done at once gets
``job.completed`` alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from mock_server.domain.jobs import Job
from mock_server.events.hub import EventHub
from mock_server.store.event_log import Event

#: About how often a running job tells its progress.
STEP_SECONDS = 0.5
#: The most progress events one job sends (a long job steps further apart).
MAX_STEPS = 20
TOPIC = "jobs"

#: The job as a resource at a time: its representation.
Represent = Callable[[Job, float], dict[str, Any]]


def job_event(hub: EventHub, job: Job, action: str, represent: Represent) -> Event:
    """Publish ``job.<action>`` with the job as it is now."""
    now = hub.clock()
    event = Event(f"job.{action}", now, TOPIC, f"/jobs/{job.id}", represent(job, now))
    return hub.publish(event)


def follow(hub: EventHub, job: Job, represent: Represent) -> None:
    """Tell that ``job`` started, then its progress until it is done (a task of the hub)."""
    job_event(hub, job, "created", represent)
    if job.state(hub.clock()) == "done":
        job_event(hub, job, "completed", represent)
        return
    hub.spawn(_progress(hub, job, represent))


async def _progress(hub: EventHub, job: Job, represent: Represent) -> None:
    step = max(STEP_SECONDS, (job.ready_at - job.created) / MAX_STEPS)
    for _ in range(MAX_STEPS):
        remaining = job.ready_at - hub.clock()
        if remaining <= 0:
            break
        await asyncio.sleep(min(step, remaining))
        if job.state(hub.clock()) != "done":
            job_event(hub, job, "progress", represent)
    await asyncio.sleep(max(0.0, job.ready_at - hub.clock()))
    job_event(hub, job, "completed", represent)
