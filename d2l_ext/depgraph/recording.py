"""13.3.3's step timed three ways (the worked step, its halves in turn, one device), interleaved, every update checked
against float64, here or shipped from a GPU machine (JSON). Intervals come from the timed runs themselves; each way
keeps its median repeat's for drawing, every repeat its time, its halves' busy times and their overlap."""
from __future__ import annotations

import contextlib
import pathlib
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import torch

from .. import recordings
from ..backends.torch_backend import intra_op_threads, run_on_lanes, tolerance
from ..errors import UsageError
from ..i18n import t
from ..machine import cpu_cores, provenance
from ..timing import settle, wait_for_lanes
from . import halves, model
from .halves import mark, on_host
from .model import DEFAULT_SIZES, PARAM_NAMES, SERVER, make_problem, reference_step, sgd_step
from .runs import as_lanes, check_update, whole_device
from .tracer import stage

FORMAT = 1
FOLDER = pathlib.Path(__file__).with_name('recorded')  # the recordings shipped with the package
WAYS = ('one_device', 'in_turn', 'split', 'one_thread')  # every way a run may time: the keys graph.variant.<way>
VARIANTS, CONTROL = WAYS[:3], WAYS[3]  # timed always; CPU lanes only: the whole step on one thread (recorded if run)
HALF = 'lane step'  # the event name of a half's forward and backward
WHOLE = 'whole step'  # the event name of the one-device step (forward, backward and update)
REQUIRED = ('format', 'machine', 'lanes', 'one_device', 'sizes', 'runs')


def _lane_desc(lane) -> dict:
    """What a lane is, as ids and numbers (the label is made in the reader's language when drawn)."""
    gpu = lane.kind == 'gpu'
    return {'kind': lane.kind, 'index': lane.index, 'name': lane.name, 'threads': lane.threads,
            'gpu_name': torch.cuda.get_device_name(lane.index) if gpu and torch.cuda.is_available() else None}


# -- the three ways to run the step, instrumented alike ---------------------------------------------

def _event(lane, name, a, b, zero, t0) -> dict:
    """An interval between two marks (halves.mark), in seconds from t0 on the host clock."""
    return {'lane': lane, 'name': name, 'start': on_host(a, zero) - t0, 'end': on_host(b, zero) - t0}


class _Split:
    """The worked step (or the halves in turn) remade with its stages and each half (lane_step) timed."""

    def __init__(self, step, lanes):
        self.lanes, self.marks = lanes, []

        @contextlib.contextmanager
        def timed_stage(lane, name):  # the step's own `stage`, also timed on the device doing the work
            device = self.lanes[lane].device() if isinstance(lane, int) else torch.device('cpu')
            with stage(lane, name):
                start = mark(device)
                try:
                    yield
                finally:
                    self.marks.append((f'lane {lane}' if isinstance(lane, int) else lane, name, start, mark(device)))

        def timed_half(i, *args):
            with timed_stage(i, HALF):
                return model.lane_step(i, *args)
        self.fn = halves.with_names(step, stage=timed_stage, lane_step=timed_half)

    def __call__(self, params, X, y, lr):
        self.marks = []
        return self.fn(self.lanes, params, X, y, lr)

    def events(self, zero, t0) -> list[dict]:
        return sorted((_event(lane, name, a, b, zero, t0) for lane, name, a, b in self.marks), key=lambda e: e['start'])


class _OneDevice:
    """The whole minibatch on lane 0's device (a CPU: every core), data placed once, no copies; a CPU's in one thread
    kept for every repeat: one device needs no thread started and joined per step (on 2 cores a fresh one cost 1-2 ms
    of a 5 ms step; this thread's team resized per step stalled for 100 ms under load, 2026-12-07)."""

    def __init__(self, lane, params, X, y, threads=None):
        self.lane = whole_device(lane) if threads is None else replace(whole_device(lane), threads=threads)
        dev = self.lane.device()
        self.data = ({k: params[k].to(dev, copy=True) for k in PARAM_NAMES}, X.to(dev), y.to(dev))
        self.pool = ThreadPoolExecutor(1, initializer=torch.set_num_threads, initargs=(self.lane.threads,)) if (
            self.lane.kind == 'cpu') else None  # a GPU's work is queued from this thread, as run_on_lanes does

    def __call__(self, params, X, y, lr):  # the step's signature; its data were placed once
        dev = self.lane.device()

        def job():
            start = mark(dev)
            out = sgd_step(*self.data, lr)
            self.mark = (start, mark(dev))
            return out
        return self.pool.submit(job).result() if self.pool else job()

    def events(self, zero, t0) -> list[dict]:
        return [_event('one device', WHOLE, *self.mark, zero, t0)]


def half_stats(events) -> tuple[dict, dict, float | None]:
    """({'lane i': its half's busy seconds}, {'lane i': [start, end]}, the overlap: of the shorter half's busy time,
    the fraction the other was busy too, as the grader measures it; None without two halves)."""
    spans = {e['lane']: [e['start'], e['end']] for e in events if e['name'] == HALF}
    overlap = halves.half_overlap([tuple(x) for x in spans.values()]) if len(spans) == 2 else None
    return {lane: b - a for lane, (a, b) in spans.items()}, spans, overlap


def _in_turn(lanes, jobs, **kw):  # run_on_lanes, each job started once every lane has finished (wait_for_lanes: None)
    return [wait_for_lanes(lanes) or run_on_lanes([lane], [job], **kw)[0] for lane, job in zip(lanes, jobs)]


def _run(lanes, batch, sizes, repeats, warmup, lr, control=False, step=model.mlp_step) -> dict:
    """One batch size: every repeat of the three ways (step, jobs in turn, one device), interleaved; median events."""
    params, X, y = make_problem(batch=batch, **sizes)
    reference, _ = reference_step(params, X, y, lr)
    one = _OneDevice(lanes[0], params, X, y)
    every = list(lanes) + [one.lane]
    runs = {'one_device': one, 'in_turn': _Split(halves.with_names(step, run_on_lanes=_in_turn), lanes),
            'split': _Split(step, lanes)}
    if control and one.lane.kind == 'cpu' and one.lane.threads > 1:  # the control: the whole step on one thread
        runs[CONTROL] = _OneDevice(lanes[0], params, X, y, threads=1)
    times, events, errors = {v: [] for v in runs}, {v: [] for v in runs}, dict.fromkeys(runs, 0.0)
    # The calling thread (the server) keeps the cores the lanes leave: its team on every core beside a CPU lane's
    # makes OpenMP barriers wait for descheduled threads (H100, 2026-12-07: the split step 15.2 ms; 3.5 ms so).
    spare = max(1, cpu_cores() - sum(lane.threads for lane in lanes if lane.kind == 'cpu'))
    with intra_op_threads(spare), contextlib.ExitStack() as kept:  # one device's kept threads end with the run
        kept.callback(lambda: [probe.pool.shutdown() for probe in runs.values() if getattr(probe, 'pool', None)])
        for r in range(warmup + repeats):
            for way in runs:
                probe = runs[way]
                wait_for_lanes(every)
                zero = halves.gpu_zero(every)  # synchronizes: outside the timed region
                settle()
                t0 = time.perf_counter()
                out = probe(params, X, y, lr)
                wait_for_lanes(every)
                wall = time.perf_counter() - t0
                if r < warmup:
                    continue
                times[way].append(wall)
                events[way].append(probe.events(zero, t0))
                errors[way] = max(errors[way], check_update(out, params, reference, t(f'graph.variant.{way}')))
    drawn = {v: median_repeat(times[v]) for v in runs}  # each way drawn from its own median repeat
    return {'batch': batch, 'repeats': repeats, 'warmup': warmup, 'times': times,
            'errors': errors, 'tolerance': tolerance(),
            **{key: {v: [half_stats(ev)[k] for ev in events[v]] for v in ('in_turn', 'split')}
               for k, key in enumerate(('halves', 'spans', 'overlap'))},
            'predicted_overlap': halves.PREDICTED, 'representative': drawn['split'], 'drawn': drawn,
            'events': {v: events[v][drawn[v]] for v in runs}}


def predict_split(run: dict) -> float:
    """Together, predicted from the figure's rows: one after the other's median less the shorter of its halves'
    medians (the graph's two chains are independent, so the shorter can run inside the longer), each to 3 significant
    digits as printed, so the prediction is the difference of the numbers a reader sees."""
    ser, shorter = statistics.median(run['times']['in_turn']), min(halves_summary(run)['in_turn'].values())
    return float(f'{ser:.3g}') - float(f'{shorter:.3g}')


def timeline_spans(run: dict, one='one_device') -> tuple[dict, tuple[float, float], list]:
    """Where together's median repeat went: ({'copy in', 'lane step', 'grad copy', 'sum+update': seconds}, (when the
    halves began, when both ended), [(row, start, end)]: the timer running outside every recorded part, together's
    (row 1, the server's) and way `one`'s (a one-device way: row 3), before and after its step)."""
    split = run['events']['split']
    took = {k: [(e['start'], e['end']) for e in split if e['name'] in k.split('+')] for k in (
        'copy in', HALF, 'grad copy', 'sum+update')}
    began, ended = min(a for a, _ in took[HALF]), max(b for _, b in took[HALF])
    copied = max((b for _, b in took['copy in']), default=began)  # copies made here, before the lanes began, or in them
    began = began if copied <= began else min(a for a, _ in took['copy in'] + took[HALF])
    whole, wall = run['events'][one][0], {v: run['times'][v][run['drawn'][v]] for v in ('split', one)}
    handoffs = [(r, a, b) for r, a, b in ((1, copied if copied <= began else 0.0, began), (1, ended, min(
        (a for a, _ in took['grad copy']), default=ended)), (1, max(e['end'] for e in split), wall['split']), (
        3, 0.0, whole['start']), (3, whole['end'], wall[one])) if b > a]  # row 1: the step's return too
    return {k: sum(b - a for a, b in v) for k, v in took.items()}, (began, ended), handoffs


def median_repeat(times) -> int:
    """The index of the repeat of median time (the lower middle of an even count)."""
    return sorted(range(len(times)), key=times.__getitem__)[(len(times) - 1) // 2]


def record_step(lanes=None, batches=(256,), repeats=7, warmup=2, lr=0.1, sizes=None, progress=None,
                dag=False, control=False, step=None) -> dict:
    """13.3.3's step on these lanes (default find_lanes('torch')) at each batch size -> a JSON-ready recording.
    sizes: the MLP's {'d_in', 'hidden', 'd_out'} (default 784, 256, 10); dag=True adds exercise 5 (dag_experiment);
    control=True, where one device is a CPU of several cores, times its whole step on one thread too (CONTROL); step:
    the two-lane step (default model.mlp_step); 'one after the other' is it with its run_on_lanes's jobs in turn."""
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
        out['runs'].append(_run(lanes, b, sizes, repeats, warmup, lr, control, step or model.mlp_step))
        if progress:
            progress(i + 1, len(batches))
    if dag:  # optional: recordings without it stay readable
        import dataclasses

        from .dag import dag_experiment
        out['dag'] = dataclasses.asdict(dag_experiment(lanes))
    return out


# -- reading recordings back ------------------------------------------------------------------------

def is_gpu(rec: dict) -> bool:
    """Recorded with a GPU lane on a machine that has one: only these are shown as GPU evidence."""
    return recordings.on_gpu(rec) and any(lane['kind'] == 'gpu' for lane in rec['lanes'])


def file_name(rec: dict) -> str:
    """The name to ship a recording under: 'NVIDIA-H200-x1-2026-12-03.json' (or 'cpu-only-...')."""
    return recordings.file_name(rec, is_gpu)


def check_recording(rec, where='recording') -> dict:
    """The recording if it is one this version can read; else a UsageError saying what is wrong."""
    return recordings.check(rec, where, version=FORMAT, required=REQUIRED, section='13.3.3',
                            keys=('graph.err.rec_format', 'graph.err.rec_missing'))


def load(path) -> dict:
    """One recording from its file, checked."""
    return recordings.load(path, check_recording)


def load_recordings(folder=None, gpu_only=True) -> list[dict]:
    """The shipped recordings (or those in `folder`), the newest per GPU kind (CPU ones too with gpu_only=False)."""
    return recordings.load_all(folder or FOLDER, check_recording, gpu=is_gpu, gpu_only=gpu_only)


def newest(recs=None) -> dict | None:
    """The newest GPU recording of all kinds, or None: what the lesson draws (13.3.3)."""
    return recordings.newest(load_recordings() if recs is None else recs, is_gpu)


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


def parts(run: dict) -> list[tuple[str, float, float, int]]:
    """[(part, predicted, measured, its assumption 1-3)]: each half ('lane i'); 'apart', the shorter half's time beside
    no other (predicted (1 - overlap) of it; measured, the median over repeats, the shorter half each repeat's own);
    'rest', the row median less the longer half and 'apart' (the longer half, 'apart' and 'rest' add up to together)."""
    h = halves_summary(run)
    turn, half = h['in_turn'], h['split']
    out = [(lane, turn[lane], half[lane], 1) for lane in sorted(turn)]
    alone = [(1 - (f or 0.0)) * min(x.values()) for f, x in zip(run['overlap']['split'], run['halves']['split'])
             if len(x) == 2]
    apart = ((1 - run['predicted_overlap']) * min(turn.values()), statistics.median(alone) if alone else 0.0)
    together = statistics.median(run['times']['split'])
    return [*out, ('apart', *apart, 2), ('rest', predict_split(run) - max(turn.values()) - apart[0],
                                         together - max(half.values()) - apart[1], 3)]


def rest_repeats(run: dict) -> dict:
    """Assumption 3 per repeat, for the rule: {way: [its time less the longer half and the shorter half's time beside
    no other]} (as `parts` takes medians; in turn, no overlap: less both halves)."""
    return {w: [x - max(h.values()) - (1 - (f or 0.0) * (w == 'split')) * min(h.values()) for x, h, f in zip(run[
        'times'][w], run['halves'][w], run['overlap'][w]) if len(h) == 2] for w in ('in_turn', 'split')}


def to_frame(run: dict):
    """Every statistic of a run: median, quartiles, every repeat, prediction and error per way (details on demand)."""
    from ..timing import Comparison, Measurement
    ways = [way for way in WAYS if way in run['times']]
    df = Comparison({v: Measurement(v, run['times'][v]) for v in ways}).to_frame()
    df[t('graph.col_predicted')] = [predict_split(run) if v == 'split' else None for v in df.index]
    df[t('graph.col_error')] = [run['errors'].get(v) for v in df.index]
    h = halves_summary(run)
    for i in range(2):  # each half's median busy time, and how much of the shorter one the other covered
        df[t('graph.col_half', i=i)] = [h.get(v, {}).get(f'lane {i}') for v in df.index]
    df[t('graph.col_overlap')] = [h['overlap'] if v == 'split' else None for v in df.index]
    df.index = [t(f'graph.variant.{way}') for way in ways]  # the frame's rows, in this order
    return df
