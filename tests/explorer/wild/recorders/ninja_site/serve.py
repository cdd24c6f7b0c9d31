"""The library served by Django Ninja: ``serve.py PORT`` (see ../README.md).

A ``NinjaAPI`` at ``/api/`` as its tutorial sets one up, the models being the DRF
site's (``../drf_site/library``: 25 books by 5 authors), each list paged by
Ninja's ``@paginate`` with ``NINJA_PAGINATION_PER_PAGE = 10`` (its default is 100):
``/api/books`` by the default ``LimitOffsetPagination``, ``/api/pages/books`` by
``PageNumberPagination``, ``/api/cursor/books`` by ``CursorPagination``; an item
at ``/api/books/{id}``. Run it with the Python of a venv that has Django and
django-ninja.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE), str(HERE.parent / "drf_site")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
from library.site import serve  # noqa: E402

serve(sys.argv[1], Path("/tmp/restwalk-ninja.sqlite3"))
