"""Speed goals of d2l_ext, measured side by side in one run; prints ratios (not a test).

    python benchmarks/bench.py [--json FILE] [--quick]   (--quick: tiny sizes, a smoke run of the script)

CPU (any machine): two-lane speedup for each framework on CPU lanes (goal for PyTorch: >= 1.8x on
2 idle cores), the harness's overhead against a bare loop doing the same products (goal < 3%),
and the time from `import d2l_ext` to the first result.
GPU (where present): 13.3.2 overlapped run+copy vs max(run, copy) (goal <= 1.05), pinned copy
bandwidth vs a plain pinned copy (goal >= 90%), TFLOP/s vs fp32 peak (and TF32, as an aside),
GPU + CPU lanes together vs max(lane times) (goal <= 1.1), all GPUs together vs max (goal <= 1.05).
13.3.4 (benchmarks/allreduce_bench.py): the interval-based overlap of the all-reduce with backward
(goal >= 0.5) for the hook version and DDP at its best bucket size, 2 processes, backward's slowdown
beside; the per-call overhead + bandwidth model's best bucket size at most one size away in the sweep
from the measured best.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from allreduce_bench import allreduce_goals, goal  # 13.3.4's goals, beside this script (it imports nothing back)

QUICK = False  # --quick: tiny sizes, to check the script itself runs

FP32_PEAK_TFLOPS = {'H200': 67.0, 'H100': 67.0, 'A100': 19.5, 'V100': 15.7}  # vendor datasheets, dense fp32


def import_to_first_result() -> float:
    code = ('import time; t = time.perf_counter(); import d2l_ext; '
            'from d2l_ext.parallel import parallel; '
            "parallel('torch', size=256, iters=2, repeats=1); print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def harness_overhead(repeats=15) -> tuple[float, float, int, int]:
    """Median of d2l_ext.measure vs a bare perf_counter loop over the same products, interleaved.

    On the first lane's own workload: 10 products of 1000 x 1000 on a CPU lane (about 0.2 s on
    one core), the book's 50 of 4000 x 4000 on a GPU. Ten 1000 x 1000 products take only 0.4 ms
    on an H100, so there the fixed cost of a Python call (tens of microseconds) would read as
    several percent of nothing the lessons time.
    """
    import torch

    from d2l_ext import find_lanes, measure
    from d2l_ext.backends import torch_backend as work
    from d2l_ext.workloads import BOOK_ITERS, BOOK_SIZE
    lane = find_lanes('torch')[0]
    size, iters = (BOOK_SIZE, BOOK_ITERS) if lane.kind == 'gpu' else (1000, 10)
    if QUICK:
        size, iters, repeats = 64, 2, 2
    x = work.random_matrix(lane, size)
    sync = (lambda: torch.cuda.synchronize(lane.index)) if lane.kind == 'gpu' else (lambda: None)
    bare, harness = [], []
    job = [lambda: work.run(x, iters)]
    with work.intra_op_threads(lane.threads if lane.kind == 'cpu' else 0):
        for _ in range(repeats):
            sync()
            t = time.perf_counter()
            ys = [x.mm(x) for _ in range(iters)]
            sync()
            bare.append(time.perf_counter() - t)
            del ys
            m = measure(lambda: work.run_on_lanes([lane], job), lanes=[lane], repeats=1, warmup=0)
            harness.append(m.times[0])
    return statistics.median(harness), statistics.median(bare), size, iters


def cpu_lanes_parallel(framework, **kwargs):
    """Two CPU lanes even where GPUs exist (runs in the framework's worker)."""
    from d2l_ext.lanes import fake_hardware, find_lanes
    from d2l_ext.parallel import measure_parallel
    with fake_hardware(gpus=0):
        lanes = find_lanes(framework)
    return measure_parallel(lanes, **kwargs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--json', help='also write the results to this file')
    ap.add_argument('--quick', action='store_true', help='tiny sizes: check the script runs, measure nothing')
    args = ap.parse_args()
    global QUICK
    QUICK = args.quick
    from d2l_ext import communication, parallel
    from d2l_ext.checking import check_close
    from d2l_ext.frameworks import available_frameworks
    from d2l_ext.machine import cpu_cores, cpu_steal_seconds, provenance
    from d2l_ext.timing import measure
    from d2l_ext.workers import call_in_worker
    SMALL = dict(size=64, iters=2, repeats=1) if QUICK else dict(repeats=5)
    import torch
    rows, report = [], {'machine': provenance()}
    print('machine:', report['machine'], flush=True)

    t = import_to_first_result()
    report['import_to_first_result_s'] = t
    print(f'import d2l_ext -> first result: {t:.2f} s', flush=True)

    h, b, size, iters = harness_overhead()
    report['harness_overhead'] = {'harness_s': h, 'bare_s': b, 'size': size, 'iters': iters}
    print(f'  harness {h * 1e3:.2f} ms vs bare loop {b * 1e3:.2f} ms for {iters} products of {size}: '
          f'{(h - b) * 1e6:.0f} us more', flush=True)
    goal(rows, 'harness overhead vs bare loop', (h / b - 1) * 100, '< 3', h / b - 1 < 0.03, ' %')

    print('two CPU lanes (forced, even where GPUs exist):', flush=True)
    for fw in available_frameworks():
        r = call_in_worker(fw, cpu_lanes_parallel, fw, **SMALL)
        report[f'cpu_lanes_{fw}'] = r.to_json()
        print(f'  {fw}: lanes {[round(m.median, 4) for m in r.lane_times]}, together {r.together.median:.3f} s, '
              f'speedup {r.speedup:.2f}x, expected {r.expected_speedup:.2f}x ({r.expectation.rule})')
        if fw == 'torch' and cpu_cores() == 2:
            goal(rows, 'PyTorch two CPU lanes speedup', r.speedup, '>= 1.8 on 2 idle cores', r.speedup >= 1.8, 'x')

    if torch.cuda.is_available():
        name = torch.cuda.get_device_name(0)
        peak = next((v for k, v in FP32_PEAK_TFLOPS.items() if k in name), None)
        c = communication.comm('torch', **SMALL)
        report['comm'] = c.to_json()
        side = next(r for r in c.rows if 'copy stream' in r.mode)
        goal(rows, 'overlapped run+copy / max(run, copy)', side.overlap_vs_expected, '<= 1.05',
             side.overlap_vs_expected <= 1.05)
        pinned = next(r for r in c.rows if r.mode.startswith('pinned, preallocated, same'))
        frac = pinned.copy_gbps / c.link_gbps['pinned']
        goal(rows, 'pinned copy bandwidth / plain pinned copy', frac * 100, '>= 90', frac >= 0.9, ' %')
        p = parallel.parallel('torch', lanes='cuda:0', **SMALL)
        tf = p.tflops_per_lane[0]
        report['gpu_alone'] = p.to_json()
        share = f' = {tf / peak * 100:.0f}% of the {peak} TFLOP/s fp32 peak' if peak else ''
        print(f'  fp32 products: {tf:.1f} TFLOP/s{share}')
        torch.backends.cuda.matmul.allow_tf32 = True  # in this process only; the workers run fp32
        x = torch.rand(4000, 4000, device='cuda:0')
        ref = x.double() @ x.double()
        m = measure(lambda: [x.mm(x) for _ in range(50)], repeats=5,  # waits for every GPU around each run
                    check=lambda ys: check_close(ys[-1:], ref, 'TF32 products'))  # TF32's own tolerance
        torch.backends.cuda.matmul.allow_tf32 = False
        tf32 = 50 * 2 * 4000 ** 3 / m.median / 1e12
        report['tf32_tflops'] = tf32
        print(f'  aside, TF32 allowed: {tf32:.0f} TFLOP/s (not fp32 accuracy)', flush=True)
        n_gpu = torch.cuda.device_count()
        lanes = 'cuda:0,cpu' if n_gpu == 1 else None
        if n_gpu == 1:
            # 9 repeats: on the 16-core VM the CPU lane alone varies by +-15% from run to run
            steal = cpu_steal_seconds()
            m = parallel.parallel('torch', lanes=lanes, **dict(SMALL, repeats=SMALL['repeats'] + 4))
            steal = cpu_steal_seconds() - steal
            report['gpu_cpu_lanes'] = m.to_json()
            report['gpu_cpu_lanes_steal_s'] = steal
            print(f'  CPU time stolen by the host while measuring: {steal:.2f} s '
                  f'(other virtual machines running on our cores)', flush=True)
            r = m.together.median / m.expected
            print(f'  GPU + CPU lanes: {m.iters} products of {m.size}, '
                  f'lanes {[round(x.median, 3) for x in m.lane_times]} s')
            goal(rows, 'GPU + CPU together / max(lane times)', r, '<= 1.1', r <= 1.1)
        else:
            m = parallel.parallel('torch', lanes=','.join(f'cuda:{i}' for i in range(n_gpu)), **SMALL)
            report['all_gpus'] = m.to_json()
            r = m.together.median / m.expected
            goal(rows, f'{n_gpu} GPUs together / max(per-GPU times)', r, '<= 1.05', r <= 1.05)
    report['allreduce'] = allreduce_goals(quick=QUICK)
    rows += report['allreduce']['goals']
    report['goals'] = rows
    print('summary:', ', '.join(f"{r['goal']}: {'met' if r['met'] else 'MISSED'}" for r in rows))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)
    from d2l_ext.workers import shutdown
    shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
