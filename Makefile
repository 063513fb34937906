# The two commands: `make run` (the main job) and `make test` (the whole suite).
# Each creates or updates the virtual environment in .venv by itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-long lint typecheck pytest node-deps jscheck bench clean venv

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

# The whole check, stage by stage (tests/stages.py): pytest on several workers in a random order
# (its seed printed; SEED=N replays an order; the import contracts are among its tests), and
# beside it ruff, ruff format, mypy --strict, tsc and node --test. Every stage runs whatever another
# did; the summary says which failed and which did not run.
SEED ?=
SEED_ARG := $(if $(SEED),--seed $(SEED))

test: $(STAMP) node-deps
	$(BIN)/python -m tests.stages $(SEED_ARG)

# The long checks make test leaves out (the tests marked `long`: the full-size crash test,
# schemathesis at full size).
test-long: $(STAMP)
	$(BIN)/python -m tests.stages --long $(SEED_ARG)

# One stage at a time, for a quicker look.
lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q -n 4 --dist loadfile -p randomly -m "not long"

# the browser table's JavaScript: type checks (tsc, checkJs) and unit tests (node --test); without
# npm the two stages are reported as not run
NODE_STAMP := node_modules/.installed

node-deps:
	@if ! command -v npm >/dev/null 2>&1; then echo "npm is not installed: tsc and node --test cannot run (install Node.js 20 and npm)"; \
	elif [ ! -f $(NODE_STAMP) ] || [ package.json -nt $(NODE_STAMP) ] || [ package-lock.json -nt $(NODE_STAMP) ]; then \
	    npm ci --no-audit --no-fund && touch $(NODE_STAMP) || echo "npm ci failed: tsc and node --test will fail"; fi

jscheck: node-deps
	npx --no-install tsc --noEmit
	node --test tests/web_js/

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_deal.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis test-artifacts/stages
