"""13.3.2 Parallel computation and communication: run, copy, run then copy, run with copy overlapped."""
from __future__ import annotations

from .lanes import pick_lanes
from .machine import check_framework, positive_int, provenance
from .timing import measure, wait_for_lanes
from .workloads import check_workload, default_size


def _row(mode, describe, lane, n, k, run_m, copy_m, serial_m, overlap_m, err, link=None):
    ideal = max(run_m.median, copy_m.median)
    row = {'mode': mode, 'plan': describe, 'lane': lane.label,
           'run': run_m.median, 'copy': copy_m.median, 'run_then_copy': serial_m.median,
           'overlapped': overlap_m.median, 'ideal': ideal,
           'overlap_vs_ideal': overlap_m.median / ideal,
           'copy_gbps': k * n * n * 4 / copy_m.median / 1e9, 'max_rel_error': err,
           'iqr': {'run': run_m.iqr, 'copy': copy_m.iqr, 'run_then_copy': serial_m.iqr,
                   'overlapped': overlap_m.iqr}}
    if link:
        row['copy_vs_link'] = row['copy_gbps'] / link
    return row


def _torch_rows(lane, n, k, repeats, modes, step, plan=None):
    import torch
    from . import torch_work as work
    from .torch_copy import GPU_PLANS, Copier, ThreadCopier, link_bandwidth
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x).cpu()
    tol = work.tolerance()
    rows, link = [], None

    def checked(results, what):
        err = work.max_rel_error(results, ref)
        if not err <= tol:
            from .errors import ResultMismatch
            raise ResultMismatch(f'{what}: relative error {err:.2e} exceeds {tol:.0e}')
        return err

    run_m = measure(lambda: work.run(x, k), lanes=[lane], label='run', repeats=repeats, on_repeat=step)
    if lane.kind == 'gpu':
        link = link_bandwidth(lane.device(), n)
        plans = {m: p for m, p in GPU_PLANS.items() if not modes or m in modes}
        if plan is not None:  # one mode chosen with the widgets
            from .torch_copy import CopyPlan
            chosen = CopyPlan(**plan)
            plans = {chosen.describe(): chosen}
        make = lambda plan: Copier(plan, n, k, lane.device())
    else:  # no link on a CPU-only machine: a second thread copying is the honest analogue
        plans = {'CPU analogue: copy thread': None}
        make = lambda plan: ThreadCopier(n, k)
    ys = work.run(x, k)
    wait_for_lanes([lane])
    for mode, plan in plans.items():
        copier = make(plan)
        errs = []
        copy_m = measure(lambda: copier.copy(ys), lanes=[lane], label='copy', repeats=repeats,
                         check=lambda r: errs.append(checked(r, mode + ' copy')), on_repeat=step)

        def run_then_copy():
            out = work.run(x, k)
            wait_for_lanes([lane])  # the copy starts only when every product is done
            return copier.copy(out)
        serial_m = measure(run_then_copy, lanes=[lane], label='run then copy', repeats=repeats,
                           check=lambda r: errs.append(checked(r, mode + ' run then copy')), on_repeat=step)
        overlap_m = measure(lambda: copier.run_and_copy(x, k), lanes=[lane], label='run + copy',
                            repeats=repeats, check=lambda r: errs.append(checked(r, mode + ' overlapped')),
                            on_repeat=step)
        rows.append(_row(mode, plan.describe() if plan else 'preallocated host buffers, second thread',
                         lane, n, k, run_m, copy_m, serial_m, overlap_m, max(errs),
                         link['pinned'] if link else None))
        copier = None  # free this mode's buffers before the next mode allocates its own
        torch.cuda.empty_cache() if lane.kind == 'gpu' else None
    return rows, link


def _mxnet_rows(lane, n, k, repeats, modes, step):
    from . import mxnet_work as work
    from mxnet import npx
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x)
    rows = []
    run_m = measure(lambda: work.run(x, k), lanes=[lane], label='run', repeats=repeats, on_repeat=step)
    ys = work.run(x, k)
    npx.waitall()
    # On MXNet's CPU build both destinations are host memory: the engine copies y[i-1] on one
    # worker while another computes y[i], the CPU analogue of the book's claim.
    plans = {'copyto(npx.cpu())': False, 'copyto(npx.cpu_pinned())': True}
    for mode, pinned in plans.items():
        if modes and mode not in modes:
            continue
        errs = []
        chk = lambda r: errs.append(_check_mx(work, r, ref, mode))
        copy_m = measure(lambda: work.copy_to_cpu(ys, pinned), lanes=[lane], label='copy',
                         repeats=repeats, check=chk, on_repeat=step)

        def run_then_copy():
            out = work.run(x, k)
            npx.waitall()
            return work.copy_to_cpu(out, pinned)
        serial_m = measure(run_then_copy, lanes=[lane], repeats=repeats, check=chk, on_repeat=step)
        overlap_m = measure(lambda: work.copy_to_cpu(work.run(x, k), pinned), lanes=[lane],
                            repeats=repeats, check=chk, on_repeat=step)
        rows.append(_row(mode, 'new host array per result, ordered by the engine', lane, n, k,
                         run_m, copy_m, serial_m, overlap_m, max(errs)))
    return rows, None


def _check_mx(work, results, ref, what):
    import numpy
    err = max(float(numpy.linalg.norm(r.asnumpy().astype('float64') - ref) / numpy.linalg.norm(ref))
              for r in results)
    if not err <= work.TOLERANCE:
        from .errors import ResultMismatch
        raise ResultMismatch(f'{what}: relative error {err:.2e} exceeds {work.TOLERANCE:.0e}')
    return err


def comm_experiment(framework: str = 'torch', size=None, iters=None, repeats: int = 3,
                    modes=None, progress=None, fake=None, plan=None, lesson: bool = False) -> dict:
    """13.3.2 for every copy mode this hardware allows, each answer checked against float64."""
    from .workloads import lesson_workload
    fw = check_framework(framework)
    lane = pick_lanes(fw, None, **(fake or {}))[0]  # the first lane: the GPU if there is one
    d_size, d_iters = lesson_workload([lane]) if lesson else default_size([lane])
    n, (k,) = check_workload(d_size if size is None else size, d_iters if iters is None else iters, [lane], extra_matrices=3)
    repeats = positive_int(repeats, 'repeats', 'pass a positive --repeats, e.g. 3')
    n_modes = 4 if (fw == 'torch' and lane.kind == 'gpu') else (1 if fw == 'torch' else 2)
    if modes or plan:
        n_modes = 1 if plan else len(modes)
    total = repeats * (1 + 3 * n_modes)
    done = [0]

    def step(*_):
        done[0] += 1
        if progress:
            progress(min(done[0], total), total)

    if fw == 'torch':
        from .torch_work import intra_op_threads
        # CPU analogue: the computing thread keeps to its lane's share, leaving a core to copy
        with intra_op_threads(lane.threads if lane.kind == 'cpu' else 0):
            rows, link = _torch_rows(lane, n, k, repeats, modes, step, plan)
    else:
        rows, link = _mxnet_rows(lane, n, k, repeats, modes, step)
    return {'experiment': 'comm', 'framework': fw, 'size': n, 'iters': k, 'repeats': repeats,
            'lane': lane.as_dict(), 'has_link': lane.kind == 'gpu', 'link_gbps': link,
            'rows': rows, 'machine': provenance()}


def comm_timeline(size=None, iters=None, plan: str = 'pinned, preallocated, copy stream + events',
                  lesson: bool = True) -> dict:
    """13.3.2: a measured timeline of products and copies on their streams (or threads)."""
    from . import torch_work as work
    from .torch_copy import GPU_PLANS, overlap_timeline
    from .workloads import lesson_workload
    lane = pick_lanes('torch')[0]
    d_size, d_iters = lesson_workload([lane]) if lesson else default_size([lane])
    n, (k,) = check_workload(d_size if size is None else size, d_iters if iters is None else iters,
                             [lane], extra_matrices=3)
    x = work.random_matrix(lane, n)
    with work.intra_op_threads(lane.threads if lane.kind == 'cpu' else 0):
        overlap_timeline(x, min(k, 3), GPU_PLANS.get(plan))  # warm-up
        events = overlap_timeline(x, k, GPU_PLANS.get(plan))
    return {'size': n, 'iters': k, 'lane': lane.label,
            'plan': plan if lane.kind == 'gpu' else 'CPU analogue: copy thread', 'events': events}


def cpu_gpu_together(size=None, iters=None, repeats: int = 3) -> dict:
    """Exercise 3: lane 1 computes AND copies its results to the host while lane 2 computes.

    Three resources at once: lane 1's compute, the link (or a copy thread), and lane 2.
    """
    from . import torch_work as work
    from .torch_copy import PINNED_SIDE_STREAM, Copier, ThreadCopier
    from .workloads import lesson_workload
    lanes = pick_lanes('torch')
    d_size, d_iters = lesson_workload(lanes)
    n, ks = check_workload(d_size if size is None else size, d_iters if iters is None else iters,
                           lanes, extra_matrices=3)
    x1, x2 = (work.random_matrix(lane, n, seed=i) for i, lane in enumerate(lanes))
    copier = (Copier(PINNED_SIDE_STREAM, n, ks[0], lanes[0].device()) if lanes[0].kind == 'gpu'
              else ThreadCopier(n, ks[0]))
    jobs = [lambda: copier.run_and_copy(x1, ks[0]), lambda: work.run(x2, ks[1])]
    ref1, ref2 = work.reference_product(x1).cpu(), work.reference_product(x2)
    errs = []

    def check(results):
        errs.append(max(work.max_rel_error(results[0], ref1), work.max_rel_error(results[1], ref2)))
        if not errs[-1] <= work.tolerance():
            from .errors import ResultMismatch
            raise ResultMismatch(f'exercise 3: relative error {errs[-1]:.2e}')
    alone1 = measure(lambda: work.run_on_lanes(lanes[:1], jobs[:1]), lanes=lanes[:1], repeats=repeats)
    alone2 = measure(lambda: work.run_on_lanes(lanes[1:], jobs[1:]), lanes=lanes[1:], repeats=repeats)
    both = measure(lambda: work.run_on_lanes(lanes, jobs), lanes=lanes, repeats=repeats, check=check)
    return {'lanes': [lane.label for lane in lanes], 'size': n, 'iters': ks,
            'lane1_compute_and_copy': alone1.median, 'lane2_compute': alone2.median,
            'serial_sum': alone1.median + alone2.median, 'together': both.median,
            'ideal': max(alone1.median, alone2.median), 'max_rel_error': errs[-1]}
