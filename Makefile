# Two commands on a fresh machine (README): `make lab` and `make test`. Both build .venv first.
# `make test` = lint, unit tests, every notebook run twice in one kernel (the first run compared by nbval), the browser test.
PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.d2l_ext-installed
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg --nbval-cell-timeout 600 -p no:cacheprovider

.PHONY: lab test lint unit notebooks rerun browser lecture

$(STAMP): pyproject.toml requirements/pinned.txt
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements/pinned.txt -e '.[mxnet,notebooks,test]'
	touch $@

# JupyterLab refuses to run as root (any container) unless told --allow-root.
lab: $(STAMP)
	@if [ "$$(id -u)" -eq 0 ]; then echo "make lab: running as root, so JupyterLab starts with --allow-root"; \
	  allow=--allow-root; fi; \
	$(BIN)/jupyter lab $$allow notebooks/

test: lint unit notebooks browser

lint: $(STAMP)
	$(BIN)/ruff check d2l_ext tests benchmarks tools notebooks/src

unit: $(STAMP)
	MPLBACKEND=Agg $(BIN)/python -m pytest tests -m "not browser" -q

# One kernel per notebook: nbval runs every cell and compares its output with the committed one, then
# every cell runs again in the same kernel (Run All twice; notebooks/conftest.py adds the second run).
# pytest exits with 5 when it collects nothing (an empty notebooks/): that is not a failure.
notebooks: $(STAMP)
	TQDM_DISABLE=1 MPLBACKEND=module://matplotlib_inline.backend_inline $(BIN)/python -m pytest $(NBVAL) notebooks -q; \
	rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

# The second Run All is part of `make notebooks` now; kept as a name for it.
rerun: notebooks

browser: $(STAMP)
	$(BIN)/python -m pytest tests/browser -m browser -q

# Lecture mode: make lecture NB=notebooks/en/13.3.1-Parallel-Computation-on-Devices.ipynb
lecture: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH scripts/lecture.sh $(NB)
