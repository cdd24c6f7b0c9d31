"""Events: every change to the data, told as it happens, on streams and to webhooks.

- :mod:`.hub`: the :class:`~mock_server.events.hub.EventHub`, one per server
  (``service.events``): it turns the store's writes into events in the
  event log (:mod:`mock_server.store.event_log`), keeps the newest in memory
  for the streams, and hands those this process made to the webhooks;
- :mod:`.wire`: an event as clients see it: its id (``42-5f3a9c1e``) and its JSON
  document;
- :mod:`.stream`: the ``text/event-stream`` messages of one stream
  (:func:`~mock_server.events.stream.messages`), resumption and gaps included;
- :mod:`.callbacks`: which callback URLs a webhook may have;
- :mod:`.signing`: Standard Webhooks signatures and secrets;
- :mod:`.delivery`: POSTing events to the subscriptions, retried with backoff;
- :mod:`.progress`: a long job's progress, told while it runs;
- :mod:`.describer`: what each change is called and how its resource shows in
  a version, from the entities the app factory gives it.

The routes are :mod:`mock_server.resources.events` and
:mod:`mock_server.resources.webhooks`.
"""
