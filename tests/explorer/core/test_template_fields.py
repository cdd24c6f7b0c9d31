"""A templated link's form is bounded: the first variables are fields, the rest one raw
line read back into the template; no terminal needed to check it."""

from __future__ import annotations

import time

import pytest

from explorer.core.hypermedia.template_fields import MAX_FIELDS, TemplateFields
from explorer.core.hypermedia.templates import TemplateError

MANY = "/m{?" + ",".join(f"v{n}" for n in range(10_000)) + "}"


def test_a_template_of_few_variables_is_all_fields() -> None:
    form = TemplateFields.of("/customers{?name,city}{&page}")
    assert form.fields == ("name", "city", "page")
    assert form.folded == ()
    assert form.folded_note == ""
    assert form.expand({"name": "Ada Lovelace", "city": None, "page": ""}) == (
        "/customers?name=Ada%20Lovelace"
    )
    with pytest.raises(TemplateError, match=r"'q' is not one of the folded variables$"):
        form.expand({}, "q=1")


def test_ten_thousand_variables_are_fifty_fields_and_one_line() -> None:
    started = time.perf_counter()
    form = TemplateFields.of(MANY)
    assert form.fields == tuple(f"v{n}" for n in range(MAX_FIELDS))
    assert len(form.folded) == 10_000 - MAX_FIELDS
    assert form.folded[0] == f"v{MAX_FIELDS}"
    assert form.folded_note.startswith("9,950 more variables (v50 to v9999) folded")
    assert form.example == "v50=&v51=&v52=&…"
    url = form.expand({"v3": "x"}, "v9999=last&v77=a%20b&v60")
    assert url == "/m?v3=x&v60=&v77=a%20b&v9999=last"
    assert time.perf_counter() - started < 2


def test_the_line_fills_folded_variables_wherever_the_template_puts_them() -> None:
    form = TemplateFields.of("/a{/p0,p1}{?q}", max_fields=1)
    assert (form.fields, form.folded) == (("p0",), ("p1", "q"))
    assert form.expand({"p0": "x"}, "p1=y/z&q=%E2%82%AC") == "/a/x/y%2Fz?q=%E2%82%AC"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("nope=1", r"'nope' is not one of the folded variables \(v50 to v9999\)"),
        ("v3=1", "'v3' has its own field above, not in this line"),
        ("v60=1&v60=2", "'v60' is given twice"),
    ],
)
def test_a_line_naming_anything_else_is_refused_naming_it(line: str, said: str) -> None:
    form = TemplateFields.of(MANY)
    with pytest.raises(TemplateError, match=said):
        form.expand({}, line)


def test_an_empty_line_and_stray_ampersands_add_nothing() -> None:
    form = TemplateFields.of(MANY)
    assert form.expand({}, "") == "/m"
    assert form.expand({}, " && v50=1 & v51=%20 ") == "/m?v50=1&v51=%20"


def test_a_malformed_template_is_a_template_error() -> None:
    with pytest.raises(TemplateError):
        TemplateFields.of("/m{?a")
