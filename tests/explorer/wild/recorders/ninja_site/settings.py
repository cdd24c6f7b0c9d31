"""Settings of the small Django site the Django Ninja recorder serves (not in the suite)."""

SECRET_KEY = "recorder-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "library"]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "/tmp/restwalk-ninja.sqlite3"}
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
NINJA_PAGINATION_PER_PAGE = 10
