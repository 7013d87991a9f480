"""What slows GPU + CPU lanes down when they run together (13.3.1, one GPU): a diagnostic.

    python benchmarks/gpu_cpu_lanes.py [--json FILE]

For a few settings (the CPU lane's thread count, how many products the GPU lane queues) it
times each lane alone and both together, and inside each together-run also when the CPU lane's
thread finished, when the GPU finished (CUDA events) and when queuing the GPU's products
returned. Which lane ends late tells where the interference is. Needs one GPU.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

import torch

from d2l_ext.backends import torch_backend as work
from d2l_ext.checking import check_close
from d2l_ext.lanes import find_lanes, make_lane
from d2l_ext.machine import cpu_steal_seconds
from d2l_ext.timing import clock, measure


def one_setting(gpu, cpu, n, kg, kc, repeats=5):
    xg, xc = work.random_matrix(gpu, n), work.random_matrix(cpu, n, seed=1)
    refs = [work.reference_product(xg), work.reference_product(xc)]
    steal = cpu_steal_seconds()
    med = statistics.median

    def alone(lane, x, k, ref):
        check = lambda results: check_close(results[0], ref, f'{lane.label} alone')  # noqa: E731
        return measure(lambda: work.run_on_lanes([lane], [lambda: work.run(x, k)]), lanes=[gpu, cpu],
                       repeats=repeats, check=check).times
    g_alone, c_alone = alone(gpu, xg, kg, refs[0]), alone(cpu, xc, kc, refs[1])
    rows = []
    for r in range(repeats + 1):
        marks = {}

        def gpu_job(marks=marks):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            ys = work.run(xg, kg)
            e.record()
            marks['queued'] = clock()
            marks['events'] = (s, e)
            return ys

        def cpu_job(marks=marks):
            ys = work.run(xc, kc)
            marks['cpu_end'] = clock()
            return ys
        # timestamps inside one together-run, so the wall clock here (timing.clock), waiting as measure() does
        work.wait([gpu])
        t0 = clock()
        results = work.run_on_lanes([gpu, cpu], [gpu_job, cpu_job])
        work.wait([gpu])
        total = clock() - t0
        if r == repeats:  # outside the timed region: the last run's answers
            for ys, ref, lane in zip(results, refs, (gpu, cpu)):
                check_close(ys, ref, f'{lane.label} together')
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
        lane = make_lane('torch', 'cpu', 0, threads=threads, name=cpu.name, label=cpu.label,
                         explanation=cpu.explanation)
        results.append(one_setting(gpu, lane, 2000, kg, kc))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': torch.cuda.get_device_name(0), 'omp_wait_policy': os.environ.get('OMP_WAIT_POLICY'),
                       'results': results}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
