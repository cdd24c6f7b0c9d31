# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BYTECODE := $(VENV)/.compiled
SOURCES := $(shell find explorer mock_server -name '*.py')

.PHONY: run test lint typecheck pytest mock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# An installed package comes with its bytecode compiled; this checkout is installed
# editable, so compile it here, or machines with PYTHONDONTWRITEBYTECODE set would
# compile every module from source at every start (over 0.1 s of restwalk's).
$(BYTECODE): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q explorer mock_server
	touch $(BYTECODE)

run: $(BYTECODE)
	$(BIN)/restwalk

mock: $(BYTECODE)
	$(BIN)/restwalk-mock

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
