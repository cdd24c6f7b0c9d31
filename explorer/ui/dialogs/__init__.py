"""Modal dialogs, each returning a typed result with ``dismiss``."""
