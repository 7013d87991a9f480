"""13.3.3's round-3 reader findings: every printed difference and ratio from the numbers as printed, one wording
for speed ratios ('as fast as'), exercise 5's figure saying which run its bars are, the overlap's step said exactly."""
import pathlib
import re

import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402

from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.depgraph.runs import APART, ONE_DEVICE, TOGETHER, LaneOverlap  # noqa: E402
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.i18n import using_language  # noqa: E402
from d2l_ext.results import Measurement  # noqa: E402

SRC = pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.3-The-Dependency-Graph.py'


def _timing(apart_ms, together_ms, pred_apart=3.92e-3, pred_together=3.36e-3):
    """A timed step with the zh CPU build's medians (4.67 and 4.05 ms as printed) and a recorded overlap."""
    ms = {APART: [x * 1e-3 for x in apart_ms], TOGETHER: [x * 1e-3 for x in together_ms],
          ONE_DEVICE: [4.06e-3, 4.09e-3, 4.26e-3]}
    return dg.StepTiming(['a', 'b'], 256, {k: Measurement(k, v) for k, v in ms.items()},
                         predicted={APART: pred_apart, TOGETHER: pred_together, ONE_DEVICE: 4.75e-3},
                         overlap=LaneOverlap([(0.0, 2.99e-3), (0.1e-3, 3.27e-3)], 1.0, wall=3.3e-3, runs=3))


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_the_wall_clock_saving_is_the_printed_medians_difference(lang):
    """zh CPU build: medians 4.67 and 4.05 ms, the clause said 相差 0.62, the overlap line 0.61 (4.6655 - 4.0543)."""
    s = _timing([4.64, 4.6655, 4.75], [3.87, 4.0543, 4.12], pred_apart=3.9249e-3, pred_together=3.3649e-3)
    with using_language(lang):
        text = show.step_timing_text(s)
    assert '4.67' in text and '4.05' in text and '0.61' not in text
    assert re.search(r'0\.62 (ms|毫秒)\b.*0\.62 (ms|毫秒)', text, re.S)  # the clause's and the overlap line's
    assert '0.56' in text  # predicted 3.92 - 3.36, as printed (the raw predictions differ by 0.5600)


def test_the_overlap_line_says_which_step_of_how_many_it_is():
    s = _timing([4.64, 4.67, 4.75], [3.87, 4.05, 4.12])
    with using_language('en'):
        en = show.overlap_text(s)
    with using_language('zh'):
        zh = show.overlap_text(s)
    assert 'the median overlap of 3' not in en
    assert 'of 3 steps recorded after the timing, the one whose overlap was the median' in en
    assert '3 次中重叠居中的一次' not in zh and '另行记录了 3 个训练步，取重叠为中位数的那一个' in zh


def test_the_verdict_ratio_is_taken_from_the_medians_its_clause_prints():
    """5.864 / 2.119 = 2.767, but the clause prints 5.86 and 2.12: the head says 2.76 (5.86 / 2.12)."""
    planned = Measurement('b', [5.343e-3, 5.425e-3, 5.864e-3, 5.909e-3, 6.107e-3])
    one = Measurement('a', [2.056e-3, 2.096e-3, 2.119e-3, 2.156e-3, 2.271e-3])
    with using_language('en'):
        text = show.versus_text('graph.dag', planned, one)
    assert '5.86 ms and 2.12 ms' in text and 'took 2.76x as long' in text


def _plan_events():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag(stages=3, arms=(1, 2, 3), cross=True)
    return lanes, dag, dg.dag_plan(dag, lanes)


def _dag(span_s, planned_ms, one_ms):
    """Exercise 5 with the en CPU build's numbers: the timed medians and one traced run of `span_s` seconds."""
    lanes, dag, (events, order) = _plan_events()
    trace, end = [], [0.0, 0.0]
    for i, lane in enumerate(lanes):
        width = span_s / len(order[lane.name]) - 1e-6
        for name in order[lane.name]:
            trace.append({'lane': lane.name, 'name': name, 'start': end[i], 'end': end[i] + width,
                          'ready': end[i], 'copied': end[i]})
            end[i] += width
    trace[-1]['end'] = span_s  # the run spans exactly span_s
    return dg.DagExperiment(dag, 8, [x.name for x in lanes], order, dg.dag_model(dag, lanes), None, events,
                            {dg.DAG_VARIANTS[0]: Measurement('a', [x * 1e-3 for x in one_ms]),
                             dg.DAG_VARIANTS[1]: Measurement('b', [x * 1e-3 for x in planned_ms])},
                            trace=trace, threads=[1, 1], cores=2)


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_exercise_5_figure_says_its_bars_are_one_run_after_the_timing_beside_the_median(lang):
    """en CPU build: 'The plan run here: 1.51x as fast as one lane in order (medians)' above bars of the traced run
    (26.67 ms) beside a dashed 'predicted: 27.1 ms', while the median repeat took 31.44 ms."""
    from d2l_ext.display import graph_draw, style
    r = _dag(26.67e-3, [28.0, 29.7, 31.44, 35.7, 36.0], [47.3, 47.4, 47.50, 49.7, 50.0])
    with using_language(lang):
        title = graph_draw.dag_run_title(r)
        drawn = show.draw_dag(r).axes[1].get_title(loc='left')
        bars = style.plot_text('graph.title_dag_bars', span=26.67, median='31.4')
    assert title == drawn.split('\n' + style.plot_text('graph.dag_unnamed'))[0]
    assert title.endswith(bars) and '26.67' in title and '31.4' in title and '47.5' in title
    assert '(medians)' not in title and '（中位数）' not in title


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_speed_ratios_are_said_as_fast_as_never_faster_than(lang):
    lanes, dag, _ = _plan_events()
    with using_language(lang):
        model = show.dag_model_text(dg.dag_model(dag, lanes))
        plan = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
        text = show.schedule_text(plan)
    for said in (model, text):
        assert 'x faster' not in said and 'faster than' not in said
    if lang == 'en':
        assert 'x as fast as serial' in model and 'x as fast as one box at a time' in text


def test_the_schedule_speedup_is_the_printed_totals_ratio():
    """Totals printed 0.500 and 0.100 ms: the speedup says 5.00x (0.500 / 0.100), not 4.98x (0.5 / 0.10037)."""
    class Plan:
        costs, repeats, critical_path = 'model', 1, []
        serial_total, total, critical_path_s = 0.5e-3, 0.10037e-3, 0.10037e-3
        events = [{'lane': 'lane 0', 'start': 0.0, 'end': 0.05e-3}]
    with using_language('en'):
        text = show.schedule_text(Plan(), path=False)
    assert 'serial total 0.500 ms; scheduled total 0.100 ms' in text
    assert '5.00x as fast' in text and '4.98' not in text


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_the_recorded_split_ratio_is_the_printed_medians_ratio(lang):
    """The shipped H200 recording printed 3.196 / 0.982 as 3.26 and 6.420 / 0.591 as 10.87 (3.25 and 10.86)."""
    from d2l_ext.depgraph import recording
    from d2l_ext.display import graph_recorded
    rec = recording.newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language(lang):
        text = graph_recorded.recorded_text(rec)
    for run in rec['runs']:
        s = recording.summary(run)
        split, one = (round(s['median'][v] * 1e3, 3) for v in ('split', 'one_device'))
        assert f'{split / one:.2f}' in text
    if rec['machine'].get('date', '').startswith('2026-12-04'):
        assert '3.25' in text and '10.86' in text and '3.26' not in text and '10.87' not in text


def test_the_zh_source_says_the_task_in_chinese_and_queues_as_the_other_lessons():
    zh = ''.join(part for part in SRC.read_text().split('# %%') if part.startswith(' [markdown] lang="zh"'))
    assert 'sum of its inputs' not in zh and 'tanh((各输入之和) @ W)' in zh
    assert '被放入队列' not in zh and '排入队列' in zh


def test_the_rates_line_computes_its_gap_and_ratios_from_the_printed_milliseconds():
    from types import SimpleNamespace

    from d2l_ext.display import graph as show_graph
    from d2l_ext.i18n import using_language
    alone, together = (0.001534, 0.000236), 0.001366  # the GPU edition: printed 1.53, 0.24 and 1.37 ms
    r = SimpleNamespace(alone=alone, together=together, kind='gpu', all_cores=0.001534, cores=16,
                        rate=sum(alone) / together, ideal_rate=sum(alone) / max(alone), slowdown=together / max(alone))
    with using_language('en'):
        text = show_graph.rates_text(r)
    assert "both lanes' at once 1.37 ms" in text and '0.16 ms less than 1.53 ms' in text, text
    assert f'{1.37 / 1.53:.3f}x as long' in text and f'{(1.53 + 0.24) / 1.37:.2f}x as fast' in text
