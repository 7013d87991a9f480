"""13.3.2 Parallel computation and communication: run, copy, run then copy, run with copy overlapped."""
from __future__ import annotations

from .lanes import pick_lanes
from .machine import check_framework, positive_int, provenance
from .timing import measure, wait_for_lanes
from .workloads import backend, check_workload, default_size


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


def _torch_rows(lane, n, k, repeats, modes, step):
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
        del copier
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
                    modes=None, progress=None, fake=None) -> dict:
    """13.3.2 for every copy mode this hardware allows, each answer checked against float64."""
    fw = check_framework(framework)
    lane = pick_lanes(fw, None, **(fake or {}))[0]  # the first lane: the GPU if there is one
    d_size, d_iters = default_size([lane])
    n, (k,) = check_workload(d_size if size is None else size, d_iters if iters is None else iters, [lane], extra_matrices=3)
    repeats = positive_int(repeats, 'repeats', 'pass a positive --repeats, e.g. 3')
    n_modes = 4 if (fw == 'torch' and lane.kind == 'gpu') else (1 if fw == 'torch' else 2)
    if modes:
        n_modes = len(modes)
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
            rows, link = _torch_rows(lane, n, k, repeats, modes, step)
    else:
        rows, link = _mxnet_rows(lane, n, k, repeats, modes, step)
    return {'experiment': 'comm', 'framework': fw, 'size': n, 'iters': k, 'repeats': repeats,
            'lane': lane.as_dict(), 'has_link': lane.kind == 'gpu', 'link_gbps': link,
            'rows': rows, 'machine': provenance()}
