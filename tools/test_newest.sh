#!/usr/bin/env bash
# The newest-stack leg of CI (issue 35; `make test-newest`): Python 3.13, numpy 2, the newest torch that installs here,
# no MXNet, no d2l (requirements/newest.txt), in a venv of its own. It runs
#   1. the unit suite (tests needing MXNet or another missing extra skip, saying which),
#   2. every lesson top to bottom in English and in Chinese (tools/run_lessons.py: no output comparison; no error,
#      no traceback, MXNet cells saying in one line that MXNet is not installed),
#   3. every task's worked solution graded (tools/grade_tasks.py --solutions-only).
#   tools/test_newest.sh install   only build the venv (.ci/run starts it beside `make test`: it is mostly download)
# VENV_NEWEST (default .venv313) and PY_NEWEST (default: python3.13, else pyenv's newest 3.13) choose them.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV_NEWEST:-.venv313}
unset PYTHONDONTWRITEBYTECODE  # as in the Makefile: bytecode written once, not compiled again by every process
newest_python() {
  if [ -n "${PY_NEWEST:-}" ]; then echo "$PY_NEWEST"; return; fi
  if python3.13 -c '' 2>/dev/null; then command -v python3.13; return; fi
  ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13 2>/dev/null | sort -V | tail -1
}
stamp=$VENV/.newest-installed
if [ ! -f "$stamp" ] || [ requirements/newest.txt -nt "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  py=$(newest_python)
  [ -n "$py" ] || { echo "test-newest: no Python 3.13 found (set PY_NEWEST=/path/to/python3.13)"; exit 1; }
  s=$(date +%s)
  rm -rf "$VENV"
  "$py" -m venv "$VENV"
  # --no-compile: see the Makefile; pip's 'Location ... is ignored' lines are the machine's local indexes, not errors
  "$VENV/bin/python" -m pip install -q --no-compile -r requirements/newest.txt 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -m pip install -q --no-compile --no-deps -e . 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -c 'import torch, numpy, d2l_ext' || { echo "test-newest: the install failed"; exit 1; }
  touch "$stamp"
  echo "test-newest: venv built in $(( $(date +%s) - s )) s"
fi
[ "${1:-}" = install ] && exit 0
PY=$VENV/bin/python
$PY -c 'import sys, torch, numpy; print("newest stack: Python", sys.version.split()[0], "torch", torch.__version__,
"numpy", numpy.__version__)'
export MPLBACKEND=Agg TQDM_DISABLE=1
t0=$(date +%s)
$PY -m pytest tests -m "not browser" -q -p no:cacheprovider --durations=5 -n "${UNIT_WORKERS:-2}" --dist loadfile
t1=$(date +%s)
MPLBACKEND=module://matplotlib_inline.backend_inline $PY tools/run_lessons.py
t2=$(date +%s)
$PY tools/grade_tasks.py --solutions-only
t3=$(date +%s)
echo "test-newest: unit $(( t1 - t0 )) s, lessons $(( t2 - t1 )) s, worked solutions $(( t3 - t2 )) s"
