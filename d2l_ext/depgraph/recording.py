"""13.3.3's step recorded on a machine with a GPU, for readers without one: times, intervals, provenance (JSON).

`record_step` runs the lesson's worked step (model.mlp_step, the single copy) on this machine's
two lanes beside the one-device step on the whole minibatch and the halves one after the other,
interleaved, several repeats, every update checked against float64. Every run is instrumented the
same way, so the intervals come from the timed runs themselves: a GPU's work from CUDA events
(converted to the host clock with an event whose completion the host waited for), a CPU's from
timestamps taken in the thread that ran it. Each way keeps the intervals of its median repeat
for drawing; every repeat keeps its times, its halves' busy times and their overlap (d2l_ext.overlap,
as the grader measures it). Recordings are plain JSON with a `format` version; `load_recordings`
returns the shipped ones, newest per GPU kind.
"""
from __future__ import annotations

import contextlib
import pathlib
import statistics
import time

import torch

from ..errors import UsageError
from ..i18n import t
from ..machine import provenance
from ..paths import read_json
from ..timing import wait_for_lanes
from . import halves, model
from .model import DEFAULT_SIZES, PARAM_NAMES, SERVER, make_problem, reference_step, sgd_step
from .runs import as_lanes, check_update, whole_device
from .tracer import stage
from .worked import wrong_version

FORMAT = 1
FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package
# Ids of the three ways to run the step, runs.STEP_VARIANTS (the keys 'graph.variant.<id>' name them).
VARIANTS = ('one_device', 'in_turn', 'split')
HALF = 'lane step'  # the event name of a half's forward and backward (halves.LaneRecorder's interval)
WHOLE = 'whole step'  # the event name of the one-device step (forward, backward and update)
REQUIRED = ('format', 'machine', 'lanes', 'one_device', 'sizes', 'runs')


# -- clocks -----------------------------------------------------------------------------------------

def _mark(device: torch.device):
    """Now, on the device's clock: a CUDA event recorded on its current stream, or the host's perf_counter."""
    if device.type == 'cuda':
        ev = torch.cuda.Event(enable_timing=True)
        with torch.cuda.device(device):
            ev.record()
        return device.index or 0, ev
    return time.perf_counter()


def _host(mark, zero) -> float:
    """A mark on the host clock; zero is halves.gpu_zero's {GPU: (event, host time when it completed)}."""
    if isinstance(mark, float):
        return mark
    g, ev = mark
    ev0, host = zero[g]
    return host + ev0.elapsed_time(ev) / 1e3


def _lane_desc(lane) -> dict:
    """What a lane is, as ids and numbers (the label is made in the reader's language when drawn)."""
    gpu = lane.kind == 'gpu'
    return {'kind': lane.kind, 'index': lane.index, 'name': lane.name, 'threads': lane.threads,
            'gpu_name': torch.cuda.get_device_name(lane.index) if gpu and torch.cuda.is_available() else None}


# -- the three ways to run the step, instrumented alike ---------------------------------------------

class _Split:
    """The worked step (or the halves in turn) remade from its source, its stages and halves recorded."""

    def __init__(self, step, lanes):
        self.fn, self.lanes, self.marks, self.halves = halves.with_names(step), lanes, [], None

        @contextlib.contextmanager
        def timed_stage(lane, name):  # the step's own `stage`, also timed on the device doing the work
            device = self.lanes[lane].device() if isinstance(lane, int) else torch.device('cpu')
            with stage(lane, name):
                start = _mark(device)
                try:
                    yield
                finally:
                    self.marks.append((f'lane {lane}' if isinstance(lane, int) else lane, name, start, _mark(device)))
        self.fn.__globals__['stage'] = timed_stage

    def __call__(self, params, X, y, lr):
        self.marks, self.halves = [], halves.LaneRecorder()
        self.fn.__globals__['lane_step'] = self.halves.lane_step
        return self.fn(self.lanes, params, X, y, lr)

    def events(self, zero, t0) -> list[dict]:
        out = [{'lane': lane, 'name': name, 'start': _host(a, zero) - t0, 'end': _host(b, zero) - t0}
               for lane, name, a, b in self.marks]
        for call, (a, b) in zip(self.halves.calls, self.halves.intervals(zero)):
            out.append({'lane': f"lane {call['i']}", 'name': HALF, 'start': a - t0, 'end': b - t0})
        return sorted(out, key=lambda e: e['start'])


class _OneDevice:
    """The whole minibatch on lane 0's device (on a CPU: every core in one thread), data placed once, no copies."""

    def __init__(self, lane, params, X, y):
        from ..backends.torch_backend import run_on_lanes
        self.lane, self.run_on_lanes = whole_device(lane), run_on_lanes
        dev = self.lane.device()
        self.data = ({k: params[k].to(dev, copy=True) for k in PARAM_NAMES}, X.to(dev), y.to(dev))
        self.mark = None

    def __call__(self, lr):
        dev = self.lane.device()

        def job():
            start = _mark(dev)
            out = sgd_step(*self.data, lr)
            self.mark = (start, _mark(dev))
            return out
        return self.run_on_lanes([self.lane], [job])[0]

    def events(self, zero, t0) -> list[dict]:
        a, b = self.mark
        return [{'lane': 'one device', 'name': WHOLE, 'start': _host(a, zero) - t0, 'end': _host(b, zero) - t0}]


def _halves(events) -> dict[str, float]:
    """{'lane i': busy seconds of its half}: the intervals of the events named HALF."""
    return {e['lane']: e['end'] - e['start'] for e in events if e['name'] == HALF}


def _spans(events) -> dict[str, list[float]]:
    """{'lane i': [start, end] of its half}, seconds from the step's start."""
    return {e['lane']: [e['start'], e['end']] for e in events if e['name'] == HALF}


def _overlap(events) -> float | None:
    """Of the shorter half's busy time, the fraction the other half was busy too (the grader's measure)."""
    spans = [(e['start'], e['end']) for e in events if e['name'] == HALF]
    return halves.half_overlap(spans) if len(spans) == 2 else None


def _run(lanes, batch, sizes, repeats, warmup, lr) -> dict:
    """One batch size: every repeat of the three ways, interleaved; each way's median repeat's events."""
    params, X, y = make_problem(batch=batch, **sizes)
    reference, _ = reference_step(params, X, y, lr)
    one = _OneDevice(lanes[0], params, X, y)
    every = list(lanes) + [one.lane]
    in_turn, split = _Split(wrong_version('in_turn'), lanes), _Split(model.mlp_step, lanes)
    runs = {'one_device': (lambda: one(lr), one),
            'in_turn': (lambda: in_turn(params, X, y, lr), in_turn),
            'split': (lambda: split(params, X, y, lr), split)}
    times = {v: [] for v in VARIANTS}
    events = {v: [] for v in VARIANTS}
    errors = {v: 0.0 for v in VARIANTS}
    for r in range(warmup + repeats):
        for v in VARIANTS:
            call, probe = runs[v]
            wait_for_lanes(every)
            zero = halves.gpu_zero(every)  # synchronizes: outside the timed region
            t0 = time.perf_counter()
            out = call()
            wait_for_lanes(every)
            wall = time.perf_counter() - t0
            if r < warmup:
                continue
            times[v].append(wall)
            events[v].append(probe.events(zero, t0))
            err = check_update(out, params, reference, t(f'graph.variant.{v}'))  # raises if wrong
            errors[v] = max(errors[v], err)
    drawn = {v: median_repeat(times[v]) for v in VARIANTS}  # each way drawn from its own median repeat
    rep = drawn['split']
    from ..backends.torch_backend import tolerance
    return {'batch': batch, 'repeats': repeats, 'warmup': warmup, 'times': times,
            'errors': errors, 'tolerance': tolerance(),
            'halves': {v: [_halves(ev) for ev in events[v]] for v in ('in_turn', 'split')},
            'spans': {v: [_spans(ev) for ev in events[v]] for v in ('in_turn', 'split')},
            'overlap': {v: [_overlap(ev) for ev in events[v]] for v in ('in_turn', 'split')},
            'predicted_overlap': halves.PREDICTED, 'representative': rep, 'drawn': drawn,
            'events': {v: events[v][drawn[v]] for v in VARIANTS}}


def predict_split(run: dict) -> float:
    """Two lanes together, predicted from the halves one after the other: each repeat's wall clock less its shorter
    half's busy time (the graph's two chains are independent, so the shorter can run inside the longer), the median.
    """
    return statistics.median(wall - min(h.values())
                             for wall, h in zip(run['times']['in_turn'], run['halves']['in_turn']))


def median_repeat(times) -> int:
    """The index of the repeat of median time (the lower middle of an even count)."""
    order = sorted(range(len(times)), key=lambda i: times[i])
    return order[(len(times) - 1) // 2]


def drawn_repeat(run: dict, variant: str) -> int:
    """Which repeat a run's events of `variant` come from: its own median repeat (older recordings: the split's)."""
    return run.get('drawn', {}).get(variant, run['representative'])


DAG_IDS = ('one_lane', 'planned', 'all_cores')  # dag.DAG_VARIANTS' ids, in order ('graph.dag_variant.<index>')


def record_dag(lanes, repeats=5) -> dict:
    """Exercise 5 on these lanes, JSON-ready: the plan's split, why, its prediction, every repeat (13.3.3)."""
    from .dag import DAG_VARIANTS, dag_experiment
    r = dag_experiment(lanes, repeats=repeats)
    index = {label: i for i, label in enumerate(r.lanes)}
    ids = dict(zip(DAG_VARIANTS, DAG_IDS))
    return {'n': r.n, 'tasks': len(r.dag), 'repeats': repeats, 'model': r.model,
            'counts': [len(r.order[label]) for label in r.lanes], 'forced': [index[x] for x in r.forced],
            'speeds': [r.speeds[label] for label in r.lanes] if r.speeds else None,
            'predicted': {ids[k]: v for k, v in r.predicted.items()} if r.predicted else None,
            'times': {ids[k]: list(m.times) for k, m in r.measurements.items()},
            'errors': {ids[k]: v for k, v in r.errors.items()}, 'threads': r.threads, 'cores': r.cores,
            'breakdown': _breakdown(r)}


def _breakdown(r) -> dict | None:
    """DagExperiment.breakdown as JSON: {'lanes': [per lane, in lanes' order], 'span': seconds}, or None."""
    b = r.breakdown()
    return None if b is None else {'lanes': [b[0][label] for label in r.lanes], 'span': b[1]}


def record_step(lanes=None, batches=(256,), repeats=7, warmup=2, lr=0.1, sizes=None, progress=None,
                dag=False) -> dict:
    """Record 13.3.3's step on this machine's lanes at each batch size -> a JSON-ready recording (13.3.3).

    lanes: Lane objects or device names (default find_lanes('torch'): the GPU and the CPU, two GPUs, or two
    shares of the CPU); sizes: the MLP's {'d_in', 'hidden', 'd_out'} (default the lesson's 784, 256, 10);
    dag=True adds exercise 5 on the same lanes (record_dag).
    """
    from ..machine import positive_int
    lanes = as_lanes(lanes)
    if len(lanes) != 2:
        raise UsageError(t('graph.err.two_lanes', n=len(lanes)))
    repeats = positive_int(repeats, 'repeats', option='repeats', example=7)
    warmup = int(warmup)
    sizes = {k: v for k, v in DEFAULT_SIZES.items() if k != 'batch'} | dict(sizes or {})
    batches = [positive_int(b, t('graph.recorded.what_batch'), option='batch', example=256) for b in batches]
    out = {'format': FORMAT, 'section': '13.3.3', 'recorded_with': 'tools/record_depgraph.py',
           'machine': provenance(), 'lanes': [_lane_desc(lane) for lane in lanes],
           'one_device': _lane_desc(whole_device(lanes[0])), 'server': SERVER, 'sizes': sizes, 'lr': lr, 'runs': []}
    for i, b in enumerate(batches):
        out['runs'].append(_run(lanes, b, sizes, repeats, warmup, lr))
        if progress:
            progress(i + 1, len(batches))
    if dag:  # optional: recordings without it stay readable
        out['dag'] = record_dag(lanes)
    return out


# -- reading recordings back ------------------------------------------------------------------------

def is_gpu(rec: dict) -> bool:
    """True only when recorded with a GPU lane on a machine that has one: only these are shown as GPU evidence."""
    return bool(rec['machine'].get('gpus')) and any(lane['kind'] == 'gpu' for lane in rec['lanes'])


def gpu_kind(rec: dict) -> str | None:
    """'NVIDIA H200 x1', or None for a CPU recording."""
    gpus = rec['machine'].get('gpus') or []
    return f'{gpus[0]} x{len(gpus)}' if is_gpu(rec) else None


def file_name(rec: dict) -> str:
    """The name to ship a recording under: 'NVIDIA-H200-x1-2026-12-03.json' (or 'cpu-only-...')."""
    kind = gpu_kind(rec)
    name = kind.replace(' ', '-') if kind else 'cpu-only'
    return f"{name}-{rec['machine']['date'][:10]}.json"


def check_recording(rec, where='recording') -> dict:
    """The recording if it is one this version can read; else a UsageError saying what is wrong."""
    if not isinstance(rec, dict) or rec.get('format') != FORMAT:
        got = rec.get('format') if isinstance(rec, dict) else type(rec).__name__
        raise UsageError(t('graph.err.rec_format', where=where, got=repr(got), expected=FORMAT))
    missing = [k for k in REQUIRED if k not in rec]
    if missing or not rec['runs']:
        raise UsageError(t('graph.err.rec_missing', where=where, missing=', '.join(missing) or 'runs'))
    return rec


def load(path) -> dict:
    """One recording from its file, checked."""
    path, rec = read_json(path)
    return check_recording(rec, str(path)) | {'file': path.name}


def load_recordings(folder=None, gpu_only=True) -> list[dict]:
    """The shipped recordings (or those in `folder`), the newest per GPU kind, sorted by kind (13.3.3).

    CPU recordings are returned only with gpu_only=False (then the newest of them too, as kind None).
    """
    folder = pathlib.Path(folder or FOLDER)
    recs = [load(p) for p in sorted(folder.glob('*.json'))] if folder.is_dir() else []
    newest = {}
    for rec in recs:
        if gpu_only and not is_gpu(rec):
            continue
        kind = gpu_kind(rec)
        key = (rec['machine'].get('date', ''), rec['file'])
        if kind not in newest or key > newest[kind][0]:
            newest[kind] = (key, rec)
    return [newest[k][1] for k in sorted(newest, key=lambda k: k or '')]


def newest(recordings=None) -> dict | None:
    """The newest GPU recording of all kinds, or None: what the lesson draws (13.3.3)."""
    recs = [r for r in (load_recordings() if recordings is None else recordings) if is_gpu(r)]
    return max(recs, key=lambda r: (r['machine'].get('date', ''), r.get('file', ''))) if recs else None


def pick_run(rec: dict, batch=None) -> dict:
    """The run at `batch` (default the lesson's 256 rows if recorded, else the first)."""
    runs = {r['batch']: r for r in rec['runs']}
    if batch is None:
        return runs.get(DEFAULT_SIZES['batch'], rec['runs'][0])
    if batch not in runs:
        raise UsageError(t('graph.err.no_batch', batch=batch, has=', '.join(map(str, runs))))
    return runs[batch]


def halves_summary(run: dict) -> dict:
    """Each half's median busy seconds together and one after the other ({lane: s}), and the median overlap."""
    def busy(way):
        every = [h for h in run['halves'][way] if len(h) == 2]
        return {lane: statistics.median(h[lane] for h in every) for lane in sorted(every[0])} if every else {}
    overlaps = [f for f in run['overlap']['split'] if f is not None]
    return {'split': busy('split'), 'in_turn': busy('in_turn'),
            'overlap': statistics.median(overlaps) if overlaps else None, 'predicted_overlap': run['predicted_overlap']}


def to_frame(run: dict):
    """Every statistic of a run: median, quartiles, every repeat, prediction and error per way (details on demand)."""
    from ..timing import Comparison, Measurement
    df = Comparison({v: Measurement(v, run['times'][v]) for v in VARIANTS}).to_frame()
    df[t('graph.col_predicted')] = [predict_split(run) if v == 'split' else None for v in df.index]
    df[t('graph.col_error')] = [run['errors'].get(v) for v in df.index]
    h = halves_summary(run)
    for i in range(2):  # each half's median busy time, and how much of the shorter one the other covered
        df[t('graph.col_half', i=i)] = [h.get(v, {}).get(f'lane {i}') for v in df.index]
    df[t('graph.col_overlap')] = [h['overlap'] if v == 'split' else None for v in df.index]
    df.index = [t(f'graph.variant.{variant}') for variant in VARIANTS]  # the frame's rows, in this order
    return df
