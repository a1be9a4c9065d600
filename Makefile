# Quick start: `make demo` plays one seeded game, a small study and its report;
# `make test` runs the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all bench headlines lint format clean

$(STAMP): pyproject.toml
	@echo "== Setting up $(VENV): moaisim and its dependencies (numpy, numba, pandas, ...)."
	@echo "== The first time this downloads and installs about 30 packages (a minute or two)."
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip --progress-bar off
	$(BIN)/python -m pip install -e '.[test]' --progress-bar off
	@echo "== Installed. The first run compiles the engine's numba kernels once (about a minute"
	@echo "== of CPU; moaisim says so when it starts), then loads them from ~/.cache/moaisim."
	touch $(STAMP)

# One seeded game, then a small study (3 and 4 players, base and short, 2 x 2 000 games per
# cell: tuned, and greedy, which never qualifies for a verdict) and its balance report in
# out/demo-report (report.md, report.html).
# (`moaisim play` without --summary prints every event of the game.)
demo: $(STAMP)
	$(BIN)/moaisim play --players 4 --seed 1 --strategies greedy,greedy,random,greedy --summary
	$(BIN)/moaisim simulate --players 3 --players 4 --variant base --variant short \
	  --strategies tuned --strategies greedy --games 2000 --seed 1 --rounds \
	  --jobs 2 --out out/demo-run --resume
	$(BIN)/moaisim report out/demo-run --out out/demo-report --title "moaisim demo study" \
	  --question "Does the short game (V3) change who wins, the scores or only the length?" \
	  --metric rounds --metric "first bird-man win share" --metric "mean score"
	@echo "== The report is written. Open it in a browser:"
	@echo "==   file://$(CURDIR)/out/demo-report/report.html"
	@echo "== or read out/demo-report/report.md. Try more commands with .venv/bin/moaisim"
	@echo "== (or 'source .venv/bin/activate', then moaisim): see README.md."

# The fast suite on both cores (the slow tests are marked `slow`; see pyproject.toml).
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile

# Everything, the slow suite too (statistical studies, long runs, the docs' commands): CI.
test-all: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "slow or not slow"

# Engine speed (batch vs reference, same games), batch memory and the runner; rollouts from
# mid-game positions (what search plays); where the engine's time goes; search's decisions
# per second, rollouts compiled and through views; the first compile's CPU seconds.
# benchmarks/README.md.
bench: $(STAMP)
	$(BIN)/moaisim bench
	$(BIN)/python benchmarks/rollouts.py
	$(BIN)/python benchmarks/engine_profile.py
	$(BIN)/python benchmarks/engine_profile.py --lineup tuned
	$(BIN)/python benchmarks/search_speed.py
	$(BIN)/python benchmarks/first_compile.py
	$(BIN)/python benchmarks/rapa_nui_speed.py
	$(BIN)/python benchmarks/kaivai_speed.py
	$(BIN)/python benchmarks/rapa_nui_speed.py --strategy greedy

# The shipped studies' headlines (docs/reports.md), generated from the reports'
# CSV files after the reports change (tests/test_verdicts.py checks they agree).
headlines: $(STAMP)
	$(BIN)/python -m moaisim.analysis.headlines reports docs/reports.md

lint: $(STAMP)
	$(BIN)/ruff check moaisim strategies tests benchmarks
	$(BIN)/ruff format --check moaisim strategies tests benchmarks

format: $(STAMP)
	$(BIN)/ruff format moaisim strategies tests benchmarks
	$(BIN)/ruff check --fix moaisim strategies tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info
	find moaisim strategies tests -name __pycache__ -prune -exec rm -rf {} +  # numba caches too
