"""13.3.3: device names in Chinese figures, exercise 5's predictions printed beside the measured times, bar names."""
import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402

import d2l_ext  # noqa: E402
from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.display import style  # noqa: E402
from d2l_ext.timing import Measurement  # noqa: E402


@pytest.fixture(autouse=True)
def english():
    d2l_ext.set_language('en')
    yield
    d2l_ext.set_language('en')


def _graph():
    """A two-node graph on a GPU lane and a CPU lane, the rows copied from the CPU: the ids a GPU machine records."""
    nodes = [{'id': 'a', 'name': 'fc1 fwd', 'kind': 'compute', 'lane': 'lane 0', 'device': 'cuda:0'},
             {'id': 'b', 'name': 'fc1 fwd', 'kind': 'compute', 'lane': 'lane 1', 'device': 'cpu'},
             {'id': 'c', 'name': 'sum', 'kind': 'compute', 'lane': 'cpu (parameter server)', 'device': 'cpu'}]
    edges = [{'src': 'a', 'dst': 'c', 'kind': 'data', 'shapes': [(2, 2)], 'bytes': 0},
             {'src': 'b', 'dst': 'c', 'kind': 'data', 'shapes': [(2, 2)], 'bytes': 0}]
    return {'nodes': nodes, 'edges': edges}


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_device_ids_read_as_their_labels_in_text_and_figures(lang):
    d2l_ext.set_language(lang)
    # The CPU's memory is the server's: a copy from it names its source as the server, one name for one device.
    assert show.lane_name('link:cpu->lane 0') == d2l_ext.t('graph.link', src=d2l_ext.t('graph.server'),
                                                           dst=d2l_ext.t('graph.lane', i=0))
    assert show.lane_name('cuda:0') == 'GPU 0'
    assert show.lane_name('my lane') == 'my lane'  # a learner's own id stays itself
    if lang == 'zh' and not style.cjk_available():
        pytest.skip('no CJK font: plot text falls back to English')
    legend = [x.get_text() for x in show.draw_graph(_graph()).axes[0].get_legend().get_texts()]
    assert legend[0] == style.plot_text('graph.lane_device', lane=style.plot_text('graph.lane', i=0), device='GPU 0')
    assert not any(raw in text for text in legend for raw in ('cuda', '(cpu)', '（cpu）'))
    rows = [x.get_text() for x in show.draw_schedule(
        [{'lane': 'link:cpu->lane 0', 'name': 'copy in', 'start': 0.0, 'end': 1e-3}]).axes[0].get_yticklabels()]
    link = style.plot_text('graph.link', src=style.plot_text('graph.server'), dst=style.plot_text('graph.lane', i=0))
    assert rows == [style.plot_text('graph.link_row', link=link, what=style.plot_text('graph.stage.copy_in'))]


def _equal_lanes_experiment(one=0.021, planned=0.015):
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag()
    events, order = dg.dag_plan(dag, lanes)
    return dg.DagExperiment(dag, 8, [x.name for x in lanes], order, dg.dag_model(dag, lanes), None, events,
                            {dg.DAG_VARIANTS[0]: Measurement('a', [one]),
                             dg.DAG_VARIANTS[1]: Measurement('b', [planned])}, threads=[1, 1], cores=2)


def test_exercise_5_prints_its_predicted_milliseconds_beside_the_measured_ones_on_equal_lanes():
    r = _equal_lanes_experiment()
    per = 0.021 / 21
    assert r.predicted_ms()[dg.DAG_VARIANTS[1]] == pytest.approx(12 * per)  # the number the figure draws
    text = show.dag_text(r)
    assert f'{12 * per * 1e3:.2f} ms; measured 15.00 ms (median)' in text
    assert 'not counted' not in text


def test_exercise_5_on_lanes_of_different_speeds_prints_both_predictions_beside_both_medians():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    fast, slow = lanes[0].name, lanes[1].name
    dag = dg.diamond_dag()
    events, order = dg.dag_plan(dag, lanes, {fast: 1000.0, slow: 10.0})
    r = dg.DagExperiment(dag, 8, [fast, slow], order, dg.dag_model(dag, lanes), {fast: 1000.0, slow: 10.0}, events,
                         {dg.DAG_VARIANTS[0]: Measurement('a', [0.03]), dg.DAG_VARIANTS[1]: Measurement('b', [0.06])})
    text = show.dag_text(r)
    assert 'one lane, in order: predicted 21.00 ms, measured 30.00 ms (median)' in text
    assert f'two lanes, planned: predicted {r.predicted[dg.DAG_VARIANTS[1]] * 1e3:.2f} ms, measured 60.00 ms' in text
    assert 'copies and waiting' not in text


def test_the_traced_run_splits_each_lanes_time_into_running_fetching_and_waiting():
    r = dg.dag_experiment(['cpu', 'cpu'], n=24, stages=2, repeats=1)
    lanes, span = r.breakdown()
    assert sum(b['tasks'] for b in lanes.values()) == len(r.dag)
    for b in lanes.values():
        assert min(b['products'], b['copies'], b['waiting']) >= 0
        assert b['products'] + b['copies'] + b['waiting'] <= span + 1e-9
    text = show.dag_text(r)
    assert 'waiting for inputs' in text and 'the GPU lane' not in text  # no GPU lane here
    assert r.threads == [lane.threads for lane in dg.as_lanes(['cpu', 'cpu'])]


def test_the_all_cores_baseline_names_lane_0_with_its_own_share_of_the_cores():
    r = _equal_lanes_experiment()
    r.measurements[dg.DAG_VARIANTS[2]] = Measurement('c', [0.010])
    r.threads, r.cores = [8, 8], 16
    text = show.dag_text(r)  # the workload named, both times given, judged by the one test
    assert "this exercise's 21 products ran" in text
    assert 'as on CPU lane 0 (8 of 16 cores) in order (one median each (10.0 ms' in text


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_every_bar_name_left_in_a_schedule_fits_with_room_to_spare(lang):
    from matplotlib.patches import Rectangle
    d2l_ext.set_language(lang)
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu']))
    plan = dg.schedule_step(g, measured={n['id']: 1e-3 for n in g['nodes']})
    ax = show.draw_schedule(plan).axes[0]
    ax.figure.draw_without_rendering()
    bars = [p.get_window_extent() for p in ax.patches if isinstance(p, Rectangle)]
    pad = style.MIN_FONT_PT * ax.figure.dpi / 72
    for text in ax.texts:
        box = text.get_window_extent()
        under = [b for b in bars if b.x0 <= (box.x0 + box.x1) / 2 <= b.x1 and b.y0 <= (box.y0 + box.y1) / 2 <= b.y1]
        assert not under or box.width + pad <= min(b.width for b in under), text.get_text()
