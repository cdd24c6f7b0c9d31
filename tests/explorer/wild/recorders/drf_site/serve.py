"""Build the library's database and serve it: ``serve.py FLAVOR PORT`` (plain, jsonapi, hal).

Run with the Python of the venv that has the flavor's packages (see ../README.md).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
flavor, port = sys.argv[1], sys.argv[2]
os.environ["RESTWALK_DRF_FLAVOR"] = flavor
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

from library.site import serve  # noqa: E402

serve(port, Path(f"/tmp/restwalk-drf-{flavor}.sqlite3"))
