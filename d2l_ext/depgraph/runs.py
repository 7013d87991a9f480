"""Running, recording, checking and timing the MLP step on this machine's lanes (13.3.3).

The step is the graded task's worked answer (worked.mlp_step), the single copy the lesson shows.
Three ways to run it are timed interleaved with timing.compare (every repeat kept), each update checked against float64:

* one device, whole minibatch, no copies: the baseline (on a CPU, one thread with all cores);
* two lanes, one after the other (worked.mlp_step_in_turn);
* two lanes together (worked.mlp_step);

and the two lanes' overlap is measured from the intervals each half really ran.
"""

from dataclasses import dataclass, field, replace

import torch

from ..checking import check_close
from ..errors import UsageError
from ..i18n import t
from ..results import render
from ..timing import Measurement
from . import task, worked
from .model import DEFAULT_SIZES, PARAM_NAMES, SERVER, make_problem, reference_step, sgd_step
from .sharing import others_busy
from .tracer import coarsen_graph, trace

# Ids of the three ways to run the step (the keys graph.variant.<id> name them; recording.VARIANTS are the same).
STEP_VARIANTS = ('one_device', 'in_turn', 'split')
VARIANTS = STEP_VARIANTS  # the values of {variant} in the keys built from it
ONE_DEVICE, APART, TOGETHER = STEP_VARIANTS


def as_lanes(lanes=None):
    """Lane objects (find_lanes) for lanes given as Lanes, device names, or None (this machine's two)."""
    from ..lanes import fake_hardware, find_lanes, pick_lanes
    if lanes is None:
        return find_lanes('torch')
    lanes = list(lanes)
    if all(hasattr(x, 'asynchronous') for x in lanes):
        return lanes
    if all(str(x) == 'cpu' for x in lanes):  # ['cpu', 'cpu']: the CPU-only machine's two lanes
        with fake_hardware(gpus=0):
            return find_lanes('torch', len(lanes))
    return pick_lanes('torch', [str(x) for x in lanes])


def whole_device(lane):
    """The lane's device as one lane: on a CPU, every core in one thread (the honest baseline)."""
    if lane.kind != 'cpu':
        return lane
    from ..machine import cpu_cores
    return replace(lane, name='cpu', threads=cpu_cores(), cores=cpu_cores(), label_key='core.lane_cpu_all_label')


@dataclass(frozen=True)
class _TraceLane:
    """A lane whose work is queued in the calling thread (run_on_lanes), so the recorder sees every operation."""
    where: str
    asynchronous: bool = True
    kind: str = 'trace'
    index: int = 0

    def device(self):
        return torch.device(self.where)


def _device_name(x) -> str:
    return str(x.device()) if callable(getattr(x, 'device', None)) else str(torch.device(x))


def record_step_graph(lanes=None, problem=None, keep_calls=False, lr=0.1, step=None):
    """The op-level dependency graph of one two-lane training step (13.3.3).

    `lanes`: Lane objects or device names (default two CPU lanes); `step` defaults to the worked
    answer, worked.mlp_step (any function with its signature works). The halves run one after the
    other in this thread while recording. Each node has id, name (aten op), stage, kind
    ('compute' or 'copy'), lane, device, shapes, dtype, flops and bytes.
    """
    devices = [_device_name(x) for x in (lanes or ['cpu', 'cpu'])]
    params, X, y = problem or make_problem(**DEFAULT_SIZES)
    labels = {id(v): 'weights' for v in params.values()} | {id(X): 'rows', id(y): 'rows'}
    g, _ = trace(step or worked.mlp_step, [_TraceLane(d) for d in devices], params, X, y, lr,
                 keep_calls=keep_calls, inputs_on=SERVER, labels=labels)
    g['devices'] = devices
    return name_copies_in(g)


COPY_IN = 'copy in'  # the worked step's stage that hands each lane its weights and its rows
COPY_IN_AS = {'weights': 'weights in', 'rows': 'rows in'}  # the stage a copy of it takes, by what it moved


def name_copies_in(g):
    """Each copy of the stage 'copy in' named by what it moved, from the recording: 'weights in' or 'rows in'.

    A lane on another device gets its rows and the weights over separate copies; on the CPU's own lanes the rows
    are not copied at all. Naming each copy by what it carried keeps a box from promising both (13.3.3).
    """
    for n in g['nodes']:
        if n['kind'] == 'copy' and n['stage'] == COPY_IN and len(n.get('carries', ())) == 1:
            n['stage'] = COPY_IN_AS.get(n['carries'][0], COPY_IN)
    return g


def model_graph(batch=256, hidden=256, d_in=784, d_out=10, coarse=True):
    """The MLP step's graph at any sizes, without doing the arithmetic (13.3.3).

    The same step code runs on PyTorch's 'meta' device: tensors with shapes and no data, so every
    op, shape, FLOP count and copied byte is recorded as on a real device, in microseconds and
    with no memory. Node devices read 'model'.
    """
    for name, v in (('batch', batch), ('hidden', hidden), ('d_in', d_in), ('d_out', d_out)):
        if int(v) != v or v < 1:
            raise UsageError(t('graph.err.whole_number', name=name, value=repr(v)))
    if batch < 2:
        raise UsageError(t('graph.err.batch_two', batch=batch))
    meta = torch.device('meta')
    shapes = {'W1': (d_in, hidden), 'b1': (hidden,), 'W2': (hidden, d_out), 'b2': (d_out,)}
    params = {k: torch.empty(shape, device=meta) for k, shape in shapes.items()}
    problem = (params, torch.empty(batch, d_in, device=meta), torch.empty(batch, d_out, device=meta))
    g = record_step_graph(['meta', 'meta'], problem)
    for n in g['nodes']:
        n['device'] = n['device'].replace('meta', 'model')
    g['devices'] = ['model', 'model']
    return coarsen_graph(g) if coarse else g


def _flat(params):
    return torch.cat([params[k].detach().double().cpu().flatten() for k in PARAM_NAMES])


def check_update(new, params, reference, what):
    """Relative error of a step's update (new - old weights) vs the float64 one; raises if too big (13.3.3).

    The update, not the new weights: the weights barely move in one step, so comparing them
    would hide a wrong gradient (a step with twice the learning rate is off by 100% here).
    """
    return check_close(_flat(new) - _flat(params), _flat(reference) - _flat(params), what)


def check_step_matches(lanes=None, problem=None, lr=0.1, step=None):
    """Run a two-lane step (default the worked answer) and check its update against autograd in float64 (13.3.3).

    Returns {'match', 'relative_error'}; raises ResultMismatch if the update is wrong.
    """
    lanes = as_lanes(lanes)
    params, X, y = problem or make_problem(**DEFAULT_SIZES)
    new = (step or worked.mlp_step)(lanes, params, X, y, lr)
    reference, _ = reference_step(params, X, y, lr)
    return {'match': True, 'relative_error': check_update(new, params, reference, t('graph.what_step'))}


@dataclass
class LaneOverlap:
    """When the two halves of one step ran (13.3.3): intervals on one clock, their overlap and its prediction."""

    intervals: list  # (start, end) per half, seconds, the first start at 0
    fraction: float | None  # of the shorter half's busy time, the share during which the other was busy too
    predicted: float = task.PREDICTED
    wall: float = 0.0  # the whole step, seconds
    runs: int = 3  # recorded steps (after one warm-up) the median-overlap one was picked from


def lane_overlap(lanes=None, problem=None, repeats=3) -> LaneOverlap:
    """Run the worked step with recorded halves; the repeat with the median overlap (the first one warms up)."""
    lanes = as_lanes(lanes)
    params, X, y = problem or make_problem(**DEFAULT_SIZES)
    fn = task.fresh(worked.mlp_step)
    runs = [task.recorded_step(fn, lanes, params, X, y, 0.1) for _ in range(repeats + 1)][1:]
    runs.sort(key=lambda r: task.half_overlap(r['intervals']) or 0.0)
    r = runs[len(runs) // 2]
    zero = min(a for a, _ in r['intervals'])
    return LaneOverlap([(a - zero, b - zero) for a, b in r['intervals']], task.half_overlap(r['intervals']),
                       wall=r['wall'], runs=len(runs))


@dataclass
class StepTiming:
    """One SGD step timed three ways (13.3.3): every repeat, each update's error, predictions, the lanes' overlap."""

    lanes: list  # the lanes' ids (Lane.name)
    batch: int
    measurements: dict  # variant -> timing.Measurement (label, every repeat's seconds)
    errors: dict = field(default_factory=dict)  # variant -> relative error of its update vs float64
    predicted: dict = field(default_factory=dict)  # variant -> seconds, from costs.predict_step
    shared_hardware: bool = False  # both lanes on one CPU
    overlap: LaneOverlap | None = None
    others_busy: float | None = None  # share of the cores other programs used while the step was timed

    def medians(self):
        """{variant: median seconds}."""
        return {k: m.median for k, m in self.measurements.items()}

    @property
    def speedup(self):
        """Two lanes together vs one after the other (median over median), or None."""
        m = self.medians()
        return m[APART] / m[TOGETHER] if APART in m and TOGETHER in m else None

    @property
    def vs_one_device(self):
        """Two lanes together vs one device with the whole minibatch (>1: the split pays), or None."""
        m = self.medians()
        return m[ONE_DEVICE] / m[TOGETHER] if ONE_DEVICE in m and TOGETHER in m else None

    def to_frame(self):
        """timing.compare's table (median, IQR, min, max, every repeat) plus prediction and error columns."""
        from ..timing import Comparison
        df = Comparison(self.measurements).to_frame()
        df[t('graph.col_predicted')] = [self.predicted.get(k) for k in df.index]
        df[t('graph.col_error')] = [self.errors.get(k) for k in df.index]
        df.index = [t(f'graph.variant.{variant}') for variant in df.index]
        return df

    def _repr_html_(self):  # the one table renderer, as every result
        return render(self.to_frame(), index=True)


def step_variants(lanes, problem, lr=0.1):
    """{variant: zero-argument callable} for the three ways to run one step; the whole device's data placed first."""
    from ..backends.torch_backend import run_on_lanes
    params, X, y = problem
    whole = whole_device(lanes[0])
    dev = whole.device()
    on_dev = {k: params[k].to(dev, copy=True) for k in PARAM_NAMES}
    X1, y1 = X.to(dev), y.to(dev)

    def one_device():
        return run_on_lanes([whole], [lambda: sgd_step(on_dev, X1, y1, lr)])[0]
    return {ONE_DEVICE: one_device,
            APART: lambda: worked.mlp_step_in_turn(lanes, params, X, y, lr),
            TOGETHER: lambda: worked.mlp_step(lanes, params, X, y, lr)}, [whole]


def time_step(lanes=None, problem=None, repeats=5, lr=0.1, variants=STEP_VARIANTS, predicted=None,
              overlap=True) -> StepTiming:
    """Time one training step three ways, interleaved, each update checked; then the lanes' overlap (13.3.3).

    `predicted` is {variant: seconds} (costs.predict_step), shown beside the measurements.
    """
    from ..timing import compare
    unknown = [v for v in variants if v not in STEP_VARIANTS]
    if unknown:
        raise UsageError(t('graph.err.variants', unknown=unknown, known=list(STEP_VARIANTS)))
    lanes = as_lanes(lanes)
    problem = problem or make_problem(**DEFAULT_SIZES)
    params, X, y = problem
    reference, _ = reference_step(params, X, y, lr)
    runs, extra = step_variants(lanes, problem, lr)
    errors = {}

    def check(variant, result):
        errors[variant] = check_update(result, params, reference, t(f'graph.variant.{variant}'))
    with others_busy() as busy:
        c = compare({k: runs[k] for k in STEP_VARIANTS if k in variants}, lanes=list(lanes) + extra,
                    repeats=repeats, check=check)
    return StepTiming([lane.name for lane in lanes], int(X.shape[0]),
                      {k: Measurement(k, list(c[k].times)) for k in c}, errors, dict(predicted or {}),
                      all(lane.kind == 'cpu' for lane in lanes),
                      lane_overlap(lanes, problem) if overlap and TOGETHER in variants else None, busy.share)
