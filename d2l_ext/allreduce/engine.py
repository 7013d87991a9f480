"""13.3.4's engine: start one process per core (gloo) or GPU (NCCL), watch them, end them all, whatever happens.

Processes start with torch.multiprocessing (spawn), so the same code runs from a notebook and a
terminal. A process that dies ends the run at once; one that hangs ends it after the collective
timeout; Ctrl-C or a notebook interrupt ends every process; the message names the process and cause.
"""
from __future__ import annotations

import os
import signal
import threading
import time

from ..errors import ResultMismatch, WorkerFailed
from ..i18n import t
from .plan import Plan, make_plan
from .results import AllreduceResult, Prediction, Version


class ProcessFailed(WorkerFailed):
    """13.3.4: a process of the run died, hung or raised; the message says which one and why."""


def run_allreduce(backend: str = 'gloo', world_size=None, *, bucket_mb=1.0, repeats=3, warmup=1, layers=6,
                  width=1024, batch=128, steps=None, trace_dir=None, port=None, timeout: float = 30.0,
                  progress=None, no_sync: bool = False, share_cores: bool = False,
                  profiled: int = 1) -> AllreduceResult:
    """13.3.4: time and check backward, all-reduce, the `steps` versions and DDP per bucket size, on n processes.

    `steps` maps a name to a step function `step(model, X, y, optimizer)` (default: the lesson's (a)
    and (c)); functions defined in a notebook cell are sent as their source, so what runs is what is shown.
    `progress(message)` is called in this process with each report from a process (a dict).
    `no_sync=True` adds a baseline: DDP at the first bucket size inside `no_sync()` (nothing sent).
    `share_cores=True` allows more processes than cores (they take turns: for checking results, not timing);
    `profiled` steps per version are profiled for the overlap's intervals.
    """
    plan = make_plan(backend, world_size, port=port, bucket_mb=bucket_mb, repeats=repeats, warmup=warmup,
                     layers=layers, width=width, batch=batch, steps=steps, timeout=timeout, trace_dir=trace_dir,
                     no_sync=no_sync, share_cores=share_cores, profiled=profiled)
    if plan.trace_dir:
        os.makedirs(plan.trace_dir, exist_ok=True)
    return assemble(plan, _start_and_watch(plan, progress))


def _start_and_watch(plan: Plan, progress) -> list[dict]:
    import torch.multiprocessing as mp

    from .worker import rank_entry
    # one pipe per process: a process stopped while writing must not block the others' reports
    pipes = [mp.get_context('spawn').Pipe(duplex=False) for _ in range(plan.world_size)]
    # Ctrl-C reaches every process of the terminal's group, and a rank still importing PyTorch would print a
    # traceback. Python leaves SIGINT ignored in a process whose parent ignored it (a blocked mask does not
    # survive spawn's start-up), so the ranks start with it ignored; the parent's own handler comes back at once.
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        ctx = mp.start_processes(rank_entry, args=(plan, [w for _, w in pipes]), nprocs=plan.world_size,
                                 join=False, start_method='spawn')
    finally:
        if main:
            signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
    try:
        return _watch(plan, ctx.processes, [r for r, _ in pipes], progress)
    finally:  # normal end, failure, KeyboardInterrupt: no process outlives the run
        _end_all(ctx.processes)
        for reader, writer in pipes:
            reader.close()
            writer.close()


def _reports(readers, timeout):
    """Every report waiting in the pipes, or none after `timeout` seconds."""
    from multiprocessing.connection import wait
    for conn in wait([r for r in readers if not r.closed], timeout):
        try:
            yield conn.recv()
        except (EOFError, OSError):  # that process is gone; its exit code tells why
            conn.close()


def _watch(plan, procs, readers, progress) -> list[dict]:
    """Collect reports until rank 0's result; a silent or dead process ends the run with one line."""
    # a hung peer makes the others fail after `timeout`; this backstop also covers a hang in start-up
    silence = plan.timeout + 30.0
    heard = {r: time.monotonic() for r in range(plan.world_size)}
    errors, result, failed_at = {}, None, None
    while True:
        for kind, rank, pid, payload in _reports(readers, 0.2):
            heard[rank] = time.monotonic()
            if kind == 'result' and rank == 0:
                result = payload
            elif kind == 'error':
                errors[rank] = payload
            elif kind == 'progress' and progress is not None:
                progress({'rank': rank, 'pid': pid, **payload})
        codes = [p.exitcode for p in procs]
        if result is not None and all(c == 0 for c in codes):
            return result
        now = time.monotonic()
        if failed_at is None and (errors or any(c not in (None, 0) for c in codes)):
            failed_at = now  # let the other processes' reports arrive before deciding what came first
        if failed_at is not None and now - failed_at > 1.0:
            raise _diagnose(codes, errors, heard, now)
        if now - min(heard.values()) > silence:
            raise ProcessFailed(t('allreduce.fail.silent', rank=min(heard, key=heard.get), seconds=silence))


def _diagnose(codes, errors, heard, now) -> Exception:
    """The first cause: a process that died without a word, then one that went silent, then a wrong result."""
    for rank, code in enumerate(codes):
        if code not in (None, 0) and rank not in errors:
            return ProcessFailed(t('allreduce.fail.died', rank=rank, code=code))
    silent = [r for r, c in enumerate(codes) if c is None and r not in errors]
    if silent:
        r = min(silent, key=heard.get)
        return ProcessFailed(t('allreduce.fail.hung', rank=r, seconds=now - heard[r]))
    # the lowest rank's, so a notebook shows the same line every run
    wrong = [errors[r] for r in sorted(errors) if errors[r]['type'] == 'ResultMismatch']
    if wrong:  # the same error the one-process lessons raise for a wrong answer
        return ResultMismatch(wrong[0]['message'])
    rank = min(errors)
    return ProcessFailed(t('allreduce.fail.error', rank=rank, kind=errors[rank]['type'],
                           message=errors[rank]['message']))


def _end_all(procs, grace: float = 2.0) -> None:
    for p in procs:
        if p.is_alive():
            p.terminate()
    deadline = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():  # a stopped process never sees SIGTERM
            p.kill()
            p.join(1.0)


def assemble(plan: Plan, everyone: list[dict]) -> AllreduceResult:
    """13.3.4: the processes' reports, one result: per-version times[repeat][process], intervals, the model."""
    first = everyone[0]
    versions = []
    for vid, label in first['labels'].items():
        per_repeat = [list(ts) for ts in zip(*(e['times'][vid] for e in everyone))]
        stats = [e['traced'][vid]['stats'] for e in everyone if vid in e['traced']]
        versions.append(Version(vid, label, first['buckets'][vid], per_repeat,
                                max(e['errors'][vid] for e in everyone), first['checked'][vid], stats))
    slowest = [max(ts) for ts in zip(*(e['buffer_times'] for e in everyone))]
    small = [max(ts) for ts in zip(*(e['small_times'] for e in everyone))]
    alone = next(v for v in versions if v.id == 'backward')
    prediction = Prediction.from_measurements(plan.world_size, first['grad_bytes'], first['buffer_bytes'], slowest,
                                              alone.median, first['small_bytes'], small, first['tensor_bytes'],
                                              alone.backward_span)
    traces = {vid: [e['traced'][vid]['path'] for e in everyone] for vid in first['traced'] if plan.trace_dir}
    events = {vid: [ev for e in everyone for ev in e['traced'][vid]['events']] for vid in first['traced']}
    return AllreduceResult(plan.backend, plan.world_size, plan.devices, plan.layers, plan.width, plan.batch,
                           plan.warmup, versions, prediction, traces, events, plan.cores, first['tolerance'])


def run_under_torchrun(**options) -> AllreduceResult | None:
    """13.3.4 on several machines: this process is one rank started by torchrun; rank 0 returns the result."""
    from .worker import run_rank
    rank, n = int(os.environ['RANK']), int(os.environ['WORLD_SIZE'])
    plan = make_plan(options.pop('backend', 'gloo'), n, torchrun=True, **options)
    if plan.backend == 'nccl':  # one GPU per process on each machine, chosen by the local rank
        plan.devices = [f"cuda:{os.environ.get('LOCAL_RANK', '0')}"] * n
    everyone = run_rank(rank, plan, lambda kind, payload: None)
    return None if everyone is None else assemble(plan, everyone)
