"""Exercise 5 of 13.3: a DAG of matrix products planned (schedule.list_schedule) and run on two lanes by an engine
(run_dag) in which each lane waits for the tasks it reads; every result checked against float64."""

import statistics
import threading
from dataclasses import dataclass, field, replace

import torch

from ..checking import check_close
from ..errors import UsageError
from ..i18n import t
from ..results import render
from ..timing import Measurement, clock
from . import schedule

# The baseline: GPU lanes, the first (lane 0 alone); CPU lanes, the faster of the third (all the cores) and the first.
DAG_VARIANTS = ('one lane, in order', 'two lanes, planned', 'one device, all cores, in order')
ALONE_REPEATS = 9  # task_times: each lane alone, the lanes in turn


def diamond_dag(stages=3, arms=(1, 2, 3), cross=True):
    """Exercise 5's tasks [{'name', 'deps'}] in a dependency order: per stage, arms of arms[k] chained products from
    the previous join (x first), then a join; cross=True: an arm's last product reads the arm before's first."""
    letters = 'abcdefghij'
    if stages < 1 or not arms or min(arms) < 1 or len(arms) > len(letters):
        raise UsageError(t('graph.err.dag_shape', most=len(letters), stages=stages, arms=arms))
    tasks, prev = [], 'x'
    for s in range(1, stages + 1):
        ends = []
        for j, length in enumerate(arms):
            for k in range(1, length + 1):
                deps = [prev] if k == 1 else [f'{s}{letters[j]}{k - 1}']
                if cross and j > 0 and k == length and length > 1:
                    deps.append(f'{s}{letters[j - 1]}1')
                tasks.append({'name': f'{s}{letters[j]}{k}', 'deps': deps})
            ends.append(f'{s}{letters[j]}{length}')
        tasks.append({'name': f'{s}J', 'deps': ends})
        prev = f'{s}J'
    return tasks


def dag_problem(dag, n, seed=0):
    """Input x (n x n) and one weight matrix per task, fp32 on the CPU, the same everywhere."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n, generator=g)
    return x, {t['name']: torch.randn(n, n, generator=g) / n ** 0.5 for t in dag}


def dag_task(inputs, w, out):
    """One task: out = tanh((sum of its inputs) @ W); tanh keeps values in [-1, 1] at any depth (13.3.3)."""
    s = inputs[0] if len(inputs) == 1 else torch.stack(inputs).sum(0)
    torch.mm(s, w, out=out)
    return out.tanh_()


def dag_reference(dag, x, weights):
    """Every task's result in float64 on the CPU, one after another: the answer to check against."""
    vals = {'x': x.double()}
    for task in dag:
        ins = [vals[d] for d in task['deps']]
        vals[task['name']] = torch.tanh(sum(ins[1:], ins[0]) @ weights[task['name']].double())
    vals.pop('x')
    return vals


def _units(dag):
    return [schedule.Task(t['name'], 1.0, '', tuple(d for d in t['deps'] if d != 'x')) for t in dag]


def dag_plan(dag, lanes, speed=None, copy_s=0.0):
    """Which lane runs which task, in which order -> (modelled events, {lane label: [names]}) (13.3.3).

    schedule.list_schedule with unit costs; speed: {lane label: products per unit time}, None for equal lanes. A lane
    the planner leaves idle gets the one task whose move lengthens the modelled plan least.
    """
    labels = [getattr(lane, 'name', lane) for lane in lanes]  # Lanes or their ids
    tasks = _units(dag)
    events = schedule.list_schedule(tasks, labels, speed, copy_s)
    for idle in [lb for lb in labels if lb not in {e['lane'] for e in events}]:
        tries = (schedule.list_schedule(tasks, labels, speed, copy_s, pinned={t.name: idle}) for t in tasks)
        events = min(tries, key=schedule.schedule_total)  # min keeps the first of equals
    order = {label: [] for label in labels}
    for e in sorted(events, key=lambda e: (e['start'], e['end'])):
        order[e['lane']].append(e['name'])
    return events, order


def dag_model(dag, lanes):
    """Exercise 5 in units of one product on equal lanes: serial, planned, critical path."""
    units = _units(dag)
    serial, path = schedule.serial_total(units), schedule.critical_path(units)[0]
    return {'serial': serial, 'planned': schedule.schedule_total(dag_plan(dag, lanes)[0]), 'critical_path': path,
            'lanes': len(lanes)}


def dag_graph(dag, lanes) -> dict:
    """The DAG as a graph display.graph.draw_graph reads, each task on its lane in the equal-lanes plan; 'path': the
    critical path's task names."""
    row = {getattr(lane, 'name', lane): f'lane {i}' for i, lane in enumerate(lanes)}
    lane_of = {name: row[label] for label, names in dag_plan(dag, lanes)[1].items() for name in names}
    return {'nodes': [{'id': x['name'], 'name': x['name'], 'kind': 'compute', 'lane': lane_of[x['name']]} for x in dag],
            'edges': [{'src': d, 'dst': x['name'], 'kind': 'data'} for x in dag for d in x['deps'] if d != 'x'],
            'path': schedule.critical_path(_units(dag))[1]}


def place_dag(x, weights, lanes):
    """Copies of the input and the weights on every lane's device (before timing)."""
    devs = list(dict.fromkeys(lane.device() for lane in lanes))
    return {d: x.to(d) for d in devs}, {d: {k: w.to(d) for k, w in weights.items()} for d in devs}


def run_dag(dag, x, weights, lanes, order, trace=False, out=None):
    """The dependency engine: each lane runs its tasks in plan order, waiting (an Event per task) for those it reads
    and copying inputs made elsewhere -> (results, events: 'ready', 'start', 'copied', 'end'). x, weights: place_dag's;
    out: a dict kept between calls (outputs allocated once, outside later timers); trace=True waits for the GPU after
    each task."""
    deps = {t['name']: t['deps'] for t in dag}
    where = {name: lane for lane in lanes for name in order[lane.name]}
    missing = [name for name in deps if name not in where]
    if missing:
        raise UsageError(t('graph.err.no_lane', tasks=missing))
    n, out = x[lanes[0].device()].shape[0], {} if out is None else out
    out.update({name: torch.zeros(n, n, device=where[name].device()) for name in deps if name not in out})
    done = {name: threading.Event() for name in deps}
    events, errors, t0 = [], [], clock()

    def lane_work(i, lane):
        dev = lane.device()
        try:
            for name in order[lane.name]:
                ready = clock()
                for d in [d for d in deps[name] if d != 'x']:
                    done[d].wait()
                if errors:
                    return
                start = clock()
                inputs = [x[dev] if d == 'x' else out[d].to(dev) for d in deps[name]]  # a copy if made elsewhere
                if trace and lane.kind == 'gpu':
                    torch.cuda.synchronize(dev)
                copied = clock()
                dag_task(inputs, weights[dev][name], out[name])
                if trace and lane.kind == 'gpu':
                    torch.cuda.synchronize(dev)
                events.append({'lane': lane.name, 'name': name, 'start': start - t0, 'end': clock() - t0,
                               'ready': ready - t0, 'copied': copied - t0, 'role': f'lane {i}'})
                done[name].set()
        except BaseException as e:  # re-raised below; wake the other lanes so they stop
            errors.append(e)
            for ev in done.values():
                ev.set()

    from ..backends.torch_backend import run_on_lanes
    # The engine blocks while it waits, so every lane, a GPU lane too, needs its own thread.
    threaded = [replace(lane, asynchronous=False) for lane in lanes]
    jobs = [lambda i=i, lane=lane: lane_work(i, lane) for i, lane in enumerate(lanes)]
    run_on_lanes(threaded, jobs)
    if errors:
        raise errors[0]
    return out, sorted(events, key=lambda e: e['start'])


def check_dag(results, reference):
    """Worst relative error of any task vs the float64 reference; raises ResultMismatch if too big (13.3.3)."""
    return max(check_close(results[name], ref, t('graph.what_dag_task', name=name)) for name, ref in reference.items())


def dag_size(lanes):
    """Matrix size for exercise 5: about a millisecond per product on one CPU core or a GPU."""
    gpus = sum(lane.kind == 'gpu' for lane in lanes)
    return 2048 if gpus == len(lanes) else 1024 if gpus else 384


@dataclass
class DagExperiment:
    """Exercise 5's result: the DAG, the plan, every repeat of each variant, each one's error, one trace."""

    dag: list
    n: int
    lanes: list  # the lanes' ids (Lane.name), in order: data carries ids, display names them
    order: dict  # lane id -> task names in plan order
    model: dict  # in units of one product on equal lanes: serial, planned, critical_path
    speeds: dict | None  # lane id -> tasks per second, the DAG in order on each lane alone (task_times)
    plan_events: list
    measurements: dict = field(default_factory=dict)  # variant -> timing.Measurement
    errors: dict = field(default_factory=dict)  # variant -> worst relative error vs float64
    trace: list = field(default_factory=list)  # the planned run's median repeat: each task's ready, start and end
    trace_wall: float = 0.0  # that run's timer, start to end (s): the time outside the lanes is the rest
    forced: list = field(default_factory=list)  # lanes the planner left idle, each given one task anyway
    threads: list = field(default_factory=list)  # each lane's CPU threads (0: a GPU), in lanes' order
    cores: int = 0  # the machine's CPU cores (the all-cores baseline's threads)

    def predicted_ms(self):
        """{two lanes planned: seconds} at each lane's time per task alone (`speeds`, timed before the run): the plan
        replayed, each task when its lane and inputs are ready; None without those times."""
        free = self._replayed()
        return {DAG_VARIANTS[1]: max(free.values())} if free else None

    def _replayed(self):
        """{lane: when it finishes in the plan replayed at the times alone (s), from 0}, or None without them."""
        if not self.speeds:
            return None
        took = {lb: 1.0 / self.speeds[lb] for lb in self.lanes}  # each lane's time per task, timed alone
        deps, done, free = {x['name']: x['deps'] for x in self.dag}, {'x': 0.0}, dict.fromkeys(self.lanes, 0.0)
        queue = [(lb, list(names)) for lb, names in self.order.items() if names]
        while any(names for _, names in queue):  # the plan's order on each lane; a lane waits for its inputs
            lb, names = next((lb, n) for lb, n in queue if n and all(d in done for d in deps[n[0]]))
            name = names.pop(0)
            free[lb] = done[name] = max([free[lb], *(done[d] for d in deps[name])]) + took[lb]
        return free

    def per_task(self):
        """[(seconds per task in the drawn run, as its boxes; seconds the lane waited between tasks, for inputs or
        not; tasks; when the lane started; seconds it waits in the replayed plan)] per lane with tasks: start + tasks
        x the first + the second is when the lane finished; or None."""
        if self.predicted_ms() is None or not self.trace:
            return None
        out, free = [], self._replayed()
        for lb in self.lanes:
            mine = [e for e in self.trace if e['lane'] == lb]
            if mine:
                start, busy = min(e['ready'] for e in mine), sum(e['end'] - e['start'] for e in mine)
                out.append((busy / len(mine), max(e['end'] for e in mine) - start - busy, len(mine), start,
                            max(0.0, round(free[lb] - len(mine) / self.speeds[lb], 9))))  # 0, not float noise
        return out

    def waits(self) -> list[tuple[int, float, float, bool]]:
        """The drawn run's gaps before each task: [(lane index, start, end, inputs ready)]: a lane waiting for the
        task's inputs (False), then idle with them there (True); a lane's first gap starts at its first task's ready."""
        deps, done = {x['name']: x['deps'] for x in self.dag}, {'x': 0.0, **{e['name']: e['end'] for e in self.trace}}
        out, free = [], {}  # free: when each lane's last task ended
        for e in sorted(self.trace, key=lambda e: e['start']):
            idle = free.get(e['lane'], e['ready'])
            inputs = min(e['start'], max([idle, *(done[d] for d in deps[e['name']])]))
            out += [(self.lanes.index(e['lane']), a, b, ready) for a, b, ready in (
                (idle, inputs, False), (inputs, e['start'], True)) if b > a]
            free[e['lane']] = e['end']
        return out

    def to_frame(self):
        """timing.compare's table plus each variant's worst relative error (the shared renderer)."""
        from ..timing import Comparison
        df = Comparison(self.measurements).to_frame()
        df[t('graph.col_error')] = [self.errors.get(k) for k in df.index]
        df.index = [t(f'graph.dag_variant.{DAG_VARIANTS.index(k)}') for k in df.index]
        return df

    def _repr_html_(self):  # the one table renderer, as every result
        return render(self.to_frame(), index=True)


def task_times(dag, lanes, n=None) -> dict:
    """{lane id: seconds a task}: the DAG's tasks all run in order on each lane alone, the other idle, the lanes in turn
    (median of ALONE_REPEATS each, after a warm-up), over their count: exercise 5's time per task, before the guess."""
    from ..timing import compare
    from .runs import as_lanes
    lanes, names, jobs = as_lanes(lanes), [t['name'] for t in dag], {}
    x, weights = dag_problem(dag, n or dag_size(lanes))
    for lane in lanes:
        xs, ws, res = *place_dag(x, weights, [lane]), {}  # res: the outputs, allocated in the warm-up
        jobs[lane.name] = lambda lane=lane, xs=xs, ws=ws, r=res: run_dag(dag, xs, ws, [lane], {lane.name: names}, out=r)
    c = compare(jobs, lanes=lanes, repeats=ALONE_REPEATS)
    if len({(lane.kind, lane.threads) for lane in lanes}) == 1:  # identical lanes: one time, the median over both
        return dict.fromkeys(jobs, statistics.median(x for m in c.measurements.values() for x in m.times) / len(dag))
    return {k: m / len(dag) for k, m in c.medians().items()}


def dag_experiment(lanes=None, n=None, stages=3, arms=(1, 2, 3), cross=True, repeats=5, alone=None) -> DagExperiment:
    """Exercise 5: the DAG planned on two lanes vs in order on one device (CPU lanes: all the cores, and lane 0 alone),
    timed interleaved, each answer checked; predicted (and planned, where lanes differ) from `alone`, task_times'
    (timed now if not given)."""
    from ..machine import cpu_cores
    from ..timing import compare
    from .runs import as_lanes, whole_device
    lanes = as_lanes(lanes)
    dag = diamond_dag(stages, arms, cross)
    n = n or dag_size(lanes)
    x, weights = dag_problem(dag, n)
    reference = dag_reference(dag, x, weights)
    speeds = {lb: 1.0 / s for lb, s in (alone or task_times(dag, lanes, n)).items()}
    speed = None if len({(lane.kind, lane.threads) for lane in lanes}) == 1 else speeds
    plan_events, order = dag_plan(dag, lanes, speed)
    # The planner's own choice, before dag_plan gives an idle lane one task (the exercise is about two lanes).
    chosen = {e['lane'] for e in schedule.list_schedule(_units(dag), [lane.name for lane in lanes], speed)}
    names = [t['name'] for t in dag]
    whole = whole_device(lanes[0])  # the baseline, all in order: CPU lanes, one thread on all cores; else lane 0
    plans = {DAG_VARIANTS[1]: (lanes, order), DAG_VARIANTS[2 if whole.kind == 'cpu' else 0]: ([whole], {
        whole.name: names})} | ({DAG_VARIANTS[0]: (lanes[:1], {lanes[0].name: names})} if whole.kind == 'cpu' else {})
    placed = {k: (ls, plan, *place_dag(x, weights, ls), {}) for k, (ls, plan) in plans.items()}  # {}: outputs
    runs = {k: [] for k in placed}  # every call's (results, events), the warm-up first, which allocates the outputs
    variants = {k: (lambda k=k, p=p: runs[k].append(run_dag(dag, *p[2:4], p[0], p[1], out=p[4])) or runs[k][-1][0])
                for k, p in placed.items()}
    errors = {}
    c = compare(variants, lanes=lanes, repeats=repeats, warmup=1,
                check=lambda name, res: errors.__setitem__(name, check_dag(res, reference)))
    times = list(c[DAG_VARIANTS[1]].times)
    if any(lane.kind == 'gpu' for lane in lanes):  # a GPU's times need a wait after each task: one more run, traced
        start = clock()
        trace = run_dag(dag, *placed[DAG_VARIANTS[1]][2:4], lanes, order, trace=True,
                        out=placed[DAG_VARIANTS[1]][4])[1]
        wall = clock() - start
    else:  # the median repeat (the lower middle of an even count), as timed
        i = sorted(range(len(times)), key=times.__getitem__)[(len(times) - 1) // 2]
        trace, wall = runs[DAG_VARIANTS[1]][1 + i][1], times[i]
    r = DagExperiment(dag, n, [lane.name for lane in lanes], order, dag_model(dag, lanes), speeds, plan_events,
                      {k: Measurement(k, list(c[k].times)) for k in c}, errors, trace, wall,
                      [lane.name for lane in lanes if lane.name not in chosen],
                      [lane.threads if lane.kind == 'cpu' else 0 for lane in lanes], cpu_cores())
    r._problem = (x, weights, reference, lanes)  # not a field: tensors stay out of the JSON
    return r
