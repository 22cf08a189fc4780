# bgtd: `make run` and `make test` set up their own environment on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench fuzz format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/bgtd serve $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -n 2 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

# schemathesis against a local dev server (installs it into the venv; not part of `make test`)
fuzz: $(STAMP)
	tests/fuzz/schemathesis.sh $(ARGS)

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) data .mypy_cache .ruff_cache .pytest_cache
