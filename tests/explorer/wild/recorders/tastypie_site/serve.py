"""The library served by django-tastypie: ``serve.py PORT`` (see ../README.md).

Django with tastypie's ``Api`` as its tutorial sets it up: an ``Api(api_name="v1")``
registering a ``ModelResource`` per model (``book`` with its ``author`` as a
``ForeignKey`` field, ``author``), tastypie's own paginator with ``limit = 10`` in
each resource's ``Meta`` (its documented default is 20). The models are the DRF
site's (``../drf_site/library``): 25 books by 5 authors. Run it with the Python of
a venv that has Django and django-tastypie.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE), str(HERE.parent / "drf_site")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
db = Path("/tmp/restwalk-tastypie.sqlite3")
db.unlink(missing_ok=True)

import django  # noqa: E402
from django.core.management import call_command  # noqa: E402

django.setup()
call_command("migrate", run_syncdb=True, verbosity=0)

from library.models import Author, Book  # noqa: E402

authors = [Author.objects.create(name=f"Author {n}") for n in range(1, 6)]
for n in range(1, 26):
    Book.objects.create(title=f"Book {n}", author=authors[(n - 1) % 5])
call_command("runserver", f"127.0.0.1:{sys.argv[1]}", use_reloader=False, verbosity=0)
