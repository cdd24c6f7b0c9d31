"""``restwalk serve``'s web server: restwalk as a web page, a process of its own per tab.

textual-serve runs one process per browser connection and relays its screen over a
websocket to xterm.js in the page. Here that process is a restwalk of its own (the TUI,
or the course), with its own data directory and its own bundled mock server
(:mod:`~explorer.cli.serving.session`); the server (:mod:`~explorer.cli.serving.server`)
serves the page, textual-serve's scripts and the websocket, and nothing else; what a
request or a message may do is decided in :mod:`~explorer.cli.serving.guard`, which
imports no web framework. The command line, its options and its errors are
:mod:`explorer.cli.commands.serve`'s.
"""
