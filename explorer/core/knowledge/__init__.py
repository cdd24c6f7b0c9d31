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

from explorer.core.knowledge.advice import advise
from explorer.core.knowledge.caching import CachingVerdict, explain_caching
from explorer.core.knowledge.constraints import (
    all_constraints,
    constraint_info,
    explain_hypermedia,
    explain_response,
)
from explorer.core.knowledge.explain import (
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
from explorer.core.knowledge.methods import all_methods, is_method_token, method_info, method_names
from explorer.core.knowledge.model import (
    Cacheability,
    ConstraintInfo,
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
