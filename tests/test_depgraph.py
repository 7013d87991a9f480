"""The recorded dependency graph of the two-lane step (Fig. 13.3.1) and its numerics."""

import dataclasses
import json

import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402
import torch  # noqa: E402

import d2l_ext  # noqa: E402
from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.depgraph import schedule  # noqa: E402
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.errors import ResultMismatch, UsageError  # noqa: E402

SERVER = 'cpu (parameter server)'
TINY = {'batch': 8, 'd_in': 5, 'hidden': 6, 'd_out': 3}


@pytest.fixture(scope='module')
def raw():
    return dg.record_step_graph(['cpu', 'cpu'])


@pytest.fixture(scope='module')
def coarse(raw):
    return dg.coarsen_graph(raw)


def test_raw_graph_on_cpu(raw):
    # 8 weight copies, per lane 20 ops, 8 grad copies, 4 adds (sum), 4 muls and 4 subs (update).
    assert dg.graph_summary(raw) == {
        'nodes': 68,
        'edges': {'copy': 26, 'data': 50},
        'lanes': [SERVER, 'lane 0', 'lane 1'],
        'devices': ['cpu'],
        'copies': 16,
        'bytes_copied': 3256480,  # 4 x (784*256 + 256 + 256*10 + 10) floats x 4 bytes
        'flops': 210406688,
    }


def test_coarse_graph_on_cpu(coarse):
    assert dg.graph_summary(coarse) == {
        'nodes': 20,
        'edges': {'copy': 12, 'data': 17},
        'lanes': [SERVER, 'lane 0', 'lane 1'],
        'devices': ['cpu'],
        'copies': 4,
        'bytes_copied': 3256480,
        'flops': 210406688,
    }
    names = [n['name'] for n in coarse['nodes'] if n['lane'] == 'lane 1']
    assert names == ['fc1 fwd', 'relu', 'fc2 fwd', 'loss', 'fc2 bwd', 'relu bwd', 'fc1 bwd']
    edges = {(e['src'], e['dst']): e for e in coarse['edges']}
    up = edges[('fc1 bwd [lane 0]', f'grad copy [link:lane 0->{SERVER}]')]
    assert up['kind'] == 'copy' and up['bytes'] == (784 * 256 + 256) * 4
    assert edges[('fc1 fwd [lane 0]', 'relu [lane 0]')]['shapes'] == [(128, 256)]
    down = edges[(f'weights in [link:{SERVER}->lane 1]', 'fc1 fwd [lane 1]')]  # named for what it carries
    assert down['kind'] == 'copy' and down['bytes'] == (784 * 256 + 256) * 4
    # The two lanes never talk to each other directly: only through the server.
    assert not any('lane 0' in a and 'lane 1' in b for a, b in edges)


def test_each_copy_in_is_named_for_what_it_moved():
    import inspect

    from d2l_ext.depgraph import worked
    # A lane on another device gets its rows by a copy of their own; `copy=True` makes one between CPU lanes too.
    src = inspect.getsource(worked.mlp_step).replace('Xi.to(lane.device())', 'Xi.to(lane.device(), copy=True)')
    src = src.replace('yi.to(lane.device())', 'yi.to(lane.device(), copy=True)')
    ns = dict(vars(worked))
    exec(src, ns)
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], step=ns['mlp_step']))
    into = {n['id']: n for n in g['nodes'] if n['kind'] == 'copy' and n['lane'].endswith('->lane 0')}
    assert set(into) == {f'weights in [link:{SERVER}->lane 0]', 'rows in [link:cpu->lane 0]'}
    assert into['rows in [link:cpu->lane 0]']['bytes'] == 128 * (784 + 10) * 4  # its half of X and of y, no weight
    assert into[f'weights in [link:{SERVER}->lane 0]']['bytes'] == (784 * 256 + 256 + 256 * 10 + 10) * 4
    texts = [x.get_text() for x in show.draw_graph(g).axes[0].texts]
    assert texts.count('rows in') == 2 and texts.count('weights in') == 2 and '392 KiB' in texts
    d2l_ext.set_language('zh')
    try:
        assert show.box_name('rows in [link:cpu->lane 0]') == '传入样本 [服务器（CPU） → 执行路 0]'
    finally:
        d2l_ext.set_language('en')
    # The schedule's rows: the CPU named one way on every link, each link saying which edge it carries.
    plan = dg.schedule_step(g, measured={n['id']: 1e-3 for n in g['nodes']})
    rows = [x.get_text() for x in show.draw_schedule(plan).axes[0].get_yticklabels()]
    assert 'server (CPU) → lane 0: weights in' in rows and 'server (CPU) → lane 0: rows in' in rows
    assert not any(r.startswith('CPU →') for r in rows)


def test_copy_nodes_sit_on_links(raw):
    links = {n['lane'] for n in raw['nodes'] if n['kind'] == 'copy'}
    assert links == {f'link:lane 0->{SERVER}', f'link:lane 1->{SERVER}',
                     f'link:{SERVER}->lane 0', f'link:{SERVER}->lane 1'}
    assert all(n['name'] == '_to_copy' for n in raw['nodes'] if n['kind'] == 'copy')


def test_structure_does_not_depend_on_sizes(raw):
    small = dg.graph_summary(dg.record_step_graph(problem=dg.make_problem(**TINY)))
    big = dg.graph_summary(raw)
    assert (small['nodes'], small['edges']) == (big['nodes'], big['edges'])
    assert small['bytes_copied'] == 4 * (5 * 6 + 6 + 6 * 3 + 3) * 4


@pytest.mark.parametrize('batch', [8, 7])  # 7 rows split 4 + 3: uneven lanes still match
def test_split_step_matches_autograd_in_float64(batch):
    problem = dg.make_problem(**dict(TINY, batch=batch))
    check = dg.check_step_matches(['cpu', 'cpu'], problem)
    assert check['match'] and check['relative_error'] < 1e-5, check


def test_the_update_check_catches_a_wrong_step():
    params, X, y = dg.make_problem(**TINY)
    reference, _ = dg.reference_step(params, X, y, lr=0.1)
    assert dg.check_update(dg.sgd_step(params, X, y, lr=0.1), params, reference, 'right step') < 1e-5
    with pytest.raises(ResultMismatch):
        dg.check_update(dg.sgd_step(params, X, y, lr=0.2), params, reference, 'wrong step')


def test_reference_gradients_are_the_reference_step():
    params, X, y = dg.make_problem(**TINY)
    grads = dg.reference_gradients(params, X, y)
    new, _ = dg.reference_step(params, X, y, lr=0.5)
    assert all(torch.allclose(new[k], params[k].double() - 0.5 * grads[k]) for k in dg.PARAM_NAMES)


def test_a_step_written_elsewhere_can_be_checked_and_traced():
    def my_step(lanes, params, X, y, lr):  # the same maths in one box per lane, halves in turn
        n, new_grads = X.shape[0], []
        for i, (Xi, yi) in enumerate(zip(X.tensor_split(2), y.tensor_split(2))):
            with dg.stage(i, 'forward and backward'):
                new_grads.append(dg.lane_step(i, params, Xi, yi, n)[1])
        with dg.stage(dg.SERVER, 'sum and update'):
            return {k: params[k] - lr * (new_grads[0][k] + new_grads[1][k]) for k in params}
    problem = dg.make_problem(**TINY)
    assert dg.check_step_matches(['cpu', 'cpu'], problem, step=my_step)['match']
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem, step=my_step))
    # lane_step's own stages are innermost, so they name the boxes
    assert [n['name'] for n in g['nodes'] if n['lane'] == 'lane 0'][:2] == ['fc1 fwd', 'relu']


def test_a_step_without_stages_is_recorded_op_by_op():
    a = torch.ones(3, 3)
    g, _ = dg.trace(lambda x: torch.relu(x @ x), a)
    assert [n['name'] for n in g['nodes']] == ['mm', 'relu'] and g['edges'][0]['kind'] == 'data'
    assert g['nodes'][0]['lane'] == 'cpu'


def test_the_graph_package_loads_no_plotting_and_imports_no_cycle():
    import subprocess
    import sys
    code = ("import sys, d2l_ext.depgraph; assert 'matplotlib' not in sys.modules, 'matplotlib loaded'; "
            "import d2l_ext.depgraph.model as m; assert 'd2l_ext.depgraph.runs' not in vars(m)")
    assert subprocess.run([sys.executable, '-c', code], capture_output=True).returncode == 0
    import ast
    import pathlib
    tree = ast.parse(pathlib.Path(dg.tracer.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {'model', 'runs', 'costs', 'task'}  # the tracer knows nothing of the MLP


def test_task_costs_use_flops_and_bytes(coarse):
    speed = {'lane 0': 1e9, 'lane 1': 1e9, SERVER: 1e8}
    tasks = {t.name: t for t in dg.task_costs(coarse, speed, link_bandwidth=1e8)}
    fc1 = tasks['fc1 fwd [lane 0]']
    assert fc1.cost == pytest.approx((2 * 128 * 784 * 256 + 128 * 256) / 1e9)
    assert fc1.resource == 'lane 0' and fc1.deps == (f'weights in [link:{SERVER}->lane 0]',)
    up = tasks[f'grad copy [link:lane 1->{SERVER}]']
    assert up.cost == pytest.approx(814120 / 1e8)
    assert set(up.deps) == {'fc2 bwd [lane 1]', 'fc1 bwd [lane 1]'}


def test_raw_graph_schedules_too_and_copies_need_a_bandwidth(raw):
    tasks = dg.task_costs(raw, {'default': 1e9}, 1e9)
    assert len(tasks) == 68 and tasks[0].name == '_to_copy #0'
    assert schedule.serial_total(tasks) == pytest.approx(210406688 / 1e9 + 3256480 / 1e9)
    with pytest.raises(UsageError, match='link_bandwidth'):
        dg.task_costs(raw, {'default': 1e9}, None)
    with pytest.raises(UsageError, match='device_speed'):
        dg.task_costs(raw, {'lane 0': 1e9}, 1e9)


def test_schedule_step_overlaps_the_lanes(coarse):
    speed = {'default': 1e9}
    r = dg.schedule_step(coarse, speed, 1e9)
    assert r['total'] == r.total  # still readable as a dict
    # The lanes run side by side, so the step takes less than doing everything in turn...
    assert r['total'] < 0.75 * r['serial_total']
    # ...but never less than its longest chain, which goes through one lane and the server.
    assert r['total'] >= r['critical_path_s'] - 1e-12
    assert r['critical_path'][0].startswith('weights in')
    assert r['critical_path'][-1] == f'update [{SERVER}]'
    lane_serial = schedule.serial_total(dg.task_costs(coarse, speed, 1e9))
    assert r['serial_total'] == lane_serial


def test_measured_costs_cover_every_node():
    coarse, costs = dg.measure_node_costs(['cpu', 'cpu'], problem=dg.make_problem(**TINY), repeats=2)
    assert set(costs) == {n['id'] for n in coarse['nodes']}
    assert all(c > 0 for c in costs.values())
    r = dg.schedule_step(coarse, measured=costs)
    assert 0 < r.total <= r.serial_total and r.costs == 'measured'


def test_draw_graph_writes_every_node(coarse):
    from matplotlib.figure import Figure

    fig = show.draw_graph(coarse, title='step')
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    for n in coarse['nodes']:
        assert show.stage_label(n['name'], plot=True) in texts  # by its label: 'weights in', not a stage id
    assert 'weights in' in texts and 'copy in' not in texts and 'rows in' not in texts  # CPU lanes: no rows copied
    assert '785 KiB' in texts  # a copy edge labelled with its bytes
    assert min(t.get_fontsize() for t in ax.texts) >= 11  # readable on a projector
    arrows = [t.arrow_patch for t in ax.texts if getattr(t, 'arrow_patch', None) is not None]
    assert len(arrows) == len(coarse['edges']) == 29
    dashed = [a for a in arrows if a.get_linestyle() in ('--', 'dashed')]
    assert len(dashed) == 12  # one dashed arrow per copy edge


@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a GPU')
def test_same_structure_with_a_gpu_lane(raw):
    g = dg.record_step_graph(['cuda:0', 'cpu'])
    s, cpu = dg.graph_summary(g), dg.graph_summary(raw)
    assert s['devices'] == ['cpu', 'cuda:0']
    # the same computation; a GPU lane adds the copies of its half of the data to the device (on a CPU
    # lane `.to('cpu')` moves nothing and records no node): seen on an H200, 68 -> 70 nodes, 26 -> 29 copies
    assert s['lanes'] == cpu['lanes'] and s['edges']['data'] == cpu['edges']['data']
    assert s['edges']['copy'] >= cpu['edges']['copy'] and s['bytes_copied'] >= cpu['bytes_copied']
    assert dg.check_step_matches(['cuda:0', 'cpu'])['match']
    t = dg.time_step(['cuda:0', 'cpu'], dg.make_problem(**TINY), repeats=1)
    assert set(t.errors) == set(dg.STEP_VARIANTS)


# --- the model graph, the real two-lane step, the texts, and exercise 5 -------------------

def test_model_graph_is_the_recorded_graph_without_arithmetic(coarse):
    m = dg.model_graph()
    sm, sc = dg.graph_summary(m), dg.graph_summary(coarse)
    assert sm['devices'] == ['model']
    assert {k: v for k, v in sm.items() if k != 'devices'} == {k: v for k, v in sc.items() if k != 'devices'}
    big = dg.graph_summary(dg.model_graph(batch=4096, hidden=4096))
    assert big['bytes_copied'] == 4 * (784 * 4096 + 4096 + 4096 * 10 + 10) * 4


@pytest.mark.parametrize('kwargs', [{'batch': 1}, {'hidden': 0}, {'batch': 2.5}])
def test_model_graph_rejects_bad_sizes(kwargs):
    with pytest.raises(UsageError):
        dg.model_graph(**kwargs)


def test_book_setting_model_numbers_are_fixed():
    r = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
    assert r.critical_path_s <= r.total <= r.serial_total
    assert round(r.serial_total * 1e6, 1) == 298.5
    assert round(r.total * 1e6, 1) == 152.3
    assert 'critical path: weights in [server (CPU) → lane 0] → fc1 fwd [lane 0]' in show.schedule_text(r)
    assert 'critical path:' not in show.schedule_text(r, path=False)
    assert r.to_frame().shape == (3, 2)
    assert json.loads(json.dumps(dataclasses.asdict(r)))['serial_total'] == r.serial_total


def test_as_lanes_makes_cpu_lanes_with_a_share_of_the_cores():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    assert [lane.kind for lane in lanes] == ['cpu', 'cpu']
    assert all(not lane.asynchronous and lane.threads >= 1 for lane in lanes)
    assert dg.as_lanes(lanes) == lanes
    whole = dg.whole_device(lanes[0])
    assert whole.threads >= lanes[0].threads and whole.kind == 'cpu'


def test_the_step_on_two_threads_equals_one_after_the_other():
    from d2l_ext.depgraph import worked
    params, X, y = dg.make_problem(**TINY)
    lanes = dg.as_lanes(['cpu', 'cpu'])
    apart = dg.mlp_step_in_turn(lanes, params, X, y, 0.1)
    at_once = worked.mlp_step(lanes, params, X, y, 0.1)
    assert all(torch.equal(apart[k], at_once[k]) for k in dg.PARAM_NAMES)
    assert all(at_once[k].device.type == 'cpu' for k in dg.PARAM_NAMES)


def test_time_step_reports_every_repeat_checked_with_a_prediction():
    problem = dg.make_problem(**TINY)
    coarse, costs = dg.measure_node_costs(['cpu', 'cpu'], problem, repeats=1)
    rates = dg.measure_rates(['cpu', 'cpu'], problem, repeats=1)
    plan = dg.schedule_step(coarse, measured=costs)
    predicted = dg.predict_step(plan, coarse, costs, rates)
    assert set(predicted) == set(dg.STEP_VARIANTS) and all(v > 0 for v in predicted.values())
    t = dg.time_step(['cpu', 'cpu'], problem, repeats=2, predicted=predicted)
    assert list(t.measurements) == list(dg.STEP_VARIANTS)
    assert all(len(m.times) == 2 and min(m.times) > 0 for m in t.measurements.values())
    assert all(err < 1e-5 for err in t.errors.values()) and set(t.errors) == set(dg.STEP_VARIANTS)
    assert t.speedup > 0 and t.vs_one_device > 0 and t.shared_hardware
    df = t.to_frame()
    assert df.shape[0] == 3 and df.iloc[2, -2] == pytest.approx(predicted[dg.TOGETHER])
    text = show.step_timing_text(t)
    assert 'as one after the other' in text or 'not told apart' in text  # worded by the noise test
    assert 'measured / predicted' in text
    assert 'overlap of the two halves' in text and 0 <= t.overlap.fraction <= 1
    assert 'Write your prediction' in show.guess_text(None, t) and 'your guess 3.00 ms' in show.guess_text(3, t)
    assert json.loads(json.dumps(dataclasses.asdict(t)))['batch'] == 8
    one = dg.time_step(['cpu', 'cpu'], problem, repeats=1, variants=(dg.TOGETHER,))
    assert list(one.measurements) == [dg.TOGETHER] and one.speedup is None
    with pytest.raises(UsageError, match='unknown variants'):
        dg.time_step(['cpu', 'cpu'], problem, variants=('fast',))


def test_texts_are_deterministic(raw, coarse):
    assert show.summary_text(coarse, 'boxes').startswith('boxes: 20 nodes, 29 edges (12 copy, 17 data)')


def test_rates_size_the_predictions_and_the_boxes_shape_them(coarse):
    costs = {n['id']: 1.0 for n in coarse['nodes']}  # 7 boxes per lane: 7.0 per lane in all
    plan = dg.schedule_step(coarse, measured=costs)
    same = dg.predict_step(plan, coarse, costs, dg.LaneRates([7.0, 7.0], 7.0, 1.0, 2))
    slow = dg.predict_step(plan, coarse, costs, dg.LaneRates([7.0, 14.0], 14.0, 1.0, 2))
    assert same[dg.TOGETHER] == pytest.approx(plan.total) and same[dg.APART] == pytest.approx(plan.serial_total)
    assert same[dg.ONE_DEVICE] == 2 * 1.0 + 1.0  # lane 0 with all cores, twice the rows, plus the update
    assert slow[dg.TOGETHER] == pytest.approx(plan.total + 7.0)  # each lane's chain takes what both took at once
    assert slow[dg.APART] == pytest.approx(plan.serial_total + 7.0)  # lane 1 alone measured twice its boxes
    r = dg.LaneRates([2.0, 2.0], 3.0, 1.0, 2)
    assert r.rate == pytest.approx(4 / 3) and r.slowdown == pytest.approx(1.5)
    assert '1.33x as fast' in show.rates_text(r) and '1.50x as long' in show.rates_text(r)
    assert '(2.00x if neither slowed the other' in show.rates_text(r) and 'all 2 cores' in show.rates_text(r)
    # unequal lanes: what "neither slowed the other" gives is the pair over the longer one, not 2x
    assert '(1.50x if neither' in show.rates_text(dg.LaneRates([1.0, 2.0], 2.5, 1.0, 16))
    # a GPU lane 0 is a whole device already: no sentence about cores in one thread
    gpu = show.rates_text(dg.LaneRates([1.0, 2.0], 2.5, 1.0, 16, kind='gpu'))
    assert 'cores' not in gpu and 'whole GPU' in gpu
    # at once faster than the longer lane alone: above the bound, said so and judged by the noise test
    near = show.rates_text(dg.LaneRates([2.0, 2.0], 1.95, 1.0, 2))
    far = show.rates_text(dg.LaneRates([2.0, 2.0], 1.5, 1.0, 2))
    assert 'no more than 10% of it' in near and 'above' not in near and 'within 10% of the' not in near
    assert 'above the 2.00x' in far and 'this run does not test why' in far and 'if neither slowed' not in far
    for text in (near, far):  # a pair shorter than the longer lane alone is not what lanes that do not slow do
        assert 'such lanes take as long as the longer lane alone, not less' in text


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_a_pair_shorter_than_its_longer_lane_says_the_test_with_its_milliseconds(lang):
    """The GPU edition: 0.42 and 4.80 ms alone, 4.34 ms at once. 1.20x against 1.09x read as 'within 10%' at the
    edge (1.20 / 1.09 = 1.10); the test is 4.80 - 4.34 = 0.46 ms against 10% of 4.80 = 0.48 ms, said as such."""
    d2l_ext.set_language(lang)
    try:
        text = show.rates_text(dg.LaneRates([0.42e-3, 4.80e-3], 4.34e-3, 0.69e-3, 16, kind='gpu'))
    finally:
        d2l_ext.set_language('en')
    if lang == 'en':
        assert 'within 10% of the 1.09x' not in text
        assert '0.904x as long as that lane (0.46 ms less than 4.80 ms, no more than 10% of it, 0.48 ms)' in text
        assert 'not less' in text and 'this run does not test why it was shorter' in text
    else:
        assert '相差不到' not in text and '0.904 倍（比 4.80 毫秒少 0.46 毫秒，不超过它的 10%，即 0.48 毫秒）' in text
        assert '不会更短' in text and '本次运行没有检验为什么更短' in text


def test_texts_in_chinese_name_lanes_as_zhixinglu(coarse):
    from d2l_ext.i18n import set_language
    set_language('zh')
    try:
        text = show.summary_text(coarse, '方框')
    finally:
        set_language('en')
    assert '执行路 0' in text and '通道' not in text


def test_diamond_dag_shape():
    dag = dg.diamond_dag(stages=2, arms=(1, 2, 3))
    names = [t['name'] for t in dag]
    assert len(dag) == 14 and names[:7] == ['1a1', '1b1', '1b2', '1c1', '1c2', '1c3', '1J']
    deps = {t['name']: t['deps'] for t in dag}
    assert deps['1a1'] == ['x'] and deps['2a1'] == ['1J']
    assert deps['1b2'] == ['1b1', '1a1'] and deps['1c3'] == ['1c2', '1b1']  # the cross edges
    assert deps['1J'] == ['1a1', '1b2', '1c3']
    assert dg.diamond_dag(1, (2, 2), cross=False)[1]['deps'] == ['1a1']
    with pytest.raises(UsageError):
        dg.diamond_dag(0)


def test_dag_plan_on_equal_lanes_reaches_the_critical_path():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    events, order = dg.dag_plan(dg.diamond_dag(), lanes)
    assert schedule.schedule_total(events) == 12.0
    assert sum(len(v) for v in order.values()) == 21 and all(order.values())


def test_dag_plan_uses_both_lanes_even_when_one_is_much_slower():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    speed = {lanes[0].name: 50.0, lanes[1].name: 1.0}
    events, order = dg.dag_plan(dg.diamond_dag(), lanes, speed)
    assert all(order.values())
    plain = schedule.list_schedule([schedule.Task(t['name'], 1.0, '', tuple(d for d in t['deps'] if d != 'x'))
                                    for t in dg.diamond_dag()], [lane.name for lane in lanes], speed)
    assert {e['lane'] for e in plain} == {lanes[0].name}  # left alone, the planner would idle the slow lane


def test_dag_experiment_is_correct_and_the_broken_engine_is_caught():
    r = dg.dag_experiment(['cpu', 'cpu'], n=24, stages=2, repeats=2)
    assert r.model == {'serial': 14.0, 'planned': 8.0, 'critical_path': 8.0, 'lanes': 2, 'floor': 8.0}
    assert list(r.measurements) == list(dg.DAG_VARIANTS)  # CPU lanes: the all-cores baseline too
    assert all(len(m.times) == 2 for m in r.measurements.values())
    assert all(err < 1e-4 for err in r.errors.values())
    assert {e['name'] for e in r.trace} == {t['name'] for t in r.dag}
    ran = {e['name']: e for e in r.trace}
    for t in r.dag:  # the engine waited: no task started before its inputs were done
        for d in t['deps']:
            if d != 'x':
                assert ran[d]['end'] <= ran[t['name']]['start']
    assert any(w in show.dag_text(r) for w in ('as fast as one lane in order', 'as long as one lane in order',
                                               'one lane in order: the medians',
                                               'one lane in order: one median each'))
    assert r.to_frame().shape[0] == 3
    assert json.loads(json.dumps(dataclasses.asdict(r)))['n'] == 24
    caught, message = dg.broken_engine_check(r)
    assert caught and 'relative error' in message
    fig = show.draw_graph(dg.dag_graph(r), label_edges=False, rows=r.lanes)
    assert len([t for t in fig.axes[0].texts if t.get_text() in r.order[r.lanes[0]]]) > 0
    assert show.draw_schedule(r.trace).axes


def test_check_dag_raises_on_a_wrong_answer():
    ref = {'a': torch.ones(3, 3, dtype=torch.float64)}
    assert dg.check_dag({'a': torch.ones(3, 3)}, ref) == 0.0
    with pytest.raises(ResultMismatch):
        dg.check_dag({'a': torch.zeros(3, 3)}, ref)
