# Two commands on a fresh machine (README): `make lab` and `make test`. Both build .venv first.
# `make test` = lint, unit tests, the notebooks (nbval, then every lesson's second Run All in Chinese in its English
# kernel), the browser test (English in JupyterLab, Chinese in Voila). Each lesson executes 4 times (was 8), so it
# fits 20 minutes on the 2-core CI machine from a fresh clone (issue 22; the estimate is in docs/browser-test.md).
PY ?= python3.11
# Containers often set PYTHONDONTWRITEBYTECODE=1. With pip's --no-compile (below) no module would then ever get its
# bytecode, and every process would compile what it imports from source again: `import torch, torch._dynamo` took
# 10.6 s that way on the 2-core machine and 3.5 s once .venv held the bytecode; a gloo process of 13.3.4 spent 4 of
# its 5.6 s of start-up in compile(). So the recipes write bytecode (into .venv and __pycache__/, both gitignored).
unexport PYTHONDONTWRITEBYTECODE
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.d2l_ext-installed
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg --nbval-cell-timeout 600 -p no:cacheprovider

.PHONY: lab test lint unit slow notebooks rerun browser lecture test-newest

# --no-compile: pip would byte-compile all ~12,800 installed .py files (about 56 s of CPU on the 2-core CI machine,
# measured as 4.4 ms a file); Python compiles the few thousand that are imported on first use instead.
$(STAMP): pyproject.toml requirements/pinned.txt
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --no-compile -r requirements/pinned.txt -e '.[mxnet,notebooks,test]'
	touch $@

# JupyterLab refuses to run as root (any container) unless told --allow-root.
lab: $(STAMP)
	@if [ "$$(id -u)" -eq 0 ]; then echo "make lab: running as root, so JupyterLab starts with --allow-root"; \
	  allow=--allow-root; fi; \
	$(BIN)/jupyter lab $$allow notebooks/

test: lint unit slow notebooks browser

lint: $(STAMP)
	$(BIN)/ruff check d2l_ext tests benchmarks tools notebooks/src

# Two pytest workers (pytest-xdist), a test file per worker at a time (--dist loadfile: a module's fixtures are set
# up once, and a file's tests never run beside each other). The measurement: docs/browser-test.md, "What else keeps
# make test short". UNIT_WORKERS=0 runs them in this process, one after another.
# `make unit` is the quick suite (goal: at most 2.5 minutes on the 2-core CI machine); `make slow` runs the tests
# marked slow (over ~5 s alone: they start processes that import PyTorch, or run a notebook). `make test` runs both.
UNIT_WORKERS ?= 2
PYTEST_UNIT := MPLBACKEND=Agg $(BIN)/python -m pytest tests -q -p no:cacheprovider --durations=15 -n $(UNIT_WORKERS) \
  --dist loadfile
unit: $(STAMP)
	$(PYTEST_UNIT) -m "not browser and not slow"

slow: $(STAMP)
	$(PYTEST_UNIT) -m "slow and not browser"

# One kernel per lesson: nbval runs the English notebook's cells and compares their output with the committed one,
# then the Chinese notebook's cells run in the same kernel, compared with the committed Chinese output (Run All a
# second time, and a switch to Chinese after everything ran: notebooks/conftest.py). The Chinese notebooks from a
# fresh kernel: `make browser` (Voila).
# pytest exits with 5 when it collects nothing (an empty notebooks/): that is not a failure.
notebooks: $(STAMP)
	TQDM_DISABLE=1 MPLBACKEND=module://matplotlib_inline.backend_inline $(BIN)/python -m pytest $(NBVAL) notebooks -q \
	  --durations=10; \
	rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

# The second Run All is part of `make notebooks` now; kept as a name for it.
rerun: notebooks

# Each lesson once: English in JupyterLab, Chinese in Voila (D2L_EXT_BROWSER_ALL=1: every notebook in both).
browser: $(STAMP)
	$(BIN)/python -m pytest tests/browser -m browser -q -p no:cacheprovider --durations=15

# The newest stack learners bring (issue 35): Python 3.13, numpy 2, the newest torch that installs here, no MXNet, no
# d2l, in a venv of its own (.venv313, requirements/newest.txt): the unit suite, every lesson run top to bottom in both
# languages (no output comparison), every task's worked solution graded. .ci/run runs it after `make test`.
test-newest:
	tools/test_newest.sh

# Lecture mode: make lecture NB=notebooks/en/13.3.1-Parallel-Computation-on-Devices.ipynb
lecture: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH scripts/lecture.sh $(NB)
