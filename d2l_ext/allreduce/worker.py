"""13.3.4: what each process does: build the same model, time every version interleaved, check, trace."""
from __future__ import annotations

import copy
import datetime
import os
import signal
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist

from .. import checking
from ..errors import ResultMismatch
from ..i18n import set_language, t
from ..profiling import no_profiler_chatter
from . import steps as _steps
from .plan import Plan
from .trace import timeline_events

# The gradient a step applied: float32 agrees with float64 to ~1e-6; a missing sum or average is off by ~0.5.
TOLERANCE = 1e-4
# The parameters after it: float32 rounding alone gives ~4e-8. The step changes them by only ~1e-5 of
# their size (so its change cannot be checked by subtraction in float32), so a tight bound is needed.
PARAM_TOLERANCE = 1e-6
# Versions that send nothing: each process's step uses its own share of the minibatch.
LOCAL = ('backward', 'nosync')


def relative_error(results, reference) -> float:
    """Worst relative error over pairs of tensors (a parameter's result and its reference), in float64."""
    return max((checking.relative_error(r, e) for r, e in zip(results, reference)), default=0.0)


def _load(step):
    """A step function sent by reference, or by source from a notebook cell (run with the steps module's names)."""
    if isinstance(step, tuple) and step[0] == 'source':
        namespace = dict(vars(_steps))
        exec(compile(step[2], f'<step {step[1]}>', 'exec'), namespace)
        return namespace[step[1]]
    return step


def _die_with_parent():
    """Linux: if the starting process is killed outright, the kernel ends this one too (no orphans)."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _sync(device):
    if device.type == 'cuda':
        torch.cuda.synchronize(device)


def _reference(model, X, y, lr):
    """(gradients, parameters after one SGD step) for one process training on X, computed in float64."""
    m64 = copy.deepcopy(model).double()
    _steps.loss_of(m64, X.double(), y.double()).backward()
    return [p.grad for p in m64.parameters()], [p.detach() - lr * p.grad for p in m64.parameters()]


class Versions:
    """The versions one process times: id -> (label, model, optimizer, step, bucket_mb)."""

    def __init__(self, plan: Plan, model, device):
        from torch.nn.parallel import DistributedDataParallel as DDP
        plain = (model, torch.optim.SGD(model.parameters(), lr=plan.lr))
        table = {'backward': (t('allreduce.version.backward'), *plain, _steps.local_step, None),
                 'allreduce': (t('allreduce.version.allreduce'), *plain, _steps.allreduce_alone, None)}
        for vid, step in plan.steps.items():
            table[vid] = (t(f'allreduce.version.{vid}') if vid in _steps.STEPS else vid, *plain, _load(step), None)
        ids = [device.index] if device.type == 'cuda' else None
        for mb in plan.bucket_mb:
            ddp = DDP(copy.deepcopy(model), device_ids=ids, bucket_cap_mb=mb)
            table[f'ddp-{mb:g}'] = (t('allreduce.version.ddp', mb=mb), ddp,
                                    torch.optim.SGD(ddp.parameters(), lr=plan.lr), _steps.local_step, mb)
        if plan.no_sync:  # its own DDP model: no_sync must not leave gradients behind for a timed DDP version
            ddp = DDP(copy.deepcopy(model), device_ids=ids, bucket_cap_mb=plan.bucket_mb[0])
            table['nosync'] = (t('allreduce.version.nosync'), ddp, torch.optim.SGD(ddp.parameters(), lr=plan.lr),
                               _steps.ddp_without_sync, None)
        self.table = table

    def reset(self, vid, start, rank):
        """Same parameters before every repeat, so the last repeat's result can be checked."""
        _, model, _, _, _ = self.table[vid]
        with torch.no_grad():
            for p, s in zip(model.parameters(), start):
                p.copy_(s)
                if vid == 'allreduce':  # known gradients: their sum over processes is known too
                    p.grad = torch.full_like(p, rank + 1.0)


def _check(versions, vid, start, expected, rank, n):
    """(what it was checked against, relative error); a wrong answer stops the run with ResultMismatch."""
    label, m = versions.table[vid][:2]
    if vid == 'allreduce':
        got = [p.grad for p in m.parameters()]
        against, error = 'sum', relative_error(got, [torch.full_like(g, n * (n + 1) / 2) for g in got])
    else:
        against = 'share' if vid in LOCAL else 'whole'
        grads, params = expected[against]
        error = relative_error([p.grad for p in m.parameters()], grads)
        if error > TOLERANCE:  # the gradient first: its error says by how much (a missing average gives n - 1)
            raise ResultMismatch(t('allreduce.mismatch_grad', version=label, rank=rank, error=error, tol=TOLERANCE))
        moved = relative_error(list(m.parameters()), params)
        if moved > PARAM_TOLERANCE:
            raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=moved, tol=PARAM_TOLERANCE))
    if error > TOLERANCE:
        raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=error, tol=TOLERANCE))
    return against, error


def _time(fn, args, device):
    dist.barrier()  # every process starts the repeat together, so its time is this step's time
    _sync(device)
    t0 = time.perf_counter()
    fn(*args)
    _sync(device)
    return time.perf_counter() - t0


def run_rank(rank: int, plan: Plan, report) -> dict | None:
    """13.3.4: one process's whole run; `report(kind, payload)` tells the starting process how it goes."""
    torch.set_num_threads(plan.threads)
    set_language(plan.language)
    device = torch.device(plan.devices[rank])
    if device.type == 'cuda':
        torch.cuda.set_device(device)
    n = plan.world_size
    dist.init_process_group(plan.backend, init_method=plan.init_method, rank=rank, world_size=n,
                            timeout=datetime.timedelta(seconds=plan.timeout))
    report('progress', {'phase': 'started'})
    torch.manual_seed(plan.seed)  # the same model on every process
    model = _steps.mlp(plan.layers, plan.width).to(device)
    start = [p.detach().clone() for p in model.parameters()]
    X, y = (torch.randn(n * plan.batch, plan.width, device=device) for _ in range(2))  # the whole minibatch
    share = slice(rank * plan.batch, (rank + 1) * plan.batch)  # this process's share of the minibatch
    expected = {'whole': _reference(model, X, y, plan.lr), 'share': _reference(model, X[share], y[share], plan.lr)}
    X, y = X[share].contiguous(), y[share].contiguous()
    versions = Versions(plan, model, device)
    times = {vid: [] for vid in versions.table}
    errors, checked = {}, {}
    last = plan.warmup + plan.repeats - 1
    for r in range(last + 1):  # interleaved: drift hits every version alike
        for vid, (_, m, opt, step, _) in versions.table.items():
            versions.reset(vid, start, rank)
            elapsed = _time(step, (m, X, y, opt), device)
            if r >= plan.warmup:
                times[vid].append(elapsed)
            if r == last:  # the last repeat's answer, checked before the next version moves the parameters
                checked[vid], errors[vid] = _check(versions, vid, start, expected, rank, n)
        report('progress', {'phase': 'repeat', 'repeat': r + 1, 'of': last + 1})
    grad_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    # four times the gradients' bytes (4-byte floats): big enough that bandwidth, not latency, decides
    buffer = torch.ones(grad_bytes, device=device)
    buffer_times = [_time(dist.all_reduce, (buffer,), device) for _ in range(plan.warmup + plan.repeats)]
    traced = _trace(plan, versions, start, X, y, rank, device) if plan.trace_dir else {}
    mine = {'rank': rank, 'times': times, 'errors': errors, 'checked': checked, 'traced': traced,
            'buffer_times': buffer_times[plan.warmup:], 'grad_bytes': grad_bytes, 'buffer_bytes': buffer.nbytes,
            'labels': {vid: v[0] for vid, v in versions.table.items()},
            'buckets': {vid: v[4] for vid, v in versions.table.items()}}
    everyone = [None] * n
    dist.all_gather_object(everyone, mine)
    dist.destroy_process_group()
    return everyone if rank == 0 else None


def _trace(plan, versions, start, X, y, rank, device) -> dict:
    """One profiled step per version: a Chrome trace per process (Perfetto opens it) and timeline events."""
    from torch.profiler import ProfilerActivity, profile
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == 'cuda' else [])
    out = {}
    for vid, (_, m, opt, step, _) in versions.table.items():
        versions.reset(vid, start, rank)
        dist.barrier()
        with no_profiler_chatter(), profile(activities=activities) as prof:
            step(m, X, y, opt)
            _sync(device)
        path = Path(plan.trace_dir) / f'allreduce-{vid}-process{rank}.json'
        prof.export_chrome_trace(str(path))
        out[vid] = {'path': str(path), 'events': timeline_events(prof, rank)}
    return out


def rank_entry(rank: int, plan: Plan, pipes) -> None:
    """13.3.4: what torch.multiprocessing starts in each process; every outcome goes to its pipe."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the starting process, which ends us all
    pid, pipe = os.getpid(), pipes[rank]
    try:
        everyone = run_rank(rank, plan, lambda kind, payload: pipe.send((kind, rank, pid, payload)))
        pipe.send(('result', rank, pid, everyone))
        sys.stdout.flush()
        sys.stderr.flush()
        # After a profiled run, a profiler thread still running at interpreter shutdown sometimes aborts
        # the process ('terminate called without an active exception'); everything is sent, so skip that.
        os._exit(0)
    except Exception as e:  # one line to the starting process; it decides which failure came first
        pipe.send(('error', rank, pid, {'type': type(e).__name__, 'message': str(e).splitlines()[0] if str(e) else ''}))
        sys.stdout.flush()
        sys.stderr.flush()
        # Not SystemExit: at interpreter shutdown the process group's threads, still joinable, make C++ abort
        # with 'terminate called without an active exception' on stderr, which would land in the notebook.
        os._exit(1)
