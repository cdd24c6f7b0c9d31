"""One operation of the document, compiled once: its request checks, and what its
answers cost to make (validators, static values, whether HAL links fit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs

from mock_server.contract.document import DocumentError
from mock_server.contract.generate import validator
from mock_server.contract.operations import Content, Operation, ResponseSpec
from mock_server.contract.validation import operation_checks


@dataclass
class Served:
    """One operation, compiled: its checks, and what its answers cost to make once."""

    operation: Operation
    seed: str
    checks: Any = None
    body: Any = None
    #: (status, media type) → validator of that answer's schema.
    validators: dict[tuple[str, str], jsonschema_rs.Validator] = field(default_factory=dict)
    #: (status, media type, example) → the static value of that answer.
    values: dict[tuple[str, str, str], Any] = field(default_factory=dict)
    #: (status, media type) → whether its schema accepts HAL ``_links`` added.
    carries_links: dict[tuple[str, str], bool] = field(default_factory=dict)
    dynamic_count: int = 0

    def __post_init__(self) -> None:
        try:
            self.checks, self.body = operation_checks(self.operation)
        except DocumentError as error:
            raise DocumentError(f"{self.operation.label}, {error}") from None

    def validator_for(
        self, response: ResponseSpec, content: Content
    ) -> jsonschema_rs.Validator | None:
        """The compiled schema of one answer (None when it has no schema)."""
        if content.schema is None:
            return None
        key = (response.status, content.media_type)
        found = self.validators.get(key)
        if found is None:
            where = f"{self.operation.label}, answer {response.status} ({content.media_type})"
            found = self.validators[key] = validator(content.schema, where)
        return found
