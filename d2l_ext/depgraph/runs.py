"""Running, checking and timing the MLP step on this machine's lanes (13.3.3).

Three variants of one SGD step, timed interleaved with timing.compare (every repeat kept), each
one's update checked against autograd in float64:

* one device, whole minibatch, no copies: the baseline (on a CPU, one thread with all cores);
* two lanes, one after the other;
* two lanes together (run_on_lanes).
"""

from dataclasses import dataclass, field, replace

import torch

from ..checking import check_close
from ..errors import UsageError
from ..i18n import t
from ..timing import Measurement
from .model import (
    DEFAULT_SIZES,
    PARAM_NAMES,
    forward_backward,
    make_problem,
    reference_step,
    server_update,
    sgd_step,
    split_minibatch,
    split_step,
)

STEP_VARIANTS = ("one device, whole minibatch, no copies", "two lanes, one after the other",
                 "two lanes together")
ONE_DEVICE, APART, TOGETHER = STEP_VARIANTS


def as_lanes(lanes=None):
    """Lane objects (find_lanes) for lanes given as Lanes, device names, or None (this machine's two)."""
    from ..lanes import fake_hardware, find_lanes, pick_lanes
    if lanes is None:
        return find_lanes("torch")
    lanes = list(lanes)
    if all(hasattr(x, "asynchronous") for x in lanes):
        return lanes
    if all(str(x) == "cpu" for x in lanes):  # ['cpu', 'cpu']: the CPU-only machine's two lanes
        with fake_hardware(gpus=0):
            return find_lanes("torch", len(lanes))
    return pick_lanes("torch", [str(x) for x in lanes])


def whole_device(lane):
    """The lane's device as one lane: on a CPU, every core in one thread (the honest baseline)."""
    if lane.kind != "cpu":
        return lane
    from ..machine import cpu_cores
    return replace(lane, name="cpu", threads=cpu_cores(), label=f"CPU ({cpu_cores()} cores)")


def _flat(params):
    return torch.cat([params[k].detach().double().cpu().flatten() for k in PARAM_NAMES])


def check_update(new, params, reference, what):
    """Relative error of a step's update (new - old weights) vs the float64 one; raises if too big (13.3.3).

    The update, not the new weights: the weights barely move in one step, so comparing them
    would hide a wrong gradient (a step with twice the learning rate is off by 100% here).
    """
    return check_close(_flat(new) - _flat(params), _flat(reference) - _flat(params), what)


def check_step_matches(lanes=None, problem=None, lr=0.1, together=True, lane_step=forward_backward,
                       server_step=server_update):
    """Run the split step on the lanes and check its update against autograd in float64 (13.3.3).

    Returns {'match', 'relative_error', 'loss_split', 'loss_whole'}; raises ResultMismatch if the
    update is wrong. `lanes` may be Lanes or device names ('cpu', 'cuda:0'); `lane_step` and
    `server_step` may be a notebook's own (see model.split_step).
    """
    lanes = as_lanes(lanes)
    params, X, Y = problem or make_problem(**DEFAULT_SIZES)
    shards = split_minibatch(params, X, Y, [lane.device() for lane in lanes])
    new, _, losses = split_step(params, shards, lanes, lr, together, lane_step, server_step)
    reference, loss_whole = reference_step(params, X, Y, lr)
    err = check_update(new, params, reference, t("graph.what_step"))
    return {"match": True, "relative_error": err, "loss_split": float(sum(loss.item() for loss in losses)),
            "loss_whole": float(loss_whole)}


@dataclass
class StepTiming:
    """One SGD step timed three ways (13.3.3): every repeat, each update's error, and any prediction."""

    lanes: list
    batch: int
    measurements: dict  # variant -> timing.Measurement (label, every repeat's seconds)
    errors: dict = field(default_factory=dict)  # variant -> relative error of its update vs float64
    predicted: dict = field(default_factory=dict)  # variant -> seconds, from predict_step
    shared_hardware: bool = False  # both lanes on one CPU: they share cores, memory bandwidth, caches

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
        from ..i18n import t
        from ..timing import Comparison
        df = Comparison(self.measurements).to_frame()
        df[t("graph.col_predicted")] = [self.predicted.get(k) for k in df.index]
        df[t("graph.col_error")] = [self.errors.get(k) for k in df.index]
        df.index = [t(f"graph.variant.{STEP_VARIANTS.index(k)}") for k in df.index]
        return df

    def _repr_html_(self):
        return self.to_frame().to_html(float_format=lambda v: f"{v:.4g}")


def predict_step(measured):
    """Predictions from a measured schedule (costs.schedule_step with measured node costs) (13.3.3).

    One after the other: every box in turn (the serial total). Together: the scheduled total,
    which assumes each box costs what it cost alone and the lanes do not slow each other down
    (separate hardware); two CPU lanes share memory bandwidth and caches, so expect them slower.
    """
    return {APART: measured.serial_total, TOGETHER: measured.total}


def step_variants(lanes, problem, lr=0.1, lane_step=forward_backward, server_step=server_update):
    """{variant: zero-argument callable} for the three ways to run one step, data placed beforehand."""
    from ..backends.torch_backend import run_on_lanes
    params, X, Y = problem
    shards = split_minibatch(params, X, Y, [lane.device() for lane in lanes])
    whole = whole_device(lanes[0])
    dev = whole.device()
    on_dev = {k: params[k].to(dev, copy=True) for k in PARAM_NAMES}
    X1, Y1 = X.to(dev), Y.to(dev)

    def one_device():
        return run_on_lanes([whole], [lambda: sgd_step(on_dev, X1, Y1, lr, lane_step)])[0]
    return {ONE_DEVICE: one_device,
            APART: lambda: split_step(params, shards, lanes, lr, False, lane_step, server_step),
            TOGETHER: lambda: split_step(params, shards, lanes, lr, True, lane_step, server_step)}, [whole]


def time_step(lanes=None, problem=None, repeats=5, lr=0.1, variants=STEP_VARIANTS, predicted=None,
              lane_step=forward_backward, server_step=server_update) -> StepTiming:
    """Time one training step three ways, interleaved, each update checked (13.3.3).

    `lane_step` is the per-lane forward/backward and `server_step` the server's part (default the
    package's; a notebook may pass its own); `predicted` is {variant: seconds}, shown beside the
    measurements.
    """
    from ..timing import compare
    unknown = [v for v in variants if v not in STEP_VARIANTS]
    if unknown:
        raise UsageError(f"unknown variants {unknown}; choose from {list(STEP_VARIANTS)}")
    lanes = as_lanes(lanes)
    problem = problem or make_problem(**DEFAULT_SIZES)
    params, X, Y = problem
    reference, _ = reference_step(params, X, Y, lr)
    runs, extra = step_variants(lanes, problem, lr, lane_step, server_step)
    errors = {}

    def check(name, result):
        errors[name] = check_update(result[0], params, reference, t(f"graph.variant.{STEP_VARIANTS.index(name)}"))
    c = compare({k: runs[k] for k in STEP_VARIANTS if k in variants}, lanes=list(lanes) + extra,
                repeats=repeats, check=check)
    return StepTiming([lane.label for lane in lanes], int(X.shape[0]),
                      {k: Measurement(k, list(c[k].times)) for k in c}, errors, dict(predicted or {}),
                      all(lane.kind == "cpu" for lane in lanes))
