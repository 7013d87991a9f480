"""13.3.4 measured: each gloo process builds the same model, times every version interleaved, checks, profiles it."""
from __future__ import annotations

import copy
import datetime
import os
import time
from pathlib import Path

import torch
import torch.distributed as dist

from .. import checking
from ..errors import ResultMismatch, WorkerFailed
from ..i18n import set_language, t
from ..overlap import busy, intersection
from ..profiling import no_profiler_chatter
from . import harness
from . import steps as _steps
from .plan import Plan, make_plan
from .results import AllreduceResult, Version

_BACKWARD = 'autograd::engine::evaluate_function: '


class ProcessFailed(WorkerFailed):
    """13.3.4: a process died, stopped, hung or raised; the message says which and why."""


def _load(step):
    """A step sent by reference, or by source from a notebook cell (run among the steps module's names)."""
    if isinstance(step, (tuple, list)) and step[0] == 'source':
        namespace = dict(vars(_steps))
        exec(compile(step[2], f'<step {step[1]}>', 'exec'), namespace)
        step = namespace[step[1]]
    return _steps.as_step(step)


def _reference(m64, X, y, whole: bool, n: int, lr: float):
    """(gradients, parameters after one SGD step) in float64 from `m64`'s start, of this share or (`whole`) the
    whole minibatch; each ReLU opens where a float32 forward from the same start (the checked step's) opened it."""
    m32, m64, opened = copy.deepcopy(m64).float(), copy.deepcopy(m64), []
    relus = [[m for m in model.modules() if isinstance(m, torch.nn.ReLU)] for model in (m32, m64)]
    for m in relus[0]:
        m.register_forward_hook(lambda _m, _i, out: opened.append(out > 0))
    with torch.no_grad():
        m32(X)
    for m, gate in zip(relus[1], opened):
        m.register_forward_hook(lambda _m, inputs, _out, gate=gate: inputs[0] * gate)
    _steps.loss_of(m64, X.double(), y.double()).backward()
    grads = [p.grad for p in m64.parameters()]
    if whole:
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        grads = [c.view_as(g) / n for c, g in zip(flat.split([g.numel() for g in grads]), grads)]
    return grads, [p.detach() - lr * g for p, g in zip(m64.parameters(), grads)]


def _versions(plan: Plan, model) -> dict:
    """The versions one process times: id -> (label, model, optimizer, step, bucket_mb)."""
    from torch.nn.parallel import DistributedDataParallel as DDP
    plain = (model, torch.optim.SGD(model.parameters(), lr=plan.lr))
    steps = {'backward': _steps.local_step, 'allreduce': _steps.allreduce_alone,
             **{vid: _load(f) for vid, f in (_steps.STEPS if plan.steps is None else plan.steps).items()}}
    known = {'backward', 'allreduce', *_steps.STEPS, *_steps.CONTROLS}
    table = {vid: (t(f'allreduce.version.{vid}', mb=_steps.BUCKET_MB) if vid in known else vid, *plain, step, None)
             for vid, step in steps.items()}
    for mb in plan.bucket_mb:
        ddp = DDP(copy.deepcopy(model), bucket_cap_mb=mb)
        table[f'ddp-{mb:g}'] = (t('allreduce.version.ddp', mb=mb), ddp, torch.optim.SGD(ddp.parameters(), lr=plan.lr),
                                _steps.local_step, mb)
    return table


def _reset(vid, model, start, rank):
    """Same parameters before every repeat, so the last repeat's result can be checked."""
    with torch.no_grad():
        for p, s in zip(model.parameters(), start):
            p.copy_(s)
            if vid == 'allreduce':  # known gradients: their sum over processes is known too
                p.grad = torch.full_like(p, rank + 1.0)


def _check(vid, label, m, m64, X, y, start, rank, n, terms, lr):
    """(what it was checked against, the gradient's relative error), or ResultMismatch."""
    tol = harness.tolerance(n, terms)
    if vid == 'allreduce':
        error = max(checking.relative_error(p.grad, torch.full_like(p.grad, n * (n + 1) / 2)) for p in m.parameters())
        if error > tol:
            raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=error, tol=tol))
        return 'sum', error
    against = 'share' if vid == 'backward' else 'whole'  # backward alone sends nothing: this process's share
    grads, params = _reference(m64, X, y, against == 'whole', n, lr)
    error = max(checking.relative_error(p.grad, g) for p, g in zip(m.parameters(), grads))
    if error > tol:  # the gradient first: its error says by how much (a missing average gives n - 1)
        raise ResultMismatch(t('allreduce.mismatch_grad', version=label, rank=rank, error=error, tol=tol))
    for moved, scale in harness.movement_errors(list(m.parameters()), start, params):
        if moved > (bound := harness.tolerance(n, terms, scale)):
            raise ResultMismatch(t('allreduce.mismatch', version=label, rank=rank, error=moved, tol=bound))
    return against, error


def _time(fn, *args) -> float:
    dist.barrier()  # every process starts together
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def run_rank(rank: int, n: int, send, plan: Plan) -> list | None:
    """One process's whole run (the harness's target); rank 0 returns every process's report."""
    torch.set_num_threads(1)  # one core each, so processes do not fight over cores
    set_language(plan.language)
    dist.init_process_group('gloo', init_method=plan.init_method, rank=rank, world_size=n,
                            timeout=datetime.timedelta(seconds=plan.timeout))
    send('progress', phase='started')
    torch.manual_seed(plan.seed)  # the same model on every process
    model = _steps.mlp(plan.layers, plan.width)
    start = [p.detach().clone() for p in model.parameters()]
    X, y = (torch.randn(n * plan.batch, plan.width) for _ in range(2))  # the whole minibatch
    share = slice(rank * plan.batch, (rank + 1) * plan.batch)
    X, y = X[share].contiguous(), y[share].contiguous()
    m64 = copy.deepcopy(model).double()  # the float64 reference starts from the same parameters
    terms = max(plan.width, plan.batch)  # products summed per gradient entry
    table = _versions(plan, model)
    send('progress', phase='versions')  # DDP's first import can take a minute on a busy machine
    times, errors, checked = {vid: [] for vid in table}, {}, {}
    last = plan.warmup + plan.repeats - 1
    for r in range(last + 1):  # interleaved: drift hits every version alike
        for vid, (label, m, opt, step, _) in table.items():
            _reset(vid, m, start, rank)
            elapsed = _time(step, m, X, y, opt)
            if r >= plan.warmup:
                times[vid].append(elapsed)
            if r == last:  # checked before the next version moves the parameters
                checked[vid], errors[vid] = _check(vid, label, m, m64, X, y, start, rank, n, terms, plan.lr)
            if r == 0:  # a first step can be slow: alive
                send('progress', phase='first', version=vid, seconds=elapsed)
        send('progress', phase='repeat', repeat=r + 1, of=last + 1)
    tensor_bytes = [p.numel() * p.element_size() for p in reversed(list(model.parameters()))]  # backward's order
    # the per-call overhead + bandwidth model's second point beside all-reduce alone: one buffer of 4x the bytes
    buffer = torch.ones(sum(tensor_bytes))
    buffer_times = [_time(dist.all_reduce, buffer) for _ in range(plan.warmup + plan.repeats)]
    send('progress', phase='model points')
    traced = _trace(plan, table, start, X, y, rank, send)
    mine = {'times': times, 'errors': errors, 'checked': checked, 'traced': traced,
            'buffer_times': buffer_times[plan.warmup:], 'buffer_bytes': buffer.nbytes, 'tensor_bytes': tensor_bytes,
            'tolerance': harness.tolerance(n, terms), 'labels': {vid: v[0] for vid, v in table.items()},
            'buckets': {vid: v[4] for vid, v in table.items()}}
    everyone = [None] * n
    dist.all_gather_object(everyone, mine)
    dist.destroy_process_group()
    return everyone if rank == 0 else None


def _role(e) -> str | None:
    """'backward', 'allreduce' (gloo's call, on its own thread), 'optimizer', 'copy' (a cat, ÷n or copy_ called by the
    step itself or by a hook: (b)'s and (d)'s flatten and copy back), or None (not drawn)."""
    hook = e.cpu_parent is not None and 'AccumulateGrad' in e.cpu_parent.name and e.name != 'aten::copy_'
    return 'allreduce' if e.name == 'gloo:all_reduce' else 'optimizer' if e.name.startswith('Optimizer.step') else \
        'backward' if e.name.startswith(_BACKWARD) else \
        'copy' if (e.cpu_parent is None or hook) and e.name in ('aten::cat', 'aten::div', 'aten::copy_') else None


def timeline_events(prof, rank: int) -> list[dict]:
    """Events {'name', 'start', 'end', 'role', 'rank', 'stream'}, seconds from the first drawn one."""
    kept = [(e, role) for e in prof.events() if (role := _role(e)) is not None]
    origin = min((e.time_range.start for e, _ in kept), default=0.0)
    return sorted(({'name': e.name.removeprefix(_BACKWARD), 'start': (e.time_range.start - origin) / 1e6,
                    'end': (e.time_range.end - origin) / 1e6, 'role': role, 'rank': rank,
                    'stream': 'allreduce' if role == 'allreduce' else 'compute'} for e, role in kept),
                  key=lambda e: (e['stream'], e['start']))


def step_stats(events: list[dict]) -> dict:
    """One profiled step: 'comm' (all-reduces' busy seconds), 'shared' (of those, while backward computed),
    'backward' (its span), 'calls'."""
    comm = [(e['start'], e['end']) for e in events if e['role'] == 'allreduce']
    backward = [(e['start'], e['end']) for e in events if e['role'] == 'backward']
    return {'comm': busy(comm), 'shared': busy(intersection(comm, backward)), 'calls': len(comm),
            'backward': max(e for _, e in backward) - min(s for s, _ in backward) if backward else 0.0}


def _trace(plan, table, start, X, y, rank, send) -> dict:
    """`plan.profiled` steps per version, interleaved: their step_stats, the median step's events and Chrome trace."""
    from torch.profiler import ProfilerActivity, profile
    profiled, out = {vid: [] for vid in table}, {}
    for _ in range(plan.profiled):  # drift hits every version alike, so the controls' backward is comparable
        for vid, (_, m, opt, step, _) in table.items():
            _reset(vid, m, start, rank)
            dist.barrier()
            with no_profiler_chatter(), profile(activities=[ProfilerActivity.CPU]) as prof:
                step(m, X, y, opt)
            events = timeline_events(prof, rank)
            profiled[vid].append((max((e['end'] for e in events), default=0.0), events, prof))  # events start at 0
    for vid, runs in profiled.items():
        _, events, prof = sorted(runs, key=lambda s: s[0])[(len(runs) - 1) // 2]
        path = str(Path(plan.trace_dir) / f'allreduce-{vid}-process{rank}.json') if plan.trace_dir else None
        if path:
            prof.export_chrome_trace(path)
        out[vid] = {'path': path, 'events': events, 'stats': [step_stats(e) for _, e, _ in runs]}
        send('progress', phase='profiled', version=vid)
    return out


def run_allreduce(backend: str = 'gloo', world_size=None, *, progress=None, plan=None, **options):
    """13.3.4: time and check backward, all-reduce, the `steps` versions and DDP per bucket size, on n gloo
    processes; `options`: make_plan's (bucket_mb, repeats, layers, width, batch, steps, trace_dir, timeout, ...), or
    the CLI's `plan`; under torchrun ('env://') this process is one rank, and rank 0 returns the result."""
    plan = plan or make_plan(backend, world_size, **options)
    if plan.init_method == 'env://':
        everyone = run_rank(int(os.environ['RANK']), plan.world_size, lambda kind, **payload: None, plan)
        return None if everyone is None else assemble(plan, everyone)
    if plan.trace_dir:
        os.makedirs(plan.trace_dir, exist_ok=True)
    seen = None if progress is None else (lambda rank, pid, msg: progress({'rank': rank, 'pid': pid, **msg}))
    results, stopped = harness.run_ranks(run_rank, (plan,), plan.world_size, silence_s=plan.timeout + 30.0,
                                         on_report=seen)
    if stopped is not None and stopped.why == 'error' and stopped.kind == 'ResultMismatch':
        raise ResultMismatch(stopped.message)
    if stopped is not None:
        key, fields = stopped.reason(plan.timeout)
        raise ProcessFailed(t(key, **fields))
    return assemble(plan, results[0])


def assemble(plan: Plan, everyone: list[dict]) -> AllreduceResult:
    """The processes' reports as one result."""
    first = everyone[0]
    versions = [Version(vid, label, first['buckets'][vid], [list(r) for r in zip(*(e['times'][vid] for e in everyone))],
                        max(e['errors'][vid] for e in everyone), first['checked'][vid],
                        [e['traced'][vid]['stats'] for e in everyone]) for vid, label in first['labels'].items()]
    slowest = [max(ts) for ts in zip(*(e['buffer_times'] for e in everyone))]
    prediction = dict(processes=plan.world_size, gradient_bytes=sum(first['tensor_bytes']),  # AllreduceResult fits
                      tensor_bytes=first['tensor_bytes'], buffer_bytes=first['buffer_bytes'], buffer_times=slowest)
    traces = {vid: [e['traced'][vid]['path'] for e in everyone] for vid in first['traced'] if plan.trace_dir}
    events = {vid: [ev for e in everyone for ev in e['traced'][vid]['events']] for vid in first['traced']}
    return AllreduceResult('gloo', plan.world_size, ['cpu'] * plan.world_size, plan.layers, plan.width, plan.batch,
                           plan.warmup, versions, prediction, traces, events, plan.cores, first['tolerance'])

