"""13.3.4's graders inside each gloo process: the learner's step on a tied-and-frozen model, every all-reduce timed.

`allreduce_launcher` forks two of these per graded source (`rank_main`); each writes JSON lines
to the pipe it is given (never stdout, which the learner's prints may use). Each process trains on
its half of every minibatch with the learner's function, compares the parameters after every step
with one float64 process on the whole minibatch, and records, on one clock, when backward computed,
when each all-reduce started, returned and completed, and when the optimizer step began: the
intervals the overlap is judged from.
"""
from __future__ import annotations

import datetime
import json
import math
import os
import signal
import statistics
import time

import torch
import torch.distributed as dist
from torch import nn

from . import registry
from .core import call_learner, criterion, load_submission

WIDTH = 128  # every trainable weight is 128 x 128 float32 = 64 KiB = 1/16 MB: bucket sizes below are exact
BATCH = 1024  # rows per process and step: backward must take longer than the all-reduces for overlap to show
STEPS = 3
LR = 1.0  # large enough that 3 steps move each weight by ~1% of its size (tanh keeps the steps smooth)
# float32 against float64, as relative error in how far each parameter moved: storing a parameter in float32
# rounds it by eps x its size, that is by `scale` = |p| / |movement| times eps of the movement; each gradient
# entry sums n x BATCH rows' products (rounding grows like the square root of the count) and the all-reduce
# adds n - 1 roundings; over STEPS steps, 10x that for room. Mistakes are off by 1/n of the movement or more.
EPS32 = torch.finfo(torch.float32).eps
BASELINE_REPEATS = 9  # sync all-reduces per size for the prediction; the median is kept


def tolerance(world: int, scale: float) -> float:
    """The relative error in the parameters' movement that float32 rounding alone can reach, times 10."""
    return 10 * STEPS * (scale + math.sqrt(world * BATCH) + world) * EPS32


class TiedNet(nn.Module):
    """embed -> h1 -> h2 -> frozen -> h3 -> h4 -> h5 -> out, where out's weight is embed's: one tied, one frozen."""

    def __init__(self, width: int = WIDTH):
        super().__init__()
        self.embed = nn.Linear(width, width, bias=False)
        self.h1, self.h2 = nn.Linear(width, width, bias=False), nn.Linear(width, width, bias=False)
        self.frozen = nn.Linear(width, width, bias=False)
        self.frozen.weight.requires_grad_(False)  # in parameters(), but it gets no gradient
        self.h3, self.h4, self.h5 = (nn.Linear(width, width, bias=False) for _ in range(3))
        self.out = nn.Linear(width, width, bias=False)
        self.out.weight = self.embed.weight  # tied, as language models tie their embeddings: listed once
        with torch.no_grad():  # 1/sqrt(width): tanh activations keep their size through seven layers
            for p in self.parameters():
                p.copy_(torch.randn_like(p) * math.sqrt(1 / width))

    def forward(self, x):
        h = x
        for layer in (self.embed, self.h1, self.h2, self.frozen, self.h3, self.h4, self.h5):
            h = torch.tanh(layer(h))
        return self.out(h)  # the tied weight's second use: its gradient sums two contributions


def trainable_bytes(model) -> list[int]:
    """Bytes of each parameter that gets a gradient, in reverse parameter order (the order buckets fill)."""
    return [p.numel() * p.element_size() for p in reversed(list(model.parameters())) if p.requires_grad]


def buckets_of(sizes: list[int], bucket_mb: float) -> list[list[int]]:
    """Indices into `sizes` per bucket: add in order, close a bucket once it holds at least bucket_mb MB (as DDP)."""
    cap, out, current, filled = bucket_mb * 2**20, [], [], 0
    for i, size in enumerate(sizes):
        current.append(i)
        filled += size
        if filled >= cap:
            out.append(current)
            current, filled = [], 0
    return out + ([current] if current else [])


# -- recording -------------------------------------------------------------------------------------

class Recorder:
    """One step's timestamps (time.perf_counter): forward's end, each gradient, each collective, the optimizer step."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.began = time.perf_counter()  # stands in for forward's end if the learner's step never ran forward
        self.forward_end, self.step_start, self.unfinished = None, None, 0
        self.grads, self.calls, self.waits = [], [], []  # grads: (time, index in reverse parameter order)

    def on_step(self):
        """Optimizer pre-hook: when the update began, and how many all-reduces had not completed by then."""
        if self.step_start is None:
            self.step_start = time.perf_counter()
            self.unfinished = sum(1 for c in self.calls if c['work'] is not None and not c['work'].is_completed())

    def summary(self) -> dict:
        """The step's intervals, JSON-ready: compute = forward end .. last gradient, minus time blocked in calls."""
        begin = self.began if self.forward_end is None else self.forward_end
        end = max((t for t, _ in self.grads), default=begin)
        calls = [{k: c[k] for k in ('start', 'returned', 'async', 'numel')} | {'done': _done(c), 'waited': c['waited'],
                  'future': c.get('future')} for c in self.calls]
        return {'forward_end': begin, 'backward_end': end, 'grads': self.grads, 'calls': calls,
                'waits': self.waits, 'step_start': self.step_start, 'unfinished': self.unfinished}


def _done(call) -> float:
    """When a call's result was there: its return (blocking), else the earlier of its future's callback and a wait."""
    if call['work'] is None:
        return call['returned']
    seen = [t for t in (call['completed'], call['waited']) if t is not None]
    return min(seen) if seen else time.perf_counter()


class WorkProxy:
    """The learner's handle of an async all-reduce: the real one, with its wait() timed."""

    def __init__(self, work, call, recorder):
        self._work, self._call, self._recorder = work, call, recorder

    def wait(self, *args, **kwargs):
        t0 = time.perf_counter()
        out = self._work.wait(*args, **kwargs)
        t1 = time.perf_counter()
        self._recorder.waits.append((t0, t1))
        self._call['waited'] = t1 if self._call['waited'] is None else self._call['waited']
        return out

    def get_future(self):
        # Waiting through the future (fut.wait(), torch.futures.wait_all) is waiting too: the real future has to be
        # returned (wait_all takes nothing else), so its use is recorded here and the grader's check that the call
        # had completed when the optimizer step began (`unfinished`) judges the rest.
        if self._call.get('future') is None:
            self._call['future'] = time.perf_counter()
        return self._work.get_future()

    def __getattr__(self, name):
        return getattr(self._work, name)


def instrument(recorder: Recorder) -> dict:
    """Replace dist.all_reduce (and all_reduce_coalesced) in this process by timed versions; returns the originals."""
    import torch.distributed.distributed_c10d as c10d
    originals = {name: getattr(dist, name) for name in ('all_reduce', 'all_reduce_coalesced') if hasattr(dist, name)}

    def timed(original):
        def collective(*args, **kwargs):
            async_op = bool(kwargs.get('async_op', args[3] if len(args) > 3 else False))
            first = kwargs.get('tensor', kwargs.get('tensors', args[0] if args else None))
            many = isinstance(first, (list, tuple))
            numel = sum(x.numel() for x in first) if many else getattr(first, 'numel', int)()
            call = {'start': time.perf_counter(), 'async': async_op, 'numel': numel, 'work': None,
                    'completed': None, 'waited': None}
            work = original(*args, **kwargs)
            call['returned'] = time.perf_counter()
            recorder.calls.append(call)
            if work is None:
                return None
            call['work'] = work
            work.get_future().then(lambda _: call.__setitem__('completed', time.perf_counter()))
            return WorkProxy(work, call, recorder)
        collective.__name__ = original.__name__
        collective.__doc__ = original.__doc__
        return collective

    for name, original in originals.items():
        setattr(dist, name, timed(original))
        setattr(c10d, name, getattr(dist, name))
    return originals


# -- one process's run -----------------------------------------------------------------------------

class SGD:
    """SGD as the float64 reference does it (p -= lr * p.grad), with torch.optim's zero_grad() and step().

    Not torch.optim.SGD: building any torch.optim optimizer imports torch._dynamo, seconds of CPU in
    every graded process; the update is the same one torch.optim.SGD makes for CPU tensors.
    `before_step` runs as the update begins (when 'safe' looks at the all-reduces).
    """

    def __init__(self, params, lr: float, before_step=None):
        self.param_groups, self.state, self._before = [{'params': list(params), 'lr': lr}], {}, before_step

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.param_groups[0]['params']:
            if p.grad is not None and set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.detach_().zero_()

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        if self._before is not None:
            self._before()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group['lr'])
        return loss


def _minibatches(world: int):
    """STEPS whole minibatches (X, y), the same on every process (seeded)."""
    gen = torch.Generator().manual_seed(1)
    return [(torch.randn(world * BATCH, WIDTH, generator=gen), torch.randn(world * BATCH, WIDTH, generator=gen))
            for _ in range(STEPS)]


def references(world: int) -> dict:
    """Parameters after each step of one float64 process: 'whole' minibatch; 'sum' (n x the average); 'local<r>'.

    The last two are known mistakes (gradients summed, not averaged; never all-reduced): a wrong
    version that matches one of them is told so.
    """
    from ..allreduce.steps import loss_of
    out = {}
    for kind in ['whole', 'sum'] + [f'local{r}' for r in range(world)]:
        torch.manual_seed(0)  # the model every process starts from
        m = TiedNet().double()
        r = int(kind[5:]) if kind.startswith('local') else None
        rows = slice(None) if r is None else slice(r * BATCH, (r + 1) * BATCH)
        lr = LR * world if kind == 'sum' else LR
        out[kind] = []
        for X, y in _minibatches(world):
            m.zero_grad()
            loss_of(m, X[rows].double(), y[rows].double()).backward()
            with torch.no_grad():
                for p in m.parameters():
                    if p.grad is not None:
                        p -= lr * p.grad
            out[kind].append([p.detach().clone() for p in m.parameters()])
    return out


def _errors(params, start, expected) -> list[float]:
    """Per parameter: ||got - expected|| / ||expected - start|| (how far off its movement is); frozen: / ||start||."""
    out = []
    for p, p0, e in zip(params, start, expected):
        got, p0 = p.detach().double(), p0.double()
        moved = (e - p0).norm().item()
        out.append((got - e).norm().item() / (moved if moved > 0 else p0.norm().item()))
    return out


def run_case(fn, bucket_mb, recorder, rank, world, extra_args, refs) -> dict:
    """STEPS steps of the learner's function on a fresh model; errors after every step and every step's intervals."""
    torch.manual_seed(0)  # the same model on every process
    model = TiedNet()
    start = [p.detach().clone() for p in model.parameters()]
    batches = _minibatches(world)
    order = [i for i, p in reversed(list(enumerate(model.parameters()))) if p.requires_grad]
    for k, i in enumerate(order):  # registered before the learner's hooks, so they run first
        list(model.parameters())[i].register_post_accumulate_grad_hook(
            lambda _, k=k: recorder.grads.append((time.perf_counter(), k)))
    model.register_forward_hook(lambda *_: setattr(recorder, 'forward_end', time.perf_counter()))
    optimizer = SGD(model.parameters(), LR, before_step=recorder.on_step)
    rows = slice(rank * BATCH, (rank + 1) * BATCH)
    steps, after = [], []
    for X, y in batches:
        recorder.reset()
        dist.barrier()  # every process starts the step together
        ok, failed = call_learner(fn, model, X[rows].contiguous(), y[rows].contiguous(), optimizer, *extra_args)
        for c in recorder.calls:  # a version that never waited: finish its calls so the processes stay in step
            if c['work'] is not None:
                c['work'].wait()
        if not ok:
            none = [n for n, p in model.named_parameters() if p.grad is None]
            if none and 'Invalid function argument' in str(failed.fields.get('error', '')):  # all_reduce(None)
                failed = criterion('runs', False, 'task.allreduce.none_grad', parameter=none[0])
            return {'failed': {'id': failed.id, 'key': failed.key, 'fields': failed.fields}}
        steps.append(recorder.summary())
        after.append([p.detach().clone() for p in model.parameters()])
    whole = refs['whole']
    scale = max((p0.norm().item() / (e - p0.double()).norm().item()  # a weight the learner unfroze: not moved
                 for p0, e, p in zip(start, whole[-1], model.parameters())
                 if p.requires_grad and (e - p0.double()).norm().item() > 0), default=1.0)
    errors = [{'whole': _errors(a, start, w)} for a, w in zip(after, whole)]
    if max(max(e['whole']) for e in errors) > tolerance(world, scale):  # wrong: is it a mistake we can name?
        for kind, ref in (('sum', refs['sum']), ('local', refs[f'local{rank}'])):
            for e, a, r in zip(errors, after, ref):
                e[kind] = _errors(a, start, r)
    return {'bucket_mb': bucket_mb, 'steps': steps, 'errors': errors, 'scale': scale,
            'names': [name for name, _ in model.named_parameters()],
            'frozen': [n for n, p in model.named_parameters() if not p.requires_grad],
            'tied': 'embed.weight', 'sizes': trainable_bytes(model)}


def baseline(originals, sizes: list[int], bucket_mbs) -> dict:
    """Seconds a blocking all-reduce of each size takes here (median of BASELINE_REPEATS), for the prediction.

    One float (the model's per-call overhead, as the lesson fits it), every tensor's size and every bucket's at
    each of `bucket_mbs` (every graded case's): a case whose
    buckets were not timed would get a prediction of 0. One untimed call per size, then the sizes in
    turn, round after round, so no size is timed only in a slow spell. On a two-core machine a pair of
    processes' blocking calls of 64-384 KiB took either ~0.4 ms or ~4 ms, often for the pair's whole
    life: the grader's sentence prints calls x their mean time alone, so a reader sees which it was.
    """
    numels = {1} | {s // 4 for s in sizes}  # one float too: the per-call overhead of the model the sentence may name
    for bucket_mb in bucket_mbs:
        numels |= {sum(sizes[i] for i in b) // 4 for b in buckets_of(sizes, bucket_mb)}
    tensors = {numel: torch.ones(numel) for numel in sorted(numels)}
    for x in tensors.values():
        originals['all_reduce'](x)
    times = {numel: [] for numel in tensors}
    for _ in range(BASELINE_REPEATS):
        for numel, x in tensors.items():
            t0 = time.perf_counter()
            originals['all_reduce'](x)
            times[numel].append(time.perf_counter() - t0)
    return {str(numel): statistics.median(ts) for numel, ts in times.items()}


def die_with_parent(parent: int) -> None:
    """Linux: when `parent` ends (killed, say), the kernel ends this process too (nothing left running)."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # it ended before the line above: no signal would come
        os._exit(1)


def rank_main(job: dict, rank: int, world: int, port: int, timeout: float, fd: int, refs: dict) -> None:
    """One gloo process, forked: join the group, load the learner's source, run each case, report; never returns."""
    out = os.fdopen(fd, 'w', buffering=1)

    def send(kind, **payload):
        out.write(json.dumps({'kind': kind, 'rank': rank, 'time': time.time(), **payload}) + '\n')

    try:
        torch.set_num_threads(1)  # one core per process
        dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=timeout))
        recorder = Recorder()
        originals = instrument(recorder)  # before the learner's code runs, so an imported all_reduce is timed too
        task = registry.task(job['task'])
        fn = load_submission(task, job['source']).functions[task.functions[0]]
        originals['all_reduce'](torch.ones(1))  # connections made before anything is timed
        send('ready')
        cases = []
        for bucket_mb in job['cases']:
            case = run_case(fn, bucket_mb, recorder, rank, world, () if bucket_mb is None else (bucket_mb,), refs)
            cases.append(case)
            if 'failed' in case:
                break
        if 'failed' in cases[-1]:  # the launcher ends every process now; another may be waiting for this one
            send('result', cases=cases, baseline={})
            out.flush()
            os._exit(0)
        dist.barrier()
        base = baseline(originals, trainable_bytes(TiedNet()), [mb or 1e9 for mb in job['cases']])
        send('result', cases=cases, baseline=base)
        dist.barrier()
        dist.destroy_process_group()
    except BaseException as e:  # noqa: BLE001 (one line to the launcher; it decides what failed first)
        send('error', type=type(e).__name__, message=(str(e).splitlines() or [''])[0][:300])
        out.flush()
        os._exit(1)
    out.flush()
    os._exit(0)  # gloo's threads at interpreter shutdown can abort the process; everything is sent
