"""A regular expression compiled the first time it is used, not when its module is imported.

``restwalk``'s first screen imports some two hundred of its modules, and a pattern
compiled at import costs that start whether or not the screen ever uses it (a
``re.compile`` is a pure-Python parse, a tenth of a millisecond or more each). A module
whose pattern serves a later step (a login's challenge, a folded API map, a scp-like
URL) holds a :class:`LazyPattern` instead: the same methods, compiled on the first
call of one. Patterns the first screen does use stay plain ``re.compile``: there is
nothing to save in putting them off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import AnyStr, Generic

__all__ = ["LazyPattern"]

#: The methods of a compiled pattern a :class:`LazyPattern` stands in for.
_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "split", "sub")


class LazyPattern(Generic[AnyStr]):
    """``re.compile(pattern, flags)``, done on the first match, search or substitution.

    The first call of a method compiles the pattern and puts the compiled pattern's own
    methods on this object in place of its own: later calls go straight to them, as fast
    as on a pattern compiled at import (a folded API map calls them for every segment of
    thousands of URLs). Two threads meeting it first may both compile it: the same
    pattern, either one kept.
    """

    def __init__(self, pattern: AnyStr, flags: int = 0) -> None:
        self.pattern: AnyStr = pattern
        self.flags = flags

    @property
    def is_compiled(self) -> bool:
        """Whether it has been used (and so compiled) yet."""
        return "match" in vars(self)

    def _compile(self) -> re.Pattern[AnyStr]:
        compiled = re.compile(self.pattern, self.flags)
        vars(self).update({name: getattr(compiled, name) for name in _METHODS})
        return compiled

    def match(self, string: AnyStr, pos: int = 0) -> re.Match[AnyStr] | None:
        """:meth:`re.Pattern.match`."""
        return self._compile().match(string, pos)

    def fullmatch(self, string: AnyStr) -> re.Match[AnyStr] | None:
        """:meth:`re.Pattern.fullmatch`."""
        return self._compile().fullmatch(string)

    def search(self, string: AnyStr, pos: int = 0) -> re.Match[AnyStr] | None:
        """:meth:`re.Pattern.search`."""
        return self._compile().search(string, pos)

    def finditer(self, string: AnyStr) -> Iterator[re.Match[AnyStr]]:
        """:meth:`re.Pattern.finditer`."""
        return self._compile().finditer(string)

    def findall(self, string: AnyStr) -> list[AnyStr]:
        """:meth:`re.Pattern.findall` (of a pattern without groups: the matches)."""
        return self._compile().findall(string)

    def split(self, string: AnyStr) -> list[AnyStr]:
        """:meth:`re.Pattern.split` (of a pattern without groups)."""
        return self._compile().split(string)

    def sub(
        self, repl: AnyStr | Callable[[re.Match[AnyStr]], AnyStr], string: AnyStr, count: int = 0
    ) -> AnyStr:
        """:meth:`re.Pattern.sub`."""
        return self._compile().sub(repl, string, count)
