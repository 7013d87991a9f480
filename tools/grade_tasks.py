"""Grade every "Build it" task's worked solution and every wrong version, each outcome against the expected one.

    python tools/grade_tasks.py [--solutions-only] [--task PREFIX] [--json FILE]

Each source goes through `python -m d2l_ext check TASK FILE --json`, the command a learner runs. A
worked solution must pass; a wrong version must fail its own criterion (and, unless that is 'runs',
run). Versions wrong only on a GPU (13.3.1's `no_synchronize`, 13.3.2's GPU versions) fail their own
criterion where a GPU exists and 'streams' (the simulated GPU) elsewhere; one with no CPU branch, and 13.3.3's
`sum_on_lane0`, is skipped where its lanes do not exist, with a line saying why. A version the grader
cannot measure (status cannot_measure: other programs kept the cores busy) is graded again, up to TRIES
times, then counted as skipped with its reason. Exit 0 when every graded outcome is the expected one, 1 otherwise.
Used by tools/gpu_session.sh (tasks) and .ci/run's newest-stack leg (--solutions-only).
"""
from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # d2l_ext from this checkout
PASS = 'pass'
TRIES = 3  # gradings of one version while the grader says the machine is too busy to measure (cannot_measure)


def _lane_kinds() -> tuple[str, ...]:
    from d2l_ext.lanes import find_lanes
    return tuple(lane.kind for lane in find_lanes('torch'))


def cases() -> list[tuple[str, str, str, str, str]]:
    """(task id, label, source, expected, why skipped) for every source: expected is 'pass' or the criterion to fail."""
    from d2l_ext.depgraph import worked
    from d2l_ext.grading import allreduce, copy
    from d2l_ext.parallel.together import run_together
    from tests import wrong_versions  # typical wrong versions (test data)
    kinds = _lane_kinds()
    has_gpu, all_gpu, first_gpu = 'gpu' in kinds, all(k == 'gpu' for k in kinds), kinds[:1] == ('gpu',)
    no_gpu = 'GPU-only wrong version: skipped here (no GPU lane on this machine)'
    out = []

    def add(task_id, label, source, expected, skip=''):
        out.append((task_id, label, source, expected, skip))

    add('13.3.1-lanes', 'worked solution', inspect.getsource(run_together), PASS)
    for name, (failing, source) in wrong_versions.LANES_WRONG.items():
        skip = 'skipped: on GPU lanes only, a plain loop queues both lanes at once and they do overlap'
        add('13.3.1-lanes', name, source, failing, skip if name == 'sequential' and all_gpu else '')
    for name, (failing, source) in wrong_versions.LANES_WRONG_GPU.items():  # without a GPU: the simulated GPU's
        add('13.3.1-lanes', f'{name} (GPU)', source, failing if has_gpu else 'streams')
    add('13.3.2-copy', 'worked solution', inspect.getsource(copy.run_and_copy), PASS)
    for name, (failing, source) in wrong_versions.COPY_WRONG_CPU.items():
        add('13.3.2-copy', name, source, failing,
            'CPU-only wrong version: skipped here (the task copies from a GPU on this machine)' if has_gpu else '')
    for name, (failing, source) in wrong_versions.COPY_WRONG_GPU.items():  # without a GPU: the simulated GPU's
        cpu_branch = 'queue.Queue' in source  # a version with no CPU branch cannot run on CPU lanes
        add('13.3.2-copy', f'{name} (GPU)', source, failing if has_gpu else 'streams',
            '' if has_gpu or cpu_branch else no_gpu)
    add('13.3.3-mlp', 'worked solution', inspect.getsource(worked.mlp_step), PASS)
    for name, (failing, source) in worked.WRONG.items():
        skip = 'skipped: on GPU lanes only, queuing the halves in turn still runs them at once'
        add('13.3.3-mlp', name, source, failing, skip if name in ('in_turn', 'main_thread') and all_gpu else '')
    for name, (failing, source) in worked.WRONG_GPU.items():
        add('13.3.3-mlp', f'{name} (GPU)', source, failing,
            '' if first_gpu else 'GPU-only wrong version: skipped here (lane 0 is not a GPU on this machine)')
    for task_id, fn in allreduce.SOLUTIONS.items():
        add(task_id, 'worked solution', inspect.getsource(fn), PASS)
    for name, (failing, source) in wrong_versions.ALLREDUCE_WRONG.items():
        add(wrong_versions.ALLREDUCE_WRONG_TASK[name].id, name, source, failing)
    return out


def judge(verdict: dict, expected: str) -> tuple[bool, str]:
    """(as expected?, what happened in words): 'passed', or 'failed <ids>' / the verdict's status."""
    failed = [c['id'] for c in verdict.get('criteria', []) if not c['passed']]
    status = verdict.get('status')
    got = status if status in ('passed', 'no verdict') else f"{status}: failed {', '.join(failed)}"
    if expected == PASS:
        return verdict.get('status') == 'passed', got
    ran = expected == 'runs' or 'runs' not in failed
    return expected in failed and ran, got


def grade(task_id: str, source: str, folder: Path) -> tuple[dict, int, float]:
    """The verdict `check --json` prints for `source`, its exit code and the seconds it took."""
    path = folder / f'{task_id}-{len(list(folder.iterdir()))}.py'
    path.write_text(source)
    started = time.monotonic()
    p = subprocess.run([sys.executable, '-m', 'd2l_ext', 'check', task_id, str(path), '--json'],
                       capture_output=True, text=True)
    seconds = time.monotonic() - started
    try:
        return json.loads(p.stdout), p.returncode, seconds
    except json.JSONDecodeError:
        tail = (p.stdout + p.stderr).strip().splitlines()[-3:]
        return {'status': 'no verdict', 'criteria': [], 'lines': tail}, p.returncode, seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--solutions-only', action='store_true', help="grade each task's worked solution only")
    ap.add_argument('--task', default='', help='grade only the tasks whose id starts with this (e.g. 13.3.3)')
    ap.add_argument('--json', help='write every row (task, version, expected, got, exit, lines) here')
    args = ap.parse_args(argv)
    rows, wrong = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for task_id, label, source, expected, skip in cases():
            if (args.solutions_only and expected != PASS) or not task_id.startswith(args.task):
                continue
            want = 'pass' if expected == PASS else f'fail {expected}'
            if skip:
                print(f'{task_id:17} {label:22} {skip}', flush=True)
                rows.append(dict(task=task_id, version=label, expected=want, skipped=skip))
                continue
            for attempt in range(TRIES):  # a busy machine: the grader says it cannot measure, never pass or fail
                verdict, code, seconds = grade(task_id, source, Path(tmp))
                if verdict.get('status') != 'cannot_measure':
                    break
                time.sleep(5 * (attempt + 1))
            if verdict.get('status') == 'cannot_measure':
                why = (f"cannot measure here after {TRIES} tries (the machine was busy): "
                       f"{' | '.join(line.strip() for line in verdict.get('lines', [])[-2:])}")
                print(f'{task_id:17} {label:22} expected {want:14} {why}', flush=True)
                rows.append(dict(task=task_id, version=label, expected=want, skipped=why))
                continue
            ok, got = judge(verdict, expected)
            wrong += not ok
            mark = 'as expected' if ok else 'NOT AS EXPECTED'
            print(f'{task_id:17} {label:22} expected {want:14} got {got} (exit {code}, {seconds:.0f} s): {mark}',
                  flush=True)
            if not ok:
                print('    ' + '\n    '.join(verdict.get('lines', [])), flush=True)
            rows.append(dict(task=task_id, version=label, expected=want, got=got, as_expected=ok, exit=code,
                             seconds=round(seconds, 1), lines=verdict.get('lines', [])))
    graded = [r for r in rows if 'skipped' not in r]
    print(f'{len(graded) - wrong} of {len(graded)} versions graded as expected', flush=True)
    print(f'tasks: {len(graded) - wrong} passed, {wrong} failed, {len(rows) - len(graded)} skipped', flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
