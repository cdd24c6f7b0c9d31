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

from library.site import serve  # noqa: E402

serve(sys.argv[1], Path("/tmp/restwalk-tastypie.sqlite3"))
