"""13.3.4's checks besides overlap, in the grading process: 'correct', 'safe', 'calls' / 'buckets'."""
from __future__ import annotations

import math

import torch

from ..allreduce.harness import movement_errors, tolerance
from ..allreduce.results import buckets_of
from ..allreduce.steps import loss_of
from . import allreduce_ranks as ranks
from .core import criterion

NAMES = ('embed.weight', *(f'{name}.weight' for name, _, _ in ranks.SHAPES[1:]))  # model.named_parameters()
TIED, FROZEN = 'embed.weight', ('frozen.weight',)


def reference(world: int, kind: str = 'whole') -> list[list]:
    """Parameters after each step of one float64 process (autograd, plain SGD): on the 'whole' minibatch, or two
    known mistakes: 'sum' (gradients summed, not averaged) and 'local<r>' (process r's half only, never all-reduced)."""
    model = ranks.GradedNet().double()
    r = int(kind[5:]) if kind.startswith('local') else None
    rows = slice(None) if r is None else slice(r * ranks.BATCH, (r + 1) * ranks.BATCH)
    lr = ranks.LR * world if kind == 'sum' else ranks.LR
    out = []
    for X, y in ranks.minibatches(world):
        model.zero_grad()
        loss_of(model, X[rows].double(), y[rows].double()).backward()
        with torch.no_grad():
            for p in model.parameters():
                if p.grad is not None:
                    p -= lr * p.grad
        out.append([p.detach().clone() for p in model.parameters()])
    return out


def _errors(rep, refs, start, world) -> list[list[tuple[float, float]]]:
    """Per step, per parameter: (error of its change, tolerance), the one rule of allreduce/harness.py."""
    out = []
    for s, (params, ref) in enumerate(zip(rep['params'], refs)):
        got = [ranks.decode(text, p) for text, p in zip(params, start)]
        out.append([(e, tolerance(world, ranks.BATCH, scale, s + 1))
                    for e, scale in movement_errors(got, start, ref)])
    return out


def correct(cases, world) -> object:
    """Worst error of the parameters' change over processes, steps and parameters; a wrong one names its cause."""
    start = list(ranks.GradedNet().parameters())
    whole = reference(world)
    errs = [[_errors(rep, whole, start, world) for rep in case] for case in cases]  # [case][rank][step][param]
    worst = max(((e / tol, e, tol, c, r, s, i) for c, case in enumerate(errs) for r, rep in enumerate(case)
                 for s, step in enumerate(rep) for i, (e, tol) in enumerate(step)))
    ratio, error, tol, c, r, s, i = worst
    if ratio <= 1:
        key = 'task.allreduce.correct_sizes' if len(cases) > 1 else 'task.allreduce.correct'
        return criterion('correct', True, key, error=error, tolerance=tol, steps=ranks.STEPS, sizes=len(cases))
    for kind in ('sum', 'local'):  # a known mistake when every parameter, on every process, matches it
        if all(e <= t for rank, rep in enumerate(cases[c]) for step in _errors(
                rep, reference(world, kind if kind == 'sum' else f'local{rank}'), start, world) for e, t in step):
            return criterion('correct', False, f'task.allreduce.wrong_{kind}', error=error, tolerance=tol, n=world)
    step = errs[c][r][s]
    off = [NAMES[j] for j, (e, t) in enumerate(step) if e > t]
    fields = dict(error=error, tolerance=tol, step=s + 1, parameter=NAMES[i])
    if off == [TIED]:
        return criterion('correct', False, 'task.allreduce.wrong_tied', **fields)
    if off and all(n in FROZEN for n in off):
        return criterion('correct', False, 'task.allreduce.wrong_frozen', **fields)
    if cases[c][r]['bucket_mb'] is not None:
        return criterion('correct', False, 'task.allreduce.wrong_buckets', bucket_mb=cases[c][r]['bucket_mb'], **fields)
    return criterion('correct', False, 'task.allreduce.wrong', **fields)


def safe(cases) -> object:
    """Every all-reduce started with async_op=True waited for before the optimizer step, and all completed by then."""
    for case in cases:
        for rep in case:
            for s, step in enumerate(rep['steps']):
                before = math.inf if step['step_start'] is None else step['step_start']
                started = [c for c in step['calls'] if c.get('async') and c['start'] < before]
                waits = [w for w in step['waits'] if w[0] < before]
                # a handle whose future was taken (and not wait()ed) counts as waited through that future
                futures = [c for c in started if c.get('waited') is None and (c.get('future') or math.inf) < before]
                if rep.get('sizes') and len(step['calls']) > len(rep['sizes']):  # hooks of an earlier step left
                    return criterion('safe', False, 'task.allreduce.leftover_hooks', calls=len(step['calls']),
                                     params=len(rep['sizes']), step=s + 1)
                if len(waits) + len(futures) < len(started):
                    return criterion('safe', False, 'task.allreduce.unwaited', waits=len(waits) + len(futures),
                                     calls=len(started), step=s + 1)
                if step['unfinished']:
                    return criterion('safe', False, 'task.allreduce.unsafe', unfinished=step['unfinished'],
                                     calls=len(step['calls']), step=s + 1)
    return criterion('safe', True, 'task.allreduce.safe')


def calls(cases) -> object:
    """(b): one all-reduce per step, for every gradient at once."""
    wrong = [len(step['calls']) for case in cases for rep in case for step in rep['steps'] if len(step['calls']) != 1]
    if wrong:
        return criterion('calls', False, 'task.allreduce.calls_wrong', calls=wrong[0], expected=1, bucket_mb=0)
    return criterion('calls', True, 'task.allreduce.calls', expected=1, bucket_mb=0)


def buckets(cases, sizes) -> object:
    """(d): one all-reduce per bucket of the documented rule (backward's order), the sizes of its buckets."""
    def floats(order, mb):
        return sorted(sum(order[i] for i in b) // 4 for b in buckets_of(order, mb))
    for case in cases:
        for rep in case:
            mb = rep['bucket_mb']
            want, forward = floats(sizes, mb), floats(sizes[::-1], mb)
            for step in rep['steps']:
                got = sorted(c['numel'] for c in step['calls'])
                if got == forward != want:  # one line naming it: the calls' count may well be right
                    return criterion('buckets', False, 'task.allreduce.buckets_forward', bucket_mb=mb)
                if got != want:
                    return criterion('buckets', False, 'task.allreduce.buckets_wrong', calls=len(got),
                                     expected=len(want), bucket_mb=mb)
    return criterion('buckets', True, 'task.allreduce.buckets', expected=len(want), bucket_mb=mb)
