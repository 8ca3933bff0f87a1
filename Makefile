# Two commands do everything on a fresh machine: `make run` (set up, open the demo comparison)
# and `make test` (set up, lint, type-check, run the tests offscreen). See README.md.
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
PY ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && { echo $$p; break; }; done)

.PHONY: setup run test lint typecheck pytest bench drop-quality robustness fuzz package clean system-deps

$(BIN)/.installed: pyproject.toml importers/_scan.c
	@test -n "$(PY)" || { echo "benchlens needs Python >= 3.11 (none found on PATH)"; exit 1; }
	@bash packaging/system-deps.sh
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@$(BIN)/python -m pip install -q -e '.[server]' || echo "benchlens: the MariaDB driver (benchlens[server]) did not build: it needs libmariadb-dev and a C compiler (packaging/system-deps.sh installs them as root); the server library's tests are skipped"
	@$(BIN)/python -c 'import benchlens.importers._tokens as t; print("tokenizer core:", "compiled" if t.HAS_COMPILED_CORE else "pure Python (no C compiler?)")'
	@touch $@

setup: $(BIN)/.installed

system-deps:
	@bash packaging/system-deps.sh

run: setup
	$(BIN)/benchlens --demo

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy

pytest: setup
	@bash packaging/system-deps.sh  # mariadb-server for the store's tests, chromium for the report's, even in a venv made before they were needed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

test: lint typecheck pytest

bench: setup
	$(BIN)/python bench/import_speed.py

fuzz: setup  # the long fuzz run (minutes, random each time); the quick derandomized one is part of make test
	BENCHLENS_FUZZ=long QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider tests/importers/test_fuzz.py

robustness: setup  # huge and hostile inputs, each in a subprocess: outcome, time, peak RSS, library intact
	$(BIN)/python bench/robustness.py

drop-quality: setup  # score drop detection on the recorded disturbance corpus and on ../shared/corpora/dbpa (bench/drop_quality)
	$(BIN)/python bench/drop_quality/score.py
	$(BIN)/python bench/drop_quality/dbpa.py

# The one-folder bundle dist/benchlens/ (PyInstaller in its own venv under build/) and its offscreen smoke test.
package:
	@bash packaging/system-deps.sh
	PY=$(PY) bash packaging/build_bundle.sh
	bash packaging/smoke_test.sh

clean:
	rm -rf $(VENV) build dist *.egg-info importers/*.so .pytest_cache .mypy_cache .ruff_cache
