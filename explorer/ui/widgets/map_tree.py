"""MapTree: the session's map as a tree: resources visited, and links not followed yet, by relation.

It shows what it is given (:meth:`MapTree.show`); the map itself is the core's
(:class:`~explorer.core.survey.api_map.ApiMap`). Each leaf carries the
:class:`~explorer.core.link.Link` Enter follows. Labels are ``Text`` built from
plain strings: a template, a relation or a media type is never markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.core.link import Link
from explorer.core.plural import counted
from explorer.core.survey.api_map import ApiMap, Resource
from explorer.core.terminal_text import visible_line

__all__ = ["MapTree"]

#: Links listed per relation before "and N more".
MAX_PER_REL = 50


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
    """Resources visited (Enter opens one), then the links not followed yet, by relation."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("The map", id=id)
        self.show_root = False
        self.guide_depth = 3
        self._version = -1

    def show(self, api_map: ApiMap, *, force: bool = False) -> bool:
        """Draw ``api_map`` (again only when it changed, or ``force``); True when drawn."""
        if not force and api_map.version == self._version:
            return False
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
        waiting = api_map.unfollowed()
        count = sum(len(links) for links in waiting.values())
        seen = self.root.add(
            Text(f"Not followed yet: {counted(count, 'link')}, by relation", "bold"), expand=True
        )
        for rel, links in waiting.items():
            branch = seen.add(
                Text.assemble((visible_line(rel), "bold"), (f"  {len(links)}", "dim")),
                expand=visible_line(rel) in expanded,
            )
            for link in links[:MAX_PER_REL]:
                branch.add_leaf(_link_label(link, origin), data=link)
            if len(links) > MAX_PER_REL:
                branch.add_leaf(Text(f"… and {len(links) - MAX_PER_REL} more", "dim"))
        return True

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
