"""The knowledge base: HTTP status codes, headers, methods, REST constraints, versions.

"Learn HTTP on the way": every entry says the protocol's rule, what it means for the
user now, and what to do next. Pure data and small functions, no I/O, no Textual.

Lookups are case-insensitive::

    status_info(418).phrase          # "I'm a teapot"
    header_info("retry-after").name  # "Retry-After"
    explain("PATCH").to_text()       # plain text for `restwalk explain PATCH`
    advise(401, headers)             # next steps read from the response's own headers
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.core.knowledge.advice import advise
    from explorer.core.knowledge.caching import CachingVerdict, explain_caching
    from explorer.core.knowledge.constraints import (
        ConstraintInfo,
        all_constraints,
        constraint_info,
        explain_hypermedia,
        explain_response,
    )
    from explorer.core.knowledge.explanations import (
        Explanation,
        Kind,
        Section,
        all_explanations,
        explain,
        search,
        status_in_response,
    )
    from explorer.core.knowledge.headers import (
        all_headers,
        canonical_name,
        header_info,
        header_names,
    )
    from explorer.core.knowledge.methods import (
        all_methods,
        is_method_token,
        method_info,
        method_names,
    )
    from explorer.core.knowledge.model import (
        Cacheability,
        HeaderInfo,
        MethodInfo,
        StatusClass,
        StatusInfo,
        Usage,
    )
    from explorer.core.knowledge.protocols import ProtocolInfo, all_protocols, protocol_info
    from explorer.core.knowledge.statuses import (
        all_classes,
        all_statuses,
        status_class,
        status_info,
        statuses_in_class,
    )
    from explorer.core.knowledge.versioning import VersioningInfo, all_versioning, versioning_info

#: The module each name below comes from, imported when the name is first used: the
#: TUI's first page needs a few of them (a login's challenges, the advice on a
#: response), and its first screen does not wait for the rest (every explanation).
_MODULES = {
    "Cacheability": "model",
    "CachingVerdict": "caching",
    "ConstraintInfo": "constraints",
    "Explanation": "explanations",
    "HeaderInfo": "model",
    "Kind": "explanations",
    "MethodInfo": "model",
    "ProtocolInfo": "protocols",
    "Section": "explanations",
    "StatusClass": "model",
    "StatusInfo": "model",
    "Usage": "model",
    "VersioningInfo": "versioning",
    "advise": "advice",
    "all_classes": "statuses",
    "all_constraints": "constraints",
    "all_explanations": "explanations",
    "all_headers": "headers",
    "all_methods": "methods",
    "all_protocols": "protocols",
    "all_statuses": "statuses",
    "all_versioning": "versioning",
    "canonical_name": "headers",
    "constraint_info": "constraints",
    "explain": "explanations",
    "explain_caching": "caching",
    "explain_hypermedia": "constraints",
    "explain_response": "constraints",
    "header_info": "headers",
    "header_names": "headers",
    "is_method_token": "methods",
    "method_info": "methods",
    "method_names": "methods",
    "protocol_info": "protocols",
    "search": "explanations",
    "status_class": "statuses",
    "status_in_response": "explanations",
    "status_info": "statuses",
    "statuses_in_class": "statuses",
    "versioning_info": "versioning",
}


def __getattr__(name: str) -> object:
    """``name`` from the module that defines it (PEP 562), imported now."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Cacheability",
    "CachingVerdict",
    "ConstraintInfo",
    "Explanation",
    "HeaderInfo",
    "Kind",
    "MethodInfo",
    "ProtocolInfo",
    "Section",
    "StatusClass",
    "StatusInfo",
    "Usage",
    "VersioningInfo",
    "advise",
    "all_classes",
    "all_constraints",
    "all_explanations",
    "all_headers",
    "all_methods",
    "all_protocols",
    "all_statuses",
    "all_versioning",
    "canonical_name",
    "constraint_info",
    "explain",
    "explain_caching",
    "explain_hypermedia",
    "explain_response",
    "header_info",
    "header_names",
    "is_method_token",
    "method_info",
    "method_names",
    "protocol_info",
    "search",
    "status_class",
    "status_in_response",
    "status_info",
    "statuses_in_class",
    "versioning_info",
]
