"""13.3.2 on a CPU: the copies' share of run then copy, and whether overlapping beats it beyond the spread.

Runs the lesson's own measurement (the task's operands and buffers, run / run then copy / the worked
run_and_copy, interleaved) once per inner size, on this machine's first PyTorch lane:

    .venv/bin/python tools/measure_copy_setting.py            # the lesson's setting
    .venv/bin/python tools/measure_copy_setting.py 4 16 --repeats 15

Each line: medians, the copies' share, overlapped's gain over run then copy, and whether its upper
quartile lies below run then copy's lower quartile (the lesson's "beyond the repeats' spread").
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(inner: int, repeats: int) -> str:
    import torch

    import d2l_ext
    from d2l_ext.communication import tracing
    from d2l_ext.grading import copy as copy_task
    from d2l_ext.results import quartiles, told_apart
    tracing.INNER['cpu'] = inner
    lane = d2l_ext.find_lanes('torch')[0]
    if lane.kind != 'cpu':
        return 'the first lane is a GPU: this tool measures the CPU setting'
    torch.set_num_threads(lane.threads)
    x, w = copy_task.operands(lane)
    buffers, base = copy_task.host_buffers(lane), copy_task.host_buffers(lane)
    ref = copy_task.reference(x, w)

    def run_then_copy():
        for buf, y in zip(base, [x.mm(w) for _ in base]):
            buf.copy_(y)
        return base
    m = d2l_ext.compare({'run': lambda: [x.mm(w) for _ in buffers], 'run_then_copy': run_then_copy,
                         'overlapped': lambda: copy_task.run_and_copy(x, w, buffers, lane)},
                        lanes=[lane], repeats=repeats, check=lambda name, ys: d2l_ext.check_close(ys, ref, name))
    med = m.medians()
    over, serial = m.measurements['overlapped'], m.measurements['run_then_copy']
    beyond = over.median < serial.median and told_apart(over, serial)
    return (f'inner {inner} (x {x.shape[0]} x {inner}, {len(buffers)} products, freed memory kept: '
            f'{tracing.keep_freed_memory()}): run {med["run"]:.4f} s, run then copy {med["run_then_copy"]:.4f} s '
            f'(quartiles {quartiles(serial)[0]:.4f}-{quartiles(serial)[1]:.4f}), overlapped {med["overlapped"]:.4f} s '
            f"(quartiles {quartiles(over)[0]:.4f}-{quartiles(over)[1]:.4f}); copies' share "
            f'{(med["run_then_copy"] - med["run"]) / med["run_then_copy"]:.0%}, overlapped saves '
            f'{1 - med["overlapped"] / med["run_then_copy"]:.0%}, told apart (middle halves apart): {beyond}')


def main() -> None:
    from d2l_ext.communication.tracing import INNER
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('inner', nargs='*', type=int, default=[INNER['cpu']], help='inner sizes to measure')
    p.add_argument('--repeats', type=int, default=9)
    a = p.parse_args()
    print(f'load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores')
    for inner in a.inner:
        print(measure(inner, a.repeats), flush=True)


if __name__ == '__main__':
    main()
