"""Folding URLs into resource templates (explorer.core.session.fold)."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from explorer.core.session.fold import Folder, identifier_shape, template_path


def test_identifiers_fold_by_their_shape() -> None:
    folder = Folder()
    assert folder.fold("http://x/customers/42") == "/customers/{id}"
    assert folder.fold("/jobs/0b4f0c1e-6a1e-4f43-9a3c-7c0c2a8d1f00") == "/jobs/{id}"
    assert folder.fold("/books/6b06786dd2d0f2e39f66393b") == "/books/{id}"  # Eve's ObjectId
    assert folder.fold("/charges/ch_3MmlLrLkdIwHu7ix") == "/charges/{id}"
    assert folder.fold("/Books(11)") == "/Books({id})"  # OData keys
    assert folder.fold("/People('russell')") == "/People({id})"
    assert folder.fold("/a/1/b/2") == "/a/{id}/b/{id2}"


def test_words_versions_and_trailing_slashes_stay() -> None:
    folder = Folder()
    assert folder.fold("/v2/customers/7") == "/v2/customers/{id}"
    assert folder.fold("/books/11/") == "/books/{id}/"  # Django REST Framework's
    assert folder.fold("/x/deadbeef") == "/x/deadbeef"  # hex letters alone are a word
    assert folder.fold("/oauth2-authorization") == "/oauth2-authorization"
    assert folder.fold("/customers?limit=2&offset=4") == "/customers"
    assert folder.fold("http://x") == "/"
    assert identifier_shape("v2") is None
    assert identifier_shape("Books(abc)") is None


def test_slugs_fold_once_a_collection_lists_several_as_items() -> None:
    folder = Folder()
    assert folder.fold("/authors/ursula-le-guin") == "/authors/ursula-le-guin"
    assert not folder.learn_item("http://x/authors/ursula-le-guin")
    assert folder.learn_item("http://x/authors/octavia-butler")  # two siblings: a pattern
    assert folder.fold("/authors/ursula-le-guin") == "/authors/{id}"
    assert folder.fold("/authors/octavia-butler/books") == "/authors/{id}/books"
    # A word never met as an item stays a resource of its own.
    assert folder.fold("/authors/search") == "/authors/search"


def test_templates_fold_like_the_urls_they_make() -> None:
    folder = Folder()
    assert template_path("/customers{?name,city}") == "/customers"
    assert folder.fold_template("/status/{code}") == "/status/{id}"
    assert folder.fold_template("/cookies/set/{name}/{value}") == "/cookies/set/{id}/{id2}"
    assert folder.fold_template("/bytes/{n}{?seed}") == folder.fold("/bytes/512")


segment = st.text(string.ascii_letters + string.digits + "-_.~%()'", min_size=1, max_size=20)


@given(st.lists(segment, max_size=6))
def test_a_template_folds_into_itself(segments: list[str]) -> None:
    folder = Folder()
    template = folder.fold("/" + "/".join(segments))
    assert template.startswith("/")
    assert folder.fold_template(template) == template
