"""Your API from its OpenAPI description: ``restwalk-mock --openapi api.yaml``.

Not the mock's own description (that is :mod:`mock_server.openapi`): this serves
any OpenAPI 3.0 or 3.1 document, statefully where its paths are collections.

- :mod:`.document` reads the document, YAML or JSON, following local ``$ref``\\ s;
- :mod:`.schemas` makes each schema a self-contained JSON Schema 2020-12;
- :mod:`.operations` reads the operations as plain data;
- :mod:`.params` and :mod:`.validation` read and check a request (400, 422);
- :mod:`.security` enforces the security schemes (401), with the OAuth 2.0 hook;
- :mod:`.negotiate` picks the documented answer, as Prism does (``Prefer``);
- :mod:`.generate` and :mod:`.patterns` make values from schemas, per ``--seed``;
- :mod:`.shapes`, :mod:`.members` and :mod:`.stateful` are the collections;
- :mod:`.links` and :mod:`.render` make the answer: links, bytes, headers
  (:mod:`.xml_body` reads and writes XML bodies by the schema's ``xml`` hints);
- :mod:`.served` is one operation compiled once; :mod:`.base_path` explains a 404
  for a path asked for behind the servers' base path;
- :mod:`.api` puts it together as routes (:class:`ContractApi`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from mock_server.auth import Authenticator
from mock_server.contract.api import ContractApi
from mock_server.contract.document import DocumentError, load
from mock_server.settings import Settings

__all__ = ["ContractApi", "DocumentError", "check_contract", "open_contract"]


def open_contract(
    settings: Settings, auth: Authenticator, clock: Callable[[], float]
) -> ContractApi:
    """The document of ``settings.openapi``, ready to serve; :class:`DocumentError` if bad."""
    assert settings.openapi is not None
    return ContractApi(
        load(settings.openapi),
        auth=auth,
        clock=clock,
        seed=settings.seed,
        stateless=settings.stateless,
        api_keys=frozenset(settings.api_keys),
    )


def check_contract(settings: Settings) -> None:
    """Everything :func:`open_contract` will need, made once to see that it can be:
    the document read, every schema compiled (its parameters', bodies' and answers'),
    the collections found. :class:`DocumentError` (one line) when the document is bad,
    so the command line refuses it at start rather than failing on a request."""
    contract = open_contract(settings, Authenticator(b"checking the document"), time.time)
    for served in contract.served.values():
        for response in served.operation.responses:
            for content in response.contents:
                served.validator_for(response, content)
