# The two commands: `make run` (the main job) and `make test` (the whole suite).
# Each creates or updates the virtual environment in .venv by itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest bench clean venv

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

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_deal.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
