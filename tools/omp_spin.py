"""The control behind timing.settle(): do one-thread lanes start late right after a multi-thread product?

PyTorch's CPU thread pool (OpenMP) spins for a moment after each parallel region before its threads sleep. On a
machine with few cores, lanes started inside that moment wait for a core. This times two one-thread lanes (each
20 products of 256x784 @ 784x256, in its own thread) started (a) right after a product on every core, (b) after
the pause timing.settle() takes, (c) after 10 ms idle; 40 interleaved repeats, medians printed.

    .venv/bin/python tools/omp_spin.py                          # the three starts
    OMP_WAIT_POLICY=PASSIVE .venv/bin/python tools/omp_spin.py  # no spinning: (a) should match (c)
"""
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import torch


def main() -> None:
    from d2l_ext.machine import cpu_cores
    from d2l_ext.timing import SETTLE_S
    x, w = torch.randn(256, 784), torch.randn(784, 256)
    pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
    cores = cpu_cores()

    def lane(t0, starts, i):
        torch.set_num_threads(1)
        starts[i] = time.perf_counter() - t0
        for _ in range(20):
            x @ w
        return time.perf_counter() - t0

    ways = {'right after a product on every core': 0.0, f'after timing.settle() ({SETTLE_S * 1e3:.0f} ms)': SETTLE_S,
            'after 10 ms idle (no product before)': None}
    res = {k: [] for k in ways}
    for _ in range(40):
        for name, pause in ways.items():
            if pause is None:
                time.sleep(0.01)
            else:
                torch.set_num_threads(cores)
                for _ in range(20):
                    torch.randn(512, 784) @ w
                time.sleep(pause)
            starts = {}
            t0 = time.perf_counter()
            ends = [f.result() for f in [p.submit(lane, t0, starts, i) for i, p in enumerate(pools)]]
            res[name].append((max(starts.values()), max(ends)))
    print(f'{cores} cores, torch {torch.__version__}; medians of 40 interleaved repeats:')
    for name, v in res.items():
        print(f'  {name}: the later lane started {statistics.median(a for a, _ in v) * 1e3:.2f} ms in, '
              f'both done at {statistics.median(b for _, b in v) * 1e3:.1f} ms')


if __name__ == '__main__':
    main()
