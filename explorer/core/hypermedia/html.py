"""HTML ``<a>``, ``<area>``, ``<link>`` and ``<form>``, with the stdlib's tolerant parser.

``html.parser`` never gives up on bad markup, so this module only keeps a stack
of open elements to name where each link is: an element path such as
``html/body/div[2]/a[3]``, where ``[n]`` counts same-name siblings from 1 and
is left out of an inner step when it is 1 (the last step always has it);
nesting deeper than 512 open elements is flattened. End
tags close up to their matching open element; stray ones are ignored;
``<p>``, ``<li>``, ``<option>``, ``<tr>``, ``<td>``... close an open sibling
of the same name, as browsers do.

* ``<a>``/``<area>``: one Link per ``rel`` token (``related`` without one);
  the title is the link's text, or its ``title`` attribute.
* ``<link>``: the same, titled by its ``title`` attribute.
* ``<form>``: an action Link: ``rel`` from its ``rel`` attribute or ``form``,
  ``name`` from ``name`` or ``id``, method GET unless ``post`` (``dialog``
  forms send nothing and are skipped), ``action`` defaulting to the document
  URL, ``enctype`` defaulting to ``application/x-www-form-urlencoded``.
  Fields: named ``<input>`` (not buttons), ``<select>`` (its options;
  selected option as value) and ``<textarea>`` (text as value); radio buttons
  sharing a name are one field whose options are their values. The prompt is
  the field's ``<label>``, else ``placeholder``, else ``title``.

The first ``<base href>`` sets the base URL for every link, as HTML says.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from html.parser import HTMLParser

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.hypermedia.resolve import Resolver

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr", "keygen"}
)
_SELF_CLOSING_SIBLINGS = frozenset({"p", "li", "option", "dt", "dd", "tr", "td", "th"})
#: Elements whose path a Link may carry.
_LINKING = frozenset({"a", "area", "link", "form"})
#: Open elements deeper than this are not tracked: paths stop growing there, and
#: no page of tag soup can make the parser's bookkeeping quadratic.
_MAX_DEPTH = 512
_BUTTONS = frozenset({"submit", "button", "reset", "image"})
_FORM_TYPE = "application/x-www-form-urlencoded"


@dataclass
class _Field:
    name: str
    type: str
    value: str | None = None
    required: bool = False
    prompt: str | None = None
    element_id: str | None = None
    options: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


@dataclass
class _Form:
    attrs: dict[str, str]
    path: str
    fields: list[_Field] = field(default_factory=list)
    radios: dict[str, _Field] = field(default_factory=dict)


@dataclass
class _Pending:
    kind: str  # "a", "link" or "form"
    attrs: dict[str, str]
    path: str
    text: list[str] = field(default_factory=list)
    form: _Form | None = None


class _Element:
    __slots__ = ("counts", "tag")

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.counts: dict[str, int] = {}


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[_Element] = [_Element("")]
        self.steps: list[str] = []
        self.open_tags: dict[str, int] = {}
        self.items: list[_Pending] = []
        self.base_href: str | None = None
        self.anchor: _Pending | None = None
        self.form: _Form | None = None
        self.select: _Field | None = None
        self.option: list[str] | None = None
        self.option_value: str | None = None
        self.option_selected = False
        self.textarea: _Field | None = None
        self.labels: dict[str, list[str]] = {}
        self.label: list[str] | None = None
        self.label_for: str | None = None
        self.label_field: _Field | None = None

    def _path(self, tag: str, push: bool) -> str:
        """Count ``tag`` among its siblings, open it if ``push``; its path if it may matter."""
        parent = self.stack[-1]
        index = parent.counts.get(tag, 0) + 1
        parent.counts[tag] = index
        # Only a few elements ever need their path; building one is O(depth).
        path = "/".join([*self.steps, f"{tag}[{index}]"]) if tag in _LINKING else ""
        if push and len(self.stack) < _MAX_DEPTH:
            self.stack.append(_Element(tag))
            self.steps.append(tag if index == 1 else f"{tag}[{index}]")
            self.open_tags[tag] = self.open_tags.get(tag, 0) + 1
        return path

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SELF_CLOSING_SIBLINGS and self.stack[-1].tag == tag:
            self._close(tag)
        path = self._path(tag, tag not in _VOID)
        self._element(tag, {k: v or "" for k, v in attrs}, path)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, {k: v or "" for k, v in attrs}, self._path(tag, False))
        if tag not in _VOID:
            self._end(tag)

    def _element(self, tag: str, attrs: dict[str, str], path: str) -> None:
        if tag in ("a", "area", "link") and "href" in attrs:
            item = _Pending("link" if tag == "link" else "a", attrs, path)
            self.items.append(item)
            if tag == "a":
                self.anchor = item
        elif tag == "base" and "href" in attrs and self.base_href is None:
            self.base_href = attrs["href"]
        elif tag == "form":
            self.form = _Form(attrs, path)
            self.items.append(_Pending("form", attrs, path, form=self.form))
        elif tag == "label":
            self.label, self.label_for, self.label_field = [], attrs.get("for"), None
        elif self.form is not None:
            self._field(self.form, tag, attrs)

    def _field(self, form: _Form, tag: str, attrs: dict[str, str]) -> None:
        name = attrs.get("name")
        if tag == "option" and self.select is not None:
            self.option, self.option_value = [], attrs.get("value")
            self.option_selected = "selected" in attrs
            return
        if not name or tag not in ("input", "select", "textarea"):
            return
        kind = attrs.get("type", "text").lower() if tag == "input" else tag
        if kind in _BUTTONS:
            return
        prompt = attrs.get("placeholder") or attrs.get("title") or None
        value = attrs.get("value")
        if kind == "radio":
            group = form.radios.get(name)
            if group is None:
                group = _Field(name, kind, prompt=prompt, element_id=attrs.get("id"))
                form.radios[name] = group
                form.fields.append(group)
            group.options.append(value or "on")
            group.required = group.required or "required" in attrs
            if "checked" in attrs:
                group.value = value or "on"
            return
        if kind == "checkbox" and "checked" not in attrs:
            value = None
        entry = _Field(name, kind, value, "required" in attrs, prompt, attrs.get("id"))
        form.fields.append(entry)
        if self.label is not None and not self.label_for:
            self.label_field = entry
        if tag == "select":
            self.select = entry
        elif tag == "textarea":
            self.textarea = entry

    def handle_data(self, data: str) -> None:
        if self.anchor is not None:
            self.anchor.text.append(data)
        if self.option is not None:
            self.option.append(data)
        if self.textarea is not None:
            self.textarea.text.append(data)
        if self.label is not None:
            self.label.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open_tags.get(tag):
            self._close(tag)
        else:
            self._end(tag)

    def _close(self, tag: str) -> None:
        while len(self.stack) > 1:
            element = self.stack.pop()
            self.steps.pop()
            self.open_tags[element.tag] -= 1
            self._end(element.tag)
            if element.tag == tag:
                return

    def _end(self, tag: str) -> None:
        if tag == "a":
            self.anchor = None
        elif tag == "option" and self.option is not None and self.select is not None:
            text = " ".join("".join(self.option).split())
            value = self.option_value if self.option_value is not None else text
            self.select.options.append(value)
            if self.option_selected or (self.select.value is None and self.select.type == "select"):
                self.select.value = value
            self.option = None
        elif tag == "select":
            self._end("option")
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.textarea.value = "".join(self.textarea.text)
            self.textarea = None
        elif tag == "form":
            self.form = None
        elif tag == "label" and self.label is not None:
            if self.label_for:
                self.labels[self.label_for] = self.label
            elif self.label_field is not None:
                self.label_field.prompt = _collapse(self.label) or self.label_field.prompt
            self.label = None


def _collapse(parts: list[str]) -> str | None:
    return " ".join("".join(parts).split()) or None


#: Characters fed to the parser at a time: between two, the collector's bounds are checked.
_FEED = 64 * 1024


def add_html_links(body: str, collector: Collector) -> None:
    """Add the links and forms of an HTML document, in document order.

    The document is parsed a piece at a time, and parsing stops once the
    collector could take no more links or its time is up (html.parser reads
    some 10,000 anchors a second: a page of a million would take minutes).
    """
    parser = _LinkParser()
    try:
        for start in range(0, len(body), _FEED):
            parser.feed(body[start : start + _FEED])
            if collector.limit is not None and len(parser.items) >= collector.limit:
                collector.not_read(collector.limit_reason)
                break
            if collector.deadline is not None and time.monotonic() > collector.deadline:
                collector.not_read(collector.time_reason)
                break
        else:
            parser.close()
    except Exception as error:  # html.parser is tolerant; this is a last guard
        collector.not_read(f"the HTML parser gave up ({error}): the links after were not read")
    resolver = collector.resolver
    if parser.base_href is not None:
        resolver = resolver.with_base(parser.base_href)
    for item in parser.items:
        if item.form is not None:
            _add_form(item.form, parser.labels, resolver, collector)
            continue
        attrs = item.attrs
        href = resolver.resolve(attrs["href"])
        title = _collapse(item.text) if item.kind == "a" else None
        rels = [rel if ":" in rel else rel.lower() for rel in attrs.get("rel", "").split()]
        for rel in dict.fromkeys(rels) or ["related"]:
            collector.add(
                Link(
                    rel=rel,
                    href=href,
                    title=title or attrs.get("title") or None,
                    media_type=attrs.get("type") or None,
                    source=item.path,
                    hreflang=attrs.get("hreflang") or None,
                    attributes=(("media", attrs["media"]),) if "media" in attrs else (),
                ),
                claim=False,
            )


def _add_form(
    form: _Form, labels: dict[str, list[str]], resolver: Resolver, collector: Collector
) -> None:
    attrs = form.attrs
    method = attrs.get("method", "get").strip().upper() or "GET"
    if method == "DIALOG":
        return
    if method not in ("GET", "POST"):
        method = "GET"
    action = attrs.get("action", "").strip()
    # An empty action means the document's own URL, not the <base> one (HTML 4.10.21.3).
    href = resolver.resolve(action) if action else collector.resolver.base
    fields = tuple(
        FormField(
            name=entry.name,
            type=entry.type,
            required=entry.required,
            value=entry.value,
            prompt=_collapse(labels[entry.element_id])
            if entry.element_id in labels and entry.element_id is not None
            else entry.prompt,
            options=tuple(entry.options),
        )
        for entry in form.fields
    )
    rel = attrs.get("rel", "").split()
    collector.add(
        Link(
            rel=rel[0] if rel else "form",
            href=href,
            method=method,
            title=attrs.get("title") or attrs.get("aria-label") or None,
            source=form.path,
            fields=fields,
            content_type=attrs.get("enctype") or _FORM_TYPE,
            name=attrs.get("name") or attrs.get("id") or None,
        ),
        claim=False,
    )
