# The two commands: `make run` (the main job) and `make test` (the whole suite).
# Each creates or updates the virtual environment in .venv by itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest jscheck bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# compile and cache the compiled kernels once (exact odds, simulator, strategies)
	$(BIN)/baccarat odds --decks 8 --json > /dev/null
	$(BIN)/baccarat simulate --hands 10000 --seed 1 --json > /dev/null
	$(BIN)/baccarat simulate --strategy martingale:banker --shoes 10 --seed 1 --json > /dev/null
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/baccarat serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# the engine, mathematics, CLI and game tests (and doctests) on every core (at most four worker
# processes, each test file on one); then the server and browser tests, one at a time (they run
# servers, browsers and clocks of their own)
pytest: $(STAMP)
	$(BIN)/pytest -q -n auto --maxprocesses=4 --dist loadfile --ignore=tests/server --ignore=tests/web
	$(BIN)/pytest -q tests/server tests/web

# the browser table's JavaScript: type checks (tsc, checkJs) and unit tests (node --test)
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	npx --no-install tsc --noEmit
	node --test tests/web_js/

test: lint typecheck jscheck pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_deal.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
