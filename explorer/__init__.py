"""restwalk: a terminal browser for REST APIs.

``explorer.core`` is the UI-free heart (links, requests, the client,
knowledge); ``explorer.ui`` is the Textual app; ``explorer.cli`` the commands.
"""

__version__ = "0.1.0"
