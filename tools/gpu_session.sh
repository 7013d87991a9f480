#!/usr/bin/env bash
# Everything we run on a lent GPU machine in one go (its Python 3.12 has torch and numpy 2 but no
# Jupyter stack: carried as wheels in .whl/, see README "Recording results on a GPU").
#   tools/gpu_session.sh checks     tests, CLI, benchmark, `python -m d2l_ext record`
#   tools/gpu_session.sh notebooks  execute the English notebooks at the GPU's sizes
#   tools/gpu_session.sh bench      the launch-queue probe and the benchmark
#   tools/gpu_session.sh record     `python -m d2l_ext record` into $OUT/recorded.json
#   tools/gpu_session.sh units      the unit suite only (counts in $OUT/units.log)
#   tools/gpu_session.sh tasks      grade every task's worked solution and wrong version with `check` (tools/grade_tasks.py)
#   tools/gpu_session.sh allreduce  13.3.4 at 2, 4 and 8 gloo processes (JSON with events) into $OUT
#   tools/gpu_session.sh depgraph   13.3.3's step recorded (one device vs the graph's lanes) into $OUT
#   tools/gpu_session.sh zh         execute the Chinese notebooks too (carry .fonts/ with a CJK font for Chinese labels)
#   NB="13.3.0 13.3.1" tools/gpu_session.sh notebooks zh   only those sections
# Several modes run in one call, in order: tools/gpu_session.sh bench notebooks
set -u
OUT=${OUT:-/tmp/d2l_ext_gpu_out}
mkdir -p "$OUT"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site || exit 1
fi
export PYTHONPATH=$PWD:${PYTHONPATH:-} PYTHONUNBUFFERED=1 MPLBACKEND=Agg TQDM_DISABLE=1
# The lent machine has no CJK font: one carried in .fonts/ (gitignored) lets the Chinese notebooks draw Chinese labels.
if ls .fonts/*.tt? >/dev/null 2>&1; then
  mkdir -p "$HOME/.local/share/fonts" && cp .fonts/*.tt? "$HOME/.local/share/fonts/"
fi
for mode in "$@"; do
log=$OUT/$mode.log
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  python3 -c 'import sys, torch, numpy; print(sys.version.split()[0], torch.__version__, torch.version.cuda, numpy.__version__)'
  case "$mode" in
    checks)
      lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA node\(s\))'
      python3 -m d2l_ext devices
      python3 benchmarks/launch_queue.py
      python3 -m pytest tests -m 'not browser' -q --ignore=tests/browser -p no:cacheprovider 2>&1 | tail -25
      python3 -m d2l_ext parallel --size 0; echo "exit code for --size 0: $?"
      python3 -m d2l_ext parallel --lanes cuda:3; echo "exit code for a missing lane: $?"
      python3 -m d2l_ext parallel --framework mxnet; echo "exit code for mxnet: $?"
      python3 -m d2l_ext parallel
      python3 -m d2l_ext comm
      python3 benchmarks/bench.py --json "$OUT/bench.json"
      python3 -m d2l_ext record --out "$OUT/recorded.json"
      ;;
    record)
      python3 -m d2l_ext record --out "$OUT/recorded.json"
      ;;
    notebooks)
      python3 tools/build_notebooks.py ${NB:-} --lang en  # NB="13.3.0 13.3.1": only those (default every one)
      tag=${NB:-all}; tar -cf "$OUT/notebooks-en-${tag// /_}.tar" notebooks/en
      ;;
    units)
      python3 -m pytest tests -m 'not browser' -q --ignore=tests/browser -p no:cacheprovider --timeout 300 2>&1 | tail -60  # the whole suite: no -x
      ;;
    tasks)
      # every worked solution and wrong version (GPU-only ones where there are GPU lanes), each against its expected outcome
      python3 tools/grade_tasks.py --json "$OUT/tasks.json"; echo "tasks: exit $? (0: every outcome as expected)"
      ;;
    allreduce)
      for n in 2 4 8; do
        python3 -m d2l_ext allreduce --world-size $n --json > "$OUT/allreduce-gloo-$n.json"; echo "world size $n: exit $?"
      done
      ;;
    depgraph)
      python3 tools/record_depgraph.py --out "$OUT/depgraph.json"
      ;;
    zh)
      python3 tools/build_notebooks.py ${NB:-} --lang zh
      tag=${NB:-all}; tar -cf "$OUT/notebooks-zh-${tag// /_}.tar" notebooks/zh
      ;;
    bench)
      python3 benchmarks/launch_queue.py
      python3 benchmarks/bench.py --json "$OUT/bench.json"
      ;;
  esac
} 2>&1 | tee "$log"
done
