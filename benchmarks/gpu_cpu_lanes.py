"""What slows GPU + CPU lanes down when they run together (13.3.1, one GPU): a diagnostic.

    python benchmarks/gpu_cpu_lanes.py [--json FILE]

For a few settings (the CPU lane's thread count, how many products the GPU lane queues) it
times each lane alone and both together, and inside each together-run also when the CPU lane's
thread finished, when the GPU finished (CUDA events) and when queuing the GPU's products
returned. Which lane ends late tells where the interference is. Needs one GPU.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time

import torch

from d2l_ext.backends import torch_backend as work
from d2l_ext.lanes import find_lanes
from d2l_ext.machine import cpu_steal_seconds


def one_setting(gpu, cpu, n, kg, kc, repeats=5):
    xg, xc = work.random_matrix(gpu, n), work.random_matrix(cpu, n, seed=1)
    steal = cpu_steal_seconds()
    med = statistics.median

    def alone(lane, x, k):
        ts = []
        for _ in range(repeats + 1):
            torch.cuda.synchronize(0)
            t = time.perf_counter()
            work.run_on_lanes([lane], [lambda: work.run(x, k)])
            torch.cuda.synchronize(0)
            ts.append(time.perf_counter() - t)
        return ts[1:]
    g_alone, c_alone = alone(gpu, xg, kg), alone(cpu, xc, kc)
    rows = []
    for r in range(repeats + 1):
        marks = {}

        def gpu_job(marks=marks):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            ys = work.run(xg, kg)
            e.record()
            marks['queued'] = time.perf_counter()
            marks['events'] = (s, e)
            return ys

        def cpu_job(marks=marks):
            ys = work.run(xc, kc)
            marks['cpu_end'] = time.perf_counter()
            return ys
        torch.cuda.synchronize(0)
        t0 = time.perf_counter()
        work.run_on_lanes([gpu, cpu], [gpu_job, cpu_job])
        torch.cuda.synchronize(0)
        total = time.perf_counter() - t0
        s, e = marks['events']
        if r:
            rows.append({'together': total, 'cpu_end': marks['cpu_end'] - t0, 'queued': marks['queued'] - t0,
                         'gpu_busy': s.elapsed_time(e) / 1e3})
    out = {'size': n, 'gpu_iters': kg, 'cpu_iters': kc, 'cpu_threads': cpu.threads,
           'gpu_alone': med(g_alone), 'cpu_alone': med(c_alone), 'cpu_alone_times': c_alone,
           'together': med(r['together'] for r in rows),
           'cpu_end_in_together': med(r['cpu_end'] for r in rows),
           'gpu_busy_in_together': med(r['gpu_busy'] for r in rows),
           'queued_in_together': med(r['queued'] for r in rows), 'runs': rows}
    out['ratio'] = out['together'] / max(out['gpu_alone'], out['cpu_alone'])
    out['steal_s'] = cpu_steal_seconds() - steal
    print(f"  T={cpu.threads:2d} GPU {kg:4d} CPU {kc:3d}: alone GPU {out['gpu_alone']:.3f} CPU {out['cpu_alone']:.3f}"
          f" (CPU times {' '.join(f'{t:.3f}' for t in c_alone)}) | together {out['together']:.3f}: CPU lane ended"
          f" {out['cpu_end_in_together']:.3f}, GPU busy {out['gpu_busy_in_together']:.3f}, queuing returned"
          f" {out['queued_in_together']:.3f} | ratio {out['ratio']:.3f}, {out['steal_s']:.2f} s stolen", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--json')
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print('no GPU: nothing to diagnose')
        return 0
    gpu, cpu = find_lanes('torch')
    print(f"{torch.cuda.get_device_name(0)}; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}; "
          f'{os.cpu_count()} cores', flush=True)
    results = []
    for threads, kg, kc in [(15, 1430, 38), (15, 1000, 38), (15, 1430, 29), (14, 1430, 38), (12, 1430, 38),
                            (8, 1430, 20)]:
        lane = dataclasses.replace(cpu, threads=threads)
        results.append(one_setting(gpu, lane, 2000, kg, kc))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': torch.cuda.get_device_name(0), 'omp_wait_policy': os.environ.get('OMP_WAIT_POLICY'),
                       'results': results}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
