"""The course panel: L shows and hides it, ] and [ move between lessons, i and M help,
and the check runs on every exchange the tab makes, whatever key made it."""

from __future__ import annotations

from explorer.core.course.catalog import bundled_course
from tests.explorer.ui.conftest import SIZE, AppFactory, settle
from tests.explorer.ui.course_pilot import compose, course_app, go, opened, send, state, wait


async def test_l_shows_and_hides_the_course_and_its_keys() -> None:
    app = course_app("first-request")
    async with app.run_test(size=SIZE) as pilot:
        panel = await opened(pilot, "first-request")
        assert panel.display
        assert "Task: Open customer 1" in str(panel.query_one("#course-task").render())
        await pilot.press("L")
        await wait(pilot)
        assert not panel.display
        await pilot.press("i")  # the course's keys rest while it is hidden
        assert "Hint" not in state(app)
        await pilot.press("L")
        await wait(pilot)
        assert panel.display
        await pilot.press("i")
        assert state(app).startswith("Hint: ")


async def test_next_and_previous_lessons_reset_and_open_the_start_page() -> None:
    course = bundled_course()
    app = course_app(course.lessons[0].id)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, course.lessons[0].id)
        await pilot.press("right_square_bracket")
        panel = await opened(pilot, course.lessons[1].id)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.url == panel.driver.run.start_url
        await pilot.press("left_square_bracket")
        await opened(pilot, course.lessons[0].id)
        await pilot.press("left_square_bracket")  # the first: stays
        await opened(pilot, course.lessons[0].id)


async def test_show_me_fills_the_composer_and_sending_it_ticks() -> None:
    app = course_app("first-request")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "first-request")
        await pilot.press("M")
        await wait(pilot)
        from explorer.ui.dialogs.composer import ComposerScreen

        assert isinstance(app.screen, ComposerScreen)
        await send(pilot)
        assert state(app).startswith("✓ Done!")


async def test_the_check_sees_what_the_composer_sent() -> None:
    app = course_app("head")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "head")
        await go(pilot, "/customers/1")
        await compose(pilot, method="HEAD")
        await send(pilot)
        assert state(app).startswith("✓ Done!")
        assert "head" in app.browser.course_driver.run.progress.done  # type: ignore[union-attr]


async def test_l_in_any_restwalk_shows_the_bundled_course_and_says_what_it_cannot(
    make_app: AppFactory,
) -> None:
    app = make_app()  # a restwalk on a server it did not start: nothing resets it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await wait(pilot)
        panel = app.browser.course_panel
        assert panel is not None
        assert panel.driver.run.course.title == bundled_course().title
        said = [n.message for n in app._notifications]
        assert any("not reset before each" in message for message in said)


async def test_l_before_any_server_says_to_open_one(make_app: AppFactory) -> None:
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+l", "escape", "L")  # (L from outside the URL bar)
        await settle(pilot)
        assert app.browser.course_panel is None
        assert any("Open the server first" in n.message for n in app._notifications)


async def test_on_a_small_terminal_the_body_links_and_course_all_fit() -> None:
    app = course_app("first-request")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, "first-request")
        screen = app.browser
        widths = [screen.query_one(part).size.width for part in ("#tabs", "#links", "#course")]
        assert all(width >= 20 for width in widths), widths
        course = screen.query_one("#course").region
        assert course.right <= 80
