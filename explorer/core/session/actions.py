"""An action or form link as the request it describes, pre-filled for the composer.

HAL-FORMS templates, Siren actions and HTML forms name a method, a target and
fields; the composer opens with that request and the fields as a JSON body for
the person to fill in.
"""

from __future__ import annotations

import json

from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import FormField, Link

__all__ = ["action_spec", "fields_note"]


def _nested(values: dict[str, object]) -> dict[str, object]:
    """Fields named by dotted paths (``address.city``, as HAL-FORMS servers such as
    Spring HATEOAS name nested properties) become nested objects; a name that clashes
    with another's path (``a`` beside ``a.b``) stays flat."""
    nested: dict[str, object] = {}
    # Plain names first, so that one a path clashes with is kept as it is.
    for name, value in sorted(values.items(), key=lambda item: "." in item[0]):
        *parents, last = name.split(".")
        target = nested
        for part in parents:
            child = target.setdefault(part, {}) if part else None
            if not isinstance(child, dict):
                break
            target = child
        else:
            if last and last not in target:
                target[last] = value
                continue
        nested[name] = value
    return nested


def action_spec(link: Link) -> RequestSpec:
    """The request an action or form link describes: method, target, fields as JSON."""
    body: str | None = None
    content_type = link.content_type
    if link.fields or link.method in ("POST", "PUT", "PATCH"):
        values = _nested({field.name: _initial_value(field) for field in link.fields})
        body = json.dumps(values, indent=2)
        content_type = (
            content_type if content_type and "json" in content_type else "application/json"
        )
    if body is None:
        content_type = None  # a DELETE's form may name a type, but nothing is sent
    return RequestSpec(method=link.method, url=link.href, body=body, content_type=content_type)


def _initial_value(field: FormField) -> object:
    """A field's preset value, or an empty one of its type for the person to fill."""
    if field.value is not None and field.value != ():
        return field.value
    return "" if field.type in ("text", "textarea", "email", "url", "password") else None


def fields_note(link: Link) -> str:
    """One line per field of an action: name (* when required) and its prompt."""
    lines = [
        f"{field.name}{'*' if field.required else ''}: {field.prompt or field.type}"
        for field in link.fields
    ]
    title = f"{link.title}. " if link.title else ""
    if not lines:
        return f"{title}No fields: send it as it is."
    return f"{title}Fill in the body (* required):\n" + "\n".join(lines)
