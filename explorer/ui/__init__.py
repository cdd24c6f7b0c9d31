"""The Textual app ``restwalk``: screens, dialogs and widgets over :mod:`explorer.core`.

``explorer.ui.app`` wires the screens together; :func:`explorer.ui.app.run` is what
``restwalk [URL]`` calls.
"""
