"""From graph to schedule (13.3.3): each node's cost, modelled or measured, and the step's schedule.

A computation costs its FLOP over its device's speed, a copy its bytes over its link's bandwidth
(each direction of each link is its own resource, as PCIe carries both at once), or a node costs
what it measured here when run alone. The schedule's three numbers follow: serial total,
scheduled total (earliest start), critical-path bound. The predictions of the timed step use
this machine's measured rates: each box alone, both lanes' boxes at once, lane 0's with all cores.
"""

from dataclasses import dataclass, field

from ..errors import UsageError
from ..i18n import t
from ..results import render
from . import schedule
from .model import SERVER
from .runs import APART, ONE_DEVICE, TOGETHER, as_lanes, record_step_graph, whole_device
from .sharing import others_busy
from .tracer import coarsen_graph

# The book's setting as a model (Fig. 13.3.1): two GPUs and a CPU parameter server over PCIe.
# Round numbers assumed for illustration, not measurements: a V100-class GPU reaches about
# 10 TFLOP/s on these small fp32 products (15.7 peak), a CPU about 0.1 TFLOP/s, and PCIe 3.0
# x16 about 12 GB/s in each direction.
BOOK_SETTING = {'device_speed': {'lane 0': 10e12, 'lane 1': 10e12, SERVER: 0.1e12},
                'link_bandwidth': 12e9}


@dataclass
class StepSchedule:
    """One step's schedule (13.3.3): serial total, scheduled total, critical path, events (seconds)."""

    serial_total: float
    total: float
    critical_path_s: float
    critical_path: list = field(default_factory=list)
    events: list = field(default_factory=list)
    costs: str = 'model'  # 'model' (speeds and bandwidths assumed) or 'measured' (each node alone, here)
    others_busy: float | None = None  # share of the cores other programs used while the costs were measured
    thread_test: dict | None = None  # {'all', 'one', 'threads'}: the nodes outside the lanes, all cores vs one thread
    repeats: int = 0  # measured costs: the repeats behind each node's median

    def __getitem__(self, key):  # r['total'] still reads as it did when results were dicts
        return getattr(self, key)

    @property
    def speedup(self):
        """Serial total over scheduled total."""
        return self.serial_total / self.total if self.total else float('nan')

    def to_frame(self):
        """One row per number, in seconds, with the speedup each implies (the shared table renderer)."""
        import pandas as pd

        rows = {t('graph.serial_total'): self.serial_total, t('graph.scheduled_total'): self.total,
                t('graph.critical_path_bound'): self.critical_path_s}
        return pd.DataFrame({t('graph.col_seconds'): rows,
                             t('graph.col_speedup'): {k: self.serial_total / v if v else None
                                                      for k, v in rows.items()}})

    def _repr_html_(self):  # the one table renderer, as every result
        return render(self.to_frame(), index=True)


def _speed_for(node, device_speed):
    for key in (node['lane'], node['device'], 'default'):
        if key in device_speed:
            return float(device_speed[key])
    raise UsageError(t('graph.err.no_speed', lane=repr(node['lane']), device=repr(node['device'])))


def task_costs(g, device_speed, link_bandwidth, measured=None):
    """Scheduler tasks of a graph: flops/speed for compute, bytes/bandwidth for copies (13.3.3).

    device_speed maps a lane ('lane 0'), a device ('cpu', 'cuda:0') or 'default' to FLOP/s;
    link_bandwidth is bytes/s for every link; measured (node id -> seconds) overrides both.
    """
    # Coarse ids read well ('fc1 fwd [lane 0]'); raw ids are numbers, so add the op's name.
    name = {n['id']: n['id'] if isinstance(n['id'], str) else f"{n['name']} #{n['id']}" for n in g['nodes']}
    preds = {}
    for e in g['edges']:
        preds.setdefault(e['dst'], []).append(name[e['src']])
    tasks = []
    for n in g['nodes']:
        if measured is not None and n['id'] in measured:
            cost = float(measured[n['id']])
        elif n['kind'] == 'copy':
            if not link_bandwidth or link_bandwidth <= 0:
                raise UsageError(t('graph.err.no_bandwidth'))
            cost = n['bytes'] / float(link_bandwidth)
        else:
            cost = n['flops'] / _speed_for(n, device_speed or {})
        tasks.append(schedule.Task(name[n['id']], cost, n['lane'], tuple(dict.fromkeys(preds.get(n['id'], [])))))
    return tasks


def copy_kind(node) -> str:
    """What a copy node moves across: 'devices' (its two ends differ) or 'lanes' (two lanes of one device) (13.3.3).

    A copy's device reads 'src->dst'; the model graph's 'model' stands for the book's separate devices.
    """
    src, _, dst = str(node.get('device', '')).partition('->')
    return 'lanes' if src == dst and src not in ('', 'model') else 'devices'


def schedule_step(g, device_speed=None, link_bandwidth=None, measured=None) -> StepSchedule:
    """Serial total, scheduled total and critical path of one step (13.3.3)."""
    tasks = task_costs(g, device_speed, link_bandwidth, measured)
    events = schedule.earliest_start_schedule(tasks)
    across = {n['lane']: copy_kind(n) for n in g['nodes'] if n['kind'] == 'copy'}
    for e in events:  # links draw in the copy colour, lanes and the server in their own
        e['role'] = 'link' if e['lane'].startswith('link:') else ('cpu' if e['lane'] == SERVER else e['lane'])
        if e['lane'] in across:  # an id, not text: the legend's words are chosen where it is drawn
            e['across'] = across[e['lane']]
    length, path = schedule.critical_path(tasks)
    return StepSchedule(schedule.serial_total(tasks), schedule.schedule_total(events), length, path, events,
                        'measured' if measured is not None else 'model', getattr(measured, 'others_busy', None),
                        _thread_test(measured), getattr(measured, 'repeats', 0))


def _thread_test(measured):
    """{'all', 'one', 'threads'}: the same nodes' total with all cores and with one thread, or None."""
    one = getattr(measured, 'one_thread', None)
    if not one:
        return None
    return {'all': sum(measured[k] for k in one), 'one': sum(one.values()), 'threads': measured.threads}


class NodeCosts(dict):
    """{node id: seconds}, each node timed alone, and the share of the cores other programs used meanwhile.

    one_thread: the CPU nodes outside the lanes timed again with one thread ({} when there is one core).
    """

    others_busy: float | None = None
    threads: int = 1  # this thread's cores when the nodes outside the lanes were timed
    repeats: int = 0  # the repeats behind each node's median

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.one_thread = {}


def _replay(calls):
    """Run recorded aten calls again with the same inputs (one box, or a lane's boxes)."""
    def work():
        for func, args, kwargs in calls:
            func(*args, **kwargs)
    return work


def measure_node_costs(lanes=None, problem=None, repeats=5):
    """Time each book-level node of the MLP step here, alone (median of repeats, seconds) (13.3.3).

    The ops recorded for a node run again with the same inputs, one node at a time. A lane's
    nodes run on that lane (run_on_lanes: a CPU lane's own thread with its share of the cores),
    the server's and the copies' in this thread, as the step runs them (all the cores). Those on
    the CPU are timed again right after with one thread: the test of whether splitting each
    operation over the cores slowed it while these were timed (costs.one_thread).
    Returns (coarse graph, NodeCosts {node id: seconds}).
    """
    import torch

    from ..backends.torch_backend import intra_op_threads, run_on_lanes
    from ..timing import measure

    lanes = as_lanes(lanes)
    raw = record_step_graph(lanes, problem=problem, keep_calls=True)
    coarse = coarsen_graph(raw)
    lane_of = dict(zip(('lane 0', 'lane 1'), lanes))

    def cost(calls, on):
        return measure(_replay(calls), lanes=on, label='node', repeats=repeats).median

    costs = NodeCosts()
    with others_busy() as busy:
        for node in coarse['nodes']:
            calls = [raw['calls'][i] for i in node['ops']]
            lane = lane_of.get(node['lane'])
            if lane is not None:
                costs[node['id']] = run_on_lanes([lane], [lambda c=calls, lane=lane: cost(c, [lane])])[0]
            else:
                costs[node['id']] = cost(calls, lanes)
                if 'cuda' not in node['device'] and torch.get_num_threads() > 1:
                    with intra_op_threads(1):
                        costs.one_thread[node['id']] = cost(calls, lanes)
    costs.others_busy, costs.threads, costs.repeats = busy.share, torch.get_num_threads(), repeats
    return coarse, costs


@dataclass
class LaneRates:
    """Both lanes' boxes (forward and backward of a half) timed here: alone, at once, lane 0's with all cores (s)."""

    alone: list  # [lane 0, lane 1], each alone on its lane
    together: float  # both lanes at once, until the later one finished
    all_cores: float  # lane 0's boxes on the whole device (a CPU: every core in one thread)
    cores: int = 0
    others_busy: float | None = None  # share of the cores other programs used while these were timed
    kind: str = 'cpu'  # lane 0's kind ('cpu' or 'gpu'): what "the whole device" of all_cores was

    @property
    def rate(self):
        """One after the other / at once: 2.00 for two equal lanes that do not slow each other at all."""
        return sum(self.alone) / self.together

    @property
    def ideal_rate(self):
        """The rate if neither lane slowed the other: one after the other over the longer lane alone."""
        return sum(self.alone) / max(self.alone)

    @property
    def slowdown(self):
        """At once / the longer lane alone: how much running both stretched the lanes' boxes (1.00: not at all)."""
        return self.together / max(self.alone)


def measure_rates(lanes=None, problem=None, repeats=5) -> LaneRates:
    """Time the lanes' boxes alone, both at once, and lane 0's with all cores, interleaved (13.3.3)."""
    from ..backends.torch_backend import run_on_lanes
    from ..machine import cpu_cores
    from ..timing import compare

    lanes = as_lanes(lanes)
    raw = record_step_graph(lanes, problem=problem, keep_calls=True)
    works = [_replay([raw['calls'][i] for i, n in enumerate(raw['nodes']) if n['lane'] == f'lane {k}'])
             for k in range(2)]
    whole = whole_device(lanes[0])
    with others_busy() as busy:
        c = compare({'0': lambda: run_on_lanes([lanes[0]], [works[0]]),
                     '1': lambda: run_on_lanes([lanes[1]], [works[1]]),
                     'both': lambda: run_on_lanes(lanes, works),
                     'all': lambda: run_on_lanes([whole], [works[0]])},
                    lanes=list(lanes) + [whole], repeats=repeats)
    m = c.medians()
    return LaneRates([m['0'], m['1']], m['both'], m['all'], cpu_cores(), busy.share, lanes[0].kind)


def predict_step(plan: StepSchedule, g, costs, rates: LaneRates, batch_parts=2):
    """The three ways to run the step, predicted from this machine's measured rates (13.3.3) -> {variant: s}.

    Each lane's boxes are rescaled so that their sum is what `rates` measured for that lane (alone
    for one after the other, both at once for together): the box costs give the shape of the
    schedule, the rates, measured interleaved in one go, give its size. One after the other: every
    box in turn. Together: the schedule the graph allows. One device: lane 0's boxes with all
    cores, times the parts of the minibatch (twice the rows, twice the work), plus the update.
    """
    lanes = ('lane 0', 'lane 1')
    lane_of = {n['id']: n['lane'] for n in g['nodes'] if n['lane'] in lanes}
    lane_sum = {lane: sum(v for k, v in costs.items() if lane_of.get(k) == lane) for lane in lanes}

    def scaled(per_lane):
        return {k: v * per_lane[lane_of[k]] / lane_sum[lane_of[k]] if k in lane_of and lane_sum[lane_of[k]] else v
                for k, v in costs.items()}
    apart = scaled(dict(zip(lanes, rates.alone)))
    together = scaled(dict.fromkeys(lanes, rates.together))
    update = sum(v for k, v in costs.items() if k.startswith('update ['))
    return {ONE_DEVICE: batch_parts * rates.all_cores + update,
            APART: sum(apart.values()),
            TOGETHER: schedule_step(g, measured=together).total}
