"""Password hashing is slow on purpose, and paid once per (user, password) pair.

A wrong password repeated costs one hash, not one each time; a burst of
requests with the same credentials pays one hash before the others find the
outcome; one account's passwords are hashed one at a time (fairness between
accounts and the backoff: ``test_login_flood.py``).
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from mock_server import create_app
from mock_server.auth.users import REMEMBERED_MAX, Users
from tests.mock_server.conftest import asgi_client, basic, make_settings

#: Every hash paid in full, as a server pays it (see tests/conftest.py).
pytestmark = pytest.mark.password_cost


def test_a_wrong_password_repeated_is_hashed_once() -> None:
    users = Users()
    for _ in range(3):
        assert users.authenticate("alice", "not-wonderland") is None
    assert users.authenticate("nobody", "x") is None
    assert users.authenticate("nobody", "x") is None
    assert users.hashes == 2


def test_a_right_password_is_hashed_once_and_a_wrong_one_stays_wrong() -> None:
    users = Users()
    alice = users.authenticate("alice", "wonderland")
    assert alice is not None
    assert alice.role == "editor"
    assert users.authenticate("alice", "wonderland") == alice
    assert users.authenticate("alice", "wonderland ") is None
    assert users.authenticate("bob", "wonderland") is None
    assert users.hashes == 3


def test_a_burst_of_the_same_credentials_pays_one_hash() -> None:
    users = Users()
    start = threading.Barrier(8)
    results: list[object] = []

    def login() -> None:
        start.wait()
        results.append(users.authenticate("bob", "builder"))

    threads = [threading.Thread(target=login) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(results) == 8
    assert all(user is not None and user.name == "bob" for user in results)
    assert users.hashes == 1


def test_the_table_of_outcomes_is_bounded() -> None:
    users = Users()
    for n in range(REMEMBERED_MAX + 5):
        users._remember("alice", f"guess {n}", None)
    assert len(users._outcomes) == REMEMBERED_MAX
    assert users.recall("alice", "guess 0") == (False, None)
    assert users.recall("alice", f"guess {REMEMBERED_MAX + 4}") == (True, None)


async def test_concurrent_requests_with_one_wrong_password_pay_one_hash() -> None:
    app = create_app(make_settings())
    wrong = basic("admin", "guess")
    async with asgi_client(app) as client:
        answers = await asyncio.gather(*(client.get("/orders", headers=wrong) for _ in range(6)))
    assert [answer.status_code for answer in answers] == [401] * 6
    assert app.service.auth.users.hashes == 1
