"""13.3.1's "Build it" task '13.3.1-lanes': the learner's run_together, graded for correctness, safety and overlap,
overlap from when each work was busy in the learner's own calls (thread timestamps, CUDA events), never a wall clock."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import torch

from ..depgraph.halves import gpu_zero  # GPU event times on the host clock: the instrumentation 13.3.3 shares
from ..overlap import busy, overlap_fraction, union
from .core import Task, call_learner, criterion

KINDS = ('cpu', 'gpu')  # lane kinds: the keys task.lanes.unsafe_<kind>
SIZE = {'cpu': 512, 'gpu': 4000}  # matrix size per lane kind
ITERS = {'cpu': 40, 'gpu': 50}  # products per lane (a CPU lane: per thread): ~0.13 s on one 2-core CPU thread
RUNS = 4  # calls of the learner's function: a warm-up, then three timed (their spread: measurable.SPREAD)
THRESHOLD = 0.5  # the shorter lane must have run at least half of its busy time beside the other
PREDICTED = 1.0  # lanes started together: the shorter one runs its whole busy time inside the longer one's
SLOW_FLOPS = 3e9  # a pessimistic rate per CPU thread (the budget must hold on a busy old laptop)
DEFAULT_THREADS = torch.get_num_threads()  # PyTorch's own setting here: a lane that never sets its share keeps it

def graded_lanes():
    """This machine's two lanes, CPU lanes first: a plain loop then cannot hide behind queued GPU work."""
    from ..lanes import find_lanes
    lanes = find_lanes('torch')
    return sorted(lanes, key=lambda lane: lane.kind != 'cpu')


def iters_for(lane) -> int:
    """Products for one lane: a CPU lane's grow with its threads, so every lane takes about as long."""
    return ITERS['cpu'] * max(1, lane.threads) if lane.kind == 'cpu' else ITERS['gpu']


class Work:
    """One lane's work: its products, and when it was busy (thread timestamps, or CUDA events on a GPU)."""

    def __init__(self, lane, seed: int):
        self.lane, self.k = lane, iters_for(lane)
        self.repeat = 1  # a GPU lane computes each product this often (into one buffer): see calibrate()
        gen = torch.Generator().manual_seed(seed)
        self.x = torch.rand(SIZE[lane.kind], SIZE[lane.kind], generator=gen).to(lane.device())
        xd = self.x.double()
        self.ref = xd.mm(xd)
        self.reset()

    def reset(self):
        self.calls, self.start, self.end, self.events, self.threads = 0, None, None, None, None
        self.finished = threading.Event()

    def __call__(self):
        self.calls += 1
        if self.lane.kind == 'gpu':
            with torch.cuda.device(self.lane.index):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                ys = []
                for _ in range(self.k):
                    y = torch.empty_like(self.x)
                    for _ in range(self.repeat):
                        torch.mm(self.x, self.x, out=y)
                    ys.append(y)
                b.record()
            self.events = (a, b)
            self.finished.set()  # queued; done when b has completed
            return ys
        self.threads = torch.get_num_threads()  # this thread's setting: a CPU lane must use its share
        self.start = time.perf_counter()  # in the thread that runs the work
        ys = [self.x.mm(self.x) for _ in range(self.k)]
        self.end = time.perf_counter()
        self.finished.set()
        return ys

    def done(self) -> bool:
        """Finished by now: the thread's last product returned, or the GPU passed the end event."""
        if self.lane.kind == 'gpu':
            return self.events is not None and self.events[1].query()
        return self.end is not None


def calibrate(works) -> None:
    """Make every GPU lane about twice as long as the slowest CPU lane (each product `repeat` times into one buffer),
    so a version that forgets to wait for a GPU returns while it still runs."""
    cpu = [w for w in works if w.lane.kind == 'cpu']
    gpu = [w for w in works if w.lane.kind == 'gpu']
    if not cpu or not gpu:
        return
    seconds = {}
    for w in works + works:  # the first round warms up (threads, cuBLAS), the second is timed
        start = time.perf_counter()
        if w.lane.kind == 'cpu':
            with ThreadPoolExecutor(1) as pool:
                pool.submit(lambda w=w: (torch.set_num_threads(w.lane.threads), w())).result()
        else:
            w()
            torch.cuda.synchronize(w.lane.index)
        seconds[id(w)] = time.perf_counter() - start
        w.reset()
    slowest_cpu = max(seconds[id(w)] for w in cpu)
    for w in gpu:
        w.repeat = max(1, min(1000, round(2 * slowest_cpu / seconds[id(w)])))


def _interval(work, zero) -> tuple[float, float]:
    if work.lane.kind != 'gpu':
        return work.start, work.end
    ev, host = zero[work.lane.index]
    a, b = work.events
    return host + ev.elapsed_time(a) / 1e3, host + ev.elapsed_time(b) / 1e3


def _check(out, works, errors: dict) -> tuple[str, dict] | None:
    """None when out[i] matches lane i's reference for every lane, else (key, fields) saying what is wrong; `errors`
    keeps each result's error (by its tensors), so one call's results are compared once."""
    from ..backends.torch_backend import tolerance
    from ..checking import relative_error
    if not isinstance(out, (list, tuple)) or len(out) != len(works):
        got = len(out) if isinstance(out, (list, tuple)) else type(out).__name__
        return 'task.lanes.count', dict(got=got, lanes=len(works))
    tol = tolerance()
    for i, (y, w) in enumerate(zip(out, works)):
        if not isinstance(y, (list, tuple)) or len(y) != w.k or not all(isinstance(z, torch.Tensor) for z in y):
            got = f'{type(y).__name__} of {len(y)}' if isinstance(y, (list, tuple)) else type(y).__name__
            return 'task.lanes.not_results', dict(lane=i, products=w.k, got=got)
        key = tuple(map(id, y))
        err = errors[key] = errors[key] if key in errors else relative_error(y, w.ref)
        if not err <= tol:
            other = next((j for j, v in enumerate(works) if j != i and y[0].shape == v.ref.shape
                          and relative_error(y, v.ref) <= tol), None)
            if other is not None:
                return 'task.lanes.order', dict(lane=i, other=other)
            return 'task.lanes.wrong', dict(lane=i, error=err, tolerance=tol)
    return None


def _snapshot(out):
    """What a caller holds the moment the function returns (later writes by leftover threads do not change it)."""
    if not isinstance(out, (list, tuple)):
        return out
    return [list(y) if isinstance(y, (list, tuple)) else y for y in out]


def _one_run(fn, lanes, works) -> dict:
    """Call the learner's function once; what was done when it returned, what it returned, the intervals."""
    for w in works:
        w.reset()
    torch.set_num_threads(DEFAULT_THREADS)  # a new thread starts with the last setting made anywhere: reset it
    zero = gpu_zero(lanes)
    t0 = time.perf_counter()
    ok, out = call_learner(fn, lanes, works)
    wall = time.perf_counter() - t0
    if not ok:
        return {'failed': out}
    ready = [w.done() for w in works]  # the moment it returned: before anything here waits
    threads = [w.threads for w in works]
    held = _snapshot(out)
    deadline = time.perf_counter() + wait_s()  # a version that returned early leaves work running: let it end
    for w in works:
        w.finished.wait(max(0.0, deadline - time.perf_counter()))
    for g in sorted({w.lane.index for w in works if w.lane.kind == 'gpu'}):
        torch.cuda.synchronize(g)
    finished = all(w.calls == 1 and w.done() for w in works)
    intervals = [_interval(w, zero) for w in works] if finished else None
    errors = {}  # the results are checked now and not kept: one call's products in memory at a time
    problem = _check(out, works, errors)
    late = _check(held, works, errors) if problem is None else None  # right later, not at return: filled in after
    return dict(problem=problem, late=late, error=max(errors.values(), default=0.0), wall=wall, ready=ready,
                calls=[w.calls for w in works], intervals=intervals, threads=threads)


def lane_overlap(intervals) -> float | None:
    """Of the shorter lane's busy time, the fraction during which another lane was busy too (in [0, 1])."""
    shortest = min(range(len(intervals)), key=lambda i: busy([intervals[i]]))
    others = union(iv for j, iv in enumerate(intervals) if j != shortest)
    return overlap_fraction([intervals[shortest]], others)


def grade(submission) -> list:
    """'runs', 'correct', 'threads', 'safe', 'overlap' for the learner's run_together, on this machine's lanes,
    'streams' for its GPU branch on a simulated GPU."""
    fn = submission.functions['run_together']
    lanes = graded_lanes()
    works = [Work(lane, seed=i) for i, lane in enumerate(lanes)]
    calibrate(works)  # the grader's own runs, before the learner's function is called
    runs = []
    for _ in range(RUNS):  # the first call also warms up threads and libraries; overlap from the others
        runs.append(_one_run(fn, lanes, works))
        if 'failed' in runs[-1]:
            return [runs[-1]['failed']]
    out = [criterion('runs', True, 'task.lanes.ran', runs=len(runs))]
    bad_calls = next((r['calls'] for r in runs if any(c != 1 for c in r['calls'])), None)
    if bad_calls is not None:
        return out + [criterion('correct', False, 'task.lanes.calls', calls=', '.join(map(str, bad_calls)))]
    problem = next((r['problem'] for r in runs if r['problem']), None)
    if problem:
        out.append(criterion('correct', False, problem[0], **problem[1]))
    else:
        from ..backends.torch_backend import tolerance
        err = max(r['error'] for r in runs)
        out.append(criterion('correct', True, 'task.lanes.correct', error=err, tolerance=tolerance()))
    out.append(_threads(runs, works))
    out.append(_safety(runs, lanes, works, correct=problem is None))
    out.append(_overlap(runs[1:]))
    out.append(streams(fn, lanes))  # the GPU branch's waits, on every machine
    return out


def streams(fn, lanes):
    """The GPU branch replayed on a simulated GPU (simulated_gpu) beside a CPU lane: its products, queued by
    works[1](), all done when the function returns."""
    from . import simulated_gpu as sim
    rep, called = sim.Replay(), []
    cpu = next((lane for lane in lanes if lane.kind == 'cpu'), None) or _one_thread()
    works = [lambda: called.append(0) or [], lambda: called.append(1) or [
        rep.queue('compute', rep.current, (), (k,), False) for k in range(3)]]
    _, _, failed = sim.graded(fn, [cpu, sim.Lane()], works, rep=rep, record=False)
    if failed:
        return failed
    if sorted(called) != [0, 1]:
        return criterion('streams', False, 'task.lanes.sim_calls', calls=len(called))
    if max(rep.written.values()) > rep.host:
        return criterion('streams', False, 'task.lanes.sim_unsafe')
    return criterion('streams', True, 'task.lanes.sim_ok')


def _one_thread():
    from ..lanes import make_lane
    return make_lane('torch', 'cpu', 0, threads=1, name='cpu0', label_key='core.lane_cpu_label')


def _threads(runs, works):
    """Every CPU lane's work ran with the lane's share of the threads (torch.set_num_threads in its thread)."""
    for r in runs:
        for i, (seen, w) in enumerate(zip(r['threads'], works)):
            if w.lane.kind == 'cpu' and seen is not None and seen != w.lane.threads:
                return criterion('threads', False, 'task.lanes.threads', lane=i, got=seen, want=w.lane.threads)
    return criterion('threads', True, 'task.lanes.threads_ok')


def _safety(runs, lanes, works, correct: bool):
    """Everything finished, and the results right, at the moment the function returned (on every call)."""
    for r in runs:
        late = next((i for i, ready in enumerate(r['ready']) if not ready), None)
        if late is not None:
            return criterion('safe', False, f'task.lanes.unsafe_{lanes[late].kind}', lane=late)
        if correct and r['late']:
            return criterion('safe', False, 'task.lanes.unsafe_value')
    return criterion('safe', correct, 'task.lanes.safe' if correct else 'task.lanes.safe_unknown')


def _overlap(runs):
    """The median call's interval overlap (its wall-clock times beside), the prediction, every call's wall clock."""
    if any(r['intervals'] is None for r in runs):
        return criterion('overlap', False, 'task.lanes.unfinished', seconds=wait_s())
    runs = sorted(runs, key=lambda r: lane_overlap(r['intervals']) or 0.0)
    run = runs[len(runs) // 2]
    measured = lane_overlap(run['intervals'])
    lane_busy = [b - a for a, b in run['intervals']]
    # model, not predicted: the check prints this task's own sentence, which says what the share is of
    return criterion('overlap', measured is not None and measured >= THRESHOLD, 'task.lanes.overlap',
                     measured=measured or 0.0, model=PREDICTED, threshold=THRESHOLD, wall=run['wall'],
                     serial=sum(lane_busy), longest=max(lane_busy), repeats=[r['wall'] for r in runs])


def lane_slow_s() -> float:
    """One lane's products at the pessimistic rate (a CPU lane's grow with its threads: every lane about this long)."""
    return ITERS['cpu'] * 2 * SIZE['cpu'] ** 3 / SLOW_FLOPS


def wait_s() -> float:
    """How long work left running after an early return may take to end."""
    return 2 * lane_slow_s()


def budget_s() -> float:
    """Seconds grading may take: RUNS calls of every lane one after the other (or left running), and start-up."""
    return 60.0 + RUNS * (2 * lane_slow_s() + wait_s())


def namespace() -> dict:
    """Names the learner's function may use without importing them, as in the lesson's cell."""
    return {'torch': torch, 'threading': threading, 'ThreadPoolExecutor': ThreadPoolExecutor, 'time': time}


TASK = Task(id='13.3.1-lanes', section='13.3.1', functions=('run_together',),
            signatures={'run_together': 'run_together(lanes, works)'}, description_key='task.lanes.description',
            grade=grade, budget_s=budget_s, namespace=namespace)
