"""Keys a widget owns that work wherever the focus is on its screen.

Textual looks for a key's binding from the focused widget up through its
ancestors to the screen and the app, so a widget's own ``BINDINGS`` act only
while the focus is in it. The browser screen's response tabs and links panel
own keys a person presses from anywhere on the page: ``/`` searches the body
while the links panel has the focus, a digit follows a link while the body has
it. :func:`with_page_keys` gives such widgets ("key owners") a place in the
chain right after their screen, whatever has the focus, as if their keys were
the screen's: the widget keeps its bindings, its actions and its
``check_action``; the key bar and the help show its keys where and when they
showed the screen's (after the screen's own, before the app's).

A key a focused field types (a letter in the URL bar) is taken out of an
owner's bindings, as Textual takes it out of the screen's
(:meth:`~textual.dom.DOMNode.check_consume_key`). That matters most for an
owner's priority keys (``/``, ``|``), which the app runs before the focused
widget sees the key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.keys import key_to_character

__all__ = ["BindingChain", "with_page_keys"]

#: Textual's binding chain: each node and its bindings, the first one asked first.
BindingChain = list[tuple[DOMNode, BindingsMap]]


def with_page_keys(chain: BindingChain, screen: DOMNode, owners: Sequence[DOMNode]) -> BindingChain:
    """``chain`` (Textual's, for ``screen``) with each of ``owners``' bindings right after
    ``screen``'s, in the order given; an owner the focus is in moves there from its
    place among the focused widget's ancestors."""
    if not owners:
        return chain
    kept = [(node, bindings) for node, bindings in chain if node not in owners]
    at = next((n for n, (node, _) in enumerate(kept, 1) if node is screen), len(kept))
    # Only a node that says it may consume keys can (a DOMNode's own answer is no).
    consumers = [
        node
        for node, _ in kept[:at]
        if type(node).check_consume_key is not DOMNode.check_consume_key
    ]
    added = [(owner, _unconsumed(owner, consumers)) for owner in owners]
    return [*kept[:at], *added, *kept[at:]]


#: Each owner class's bindings, made once (a copy is given out each time, as Textual does).
_OWNED: dict[type[DOMNode], BindingsMap] = {}

#: Characters of keys Textual's :func:`~textual.keys.key_to_character` does not know
#: (it looks ``slash`` up as a Unicode name; the character's is SOLIDUS).
_CHARACTERS = {"slash": "/"}


def _character(key: str) -> str | None:
    """The character ``key`` types, if any."""
    return key_to_character(key) or _CHARACTERS.get(key)


def _unconsumed(owner: DOMNode, consumers: Iterable[DOMNode]) -> BindingsMap:
    """``owner``'s bindings, less the keys one of ``consumers`` (asked first) may type."""
    made = _OWNED.get(type(owner))
    if made is None:
        made = _OWNED[type(owner)] = BindingsMap(owner.BINDINGS)
    bindings = made.copy()
    for node in consumers:
        for key in list(bindings.key_to_bindings):
            if node.check_consume_key(key, _character(key)):
                del bindings.key_to_bindings[key]
    return bindings
