"""``python -m mock_server``: the same as ``restwalk-mock``."""

from __future__ import annotations

import sys

from mock_server.cli import main

sys.exit(main())
