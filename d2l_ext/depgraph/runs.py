"""The MLP step (model.mlp_step) on this machine's lanes (13.3.3): its recorded graph, its check against float64."""

import contextlib
from dataclasses import dataclass, replace

import torch

from ..checking import check_close
from ..i18n import t
from . import model
from .halves import with_names
from .model import DEFAULT_SIZES, PARAM_NAMES, SERVER, make_problem, reference_step
from .tracer import stage, trace

SERVER_REST = 'sum update'  # the stage of what a step runs after its lanes without naming it (graph.stage.sum_update)


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
    """The op-level dependency graph of one two-lane step (default model.mlp_step) on `lanes` (Lane objects or device
    names, default two CPU lanes), its halves run in turn in this thread. Nodes: id, name (aten op), stage, kind
    ('compute' or 'copy'), lane, device, shapes, dtype, bytes (13.3.3)."""
    devices = [_device_name(x) for x in (lanes or ['cpu', 'cpu'])]
    params, X, y = problem or make_problem(**DEFAULT_SIZES)
    labels = {id(v): 'weights' for v in params.values()} | {id(X): 'rows', id(y): 'rows'}
    with contextlib.ExitStack() as after:  # a step's unnamed parts: in job i, lane i's copies; then the server's

        def inline(lanes, jobs, **_):  # run_on_lanes for recording: each job in this thread (the recorder sees only it)
            out = []
            for i, job in enumerate(jobs):
                with stage(i, 'copy in'):
                    out.append(job())
            after.enter_context(stage(SERVER, SERVER_REST))
            return out
        g, _ = trace(with_names(step or model.mlp_step, run_on_lanes=inline), [_TraceLane(d) for d in devices], params,
                     X, y, lr, keep_calls=keep_calls, inputs_on=SERVER, labels=labels)
    for n in g['nodes']:  # the server's unnamed copies bring the gradients
        n['stage'] = 'grad copy' if n['stage'] == SERVER_REST and n['kind'] == 'copy' else n['stage']
    g['devices'] = devices
    return _rows_from_server(g)


def _rows_from_server(g):
    """The rows live on the server with the weights: each lane's 'copy in' is one link from the server."""
    for n in g['nodes']:
        if n['kind'] == 'copy' and n['lane'].startswith('link:cpu->'):
            n['lane'] = f"link:{SERVER}->{n['lane'][len('link:cpu->'):]}"
    return g


def _flat(params):
    return torch.cat([params[k].detach().double().cpu().flatten() for k in PARAM_NAMES])


def check_update(new, params, reference, what):
    """Relative error of a step's update (new - old weights) vs the float64 one; raises if too big (13.3.3). Not the
    weights, which barely move in one step: twice the learning rate is off by 100% here."""
    return check_close(_flat(new) - _flat(params), _flat(reference) - _flat(params), what)


def check_step_matches(lanes=None, problem=None, lr=0.1, step=None):
    """A two-lane step (default the worked answer) checked against autograd in float64 -> {'match', 'relative_error'};
    raises ResultMismatch if the update is wrong (13.3.3)."""
    lanes = as_lanes(lanes)
    params, X, y = problem or make_problem(**DEFAULT_SIZES)
    new = (step or model.mlp_step)(lanes, params, X, y, lr)
    reference, _ = reference_step(params, X, y, lr)
    return {'match': True, 'relative_error': check_update(new, params, reference, t('graph.what_step'))}


def unread_lanes(g) -> list[str]:
    """The lanes whose gradients the recorded (coarse) graph's `sum` does not read (13.3.3's exercise 1)."""
    lane_of = {n['id']: n['lane'][len('link:'):].partition('->')[0] if n['lane'].startswith('link:') else n['lane']
               for n in g['nodes']}
    sums = {n['id'] for n in g['nodes'] if n['name'] in ('sum', SERVER_REST)}  # a step's sum, named or not
    into = {lane_of[e['src']] for e in g['edges'] if e['dst'] in sums}
    return [lane for lane in ('lane 0', 'lane 1') if lane not in into]
