"""13.3.2 on a CPU: the lesson's rows (copying.ways), and whether run_and_copy beats "in order" beyond the spread.

Runs the lesson's own measurement (the task's operands and buffers; products alone, copies alone, in order, the
control and the worked run_and_copy, interleaved, each on the lane's cores) once per inner size, on this machine's
first PyTorch lane:

    .venv/bin/python tools/measure_copy_setting.py            # the lesson's setting
    .venv/bin/python tools/measure_copy_setting.py 4 16 --repeats 15

Each line: the medians, the copies' share of in order, run_and_copy's gain over in order, and whether its upper
quartile lies below in order's lower quartile (the lesson's "beyond the repeats' spread").
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(inner: int, repeats: int) -> str:
    import d2l_ext
    from d2l_ext.communication import copying, tracing
    from d2l_ext.results import quartiles, told_apart
    tracing.INNER['cpu'] = inner
    lane = d2l_ext.find_lanes('torch')[0]
    if lane.kind != 'cpu':
        return 'the first lane is a GPU: this tool measures the CPU setting'
    ways = copying.ways(lane, copying.run_and_copy)
    m = d2l_ext.compare(ways.variants, lanes=[lane], repeats=repeats, check=ways.check)
    med = {name: v * 1e3 for name, v in m.medians().items()}
    over, serial = m.measurements['overlapped'], m.measurements['in_order']
    beyond = over.median < serial.median and told_apart(over, serial)
    q = [f'{v * 1e3:.2f}' for v in (*quartiles(serial), *quartiles(over))]
    return (f'inner {inner} (x {ways.x.shape[0]} x {inner}, {len(ways.buffers)} products): '
            + ', '.join(f'{name} {v:.2f} ms' for name, v in med.items())
            + f" (in order {q[0]}-{q[1]}, run_and_copy {q[2]}-{q[3]}); copies' share of in order (in order - products "
            f'alone) {(med["in_order"] - med["run"]) / med["in_order"]:.0%}, '
            f'run_and_copy saves {1 - med["overlapped"] / med["in_order"]:.0%}, '
            f'told apart (middle halves apart): {beyond}')


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
