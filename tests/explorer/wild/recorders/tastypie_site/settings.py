"""Settings of the small Django site the tastypie recorder serves (not part of restwalk's suite)."""

SECRET_KEY = "recorder-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "tastypie", "library"]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "/tmp/restwalk-tastypie.sqlite3"}
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
