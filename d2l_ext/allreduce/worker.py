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
from .trace import step_stats, timeline_events

# float32 unit roundoff: each float32 addition or product is off by at most this share of its result.
U32 = 2.0 ** -24
# The parameters after a step: float32 rounding alone gives ~4e-8. The step changes them by only ~1e-5 of
# their size (so its change cannot be checked by subtraction in float32), so a tight bound is needed.
PARAM_TOLERANCE = 1e-6
# Versions that send nothing: each process's step uses its own share of the minibatch.
LOCAL = ('backward', 'nosync')


def gradient_tolerance(n: int, width: int, batch: int) -> float:
    """Relative error a correct float32 gradient may show against the float64 reference, on n processes.

    Each entry is a float32 sum: of `width` or `batch` products inside the step (whichever is longer),
    then of the n processes' shares in the all-reduce, n - 1 more additions. A sum of m terms rounds by
    at most (m - 1) u relative to the sum of their sizes; the factor 16 allows for cancellation (the sum
    smaller than its terms). Correct runs measure about 1e-6; a missing average is off by n - 1 and an
    update before the all-reduce finished by about a half, far above this.
    """
    return 16 * U32 * (max(width, batch) + n - 1)


def relative_error(results, reference) -> float:
    """Worst relative error over pairs of tensors (a parameter's result and its reference), in float64."""
    return max((checking.relative_error(r, e) for r, e in zip(results, reference)), default=0.0)


def _load(step):
    """A step function sent by reference, or by source from a notebook cell (run with the steps module's names)."""
    if isinstance(step, tuple) and step[0] == 'source':
        namespace = dict(vars(_steps))
        exec(compile(step[2], f'<step {step[1]}>', 'exec'), namespace)
        return _steps.as_step(namespace[step[1]])
    return _steps.as_step(step)


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


class Gates:
    """While open, records which ReLU units a model's first forward pass opened (the step's own decisions)."""

    def __init__(self, model):
        self.gates, relus = [], [m for m in model.modules() if isinstance(m, torch.nn.ReLU)]
        self.hooks = [m.register_forward_hook(self._keep) for m in relus]
        self.count = len(relus)

    def _keep(self, _module, _inputs, out):
        if len(self.gates) < self.count:  # a second forward pass in one step does not replace the first's
            self.gates.append(out.detach() > 0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for h in self.hooks:
            h.remove()


def _share_gradients(m64, X, y, gates) -> list:
    """The float64 gradients of one share, through the ReLU gates the float32 step itself chose.

    A pre-activation within float32 rounding of 0 can fall on the other side of the ReLU in float64,
    or in another float32 computation of the same product (BLAS results may depend on memory alignment);
    the gradient below that unit then differs by a whole example's part, not by rounding (seen on an
    H200 host: 7.6e-4 in the first two layers of one process out of 8). With the step's own gates, only
    rounding is left between the two.
    """
    m64 = copy.deepcopy(m64)
    given = iter(gates)
    # the ReLU's input through the step's gate: open where float32 opened it, whatever the float64 sign
    hooks = [m.register_forward_hook(lambda _m, inputs, _out: inputs[0] * next(given))
             for m in m64.modules() if isinstance(m, torch.nn.ReLU)]
    _steps.loss_of(m64, X.double(), y.double()).backward()
    for h in hooks:
        h.remove()
    return [p.grad for p in m64.parameters()]


def _reference(m64, X, y, gates, whole: bool, n: int, lr: float):
    """(gradients, parameters after one SGD step) in float64, through the step's gates: this process's share, or
    with `whole` one process on the whole minibatch (the mean of the shares' gradients, summed in float64)."""
    grads = _share_gradients(m64, X, y, gates)
    if whole:  # every process checks the same version at the same moment, so this collective lines up
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat /= n
        grads = [c.view_as(g) for c, g in zip(flat.split([g.numel() for g in grads]), grads)]
    return grads, [p.detach() - lr * g for p, g in zip(m64.parameters(), grads)]


class Versions:
    """The versions one process times: id -> (label, model, optimizer, step, bucket_mb)."""

    def __init__(self, plan: Plan, model, device):
        from torch.nn.parallel import DistributedDataParallel as DDP
        plain = (model, torch.optim.SGD(model.parameters(), lr=plan.lr))
        table = {'backward': (t('allreduce.version.backward'), *plain, _steps.local_step, None),
                 'allreduce': (t('allreduce.version.allreduce'), *plain, _steps.allreduce_alone, None)}
        chosen = {vid: _load(step) for vid, step in plan.steps.items()}
        for vid, step in _steps.CONTROLS.items():  # after (a) when the run has it, so tables read (a), flat, (b)
            if vid not in chosen:
                ids = list(chosen)
                at = ids.index('serial') + 1 if 'serial' in ids else 0
                chosen = dict([*list(chosen.items())[:at], (vid, step), *list(chosen.items())[at:]])
        known = {**_steps.STEPS, **_steps.CONTROLS}
        for vid, step in chosen.items():
            table[vid] = (t(f'allreduce.version.{vid}') if vid in known else vid, *plain, step, None)
        ids = [device.index] if device.type == 'cuda' else None
        for mb in plan.bucket_mb:
            ddp = DDP(copy.deepcopy(model), device_ids=ids, bucket_cap_mb=mb)
            table[f'ddp-{mb:g}'] = (t('allreduce.version.ddp', mb=mb), ddp,
                                    torch.optim.SGD(ddp.parameters(), lr=plan.lr), _steps.local_step, mb)
        if plan.no_sync:  # its own DDP model: no_sync must not leave gradients behind for a timed DDP version
            ddp = DDP(copy.deepcopy(model), device_ids=ids, bucket_cap_mb=plan.bucket_mb[0] if plan.bucket_mb else 25.0)
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


def _check(versions, vid, m64, gates, X, y, rank, n, tol, lr):
    """(what it was checked against, relative error); a wrong answer stops the run with ResultMismatch."""
    label, m = versions.table[vid][:2]
    if vid == 'allreduce':
        got = [p.grad for p in m.parameters()]
        against, error = 'sum', relative_error(got, [torch.full_like(g, n * (n + 1) / 2) for g in got])
    else:
        against = 'share' if vid in LOCAL else 'whole'
        grads, params = _reference(m64, X, y, gates, against == 'whole', n, lr)
        error = relative_error([p.grad for p in m.parameters()], grads)
        if error > tol:  # the gradient first: its error says by how much (a missing average gives n - 1)
            raise ResultMismatch(t('allreduce.mismatch_grad', version=label, rank=rank, error=error, tol=tol))
        moved = relative_error(list(m.parameters()), params)
        if moved > PARAM_TOLERANCE:
            raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=moved, tol=PARAM_TOLERANCE))
    if error > tol:
        raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=error, tol=tol))
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
    m64 = copy.deepcopy(model).double()  # the float64 reference starts from the same parameters
    tol = gradient_tolerance(n, plan.width, plan.batch)
    X, y = X[share].contiguous(), y[share].contiguous()
    versions = Versions(plan, model, device)
    report('progress', {'phase': 'versions'})  # DDP's first import can take a minute on a busy machine
    times = {vid: [] for vid in versions.table}
    errors, checked = {}, {}
    last = plan.warmup + plan.repeats - 1
    for r in range(last + 1):  # interleaved: drift hits every version alike
        for vid, (_, m, opt, step, _) in versions.table.items():
            versions.reset(vid, start, rank)
            with Gates(m) as gates:  # cheap: a comparison per ReLU output, in every repeat alike
                elapsed = _time(step, (m, X, y, opt), device)
            if r >= plan.warmup:
                times[vid].append(elapsed)
            if r == last:  # the last repeat's answer, checked before the next version moves the parameters
                checked[vid], errors[vid] = _check(versions, vid, m64, gates.gates, X, y, rank, n, tol, plan.lr)
            if r == 0:  # a first step can be slow (lazy set-up on a busy machine): say this process is alive
                report('progress', {'phase': 'first', 'version': vid, 'seconds': elapsed})
        report('progress', {'phase': 'repeat', 'repeat': r + 1, 'of': last + 1})
    # backward produces the gradients in reverse parameter order: the order they can be sent in
    tensor_bytes = [p.numel() * p.element_size() for p in reversed(list(model.parameters()))]
    grad_bytes = sum(tensor_bytes)
    # the per-call overhead + bandwidth model's two points: one float (the calls' own cost) and four times
    # the gradients' bytes (4-byte floats: big enough that bandwidth, not the per-call cost, decides)
    small, buffer = torch.ones(1, device=device), torch.ones(grad_bytes, device=device)
    small_times = [_time(dist.all_reduce, (small,), device) for _ in range(plan.warmup + max(10, plan.repeats))]
    buffer_times = [_time(dist.all_reduce, (buffer,), device) for _ in range(plan.warmup + plan.repeats)]
    report('progress', {'phase': 'model points'})
    traced = _trace(plan, versions, start, X, y, rank, device, report)
    mine = {'rank': rank, 'times': times, 'errors': errors, 'checked': checked, 'traced': traced,
            'buffer_times': buffer_times[plan.warmup:], 'grad_bytes': grad_bytes, 'buffer_bytes': buffer.nbytes,
            'small_times': small_times[plan.warmup:], 'small_bytes': small.nbytes, 'tensor_bytes': tensor_bytes,
            'tolerance': tol, 'labels': {vid: v[0] for vid, v in versions.table.items()},
            'buckets': {vid: v[4] for vid, v in versions.table.items()}}
    everyone = [None] * n
    dist.all_gather_object(everyone, mine)
    dist.destroy_process_group()
    return everyone if rank == 0 else None


def _trace(plan, versions, start, X, y, rank, device, report) -> dict:
    """`plan.profiled` profiled steps per version: the intervals of each (trace.step_stats), the median step's
    timeline events, and with a trace folder that step's Chrome trace per process (Perfetto opens it)."""
    from torch.profiler import ProfilerActivity, profile
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == 'cuda' else [])
    out = {}
    for vid, (_, m, opt, step, _) in versions.table.items():
        stats, steps = [], []
        for _ in range(plan.profiled):
            versions.reset(vid, start, rank)
            dist.barrier()
            with no_profiler_chatter(), profile(activities=activities) as prof:
                step(m, X, y, opt)
                _sync(device)
            events = timeline_events(prof, rank)
            stats.append(step_stats(events))
            length = max((e['end'] for e in events), default=0.0) - min((e['start'] for e in events), default=0.0)
            steps.append((length, len(steps), events, prof))
        # the median profiled step (the lower one of two) is the one drawn and exported
        _, _, events, prof = sorted(steps, key=lambda s: s[:2])[(len(steps) - 1) // 2]
        path = None
        if plan.trace_dir:
            path = str(Path(plan.trace_dir) / f'allreduce-{vid}-process{rank}.json')
            prof.export_chrome_trace(path)
        out[vid] = {'path': path, 'events': events, 'stats': stats}
        report('progress', {'phase': 'profiled', 'version': vid})  # alive: the engine's silence clock restarts
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
