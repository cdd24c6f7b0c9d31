"""The library's database built afresh and served by Django's runserver: what each Django
recorder's ``serve.py`` (DRF's flavors, tastypie's, Django Ninja's) does once it has
chosen its settings. 25 books by 5 authors."""

from pathlib import Path


def serve(port: str, db: Path) -> None:
    """Make the database at ``db`` anew, fill it, and serve on 127.0.0.1:``port``."""
    db.unlink(missing_ok=True)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", run_syncdb=True, verbosity=0)

    from library.models import Author, Book

    authors = [Author.objects.create(name=f"Author {n}") for n in range(1, 6)]
    for n in range(1, 26):
        Book.objects.create(title=f"Book {n}", author=authors[(n - 1) % 5])
    call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, verbosity=0)
