"""Full screens: the browser, the help, learning, history, bookmarks, the map and the diff.

The browser screen is two classes in a line, no mixins: ``tab_screen.TabScreen`` shows
one tab (its page, links and request) and routes what its widgets post up (the
dialogs it opens on what it shows: ``tab_dialogs``; the request on its way said once
slow by the ``on_its_way.OnItsWay`` it owns, a live stream read by its
``stream_reading.StreamReading``); ``main.BrowserScreen`` adds the screen's own keys
and the workers of its tools, each a class it owns: the login
(``logging_in.LoggingIn``), the API's OpenAPI operations
(``api_operations.ApiOperations``), the history, bookmarks, map and diff
(``trail_tools.TrailTools``). What
a tab decides is the core's :class:`~explorer.core.session.tab.Tab`; what a dialog
asks is the dialog's (:mod:`explorer.ui.dialogs`); a widget's keys are the widget's.
"""
