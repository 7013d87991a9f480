"""13.3.3 (depgraph, display.graph): the recorded graph of the two-lane step (Fig. 13.3.1), its numerics, the
wrong versions, the book's exercise 5, and what the lesson's cells draw."""

import dataclasses
import json

import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402
import torch  # noqa: E402

from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.backends.torch_backend import run_on_lanes  # noqa: E402 (a global, as in the lesson: replaced when traced)
from d2l_ext.depgraph import lane_step, schedule  # noqa: E402 (lane_step: a global, as in the lesson)
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.errors import ResultMismatch, UsageError  # noqa: E402
from d2l_ext.i18n import using_language  # noqa: E402

SERVER = 'cpu (parameter server)'
TINY = {'batch': 8, 'd_in': 5, 'hidden': 6, 'd_out': 3}


@pytest.fixture(scope='module')
def raw():
    return dg.record_step_graph(['cpu', 'cpu'])


@pytest.fixture(scope='module')
def coarse(raw):
    return dg.coarsen_graph(raw)


def test_raw_graph_on_cpu(raw):
    # 8 weight and 4 row copies, per lane 20 ops, 8 grad copies, 4 adds (sum), 4 muls and 4 subs (update).
    assert dg.graph_summary(raw) == {
        'nodes': 72,
        'edges': {'copy': 32, 'data': 50},
        'lanes': [SERVER, 'lane 0', 'lane 1'],
        'devices': ['cpu'],
        'copies': 20,
        'bytes_copied': 4069536,  # 4 x (784*256 + 256 + 256*10 + 10) + 2 x 128 x (784 + 10) floats x 4 bytes
    }


def test_coarse_graph_on_cpu(coarse):
    assert dg.graph_summary(coarse) == {
        'nodes': 20,
        'edges': {'copy': 16, 'data': 17},
        'lanes': [SERVER, 'lane 0', 'lane 1'],
        'devices': ['cpu'],
        'copies': 4,
        'bytes_copied': 4069536,
    }
    names = [n['name'] for n in coarse['nodes'] if n['lane'] == 'lane 1']
    assert names == ['fc1 fwd', 'relu', 'fc2 fwd', 'loss', 'fc2 bwd', 'relu bwd', 'fc1 bwd']
    edges = {(e['src'], e['dst']): e for e in coarse['edges']}
    up = edges[('fc1 bwd [lane 0]', f'grad copy [link:lane 0->{SERVER}]')]
    assert up['kind'] == 'copy' and up['bytes'] == (784 * 256 + 256) * 4
    assert edges[('fc1 fwd [lane 0]', 'relu [lane 0]')]['shapes'] == [(128, 256)]
    down = edges[(f'copy in [link:{SERVER}->lane 1]', 'fc1 fwd [lane 1]')]  # one box: samples and weights in
    assert down['kind'] == 'copy' and down['bytes'] == (784 * 256 + 256 + 128 * 784) * 4  # W1, b1 and its rows
    # The two lanes never talk to each other directly: only through the server.
    assert not any('lane 0' in a and 'lane 1' in b for a, b in edges)


def test_one_copy_box_per_lane_moves_its_samples_and_the_weights():
    # One name for the stage 'copy in' in every figure: it moves the lane's rows and the weights (CPU lanes too).
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu']))
    into = {n['id']: n for n in g['nodes'] if n['kind'] == 'copy' and n['lane'].endswith('->lane 0')}
    assert set(into) == {f'copy in [link:{SERVER}->lane 0]'}
    assert set(into[f'copy in [link:{SERVER}->lane 0]']['carries']) == {'weights', 'rows'}
    with using_language('en'):
        texts = [x.get_text() for x in show.draw_graph(g).axes[0].texts]
    # its box names the bytes once: its half of X (392 KiB) and of y, and every weight (785 KiB of W1)
    assert texts.count('samples and weights in\n1.2 MiB') == 2
    with using_language('zh'):
        assert show.stage_label('copy in', plot=True) in ('传入样本和权重', 'samples and weights in')


def test_copy_nodes_sit_on_links(raw):
    links = {n['lane'] for n in raw['nodes'] if n['kind'] == 'copy'}
    assert links == {f'link:lane 0->{SERVER}', f'link:lane 1->{SERVER}',
                     f'link:{SERVER}->lane 0', f'link:{SERVER}->lane 1'}
    assert all(n['name'] == '_to_copy' for n in raw['nodes'] if n['kind'] == 'copy')


def test_structure_does_not_depend_on_sizes(raw):
    small = dg.graph_summary(dg.record_step_graph(problem=dg.make_problem(**TINY)))
    big = dg.graph_summary(raw)
    assert (small['nodes'], small['edges']) == (big['nodes'], big['edges'])
    assert small['bytes_copied'] == 4 * (5 * 6 + 6 + 6 * 3 + 3) * 4 + 8 * (5 + 3) * 4  # the weights twice, the rows


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


def test_a_learners_step_without_stages_is_graphed_and_timed_with_its_parts_named():
    def plain(lanes, params, X, y, lr):  # the Build-it's step, nothing named: copies in its jobs, sum after them
        def job(i, Xi, yi):
            w = {k: v.to(lanes[i].device(), copy=True) for k, v in params.items()}
            return lane_step(i, w, Xi.to(lanes[i].device(), copy=True), yi.to(lanes[i].device(), copy=True), n)
        n, halves = X.shape[0], zip(X.tensor_split(2), y.tensor_split(2))
        out = run_on_lanes(lanes, [lambda i=i, h=h: job(i, *h) for i, h in enumerate(halves)])
        g = [{k: v.to('cpu', copy=True) for k, v in r[1].items()} for r in out]
        return {k: params[k] - lr * (g[0][k] + g[1][k]) for k in params}
    from d2l_ext.depgraph import recording
    from d2l_ext.depgraph.runs import unread_lanes
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], dg.make_problem(**TINY), step=plain))
    assert {(n['name'], n['kind']) for n in g['nodes'] if not n['lane'].startswith('lane ')} == {
        ('copy in', 'copy'), ('grad copy', 'copy'), ('sum update', 'compute')} and unread_lanes(g) == []
    with using_language('zh'):
        assert show.stage_label('sum update') == '求和、更新'
    run = recording.record_step(['cpu', 'cpu'], batches=(16,), repeats=2, warmup=0, sizes={'hidden': 8}, step=plain)
    assert run['runs'][0]['overlap']['in_turn'] == [0.0, 0.0]  # one after the other: its jobs in turn


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
    assert not imported & {'model', 'runs', 'task'}  # the tracer knows nothing of the MLP
    for module in (dg.runs, dg.recording, dg.model, dg.worked, dg.halves):  # the experiments import no grader
        tree = ast.parse(pathlib.Path(module.__file__).read_text())
        mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert 'task' not in mods | names and 'grading' not in mods, module.__name__


# --- the model graph, the real two-lane step, the texts, and exercise 5 -------------------


def test_as_lanes_makes_cpu_lanes_with_a_share_of_the_cores():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    assert [lane.kind for lane in lanes] == ['cpu', 'cpu']
    assert all(not lane.asynchronous and lane.threads >= 1 for lane in lanes)
    assert dg.as_lanes(lanes) == lanes
    whole = dg.whole_device(lanes[0])
    assert whole.threads >= lanes[0].threads and whole.kind == 'cpu'


def test_the_step_on_two_threads_equals_one_after_the_other():
    params, X, y = dg.make_problem(**TINY)
    lanes = dg.as_lanes(['cpu', 'cpu'])
    apart = dg.wrong_version('in_turn')(lanes, params, X, y, 0.1)  # right numbers, one half after the other
    at_once = dg.mlp_step(lanes, params, X, y, 0.1)
    assert all(torch.equal(apart[k], at_once[k]) for k in dg.PARAM_NAMES)
    assert all(at_once[k].device.type == 'cpu' for k in dg.PARAM_NAMES)


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


def test_check_dag_raises_on_a_wrong_answer():
    ref = {'a': torch.ones(3, 3, dtype=torch.float64)}
    assert dg.check_dag({'a': torch.ones(3, 3)}, ref) == 0.0
    with pytest.raises(ResultMismatch):
        dg.check_dag({'a': torch.zeros(3, 3)}, ref)


# --- the lesson's cells: the worked step, the graph drawn, exercise 1 and exercise 5 ------------------

def test_the_worked_step_has_one_home_and_the_lesson_shows_its_source():
    import inspect
    import pathlib

    from d2l_ext.depgraph import model, worked
    assert worked.mlp_step is model.mlp_step and dg.mlp_step is model.mlp_step and dg.lane_step is model.lane_step
    assert worked._SOLUTION == inspect.getsource(model.mlp_step)  # the wrong versions differ from it in one place
    src = (pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.3-The-Dependency-Graph.py').read_text()
    assert '#@source d2l_ext.depgraph.model.lane_step' in src and '#@source d2l_ext.depgraph.model.mlp_step' in src
    assert 'def lane_step' not in src  # no typed copy


def test_the_worked_step_is_checked_and_traced():
    problem = dg.make_problem(**TINY)
    assert dg.check_step_matches(['cpu', 'cpu'], problem)['relative_error'] < 1e-5
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem))
    assert {n['name'] for n in g['nodes'] if n['lane'] == dg.SERVER} == {'sum', 'update'}


def test_a_server_that_does_not_wait_is_caught_and_its_graph_loses_lane_1():
    problem = dg.make_problem(**TINY)
    hasty = dg.wrong_version('lane0_twice')
    with pytest.raises(ResultMismatch):
        dg.check_step_matches(['cpu', 'cpu'], problem, step=hasty)
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem, step=hasty))
    into_sum = {e['src'] for e in g['edges'] if e['dst'] == f'sum [{dg.SERVER}]'}
    assert into_sum == {f'grad copy [link:lane 0->{dg.SERVER}]'}  # lane 1's gradients arrive and are never read
    with pytest.raises(KeyError):
        dg.wrong_version('no such version')


def test_draw_graph_writes_every_node_and_labels_copies_with_their_bytes(coarse):
    from matplotlib.figure import Figure

    with using_language('en'):
        fig = show.draw_graph(coarse)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    for n in coarse['nodes']:  # by its label, not a stage id; a copy's box also names its bytes, its arrows do not
        assert any(x.split('\n')[0] == show.stage_label(n['name'], plot=True) for x in texts)
    assert 'samples and weights in\n1.2 MiB' in texts and not any(x.startswith('copy in') for x in texts)
    assert 'grad copy\n795 KiB' in texts and '785 KiB' not in texts  # the box's total, not each arrow's share
    cpu = all(str(n.get('device', '')).startswith('cpu') for n in coarse['nodes'])  # CPU lanes: one device
    assert ('copy: bytes in the box, arrows dashed' + ('; CPU lanes share memory' if cpu else '')) in [
        x.get_text() for x in ax.get_legend().get_texts()]
    with using_language('zh'):  # zh names a lane by its hardware, as the timing figure does: 'CPU 0'
        assert not cpu or show.draw_graph(coarse).axes[0].get_legend().get_texts()[0].get_text() == 'CPU 0'
    assert min(t.get_fontsize() for t in ax.texts) >= 11  # readable on a projector
    arrows = [t.arrow_patch for t in ax.texts if getattr(t, 'arrow_patch', None) is not None]
    assert len(arrows) == len(coarse['edges']) == 33
    assert len([a for a in arrows if a.get_linestyle() in ('--', 'dashed')]) == 16  # one per copy edge
    assert ax.get_title(loc='left') == 'One training step on two lanes, recorded'


def test_exercise_5_prints_one_model_line_and_outlines_the_critical_path():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag()
    with using_language('en'):
        assert show.dag_line(dg.dag_model(dag, lanes), {'a': 1.7e-3, 'b': 1.71e-3}) == (
            'time per task, each lane alone, all 21 in order (median of 9 runs): '
            'lane 0: 1.70 ms · lane 1: 1.71 ms')  # not 12:
        assert show.dag_line(dg.dag_model(dag, lanes), {'a': 1.7e-3, 'b': 1.7e-3}) == (  # identical lanes: one time
            'time per task, each lane alone, all 21 in order (median of 18 runs): 1.70 ms')
    with using_language('zh'):  # the plan's task times answer the question asked before the cell
        assert show.dag_line(dg.dag_model(dag, lanes), {'a': 1.7e-3, 'b': 1.71e-3}) == (
            '各计算资源单独按顺序运行全部21个任务（9次运行的中位数），每个任务的平均执行时间：计算资源0为1.70毫秒；计算资源1为1.71毫秒')
    # a shorter critical path, the same 12 (six arm products on two lanes, then the join)
    assert dg.dag_model(dg.diamond_dag(3, (2, 2, 2), cross=False), lanes) == {
        'serial': 21.0, 'planned': 12.0, 'critical_path': 9.0, 'lanes': 2}
    for path in (False, True):  # outlined only where asked: in the worked answer, after the question
        fig = show.draw_dag(dag, lanes, path=path)
        boxes = {t.get_text(): t.get_bbox_patch() for t in fig.axes[0].texts if t.get_bbox_patch() is not None}
        outlined = {name for name, box in boxes.items() if box.get_linewidth() > 2}
        assert outlined == (set(schedule.critical_path(dg.dag._units(dag))[1]) if path else set())
    assert len(outlined) == 12


def test_dag_experiment_is_correct_and_its_cell_prints_the_verdict(monkeypatch):
    import io
    from contextlib import redirect_stdout
    r = dg.dag_experiment(['cpu', 'cpu'], n=24, stages=2, repeats=2)
    assert r.model == {'serial': 14.0, 'planned': 8.0, 'critical_path': 8.0, 'lanes': 2}
    assert list(r.measurements) == [*dg.DAG_VARIANTS[1:], dg.DAG_VARIANTS[0]]  # CPU lanes: planned, all cores, one
    assert len(set(r.speeds.values())) == 1  # identical lanes: one time per task, the median over both
    assert all(len(m.times) == 2 for m in r.measurements.values())
    assert all(err < 1e-4 for err in r.errors.values())
    ran = {e['name']: e for e in r.trace}
    for t in r.dag:  # the engine waited: no task started before its inputs were done
        for d in t['deps']:
            if d != 'x':
                assert ran[d]['end'] <= ran[t['name']]['start']
    assert r.to_frame().shape[0] == 3
    assert json.loads(json.dumps(dataclasses.asdict(r)))['n'] == 24
    out = io.StringIO()
    with using_language('en'), redirect_stdout(out):
        fig = show.show_dag(r, 5.0)
    guess, line = out.getvalue().strip().split('\n')  # the guess line, then the verdict (visible, not only answered)
    assert guess.startswith('your guess 5.00 ms · predicted ')
    assert r.trace_wall == min(r.measurements[dg.DAG_VARIANTS[1]].times)  # CPU lanes: the (lower) median repeat
    assert line.startswith('two lanes planned ') and (' vs one device (all cores) ' in line or (
        ' vs one device (one thread) ' in line))  # the faster of the two, as 13.3.3's step
    ticks = [x.get_text().split('\n')[0] for x in fig.axes[0].get_yticklabels()][1:]  # the faster is the baseline
    assert [x.removeprefix('baseline: ') for x in ticks] == ['one device (all cores)', 'one device (one thread)']
    assert ticks[0].startswith('baseline: ') != ticks[1].startswith('baseline: ')
    per = r.per_task()  # each lane's own time per task, its waiting, tasks, start and waiting in the replay
    assert len(per) == 2 and all(took > 0 and waited >= 0 and start >= 0 for took, waited, _, start, _ in per)
    alone = [1 / r.speeds[lane] for lane in r.lanes]  # one product on each lane alone, timed before the run
    predicted = r.predicted_ms()  # the plan at the times alone, from 0: 8 to 14 as planned; no baseline's model
    assert list(predicted) == [dg.DAG_VARIANTS[1]]
    assert 8 * min(alone) - 1e-12 <= predicted[dg.DAG_VARIANTS[1]] <= 14 * max(alone) + 1e-12
    assert sum(x[2] for x in per) == 14
    for lane, (took, waited, n, start, _) in zip(r.lanes, per):  # start, tasks and waiting: when the lane finished
        assert start + n * took + waited == pytest.approx(max(e['end'] for e in r.trace if e['lane'] == lane))
        assert start + n * took + waited < r.trace_wall  # inside its timer: the rest is outside the lanes
    assert fig.axes[0].get_yticklabels()[0].get_text().split('\n')[0] == 'two lanes, planned'
    assert 'estimate: the plan at the times alone' in [x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    n = len(r.measurements[dg.DAG_VARIANTS[1]].times)
    assert fig.axes[0].get_title(loc='left') == f'Every repeat ({n} a way)'
    assert {x.get_text() for x in fig.axes[1].texts} == {e['name'] for e in r.trace}  # every task named on its bar
    ticks = [x.get_text() for x in fig.axes[1].get_yticklabels()]  # each lane's time per task: are they equal?
    assert [x.split('\n')[0] for x in ticks] == ['lane 0', 'lane 1'] and all(x.endswith(' ms a task') for x in ticks)
    legend = [x.get_text() for x in fig.axes[1].get_legend().get_texts()]
    assert legend[:2] == ['waiting for inputs', 'inputs ready, lane idle'] and legend[2].startswith('timer stops (')
    out, shown = io.StringIO(), []
    monkeypatch.setattr('IPython.display.display', shown.append)  # the answer's figure: the critical path outlined
    with using_language('en'), redirect_stdout(out):  # exercise 3's worked answer: one line from this run's numbers
        show.dag_answer(r)
    assert len(shown) == 1 and sum(x.get_bbox_patch().get_linewidth() > 2 for x in shown[0].axes[0].texts if (
        x.get_bbox_patch())) == 8
    text = out.getvalue().strip()  # one line: the verdict is the measuring cell's; the number asked comes last
    assert text.startswith('Worked answer: At least 8 task times: the critical path (outlined) is 8 tasks; a lane runs '
                           'at least 7 of 14. Correct: every task matched float64. Per task in the drawn run: lane 0 ')
    assert ' (alone ' in text and ' · lane 1 ' in text and 'Two lanes planned ' in text
    out = io.StringIO()
    with using_language('en'), redirect_stdout(out):  # lanes of different speeds (a GPU): the same prediction
        fig = show.show_dag(dataclasses.replace(r, speeds={lane: 1e3 for lane in r.lanes}, threads=[0, 1]))
    text = out.getvalue()
    assert text.startswith('two lanes planned ') and 'estimate: the plan at the times alone' in [
        x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    assert fig.axes[1].get_title(loc='left').startswith('One more run, waiting after each task')  # a GPU: traced


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


def test_the_planned_prediction_replays_the_plan_at_each_lanes_time_alone(monkeypatch):
    import io
    from contextlib import redirect_stdout

    from d2l_ext.depgraph.dag import DagExperiment
    from d2l_ext.timing import Measurement
    dag = [{'name': 'a', 'deps': ('x',)}, {'name': 'b', 'deps': ('x',)}, {'name': 'c', 'deps': ('a', 'b')}]
    trace = [{'lane': 'L0', 'name': 'a', 'ready': 0.0, 'start': 0.0, 'end': 1.0},  # lane 0: 1 s a task
             {'lane': 'L1', 'name': 'b', 'ready': 0.5, 'start': 0.5, 'end': 3.5},  # lane 1 starts late, 3 s a task
             {'lane': 'L0', 'name': 'c', 'ready': 1.0, 'start': 4.0, 'end': 5.0}]
    r = DagExperiment(dag, 2, ['L0', 'L1'], {'L0': ['a', 'c'], 'L1': ['b']}, {}, {'L0': 1.0, 'L1': 1 / 3}, [],
                      {dg.DAG_VARIANTS[0]: Measurement('one', [6.0])}, trace=trace, trace_wall=5.2)
    # alone: 1 s and 3 s a product, from 0: c waits for b (3 s), then 1 s on lane 0; in order, 3 products on lane 0
    assert r.predicted_ms() == {dg.DAG_VARIANTS[1]: pytest.approx(4.0)}
    assert [x[1] for x in r.per_task()] == [3.0, 0.0] and [x[4] for x in r.per_task()] == [2.0, 0.0]  # waited, planned
    r.measurements[dg.DAG_VARIANTS[1]] = Measurement('planned', [5.2])
    r.model, r.threads = {'critical_path': 2, 'planned': 2}, [1, 1]

    def answer(guess=None):
        out = io.StringIO()
        monkeypatch.setattr('IPython.display.display', lambda fig: None)
        with using_language('en'), redirect_stdout(out):
            show.dag_answer(r, guess)
        return out.getvalue().strip()
    assert answer(3).split('\n')[0] == 'your guess: 3 task times · at least: 2'  # the guess, first
    assert 'your guess' not in answer()
    assert answer() == (  # the number asked first (the critical path; a lane's half of the tasks), correct, each
        # lane's time per task in the drawn run (the figure's rows) beside alone; planned against the hatched estimate
        'Worked answer: At least 2 task times: the critical path (outlined) is 2 tasks; a lane runs at least 2 of 3. '
        'Correct: every task matched float64. Per task in the drawn run: lane 0 1000 ms (alone 1000 ms) · lane 1 3000 '
        'ms (alone 3000 ms). Two lanes planned 5200 ms: 30% above the estimate at the times alone 4000 ms.')
    r.measurements[dg.DAG_VARIANTS[1]] = Measurement('planned', [4.1])  # within 5% of the prediction
    with using_language('en'):
        assert show._dag_base(r)[2] == 'one lane, in order'  # CPU lanes add one device, all cores: the faster is used
        r.measurements[dg.DAG_VARIANTS[2]] = Measurement('all cores', [5.0])
        assert show._dag_base(r)[2] == 'one device (all cores)'
        r.measurements[dg.DAG_VARIANTS[0]] = Measurement('one', [4.5])  # CPU lanes: lane 0 alone is one thread
        assert show._dag_base(r)[2] == 'one device (one thread)'
        r.measurements[dg.DAG_VARIANTS[0]] = Measurement('one', [6.0])
        assert 'vs one device (all cores) 5000 ms' in show.dag_lines(r)
    assert answer().endswith('Two lanes planned 4100 ms: within 5% of the estimate at the times alone 4000 ms.')
