"""json-server's query parameters, and what a collection here takes instead.

Someone who served a ``db.json`` with json-server and moves to ``--data`` sends
its parameters (``_sort``, ``_page``, ``views_gte``...) out of habit; here
they are unknown, hence a 400 (a typo must not return everything), and the
400 is where to say what to write instead. json-server 0.17 and 1.0 both:
``_sort``/``_order``, ``_page``/``_limit``/``_per_page``, ``_start``/``_end``,
``_embed``/``_expand``, ``FIELD_gte`` and the other operators (``FIELD:gte``
in 1.0), ``id=1&id=2``.
"""

from __future__ import annotations

import re
from collections.abc import Collection

#: json-server's operators on a field: ``views_gte=10`` (0.17), ``views:gte=10`` (1.0).
_OPERATOR = re.compile(r"^(?P<field>.+?)(?:_|:)(?P<op>gte|lte|gt|lt|ne|like|contains)$")

_PAGING = "pages are limit and offset here (limit=10&offset=20: the third page of 10)"
_SORT = "sort here is sort=FIELD, sort=-FIELD for descending, comma-separated for ties"


def json_server_hint(name: str, known: Collection[str], path: str) -> str:
    """What to write instead of json-server's parameter ``name``, as a sentence; ``""``
    when ``name`` is not one of json-server's. ``known`` is what the collection at
    ``path`` takes."""
    if name in ("_sort", "_order"):
        return f" json-server's {name}: {_SORT}."
    if name in ("_page", "_limit", "_per_page", "_start", "_end"):
        return f" json-server's {name}: {_PAGING}."
    if name in ("_embed", "_expand"):
        if "embed" in known:
            return f" json-server's {name}: embed=NAME here, for the members linked both ways."
        return ""
    if name == "id":
        return f" A member is read at its own URL ({path}/1), not by an id filter."
    found = _OPERATOR.match(name)
    if found is not None and found["field"] in known:
        field = found["field"]
        return (
            f" json-server's {found['op']} operator is not served: {field}=VALUE matches "
            "exactly" + (", q=TEXT searches every text field." if "q" in known else ".")
        )
    return ""
