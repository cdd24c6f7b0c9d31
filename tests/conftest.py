"""Every test keeps off the real home: restwalk's config file and data directory point
into one temporary directory for the run (tests of them point at their own ``tmp_path``).

Under CI (``CI`` set, as CI sets it) Hypothesis draws the same examples on every run
(``derandomize``): a landing must not pass or fail by chance. Run without ``CI``,
the property tests search afresh each time and keep what they find in
``.hypothesis/``, to be fixed and pinned with ``@example``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from explorer.core.paths import CONFIG_ENV, DATA_ENV

# No deadline, no "too slow" check: on a shared CI machine time is chance too.
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("CI"):
    settings.load_profile("ci")

#: ``RESTWALK_SLOW=0`` leaves out the slow tests that prove the same on any Python: those
#: marked ``interop`` (runs against other implementations: a real provider, a browser, a
#: database server) and ``lesson`` (each course lesson walked with the real keys).
#: ``.ci/run`` runs them on one of its two Pythons only; deselected, not skipped, on the other.
SLOW_ENV = "RESTWALK_SLOW"
SLOW_MARKERS = ("interop", "lesson")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "interop: slow test against another implementation; run once per CI run"
    )
    config.addinivalue_line(
        "markers", "lesson: a course lesson walked with the real keys; run once per CI run"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(SLOW_ENV, "1") != "0":
        return
    kept = [
        item
        for item in items
        if not any(item.get_closest_marker(marker) for marker in SLOW_MARKERS)
    ]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(autouse=True, scope="session")
def _restwalk_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    home = tmp_path_factory.mktemp("restwalk-home")
    config = home / "config.toml"
    config.write_text("# the tests' empty config\n")
    saved = {name: os.environ.get(name) for name in (CONFIG_ENV, DATA_ENV)}
    os.environ[CONFIG_ENV] = str(config)
    os.environ[DATA_ENV] = str(home / "data")
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
