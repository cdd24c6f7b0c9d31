"""Full screens: the browser, the help, learning, history, bookmarks, the map and the diff.

The browser screen is two classes in a line, no mixins: ``tab_screen.TabScreen`` shows
one tab (its page, links and request) and routes what its widgets post up (the
composer and copy menu it opens: ``tab_dialogs``; a live stream read by the
``stream_reading.StreamReading`` it owns); ``main.BrowserScreen`` adds the screen's own
keys and the workers of its tools, the history, bookmarks, map and diff handed to the
``trail_tools.TrailTools`` it owns. What
a tab decides is the core's :class:`~explorer.core.session.tab.Tab`; what a dialog
asks is the dialog's (:mod:`explorer.ui.dialogs`); a widget's keys are the widget's.
"""
