"""The teaching API's domain: what customers, products and orders are.

Entities and their field rules per version (:mod:`.entity`, :mod:`.schemas`,
:mod:`.address`), reading a collection (paging, filters, sort: :mod:`.collection_query`),
what each link relation means (:mod:`.relations`) and long-running jobs
(:mod:`.jobs`). The routes that serve them are in :mod:`mock_server.resources`; the
records themselves in :mod:`mock_server.store`.
"""
