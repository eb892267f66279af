# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export FLASK_APP := app
# Two test processes on the two-core machines we run on; override with PYTEST_ARGS=...
PYTEST_ARGS ?= -n 2

.PHONY: run test lint format lock install install-dev worker clean screenshots client

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Installs exactly the pinned set; re-runs when a lock file changes.
$(VENV)/.installed-main: requirements/main.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements/main.txt
	touch $@

$(VENV)/.installed-dev: requirements/main.txt requirements/dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements/main.txt -r requirements/dev.txt
	touch $@ $(VENV)/.installed-main

install: $(VENV)/.installed-main
install-dev: $(VENV)/.installed-dev

## make run: install, migrate, seed the demo tenant, serve through gunicorn with the worker
## and its scheduler beside it (Ctrl-C stops them all).
run: install
	@bash scripts/run-local.sh

worker: install
	$(BIN)/flask worker

## make test: install everything (Chromium included), lint, and run the whole suite.
test: install-dev
	bash scripts/install-system-packages.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@$(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

## make screenshots: refresh docs/screenshots/ from the browser tests.
screenshots: install-dev
	bash scripts/install-system-packages.sh
	DMS_SCREENSHOT_DIR=docs/screenshots $(BIN)/python -m pytest -q -m browser

## make client: regenerate the Python SDK in clients/python/ from the served OpenAPI document
## (tests/openapi fails until the result is committed whenever an operation changes).
client: install-dev
	$(BIN)/python -m clients.generate

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## make lock: re-pin requirements/*.txt from pyproject.toml (dependencies, dev group).
lock: install-dev
	$(BIN)/uv pip compile -q --python $(BIN)/python --no-header \
	  pyproject.toml -o requirements/main.txt
	$(BIN)/uv pip compile -q --python $(BIN)/python --no-header --group pyproject.toml:dev \
	  -c requirements/main.txt -o requirements/dev.txt

clean:
	rm -rf $(VENV) instance .pytest_cache .ruff_cache
