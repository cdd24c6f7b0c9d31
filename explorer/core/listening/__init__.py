"""Listening: a local endpoint's view of the requests it receives (webhooks, callbacks).

What one request received is (:mod:`.received`), the ASGI app that receives
each within its bounds and answers it (:mod:`.endpoint`), and a Standard
Webhooks signature checked and explained (:mod:`.signature`). The app opens no
socket: ``restwalk listen`` serves it on 127.0.0.1 and prints each request as it
comes.
"""
