"""MapTree: the session's map as a tree: resources visited, links asked that got no
answer (with why), links not followed yet (by relation), and links that are not http(s).

It shows what it is given (:meth:`MapTree.show`); the map and which group each
link is in are the core's (:class:`~explorer.core.session.api_map.ApiMap`,
:func:`~explorer.core.survey.map_summary.summarize`, which the CLI's tree reads
too). Each leaf carries the :class:`~explorer.core.hypermedia.link.Link` Enter follows (the
screen says why it does not follow one that is not http(s)). Labels are ``Text``
built from plain strings through the terminal filter: a template, a relation, a
media type or an error's reason is never markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.core.hypermedia.link import Link
from explorer.core.session.api_map import ApiMap
from explorer.core.session.map_resources import Resource
from explorer.core.survey.map_summary import SHOWN, MapSummary, NoAnswer, summarize
from explorer.core.text.plural import counted
from explorer.core.text.terminal_text import visible_line

__all__ = ["MapTree"]


def _resource_label(resource: Resource, many_origins: bool) -> Text:
    name = resource.key if many_origins else resource.template
    label = Text(visible_line(name), style="bold" if resource.visited else "dim")
    facts: list[str] = []
    if resource.statuses:
        facts.append(" ".join(str(status) for status, _ in resource.statuses))
    else:
        facts.append("not visited")
    facts.extend(resource.media_types[:2])
    if resource.known > 1:
        facts.append(f"{resource.visited} of {resource.known} URLs")
    methods = [method for method, _ in resource.methods]
    if methods:
        facts.append(" ".join(methods))
    label.append("  " + visible_line(" · ".join(facts)), style="dim")
    return label


def _no_answer_label(failure: NoAnswer, origin: str) -> Text:
    label = Text(visible_line(failure.url.removeprefix(origin) or "/"))
    if failure.link.rel != "map":
        label.append("  ← " + visible_line(failure.link.rel), style="dim")
    label.append("  " + visible_line(failure.reason), style="red")
    return label


def _not_http_label(link: Link) -> Text:
    return Text.assemble(visible_line(link.href), ("  ← " + visible_line(link.rel), "dim"))


def _more(parent: TreeNode[Link], count: int) -> None:
    """A last leaf saying how many were left out, when more than :data:`SHOWN`."""
    if count > SHOWN:
        parent.add_leaf(Text(f"… and {count - SHOWN} more", "dim"))


def _link_label(link: Link, origin: str) -> Text:
    href = link.href.removeprefix(origin) or "/"
    label = Text(visible_line(href))
    if link.templated:
        label.append("  ✎ template", style="dim")
    if link.title:
        label.append("  " + visible_line(link.title[:60]), style="dim")
    if link.guess:
        label.append("  (guessed)", style="dim italic")
    return label


class MapTree(Tree[Link]):
    """Resources visited (Enter opens one), links that got no answer, links not followed
    yet by relation, and links that are not http(s)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("The map", id=id)
        self.show_root = False
        self.guide_depth = 3
        self._version = -1

    def show(self, api_map: ApiMap, *, force: bool = False) -> MapSummary | None:
        """Draw ``api_map`` (again only when it changed, or ``force``); the summary drawn,
        or None when nothing changed."""
        if not force and api_map.version == self._version:
            return None
        self._version = api_map.version
        expanded = self._expanded_names()
        self.clear()
        resources = api_map.resources()
        many = len({r.origin for r in resources}) > 1
        origin = resources[0].origin if resources and not many else ""
        visited = [r for r in resources if r.visited]
        pages = self.root.add(
            Text(
                f"Visited: {counted(api_map.visited_count, 'page')} of "
                f"{counted(len(visited), 'resource')}",
                "bold",
            ),
            expand=True,
        )
        for resource in visited:
            self._add_resource(pages, resource, many, expanded)
        summary = summarize(api_map)
        if summary.no_answer:
            failed = self._group("No answer", len(summary.no_answer), "asked, and failed")
            for failure in summary.no_answer[:SHOWN]:
                failed.add_leaf(_no_answer_label(failure, origin), data=failure.link)
            _more(failed, len(summary.no_answer))
        seen = self.root.add(
            Text(f"Not followed yet: {counted(summary.waiting, 'link')}, by relation", "bold"),
            expand=True,
        )
        for rel, links in summary.unfollowed.items():
            branch = seen.add(
                Text.assemble((visible_line(rel), "bold"), (f"  {len(links)}", "dim")),
                expand=visible_line(rel) in expanded,
            )
            for link in links[:SHOWN]:
                branch.add_leaf(_link_label(link, origin), data=link)
            _more(branch, len(links))
        if summary.not_http:
            odd = self._group(
                "Not http(s)", len(summary.not_http), "restwalk follows http and https only"
            )
            for link in summary.not_http[:SHOWN]:
                odd.add_leaf(_not_http_label(link), data=link)
            _more(odd, len(summary.not_http))
        return summary

    def _expanded_names(self) -> set[str]:
        """The names (a label's first part) of the nodes open now: kept open when redrawn."""
        names: set[str] = set()
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.is_expanded:
                label = node.label
                plain = label.plain if isinstance(label, Text) else str(label)
                names.add(plain.split("  ", 1)[0])
                stack.extend(node.children)
        return names

    def _group(self, name: str, count: int, note: str) -> TreeNode[Link]:
        """A group of links under the root, open: its name, how many, and a word on it."""
        return self.root.add(
            Text.assemble((f"{name}: {counted(count, 'link')}", "bold"), (f"  {note}", "dim")),
            expand=True,
        )

    def _add_resource(
        self, parent: TreeNode[Link], resource: Resource, many: bool, expanded: set[str]
    ) -> None:
        label = _resource_label(resource, many)
        first = Link("map", resource.examples[0]) if resource.examples else None
        name = resource.key if many else resource.template
        node = parent.add(label, data=first, expand=visible_line(name) in expanded)
        for url in resource.examples:
            node.add_leaf(
                Text(visible_line(url.removeprefix(resource.origin) or "/")), data=Link("map", url)
            )
        for template in resource.uri_templates:
            node.add_leaf(
                Text.assemble(visible_line(template), ("  ✎ template", "dim")),
                data=Link("map", resource.origin + template, templated=True),
            )
