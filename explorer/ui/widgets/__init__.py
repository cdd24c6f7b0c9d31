"""Widgets of the browser screen. They show what they are given, own their keys, and post
what the person did up as their own messages (nested classes); the screen handles them.

Some own keys that work wherever the focus is on the browser screen (the response
tabs, the links panel, the two badges of the URL row: see :mod:`explorer.ui.page_keys`).
No widget sends a request: what goes on the network is the screen's workers'.
"""
