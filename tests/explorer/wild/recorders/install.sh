#!/usr/bin/env bash
# Install every recorded framework under ~/.cache/restwalk-wild (needs PyPI and npm).
# The versions are the ones recorded in ../fixtures; change them here to record others.
set -euo pipefail
W="${RESTWALK_WILD:-$HOME/.cache/restwalk-wild}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$W"
cd "$W"
venv() { [ -x "$1/bin/python" ] || python3 -m venv "$1"; "$1/bin/pip" install -q "${@:2}"; }
venv drf 'django==5.2.*' 'djangorestframework==3.18.*' 'djangorestframework-jsonapi==8.1.*' django-filter
venv halvenv 'django==5.2.*' 'djangorestframework==3.18.*' 'drf-hal-json==0.10.*'
venv httpbin 'httpbin==0.10.*'
venv eve 'eve==2.3.*' 'mongomock==4.3.*'
venv tastypie 'django==5.2.*' 'django-tastypie==0.15.*'
venv ninja 'django==5.2.*' 'django-ninja==1.7.*'
venv fapag 'fastapi==0.165.*' 'fastapi-pagination==0.16.*' 'uvicorn==0.55.*'
venv smorest 'flask-smorest==0.47.*'
venv litestar 'litestar==2.25.*' 'uvicorn==0.55.*'
venv hypermodel 'fastapi==0.165.*' 'fastapi-hypermodel==2.1.*' 'uvicorn==0.55.*'
node_app() {  # node_app DIR PACKAGES...
  mkdir -p "$W/$1"
  (cd "$W/$1" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install -s "${@:2}")
  cp "$HERE"/*.js "$HERE/db.json" "$W/$1/"
}
node_app js017 'json-server@0.17'
node_app js1 'json-server@1.0.0-beta.3'
node_app halson express 'halson@3'
node_app siren express 'siren-writer@0.5'
node_app odata 'odata-v4-server@0.2' tslib
