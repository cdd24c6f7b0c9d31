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
db = Path(f"/tmp/restwalk-drf-{flavor}.sqlite3")
db.unlink(missing_ok=True)

import django  # noqa: E402
from django.core.management import call_command  # noqa: E402

django.setup()
call_command("migrate", run_syncdb=True, verbosity=0)

from library.models import Author, Book  # noqa: E402

authors = [Author.objects.create(name=f"Author {n}") for n in range(1, 6)]
for n in range(1, 26):
    Book.objects.create(title=f"Book {n}", author=authors[(n - 1) % 5])
call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, verbosity=0)
