"""How long grading a class takes, and the measured basis of 13.3.4's overlap threshold (issue 33).

    python benchmarks/class_bench.py [--students N] [--out DIR]     time `check --class` on N students x 7 tasks
    python benchmarks/class_bench.py --overlap-basis [--repeats R]  13.3.4 (c), (d) against their serial controls

The class: N submissions (.py), each answering all seven tasks with the worked solutions; every third
student's 13.3.4 (c) is the serial control (all-reduces after backward). The time for 30 students is
estimated from N as N's time x 30 / N (each grading is its own process: the time grows linearly) unless
N is 30. The overlap basis grades the worked solutions of (c) and (d) and the serial control of (c) R
times each in the grading process (no timing limit applies) and prints every measured overlap: the
threshold must lie above what the serial control measures and below what the references measure.
"""
from __future__ import annotations

import argparse
import inspect
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # d2l_ext from this checkout


def solutions() -> str:
    """One student's file: the worked solution of every task."""
    from d2l_ext.depgraph import worked
    from d2l_ext.grading import allreduce, copy
    from d2l_ext.parallel.together import run_together
    parts = [inspect.getsource(run_together), inspect.getsource(copy.run_and_copy),
             inspect.getsource(worked.mlp_step)] + [inspect.getsource(fn) for fn in allreduce.SOLUTIONS.values()]
    return '\n\n'.join(parts)


def serial_c() -> str:
    from tests import wrong_versions
    return wrong_versions.ALLREDUCE_WRONG['c_after_backward'][1]


def make_class(folder: Path, students: int) -> None:
    from d2l_ext.allreduce.steps import allreduce_in_hooks
    good = solutions()
    serial = good.replace(inspect.getsource(allreduce_in_hooks), serial_c())
    for i in range(students):
        (folder / f'student{i:02d}.py').write_text(serial if i % 3 == 2 else good, encoding='utf-8')


def bench_class(students: int, out: str) -> None:
    from d2l_ext.display.grading import write_table
    from d2l_ext.grading.classroom import grade_class
    with tempfile.TemporaryDirectory() as tmp:
        make_class(Path(tmp), students)
        start = time.perf_counter()
        rows, _ = grade_class(tmp)
        seconds = time.perf_counter() - start
    paths = write_table(rows, out)
    counts = {s: sum(1 for r in rows if r['status'] == s) for s in dict.fromkeys(r['status'] for r in rows)}
    print(f'{students} students x 7 tasks: {len(rows)} gradings in {seconds:.0f} s ({seconds / len(rows):.1f} s each); '
          f'statuses {counts}; wrote {", ".join(paths)}')
    if students != 30:
        print(f'estimated for 30 students x 7 tasks: {seconds * 30 / students / 60:.1f} min (linear in students)')


def overlap_basis(repeats: int) -> None:
    from d2l_ext.allreduce.steps import allreduce_in_buckets, allreduce_in_hooks
    from d2l_ext.grading import allreduce
    from d2l_ext.grading.core import load_submission
    from d2l_ext.grading.measurable import state
    cases = {'c reference': ('13.3.4-c-hooks', inspect.getsource(allreduce_in_hooks)),
             'd reference': ('13.3.4-d-buckets', inspect.getsource(allreduce_in_buckets)),
             'c serial control': ('13.3.4-c-hooks', serial_c())}
    print('machine:', state())
    for label, (task_id, source) in cases.items():
        task = allreduce.TASKS[task_id]
        items = [(task_id, load_submission(task, source)) for _ in range(repeats)]
        measured = []
        for criteria in allreduce.grade_many(items):
            o = next((c for c in criteria if c.id == 'overlap'), None)
            measured.append(None if o is None else round(o.fields.get('measured', float('nan')), 3))
        print(f'{label}: overlap measured {measured}')


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--students', type=int, default=3)
    p.add_argument('--out', default='class-bench')
    p.add_argument('--overlap-basis', action='store_true')
    p.add_argument('--repeats', type=int, default=5)
    args = p.parse_args()
    if args.overlap_basis:
        overlap_basis(args.repeats)
    else:
        bench_class(args.students, args.out)


if __name__ == '__main__':
    main()
