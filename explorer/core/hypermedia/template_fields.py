"""A templated link's form, bounded: the first variables as fields, the rest as one line.

A server may template a link with any number of variables (``/m{?v0,...,v9999}``);
a form of one input for each grew the TUI to 895 MB and stopped it answering keys.
So the first :data:`MAX_FIELDS` variables (in the order the template names them)
get a field each, and the others are *folded* into one raw line the person edits:
``name=value`` pairs joined by ``&``, as a query string is written (spaces around a
pair are not part of it: a space meant is written ``%20``).

:meth:`TemplateFields.expand` puts both back into the template. The line's pairs
are values of folded variables, percent-decoded first (the template then encodes
each value as its operator says, as it does a field's), so a folded variable of a
path expression (``{/v60}``) is filled as well as one of a query. A name the
template does not have, one that has a field, or one given twice is a
:class:`~explorer.core.hypermedia.templates.TemplateError` naming it: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from explorer.core.hypermedia.templates import TemplateError, expand_template, template_variables
from explorer.core.text.plural import counted

__all__ = ["MAX_FIELDS", "TemplateFields"]

#: Variables given a field of their own; the rest share the raw line. A person fills a
#: few, and 50 inputs are quick to build and to move through.
MAX_FIELDS = 50
#: Folded names shown as an example in the empty raw line.
_EXAMPLE_NAMES = 3


@dataclass(frozen=True)
class TemplateFields:
    """Which variables of ``template`` are fields, and which are folded into the raw line."""

    template: str
    fields: tuple[str, ...]
    folded: tuple[str, ...] = ()

    @classmethod
    def of(cls, template: str, max_fields: int = MAX_FIELDS) -> TemplateFields:
        """The form of ``template``; :class:`TemplateError` when it is malformed."""
        names = template_variables(template)
        return cls(template, tuple(names[:max_fields]), tuple(names[max_fields:]))

    @property
    def folded_note(self) -> str:
        """What to say on screen of the folded variables ("" when there are none)."""
        if not self.folded:
            return ""
        return (
            f"{counted(len(self.folded), 'more variable')} ({self.folded[0]} to "
            f"{self.folded[-1]}) folded into the line below: give any of them as "
            "name=value&name=value; the others stay out of the URL."
        )

    @property
    def example(self) -> str:
        """An example raw line: the first folded names, empty."""
        shown = "&".join(f"{name}=" for name in self.folded[:_EXAMPLE_NAMES])
        return shown + ("&…" if len(self.folded) > _EXAMPLE_NAMES else "")

    def folded_values(self, line: str) -> dict[str, str]:
        """The values the raw ``line`` gives folded variables (``name`` alone: empty)."""
        folded = set(self.folded)
        values: dict[str, str] = {}
        for pair in (piece.strip() for piece in line.split("&")):
            if not pair:
                continue
            written, _, value = pair.partition("=")
            name = unquote(written)
            if name in values:
                raise TemplateError(f"{name!r} is given twice in the line")
            if name in self.fields:
                raise TemplateError(f"{name!r} has its own field above, not in this line")
            if name not in folded:
                among = f" ({self.folded[0]} to {self.folded[-1]})" if self.folded else ""
                raise TemplateError(f"{name!r} is not one of the folded variables{among}")
            values[name] = unquote(value)
        return values

    def expand(self, values: Mapping[str, str | None], line: str = "") -> str:
        """The URL for the fields' ``values`` (None or "": left out) and the raw ``line``."""
        given: dict[str, str | None] = {name: values.get(name) or None for name in self.fields}
        given.update(self.folded_values(line))
        return expand_template(self.template, given)
