"""How the composer's fields say a body: text, ``@path`` for a file, or form rows.

The composer has a body editor and a table of form fields. A body that is
only ``@path`` sends that file; form rows (name, value) make a
``multipart/form-data`` body, a value ``@path;type=...`` being a file, as
curl's ``-F`` writes it. These two functions go from a request to the fields
and back.
"""

from __future__ import annotations

import re

from explorer.core.carry.curl import form_field, form_value
from explorer.core.http.request import RequestSpec
from explorer.core.http.upload import FormPart

__all__ = ["body_fields", "body_from_fields"]

#: A body that is only a file reference: ``@path`` on one line.
_FILE_BODY = re.compile(r"@(\S[^\n]*)")


def body_fields(spec: RequestSpec) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The body editor's text and the form rows that show ``spec``'s body."""
    rows = tuple((part.name, form_value(part)) for part in spec.form)
    if spec.body_file is not None:
        return f"@{spec.body_file}", rows
    body = spec.body
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else (body or "")
    return text, rows


def body_from_fields(
    text: str, rows: tuple[tuple[str, str], ...]
) -> tuple[str | None, str | None, tuple[FormPart, ...]]:
    """The body, body file and form parts the composer's fields say.

    Form rows with a name make the form (a body typed too is then an error the
    preview names); a body of only ``@path`` is that file; blank text is no body.
    """
    form = tuple(form_field(name, value) for name, value in rows if name.strip())
    match = _FILE_BODY.fullmatch(text.strip())
    if match is not None:
        return None, match.group(1).strip(), form
    return (text if text.strip() else None), None, form
