"""``run(url)``: the entry point ``restwalk [URL]`` calls."""

from __future__ import annotations

import httpx
import pytest

from explorer.ui import app as app_module


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[app_module.RestwalkApp]:
    """Record the apps ``run`` starts; each checks its URL answers, instead of a terminal."""
    started: list[app_module.RestwalkApp] = []

    def fake_run(self: app_module.RestwalkApp) -> None:
        started.append(self)
        if self.start_url and self.mock_users:  # the bundled mock must be up now
            assert httpx.get(self.start_url).status_code == httpx.codes.OK

    monkeypatch.setattr(app_module.RestwalkApp, "run", fake_run)
    return started


def test_run_without_url_serves_the_bundled_mock_and_opens_its_root(
    launched: list[app_module.RestwalkApp],
) -> None:
    assert app_module.run(None) == 0
    (app,) = launched
    assert app.start_url is not None
    assert app.start_url.startswith("http://127.0.0.1:")
    assert app.start_url.endswith("/")
    assert app.mock_users
    assert app.owns_client
    with pytest.raises(httpx.ConnectError):  # stopped when the app ended
        httpx.get(app.start_url)


def test_run_with_url_opens_it(launched: list[app_module.RestwalkApp]) -> None:
    assert app_module.run("http://127.0.0.1:9/") == 0
    (app,) = launched
    assert app.start_url == "http://127.0.0.1:9/"
    assert not app.mock_users
