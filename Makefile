# Two commands on a fresh machine: `make run` and `make test`.
# PYTHON and VENV choose the interpreter: `make test PYTHON=python3.13 VENV=.venv-3.13`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
BYTECODE := $(VENV)/.compiled
SOURCES := $(shell find explorer mock_server -name '*.py')
# apt-get as root, else through sudo.
APT_GET := $(if $(filter 0,$(shell id -u)),,sudo )env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test lint typecheck pytest mock clean servers browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# `make run` installs what the app needs to run; `make test` adds the test tools.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(TEST_STAMP)

# An installed package comes with its bytecode compiled; this checkout is installed
# editable, so compile it here, or machines with PYTHONDONTWRITEBYTECODE set would
# compile every module from source at every start (over 0.1 s of restwalk's).
$(BYTECODE): $(RUN_STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q explorer mock_server
	touch $(BYTECODE)

run: $(BYTECODE)
	$(BIN)/restwalk

mock: $(BYTECODE)
	$(BIN)/restwalk-mock

test: lint typecheck pytest

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# The store's tests start a PostgreSQL of their own (Debian's initdb, on the PATH or in
# /usr/lib/postgresql/*/bin), and the load balancer's test an nginx: installed here
# when missing (as root, or with sudo), on a fresh Debian machine too.
servers:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing PostgreSQL for the store's tests"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq postgresql >/dev/null; \
	fi
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
		echo "installing nginx for the load balancer's test"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq nginx >/dev/null; \
	fi

# restwalk serve's test opens its page in a real browser: Debian's headless Chromium,
# installed here when missing (make run needs no browser).
browser:
	@if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then \
		echo "installing Chromium for restwalk serve's browser test"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; \
	fi

# The OAuth client's interop tests run panva's oidc-provider (npm; its version pinned in
# package-lock.json), installed beside them by npm ci; Node.js from Debian where missing.
OIDC_PROVIDER := tests/explorer/oidc_provider
$(OIDC_PROVIDER)/node_modules/.installed: $(OIDC_PROVIDER)/package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
		echo "installing Node.js for the OAuth interop tests"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq nodejs npm >/dev/null; \
	fi
	npm ci --prefix $(OIDC_PROVIDER) --no-audit --no-fund --loglevel=error
	touch $@

# The suite on every core (at most 4), a test file per worker at a time, handed out in
# the order collected: the files marked early (the longest) first, not xdist's default of
# the files with the most tests first, which left a one-test file of 30 s for the end.
pytest: $(TEST_STAMP) servers browser $(OIDC_PROVIDER)/node_modules/.installed
	$(BIN)/pytest -n auto --maxprocesses 4 --dist loadfile --no-loadscope-reorder

clean:
	rm -rf .venv .venv-* .pytest_cache .mypy_cache .ruff_cache .hypothesis .grimp_cache .import_linter_cache
