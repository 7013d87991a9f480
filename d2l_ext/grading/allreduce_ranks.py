"""13.3.4's graders inside each gloo process: the learner's step on the graded network, every all-reduce recorded."""
from __future__ import annotations

import base64
import datetime
import math
import time

import numpy as np
import torch
import torch.distributed as dist
from torch import nn

from ..allreduce.harness import RankFailed
from .core import call_learner, criterion, load_submission

WIDTH = 128  # the input and output width; the tied weight is WIDTH x WIDTH
# (name, inputs, outputs) in forward order; `out` reuses embed's weight (tied); unequal, so bucket orders differ
SHAPES = (('embed', 128, 128), ('h1', 128, 256), ('h2', 256, 128), ('frozen', 128, 128), ('h3', 128, 64),
          ('h4', 64, 192), ('h5', 192, 128))
BATCH = 1024  # rows per process and step: backward must take longer than the all-reduces for overlap to show
STEPS = 3
LR = 1.0  # large enough that 3 steps move each weight by ~1% of its size (tanh keeps the steps smooth)
COLLECTIVE_TIMEOUT_S = 10.0  # an all-reduce that another process never joins fails after this


class GradedNet(nn.Module):
    """embed -> h1 -> h2 -> frozen -> h3 -> h4 -> h5 -> out (tanh between), out's weight is embed's: tied and frozen."""

    def __init__(self):
        super().__init__()
        for name, inputs, outputs in SHAPES:
            setattr(self, name, nn.Linear(inputs, outputs, bias=False))
        self.frozen.weight.requires_grad_(False)  # in parameters(), but it gets no gradient
        self.out = nn.Linear(WIDTH, WIDTH, bias=False)
        self.out.weight = self.embed.weight  # tied, as language models tie their embeddings: listed once
        gen = torch.Generator().manual_seed(0)  # the same model on every process and in the grader
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) / math.sqrt(p.shape[1]))

    def forward(self, x):
        for name, _, _ in SHAPES:
            x = torch.tanh(getattr(self, name)(x))
        return self.out(x)  # the tied weight's second use: its gradient sums two contributions


def trainable_bytes(model) -> list[int]:
    """Bytes of each parameter that gets a gradient, in reverse parameter order (the order buckets fill)."""
    return [p.numel() * p.element_size() for p in reversed(list(model.parameters())) if p.requires_grad]


def minibatches(world: int):
    """STEPS whole minibatches (X, y), the same on every process and in the grader (seeded)."""
    gen = torch.Generator().manual_seed(1)
    return [(torch.randn(world * BATCH, WIDTH, generator=gen), torch.randn(world * BATCH, WIDTH, generator=gen))
            for _ in range(STEPS)]


class Recorder:
    """One step's timestamps: forward's end, each gradient, each collective, the optimizer step."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.began = time.perf_counter()  # forward's end if the step never ran forward
        self.forward_end, self.step_start, self.unfinished = None, None, 0
        self.grads, self.calls, self.waits = [], [], []  # grads: (time, index in reverse parameter order)

    def on_step(self):
        """Optimizer pre-hook: when the update began, and how many all-reduces had not completed by then."""
        if self.step_start is None:
            self.step_start = time.perf_counter()
            self.unfinished = sum(1 for c in self.calls if c['work'] is not None and not c['work'].is_completed())

    def summary(self) -> dict:
        begin = self.began if self.forward_end is None else self.forward_end
        calls = [{k: c[k] for k in ('start', 'returned', 'async', 'numel', 'waited')} | {'done': _done(c),
                  'future': c.get('future')} for c in self.calls]
        return {'forward_end': begin, 'backward_end': max((t for t, _ in self.grads), default=begin),
                'grads': self.grads, 'calls': calls, 'waits': self.waits, 'step_start': self.step_start,
                'unfinished': self.unfinished}


def _done(call) -> float:
    """A call's result there: its return (blocking), else its future's callback or a wait, whichever came first."""
    if call['work'] is None:
        return call['returned']
    seen = [t for t in (call['completed'], call['waited']) if t is not None]
    return min(seen) if seen else time.perf_counter()


class WorkProxy:
    """The learner's handle of an async all-reduce: the real one, with its wait() recorded."""

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
        # waiting through the future is waiting too: 'safe' judges from `unfinished` whether it had completed
        if self._call.get('future') is None:
            self._call['future'] = time.perf_counter()
        return self._work.get_future()

    def __getattr__(self, name):
        return getattr(self._work, name)


def instrument(recorder: Recorder) -> dict:
    """Replace dist.all_reduce (and all_reduce_coalesced) by recorded versions; returns the originals."""
    import torch.distributed.distributed_c10d as c10d
    originals = {name: getattr(dist, name) for name in ('all_reduce', 'all_reduce_coalesced') if hasattr(dist, name)}

    def recorded(original):
        def collective(*args, **kwargs):
            first = kwargs.get('tensor', kwargs.get('tensors', args[0] if args else None))
            many = isinstance(first, (list, tuple))
            call = {'start': time.perf_counter(), 'async': bool(kwargs.get('async_op', args[3] if len(args) > 3
                                                                             else False)),
                    'numel': sum(x.numel() for x in first) if many else getattr(first, 'numel', int)(),
                    'work': None, 'completed': None, 'waited': None}
            work = original(*args, **kwargs)
            call['returned'] = time.perf_counter()
            recorder.calls.append(call)
            if work is None:
                return None
            call['work'] = work
            work.get_future().then(lambda _: call.__setitem__('completed', time.perf_counter()))
            return WorkProxy(work, call, recorder)
        collective.__name__, collective.__doc__ = original.__name__, original.__doc__
        return collective

    for name, original in originals.items():
        setattr(dist, name, recorded(original))
        setattr(c10d, name, getattr(dist, name))
    return originals


class SGD:
    """SGD as the float64 reference does it (p -= lr * p.grad), with torch.optim's zero_grad() and step(); not
    torch.optim.SGD, whose first construction takes seconds in a forked process (a graded run's time)."""

    def __init__(self, params, lr: float, before_step=None):
        self.param_groups, self.state, self._before = [{'params': list(params), 'lr': lr}], {}, before_step

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.param_groups[0]['params']:
            if p.grad is not None:
                p.grad = None if set_to_none else p.grad.detach_().zero_()

    @torch.no_grad()
    def step(self) -> None:
        if self._before is not None:
            self._before()
        for p in self.param_groups[0]['params']:
            if p.grad is not None:
                p.add_(p.grad, alpha=-self.param_groups[0]['lr'])


def encode(tensor) -> str:
    return base64.b64encode(tensor.detach().float().contiguous().numpy().tobytes()).decode()


def decode(text: str, like) -> torch.Tensor:
    return torch.from_numpy(np.frombuffer(base64.b64decode(text), dtype=np.float32).copy()).view_as(like)


def run_case(fn, bucket_mb, recorder, rank, world) -> dict:
    """STEPS steps of the learner's function on a fresh model: each step's intervals and parameters."""
    model = GradedNet()
    order = [i for i, p in reversed(list(enumerate(model.parameters()))) if p.requires_grad]
    for k, i in enumerate(order):  # registered before the learner's hooks, so they run first
        list(model.parameters())[i].register_post_accumulate_grad_hook(
            lambda _, k=k: recorder.grads.append((time.perf_counter(), k)))
    model.register_forward_hook(lambda *_: setattr(recorder, 'forward_end', time.perf_counter()))
    optimizer = SGD(model.parameters(), LR, before_step=recorder.on_step)
    rows = slice(rank * BATCH, (rank + 1) * BATCH)
    extra = () if bucket_mb is None else (bucket_mb,)
    steps, params = [], []
    for X, y in minibatches(world):
        recorder.reset()
        dist.barrier()  # every process starts the step together
        ok, failed = call_learner(fn, model, X[rows].contiguous(), y[rows].contiguous(), optimizer, *extra)
        for c in recorder.calls:  # finish calls never waited for, so the processes stay in step
            if c['work'] is not None:
                c['work'].wait()
        if not ok:
            none = [n for n, p in model.named_parameters() if p.grad is None]
            if none and 'Invalid function argument' in str(failed.fields.get('error', '')):  # all_reduce(None)
                failed = criterion('runs', False, 'task.allreduce.none_grad', parameter=none[0])
            raise RankFailed({'key': failed.key, 'fields': failed.fields})
        steps.append(recorder.summary())
        params.append([encode(p) for p in model.parameters()])
    return {'bucket_mb': bucket_mb, 'steps': steps, 'params': params}


def grade_rank(rank: int, world: int, send, job: dict, task, port: int) -> dict:
    """One gloo process (the harness's target): join, load the learner's code, run each case."""
    torch.set_num_threads(1)  # one core per process
    dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=COLLECTIVE_TIMEOUT_S))
    recorder = Recorder()
    originals = instrument(recorder)  # before the learner's code runs, so an imported all_reduce is recorded too
    fn = load_submission(task, job['source']).functions[task.functions[0]]
    originals['all_reduce'](torch.ones(1))  # connections made before anything is timed
    send('progress', phase='ready')
    cases = []
    for bucket_mb in job['cases']:
        cases.append(run_case(fn, bucket_mb, recorder, rank, world))
        send('progress', phase='case')
    dist.barrier()
    dist.destroy_process_group()
    return {'cases': cases}
