#!/usr/bin/env bash
# Everything we run on a lent GPU machine in one go (its Python 3.12 has torch and numpy 2 but no
# Jupyter stack: carried as wheels in .whl/, see README "Recording results on a GPU").
#   tools/gpu_session.sh checks     tests, CLI, benchmark, `python -m d2l_ext record`
#   tools/gpu_session.sh notebooks  execute the English notebooks at the GPU's sizes
#   tools/gpu_session.sh bench      the launch-queue probe and the benchmark
#   tools/gpu_session.sh record     `python -m d2l_ext record` into $OUT/recorded.json
# Several modes run in one call, in order: tools/gpu_session.sh bench notebooks
set -u
OUT=${OUT:-/tmp/d2l_ext_gpu_out}
mkdir -p "$OUT"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site || exit 1
fi
export PYTHONPATH=$PWD:${PYTHONPATH:-} PYTHONUNBUFFERED=1 MPLBACKEND=Agg TQDM_DISABLE=1
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
      python3 tools/build_notebooks.py --lang en
      tar -cf "$OUT/notebooks-en.tar" notebooks/en
      ;;
    bench)
      python3 benchmarks/launch_queue.py
      python3 benchmarks/bench.py --json "$OUT/bench.json"
      ;;
  esac
} 2>&1 | tee "$log"
done
