"""A simulated GPU: a "Build it" task's GPU branch graded on any machine (13.3.2), its order replayed, not timed.

The learner's code runs for real on the CPU (its numbers are real), with a `torch` whose `cuda` is `SimCuda`: every
stream, event, wait and synchronize it calls, and every operation it runs (a TorchDispatchMode), is replayed on
CUDA's ordering rules: a stream runs its work in the order queued, `wait_event` holds a stream until the work before
the event's `record` is done, `wait_stream` until all work queued on the other stream is, and the host waits only at
a synchronize or a blocking copy. Streams are PyTorch's side streams: none waits for another unless told. A product
takes PRODUCT time units, a copy COPY, the host ISSUE to queue anything. The replay says whether an operation could
read a tensor before the operation writing it was done (a copy reading an unfinished product), whether the host could
return before the last write to a buffer landed, and how much of the copies' time runs beside products.
`record_stream` is accepted and not judged: the caching allocator is not modelled. Operations are seen in the calling
thread only (a GPU branch that queues from another thread is told it queued nothing).
Written by hand: no library models CUDA's stream order without a GPU (PyTorch's CUDA sanitizer needs one).
"""
from __future__ import annotations

import contextlib
import types

import torch
from torch.utils._python_dispatch import TorchDispatchMode

PRODUCT, COPY, ISSUE = 1.0, 0.5, 0.01  # time units: a product, a copy (a 4000 x 4000 one on an H200: about half)
PRODUCTS = ('mm', 'matmul', 'addmm', 'bmm', 'baddbmm')
COPIES = ('copy_', '_to_copy')


class NotModelled(AttributeError):
    """The learner's code used a part of torch.cuda the simulation does not model (`name`)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class Replay:
    """The simulated GPU's clock: when each stream is next free, the host's time, every operation's interval."""

    def __init__(self):
        self.host, self.ready, self.ops, self.early = 0.0, {}, [], []
        self.written = {}  # storage address -> when the last operation writing it ends
        self.default = SimStream(self)
        self.current = self.default

    def queue(self, role: str, stream, reads, writes, blocking: bool):
        self.host += ISSUE
        start = max(self.ready.get(stream, 0.0), self.host)
        end = start + {'compute': PRODUCT, 'copy': COPY}.get(role, 0.0)
        op = {'role': role, 'start': start, 'end': end, 'writes': tuple(writes)}
        if any(self.written.get(r, 0.0) > start for r in reads):  # read before the operation writing it was done
            self.early.append(op)
        self.ready[stream] = end
        for w in writes:
            self.written[w] = end
        self.ops.append(op)
        if blocking:
            self.host = max(self.host, end)

    def wait_host(self, until: float | None):
        self.host = max(self.host, until or 0.0) + ISSUE


class SimStream:
    def __init__(self, replay: Replay, device=None, priority: int = 0):
        self.replay = replay

    def wait_event(self, event):
        r = self.replay
        r.ready[self] = max(r.ready.get(self, 0.0), event.time or 0.0, r.host)  # an unrecorded event: no wait

    def wait_stream(self, stream):
        r = self.replay
        r.ready[self] = max(r.ready.get(self, 0.0), r.ready.get(stream, 0.0), r.host)

    def record_event(self, event=None):
        (event := event or SimEvent(self.replay)).record(self)
        return event

    def synchronize(self):
        self.replay.wait_host(self.replay.ready.get(self))

    def query(self) -> bool:
        return self.replay.ready.get(self, 0.0) <= self.replay.host

    def __enter__(self):
        self._outer, self.replay.current = self.replay.current, self
        return self

    def __exit__(self, *exc):
        self.replay.current = self._outer


class SimEvent:
    def __init__(self, replay: Replay, **flags):
        self.replay, self.time = replay, None

    def record(self, stream=None):
        stream = stream or self.replay.current
        self.time = max(self.replay.ready.get(stream, 0.0), self.replay.host)

    def wait(self, stream=None):
        (stream or self.replay.current).wait_event(self)

    def synchronize(self):
        self.replay.wait_host(self.time)

    def query(self) -> bool:
        return (self.time or 0.0) <= self.replay.host

    def elapsed_time(self, end) -> float:
        return ((end.time or 0.0) - (self.time or 0.0)) * 1e3


class SimCuda:
    """The part of torch.cuda the simulation models; anything else raises NotModelled."""

    def __init__(self, replay: Replay):
        self.replay = replay

    def Stream(self, device=None, priority: int = 0):  # noqa: N802 (torch.cuda's names)
        return SimStream(self.replay)

    def Event(self, **flags):  # noqa: N802
        return SimEvent(self.replay)

    def stream(self, stream):
        return stream if stream is not None else contextlib.nullcontext()

    def current_stream(self, device=None):
        return self.replay.current

    def default_stream(self, device=None):
        return self.replay.default

    def synchronize(self, device=None):
        self.replay.wait_host(max(self.replay.ready.values(), default=0.0))

    def device(self, device=None):
        return contextlib.nullcontext()

    def set_device(self, device=None): pass
    def is_available(self): return True  # noqa: E704
    def current_device(self): return 0  # noqa: E704
    def device_count(self): return 1  # noqa: E704

    def __getattr__(self, name):
        raise NotModelled(name)


class _Recorder(TorchDispatchMode):
    def __init__(self, replay: Replay):
        super().__init__()
        self.replay = replay

    def __torch_dispatch__(self, func, _types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = func.overloadpacket.__name__
        role = 'compute' if name in PRODUCTS else 'copy' if name in COPIES else 'other'
        tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        results = [o for o in (out if isinstance(out, (tuple, list)) else (out,)) if isinstance(o, torch.Tensor)]
        address = lambda t: t.untyped_storage().data_ptr()  # noqa: E731
        writes = {address(t) for t in results}
        reads = {address(t) for t in tensors} - (writes if name.endswith('_') else set())
        non_blocking = args[2] if name == 'copy_' and len(args) > 2 else kwargs.get('non_blocking', False)
        self.replay.queue(role, self.replay.current, reads, writes, role == 'copy' and not non_blocking)
        return out


class Lane:
    """The lane the learner's function gets: a GPU (kind 'gpu') whose tensors live in host memory."""
    kind, index, threads, name, label = 'gpu', 0, 0, 'cuda:0', 'GPU 0 (simulated)'

    def device(self):
        return torch.device('cpu')


def replay(fn, *args, rep: Replay | None = None, record: bool = True) -> tuple[Replay, object]:
    """Call fn(*args) with a simulated GPU -> (the replay, what fn returned); its errors propagate. `record`: the
    operations fn runs in this thread queue on the current stream (False: only what is queued by hand, rep.queue)."""
    rep = rep or Replay()
    sim_torch = types.SimpleNamespace(cuda=SimCuda(rep))
    proxy = type('SimTorch', (), {'__getattr__': lambda self, n: getattr(torch, n), 'cuda': sim_torch.cuda})()
    from ..depgraph.halves import with_names
    original = torch.Tensor.record_stream
    torch.Tensor.record_stream = lambda self, stream: None  # accepted, not judged (see the module's docstring)
    try:
        with _Recorder(rep) if record else contextlib.nullcontext():
            value = with_names(fn, torch=proxy)(*args)
    finally:
        torch.Tensor.record_stream = original
    return rep, value


def graded(fn, *args, **options):
    """replay(fn, *args, **options) -> (replay, value, None), or (None, None, the 'streams' criterion saying what the
    learner's code raised or used that the simulation does not model)."""
    from .core import criterion, error_text
    try:
        return (*replay(fn, *args, **options), None)
    except NotModelled as e:
        return None, None, criterion('streams', False, 'task.copy.sim_unmodelled', name=e.name)
    except Exception as e:  # noqa: BLE001 (the learner's code, run by the grader: its error is the answer)
        return None, None, criterion('streams', False, 'task.copy.sim_raised', error=error_text(e))
