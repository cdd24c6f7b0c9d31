"""Settings of the small Django site the DRF recorders serve (not part of restwalk's suite).

``RESTWALK_DRF_FLAVOR`` picks the framework: ``plain`` (Django REST Framework
alone), ``jsonapi`` (djangorestframework-jsonapi) or ``hal`` (drf-hal-json);
each with its own documented defaults for renderers and pagination.
"""

import os

FLAVOR = os.environ.get("RESTWALK_DRF_FLAVOR", "plain")
SECRET_KEY = "recorder-only"
DEBUG = os.environ.get("RESTWALK_DRF_DEBUG") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.staticfiles",
    "rest_framework",
    "library",
]
# As django-admin startproject writes them: DRF's browsable API (its answer to
# Accept: text/html) renders through them; the JSON answers do not change.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
STATIC_URL = "static/"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("RESTWALK_DRF_DB", f"/tmp/restwalk-drf-{FLAVOR}.sqlite3"),
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True

if FLAVOR == "jsonapi":
    # As the djangorestframework-jsonapi docs' "Usage" section sets it up.
    REST_FRAMEWORK = {
        "PAGE_SIZE": 10,
        "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
        "DEFAULT_PAGINATION_CLASS": (
            "rest_framework_json_api.pagination.JsonApiPageNumberPagination"
        ),
        "DEFAULT_PARSER_CLASSES": ("rest_framework_json_api.parsers.JSONParser",),
        "DEFAULT_RENDERER_CLASSES": ("rest_framework_json_api.renderers.JSONRenderer",),
        "DEFAULT_METADATA_CLASS": "rest_framework_json_api.metadata.JSONAPIMetadata",
        "DEFAULT_FILTER_BACKENDS": (
            "rest_framework_json_api.filters.QueryParameterValidationFilter",
            "rest_framework_json_api.filters.OrderingFilter",
        ),
        "SEARCH_PARAM": "filter[search]",
        "TEST_REQUEST_RENDERER_CLASSES": ("rest_framework_json_api.renderers.JSONRenderer",),
        "TEST_REQUEST_DEFAULT_FORMAT": "vnd.api+json",
    }
elif FLAVOR == "hal":
    # As drf-hal-json's README sets it up.
    REST_FRAMEWORK = {
        "PAGE_SIZE": 10,
        "DEFAULT_PAGINATION_CLASS": "drf_hal_json.pagination.HalPageNumberPagination",
        "DEFAULT_PARSER_CLASSES": ("drf_hal_json.parsers.JsonHalParser",),
        "DEFAULT_RENDERER_CLASSES": ("drf_hal_json.renderers.JsonHalRenderer",),
        "URL_FIELD_NAME": "self",
    }
else:
    REST_FRAMEWORK = {
        "PAGE_SIZE": 10,
        "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    }
