"""A browser for the OAuth consent pages: it reads the HTML form and submits it as a
browser would (its hidden fields, the inputs filled in, the button pressed), keeping
cookies, following no redirect, and saying where the form comes from as browsers do:
``Sec-Fetch-Site``, and ``Origin`` as the page's ``Referrer-Policy`` lets it (the Fetch
standard: under ``no-referrer`` a POST says ``Origin: null``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx


@dataclass
class Form:
    """One ``<form>``: where it goes, how, and its fields and buttons."""

    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    buttons: dict[str, tuple[str, str]] = field(default_factory=dict)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(Form(found.get("action", ""), found.get("method", "get").lower()))
        elif tag == "input" and self.forms and "name" in found:
            self.forms[-1].fields[found["name"]] = found.get("value", "")
        elif tag == "button" and self.forms and "name" in found:
            self.forms[-1].buttons[found["value"]] = (found["name"], found["value"])

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


@dataclass
class Page:
    """A page as the browser got it: the response, its forms, its text."""

    response: httpx.Response
    forms: list[Form]
    text: str


def read_page(response: httpx.Response) -> Page:
    """The page's forms and visible text (entities decoded, as a browser shows them)."""
    parser = _FormParser()
    parser.feed(response.text)
    return Page(response, parser.forms, "".join(parser.texts))


def query_of(location: str) -> dict[str, str]:
    """The parameters of a redirect's query, each once."""
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


class Browser:
    """One browser: its cookies, and the pages it opened."""

    def __init__(self, base_url: str) -> None:
        self.client = httpx.Client(base_url=base_url, follow_redirects=False, timeout=10)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.client.close()

    def open(self, url: str) -> Page:
        """GET ``url`` (absolute, or a path on the server)."""
        return read_page(self.client.get(url))

    def submit(
        self,
        page: Page,
        button: str | None,
        filled: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """Submit the page's first form: its fields, ``filled`` typed in, ``button`` pressed."""
        form = page.forms[0]
        values = {**form.fields, **(filled or {})}
        if button is not None:
            name, value = form.buttons[button]
            values[name] = value
        target = urljoin(str(page.response.url), form.action)
        # ``headers`` override the browser's; an empty value leaves that header out.
        given = {**self.provenance(page, target), **(headers or {})}
        sent = {name: value for name, value in given.items() if value}
        if form.method == "get":
            return self.client.get(target, params=values, headers=sent)
        return self.client.post(target, data=values, headers=sent)

    @staticmethod
    def provenance(page: Page, target: str) -> dict[str, str]:
        """The ``Origin`` and ``Sec-Fetch-Site`` a browser sends with a form of ``page``
        posted to ``target`` (the Fetch standard's "serializing a request origin")."""
        shown_at = httpx.URL(str(page.response.url))
        to = httpx.URL(target)
        page_origin = f"{shown_at.scheme}://{shown_at.netloc.decode('ascii')}"
        same = (shown_at.scheme, shown_at.netloc) == (to.scheme, to.netloc)
        policy = page.response.headers.get("referrer-policy", "strict-origin-when-cross-origin")
        hidden = policy == "no-referrer" or (policy == "same-origin" and not same)
        return {
            "Origin": "null" if hidden else page_origin,
            "Sec-Fetch-Site": "same-origin" if same else "cross-site",
        }
