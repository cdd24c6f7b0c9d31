"""Every test keeps off the real home: restwalk's config file and data directory point
into one temporary directory for the run (tests of them point at their own ``tmp_path``).

Under CI (``CI`` set, as CI sets it) Hypothesis draws the same examples on every run
(``derandomize``): a landing must not pass or fail by chance. Run without ``CI``,
the property tests search afresh each time and keep what they find in
``.hypothesis/``, to be fixed and pinned with ``@example``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from explorer.core.paths import CONFIG_ENV, DATA_ENV
from mock_server.auth import users

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

#: The slow tests prove the same on any Python: those marked ``interop`` (runs against
#: other implementations: a real provider, a browser, a database server) and ``lesson``
#: (each course lesson walked with the real keys). ``RESTWALK_SLOW`` says which of them
#: run: unset, all; ``0``, none; else the markers named (``RESTWALK_SLOW=lesson``).
#: ``.ci/run`` shares them out between its two Pythons; the others are deselected, not
#: skipped.
SLOW_ENV = "RESTWALK_SLOW"
SLOW_MARKERS = ("interop", "lesson")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "interop: slow test against another implementation; run once per CI run"
    )
    config.addinivalue_line(
        "markers", "lesson: a course lesson walked with the real keys; run once per CI run"
    )
    config.addinivalue_line(
        "markers",
        "early: a file of long tests, run before the others so that it does not end a "
        "parallel run alone",
    )
    config.addinivalue_line(
        "markers",
        "password_cost: every password check hashes anew (see _password_hashes_remembered)",
    )


def slow_markers_left_out(setting: str | None) -> set[str]:
    """The slow markers ``RESTWALK_SLOW`` leaves out (see above)."""
    if setting is None or setting.strip() in ("", "1"):
        return set()
    kept = {name.strip() for name in setting.split(",")} - {"0"}
    unknown = kept - set(SLOW_MARKERS)
    if unknown:
        raise pytest.UsageError(
            f"{SLOW_ENV}={setting!r}: no slow marker {', '.join(sorted(unknown))}; "
            f"say 0, or some of {', '.join(SLOW_MARKERS)}"
        )
    return set(SLOW_MARKERS) - kept


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The files marked ``early`` first, each in its order: ``--dist loadfile`` (with
    # ``--no-loadscope-reorder``, as the Makefile runs it) hands a worker a whole file at
    # a time, in this order, and a 30 s file handed out last kept one worker busy alone
    # at the end of the run while the other had nothing left.
    items.sort(key=lambda item: item.get_closest_marker("early") is None)
    left_out = slow_markers_left_out(os.environ.get(SLOW_ENV))
    if not left_out:
        return
    kept: list[pytest.Item] = []
    deselected: list[pytest.Item] = []
    for item in items:
        left = any(item.get_closest_marker(m) for m in left_out)
        (deselected if left else kept).append(item)
    if deselected:  # one pass: `i not in kept` was a scan of 5,000 items for each item
        config.hook.pytest_deselected(items=deselected)
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


#: The mock's PBKDF2, computed once per (password, salt, iterations) in a test process.
_remembered_hash = functools.lru_cache(maxsize=1024)(users.hash_password)


@pytest.fixture(autouse=True)
def _password_hashes_remembered(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mock's password hash, remembered across the tests of a process.

    A password check costs one PBKDF2 of 600 000 rounds (0.1 to 0.2 s of CPU), paid by
    each fresh mock app at its first Basic login of each user: hundreds of tests each
    paid it again for admin/admin, the same bytes every time. The hash stays the real one
    (the seeded users' are checked against it), only computed once a process; a mock's
    own table of outcomes and its count of hashes are untouched. Tests of what a hash
    costs (its queue, its threads, a flood) are marked ``password_cost`` and hash anew.
    """
    if request.node.get_closest_marker("password_cost") is None:
        monkeypatch.setattr(users, "hash_password", _remembered_hash)
