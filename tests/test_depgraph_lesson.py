"""13.3.3 as the lesson uses it: a step written in the notebook, traced, checked, timed and drawn."""
import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402

import d2l_ext  # noqa: E402
from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.errors import ResultMismatch  # noqa: E402
from d2l_ext.i18n import using_language  # noqa: E402

TINY = {'batch': 8, 'd_in': 5, 'hidden': 6, 'd_out': 3}


@pytest.fixture(scope='module')
def problem():
    return dg.make_problem(**TINY)


def test_the_worked_step_is_checked_and_traced(problem):
    r = dg.check_step_matches(['cpu', 'cpu'], problem)
    assert r['relative_error'] < 1e-5
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem))
    assert {n['name'] for n in g['nodes'] if n['lane'] == dg.SERVER} == {'sum', 'update'}


def test_a_server_that_does_not_wait_is_caught_and_its_graph_loses_lane_1(problem):
    hasty = dg.wrong_version('lane0_twice')
    with pytest.raises(ResultMismatch):
        dg.check_step_matches(['cpu', 'cpu'], problem, step=hasty)
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem, step=hasty))
    into_sum = {e['src'] for e in g['edges'] if e['dst'] == f'sum [{dg.SERVER}]'}
    assert into_sum == {f'grad copy [link:lane 0->{dg.SERVER}]'}  # lane 1's gradients arrive and are never read
    with pytest.raises(KeyError):
        dg.wrong_version('no such version')


def test_measured_costs_rates_time_and_drawing(problem):
    g, costs = dg.measure_node_costs(['cpu', 'cpu'], problem, repeats=1)
    plan = dg.schedule_step(g, measured=costs)
    assert plan.critical_path_s <= plan.total <= plan.serial_total + 1e-12
    assert all(e['role'] == 'link' for e in plan.events if e['lane'].startswith('link:'))
    rates = dg.measure_rates(['cpu', 'cpu'], problem, repeats=1)
    assert rates.together > 0 and all(a > 0 for a in rates.alone) and rates.rate > 0
    predicted = dg.predict_step(plan, g, costs, rates)
    s = dg.time_step(['cpu', 'cpu'], problem, repeats=2, predicted=predicted)
    assert set(s.errors) == set(dg.STEP_VARIANTS) and max(s.errors.values()) < 1e-4
    text = show.step_timing_text(s)
    assert 'lane 0 + lane 1' in text and 'measured / predicted' in text
    o = s.overlap
    assert len(o.intervals) == 2 and min(a for a, _ in o.intervals) == 0 and 0 <= o.fraction <= 1
    assert f'{o.fraction:.0%}' in show.overlap_text(s)
    fig = show.draw_step_timing(s)
    title = fig.axes[0].get_title(loc='left')  # which way wins depends on this machine's timings: either verdict
    assert title.startswith('Every repeat of one step') and ('fastest here' in title or 'not told apart' in title)
    with using_language('zh'):
        assert '你的猜测' in show.guess_text(2.5, s) and '执行路 0 的方框' in show.rates_text(rates)


def test_texts_name_lanes_as_the_graphs_do():
    lanes = d2l_ext.find_lanes('torch')
    text = show.machine_text(lanes)
    assert 'lane 0 = ' in text and 'lane 1 = ' in text and 'PyTorch' in text
    assert show.box_name('grad copy [link:lane 0->cpu (parameter server)]') == 'grad copy [lane 0 → server (CPU)]'
    assert show.box_name('no brackets') == 'no brackets'
    with using_language('zh'):
        assert '执行路 0 = ' in show.machine_text(lanes)
        assert show.box_name('sum [cpu (parameter server)]') == '求和 [服务器（CPU）]'


def test_exercise_5_model_and_drawing():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag(3, (2, 2, 2), cross=False)
    assert dg.dag_model(dag, lanes) == {'serial': 21.0, 'planned': 12.0, 'critical_path': 9.0, 'lanes': 2,
                                        'floor': 12.0}
    # the bound the worked answer derives: each stage's six arm products on two lanes take 3, then its join: 12
    text = show.dag_model_text(dg.dag_model(dag, lanes))
    assert 'critical path 9' in text and 'fewer than 12' in text and '1.75x' in text and 'plus 1 for each join' in text
    assert dg.dag_model(dg.diamond_dag(), lanes)['floor'] == 12.0  # arms (1, 2, 3): the critical path, 4 a stage
    assert dg.dag_model(dg.diamond_dag(1, (4, 1, 1), cross=False), lanes)['floor'] == 5.0  # the longest arm, then J
    r = dg.dag_experiment(lanes, n=16, stages=1, arms=(1, 2, 3), repeats=1)
    assert 'on lane 0' in show.dag_text(r) and 'on lane 1' in show.dag_text(r)
    fig = show.draw_dag(r)
    top, bottom = fig.axes[:2]
    assert [t.get_text() for t in bottom.get_yticklabels()] == ['lane 0', 'lane 1']
    assert top.get_title(loc='left').startswith("The book's exercise 5")


def test_every_reference_to_a_numbered_exercise_names_the_books_in_the_lesson_and_its_catalogue():
    """13.3.3 numbers its own exercises 1-3; the book's exercise 5 is its third, so a bare 'exercise 5' or '练习5'
    would point a reader at the wrong list. Every numbered reference says whose it is."""
    import pathlib
    import re

    from d2l_ext.i18n import catalogue
    src = (pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.3-The-Dependency-Graph.py').read_text()
    for lang, bare, owned in (('en', r'(?i)exercise\s*\d', r"(?i)the book's exercise \d"),
                              ('zh', r'练习\s*\d', r'书中的练习\d')):
        texts = [src] + [v for k, v in catalogue(lang).items() if k.startswith('graph.')]
        for text in texts:
            assert len(re.findall(bare, text)) == len(re.findall(owned, text)), text[:200]
        assert any(re.search(owned, text) for text in texts)


def test_the_pitfall_says_cpu_lanes_split_the_cores_as_the_overview_defines_them():
    """13.3.0: lanes that split a CPU's cores (each its own) can run at once; lanes that share cores cannot. The
    pitfall names the first kind, which this lesson's CPU lanes are (1 of 2 cores each), in both languages."""
    import pathlib
    src = (pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.3-The-Dependency-Graph.py').read_text()
    assert 'share cores and memory' not in src and '共用核心和内存' not in src
    assert "split one CPU's cores and share its memory" in src
    assert '把一个CPU的核心分开用（每条执行路用各自的核心），但共用它的内存' in src


def _dag_with_widths(lane0, lane1):
    """Exercise 5's plan with a made-up trace: every task on lane i takes the given seconds."""
    from d2l_ext.results import Measurement
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag(stages=3, arms=(1, 2, 3), cross=True)
    events, order = dg.dag_plan(dag, lanes)
    trace, end = [], [0.0, 0.0]
    for i, (lane, width) in enumerate(zip(lanes, (lane0, lane1))):
        for name in order[lane.name]:
            trace.append({'lane': lane.name, 'name': name, 'start': end[i], 'end': end[i] + width})
            end[i] += width + 2e-4
    return dg.DagExperiment(dag, 8, [x.name for x in lanes], order, dg.dag_model(dag, lanes), None, events,
                            {dg.DAG_VARIANTS[0]: Measurement('a', [0.045]),
                             dg.DAG_VARIANTS[1]: Measurement('b', [0.029])}, trace=trace, threads=[1, 1], cores=2)


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_exercise_5_names_its_bars_by_one_rule_on_both_lanes_and_says_when_some_are_left_unnamed(lang):
    """The CPU build drew lane 0's 2 ms bars with their names and 7 of lane 1's 1.7 ms bars without: each bar's
    name now fits across it, or upright, or the title says that bars too narrow for a name are left unnamed."""
    from d2l_ext.display import style
    with using_language(lang):
        note = style.plot_text('graph.dag_unnamed')  # plot text: English where no CJK font is installed
        bottom = show.draw_dag(_dag_with_widths(2.0e-3, 1.7e-3)).axes[1]
        names = [t.get_text() for t in bottom.texts]
        assert len(names) == 21 and {'1a1', '1c2', '3J'} <= set(names)  # every task on both lanes
        assert note not in bottom.get_title(loc='left')
        bottom = show.draw_dag(_dag_with_widths(2.0e-3, 0.05e-3)).axes[1]
        assert len(bottom.texts) < 21 and bottom.get_title(loc='left').endswith('\n' + note)
