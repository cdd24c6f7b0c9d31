"""``python -m explorer``: the same as ``restwalk``."""

from __future__ import annotations

import sys

from explorer.cli import main

sys.exit(main())
