# Quick start: `make demo` plays one seeded game; `make test` runs the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint format clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/moaisim play --players 4 --seed 1 --strategies greedy,greedy,random,greedy

test: $(STAMP)
	$(BIN)/python -m pytest

# Engine speed (batch vs reference, same games) and batch memory; see benchmarks/README.md.
bench: $(STAMP)
	$(BIN)/moaisim bench

lint: $(STAMP)
	$(BIN)/ruff check moaisim strategies tests benchmarks
	$(BIN)/ruff format --check moaisim strategies tests benchmarks

format: $(STAMP)
	$(BIN)/ruff format moaisim strategies tests benchmarks
	$(BIN)/ruff check --fix moaisim strategies tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info
	find moaisim strategies tests -name __pycache__ -prune -exec rm -rf {} +  # numba caches too
