"""13.3.3: labels that mean what they say (copies named for what they cross, the three step numbers, exercise 5)."""
import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402

import d2l_ext  # noqa: E402
from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext.depgraph import costs, schedule, sharing  # noqa: E402
from d2l_ext.depgraph.runs import TOGETHER  # noqa: E402
from d2l_ext.display import graph as show  # noqa: E402
from d2l_ext.timing import Measurement  # noqa: E402


@pytest.fixture(autouse=True)
def english():
    d2l_ext.set_language('en')
    yield
    d2l_ext.set_language('en')


def _legend(fig):
    return [x.get_text() for x in fig.axes[0].get_legend().get_texts()]


def test_a_copy_between_two_cpu_lanes_is_not_called_a_transfer_between_devices():
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu']))
    plan = dg.schedule_step(g, measured={n['id']: 1e-3 for n in g['nodes']})
    assert {e['across'] for e in plan.events if e['lane'].startswith('link:')} == {'lanes'}
    legend = _legend(show.draw_schedule(plan))
    assert d2l_ext.t('graph.role.copy_lanes') in legend and d2l_ext.t('graph.server') in legend
    assert d2l_ext.t('style.role.link') not in legend


def test_the_books_model_and_a_gpu_copy_are_transfers_between_devices():
    plan = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
    assert {e['across'] for e in plan.events if e['lane'].startswith('link:')} == {'devices'}
    assert d2l_ext.t('style.role.link') in _legend(show.draw_schedule(plan))
    assert costs.copy_kind({'device': 'cpu->cuda:0'}) == 'devices'
    assert costs.copy_kind({'device': 'cuda:0->cuda:0'}) == 'lanes'
    mixed = [{'lane': 'link:a->b', 'across': 'devices'}, {'lane': 'link:b->c', 'across': 'lanes'}]
    assert show._legend_names(mixed)['link'] == d2l_ext.t('graph.role.copy_mixed')
    assert 'link' not in show._legend_names([{'lane': 'link:a->b', 'across': 'devices'}])


def test_the_legend_is_chosen_where_it_is_drawn_in_chinese_too():
    from d2l_ext.display import style
    if not style.cjk_available():
        pytest.skip('no CJK font: plot text falls back to English')
    g = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu']))
    plan = dg.schedule_step(g, measured={n['id']: 1e-3 for n in g['nodes']})
    d2l_ext.set_language('zh')
    names = show._legend_names(plan.events)
    assert names['link'] == '同一设备上执行路之间的复制' and names['cpu'] == '服务器（CPU）'


def test_others_busy_is_the_machines_busy_time_minus_ours_over_wall_and_cores(monkeypatch):
    readings = iter([(100.0, 2), (101.5, 2)])  # the machine: 1.5 core-seconds busy during the block
    own = iter([10.0, 10.5])  # of which this process used 0.5
    clock = iter([0.0, 1.0])  # over one second on two cores
    monkeypatch.setattr(sharing, '_machine_busy_s', lambda: next(readings))
    monkeypatch.setattr(sharing, '_own_cpu_s', lambda: next(own))
    monkeypatch.setattr(sharing, '_wall', lambda: next(clock))
    with sharing.others_busy() as b:
        pass
    assert b.share == pytest.approx(0.5)
    monkeypatch.setattr(sharing, '_machine_busy_s', lambda: None)  # no counters (not Linux): unknown, not 0
    monkeypatch.setattr(sharing, '_own_cpu_s', lambda: 0.0)
    monkeypatch.setattr(sharing, '_wall', lambda: 0.0)
    with sharing.others_busy() as b:
        pass
    assert b.share is None


def test_others_busy_is_a_fraction_on_this_machine():
    with sharing.others_busy() as b:
        sum(range(10 ** 5))
    assert b.share is None or 0.0 <= b.share <= 1.0


class _Plan:
    total = 0.040


class _Rates:
    def __init__(self, busy):
        self.others_busy = busy


def _timing(busy):
    t = dg.StepTiming(['a', 'b'], 256, {TOGETHER: Measurement(TOGETHER, [0.005, 0.006, 0.009])},
                      predicted={TOGETHER: 0.030}, others_busy=busy)
    return t


def _vs(boxes, rates, step):
    plan = _Plan()
    plan.others_busy = boxes
    return show.schedule_vs_step_text(plan, _Rates(rates), _timing(step))


def test_the_three_numbers_each_say_what_they_measured_and_every_repeat_is_in_the_range():
    text = _vs(0.05, 0.05, 0.05)
    assert '40.00 ms' in text and '30.00 ms' in text and '6.00 ms' in text
    assert '5.00 to 9.00 ms' in text and 'median of 3 repeats' in text


def test_a_sentence_about_other_programs_only_when_their_measured_shares_decide_it():
    uneven = _vs(0.9, 0.1, 0.05)
    assert 'differ by 85%' in uneven and '90%' in uneven
    quiet = _vs(0.02, 0.05, 0.08)
    assert 'at most 8%' in quiet and 'differ by' not in quiet
    neither = _vs(0.3, 0.2, 0.4)  # busy everywhere, alike: no sentence names or rules out a cause
    assert 'differ by' not in neither and 'at most' not in neither
    unknown = _vs(None, 0.1, 0.1)
    assert 'an unknown share' in unknown and 'differ by' not in unknown and 'at most' not in unknown
    assert 'other programs' not in _vs(None, None, None)


def test_exercise_5_says_when_the_plan_was_forced_and_predicted_to_lose():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    fast, slow = lanes[0].name, lanes[1].name
    dag = dg.diamond_dag()
    speed = {fast: 1000.0, slow: 10.0}  # products per second: a GPU beside a CPU
    events, order = dg.dag_plan(dag, lanes, speed)
    r = dg.DagExperiment(dag, 8, [fast, slow], order, dg.dag_model(dag, lanes), speed, events,
                         {v: Measurement(v, [0.06]) if i == 1 else Measurement(v, [0.021])
                          for i, v in enumerate(dg.DAG_VARIANTS[:2])}, forced=[slow])
    assert r.predicted[dg.DAG_VARIANTS[0]] == pytest.approx(0.021)
    assert r.predicted[dg.DAG_VARIANTS[1]] == pytest.approx(schedule.schedule_total(events))
    text = show.dag_text(r)
    assert 'the planner alone gave lane 1 nothing' in text
    assert 'predicted from one product timed on each lane' in text
    assert 'slower than lane 0 alone' in text  # the model predicts the loss the run then shows
    assert '2.86x as long' in text  # the measured ratio beside it, worded by direction


def test_exercise_5_on_equal_lanes_prints_no_seconds_prediction():
    lanes = dg.as_lanes(['cpu', 'cpu'])
    dag = dg.diamond_dag()
    events, order = dg.dag_plan(dag, lanes)
    r = dg.DagExperiment(dag, 8, [x.name for x in lanes], order, dg.dag_model(dag, lanes), None, events,
                         {v: Measurement(v, [0.02]) for v in dg.DAG_VARIANTS[:2]})
    assert r.predicted is None and r.forced == []
    text = show.dag_text(r)
    assert 'predicted from one product' not in text and 'planner alone' not in text


def test_the_thread_test_explains_the_schedule_only_when_one_thread_was_much_faster():
    slow, fine = _Plan(), _Plan()
    slow.others_busy = fine.others_busy = None
    slow.thread_test = {'all': 0.200, 'one': 0.0005, 'threads': 2}
    fine.thread_test = {'all': 0.0006, 'one': 0.0005, 'threads': 2}
    a = show.schedule_vs_step_text(slow, _Rates(None), _timing(None))
    b = show.schedule_vs_step_text(fine, _Rates(None), _timing(None))
    assert '0.50 ms instead of 200.00 ms' in a and 'slowed it' in a
    assert 'does not show the split over the cores as what lengthened' in b and 'slowed it' not in b
    assert 'one thread was faster, but all cores took less than twice as long' in b
    assert 'one-thread boxes' not in a + b  # the schedule counts the all-core times: never named for one thread
    fine.thread_test = {'all': 0.0005, 'one': 0.0006, 'threads': 2}  # slower, but not twice as long
    c = show.schedule_vs_step_text(fine, _Rates(None), _timing(None))
    assert 'all cores took no longer than one thread' in c and 'one thread was faster' not in c


def test_node_costs_time_the_boxes_outside_the_lanes_again_with_one_thread(monkeypatch):
    import torch
    real = torch.get_num_threads()
    monkeypatch.setattr(torch, 'get_num_threads', lambda: 2)  # fake a second core: the test runs on any machine
    try:
        g, c = dg.measure_node_costs(['cpu', 'cpu'], repeats=1)
    finally:
        monkeypatch.undo()
        torch.set_num_threads(real)  # the faked count may have kept intra_op_threads from restoring it
    outside = {n['id'] for n in g['nodes'] if not n['lane'].startswith('lane ')}
    assert set(c.one_thread) == outside and c.threads == 2
    plan = dg.schedule_step(g, measured=c)
    assert plan.thread_test['all'] == pytest.approx(sum(c[k] for k in outside))
    assert plan.thread_test['one'] == pytest.approx(sum(c.one_thread.values()))
    assert plan.others_busy is None or 0.0 <= plan.others_busy <= 1.0


def test_a_recording_with_exercise_5_prints_its_plan_prediction_and_every_repeats_range():
    from d2l_ext.depgraph import recording
    from d2l_ext.display import graph_recorded
    d = {'n': 1024, 'tasks': 21, 'repeats': 3, 'model': {}, 'counts': [20, 1], 'forced': [1],
         'speeds': [25000.0, 250.0], 'predicted': {'one_lane': 21 / 25000.0, 'planned': 0.0045},
         'times': {'one_lane': [0.0009, 0.001, 0.0012], 'planned': [0.0028, 0.003, 0.0031]},
         'errors': {'one_lane': 1e-7, 'planned': 2e-7}}
    text = graph_recorded.dag_text(d)
    assert 'the plan puts 20 on lane 0, 1 on lane 1' in text
    assert 'the planner alone gave lane 1 nothing' in text
    assert 'slower than lane 0 alone' in text
    assert '0.900 to 1.200 ms' in text and 'planned took 3.00x as long' in text
    assert tuple(v for v, _ in graph_recorded.DAG_ROWS) == recording.DAG_IDS
    d2l_ext.set_language('zh')
    assert '书中的练习5' in graph_recorded.dag_text(d)


def test_record_dag_is_json_ready_on_cpu_lanes():
    import json

    from d2l_ext.depgraph import recording
    d = json.loads(json.dumps(recording.record_dag(dg.as_lanes(['cpu', 'cpu']), repeats=1)))
    assert d['tasks'] == 21 and sum(d['counts']) == 21 and d['forced'] == [] and d['predicted'] is None
    assert set(d['times']) == set(recording.DAG_IDS) and all(len(v) == 1 for v in d['times'].values())


# -- verdicts that respect the spread, overlap that does not explain a saving, one pair of boxes timed twice ----

def _m(label, times):
    return Measurement(label, [x * 1e-3 for x in times])  # milliseconds in


def test_a_saving_is_claimed_only_when_the_repeats_are_told_apart():
    from d2l_ext.results import told_apart
    split = _m('split', [2.14, 2.21, 2.21, 2.23, 2.28, 2.32, 2.55])
    apart = _m('one', [2.8, 2.88, 3.03, 3.09, 3.23, 3.26, 3.26])  # every repeat slower than every split repeat
    outlier = _m('one', [2.41, 3.3, 3.3, 3.33, 3.42, 3.65, 3.7])  # one repeat inside the other's range
    args = ('graph.split',)
    assert told_apart(split, apart) and told_apart(split, outlier)  # one outlying repeat does not undo a verdict
    assert 'splitting the batch paid off' in show.versus_text(*args, split, apart)
    text = show.versus_text(*args, split, outlier)  # the interquartile ranges it compared, quoted
    assert 'paid off' in text and 'the middle halves of the repeats (2.21–2.30 ms and 3.30–' in text
    assert text.count('interquartile range') == 1  # display.apart's one clause, not a second copy in the head
    # medians further apart than the larger IQR, the middle halves of the repeats still overlapping: no verdict
    low, high = _m('split', [1.0, 1.0, 1.0, 2.0, 2.0]), _m('one', [1.9, 1.9, 2.2, 2.2, 2.2])
    assert not told_apart(low, high)
    text = show.versus_text(*args, low, high)
    assert 'paid off' not in text.replace('does not show that splitting the batch paid off', '')
    # both parts of the test, in that order, in one clause: never 'within the spread' after 'differ by more'
    assert ('differ by 1.20 ms, more than the larger interquartile range (1.00 ms), but the middle halves of the '
            'repeats overlap (1.00–2.00 ms and 1.90–2.20 ms): not told apart') in text
    assert 'within the spread' not in text
    with_gap = show.versus_text(*args, split, _m('one', [2.2, 2.3, 2.4]))  # medians within the larger IQR
    assert 'differ by 0.07 ms, no more than the larger interquartile range' in with_gap and 'not told apart' in with_gap
    d2l_ext.set_language('zh')
    zh = show.versus_text(*args, low, high)
    assert '但各次重复的中间一半相互重叠（1.00–2.00 毫秒与1.90–2.20 毫秒）：区分不出' in zh and '波动' not in zh
    assert '各次重复的中间一半（2.21–2.30 毫秒与3.30–' in show.versus_text(*args, split, outlier)


def test_the_step_figure_and_its_sentences_read_one_set_of_verdicts():
    from d2l_ext.display.graph_draw import verdicts
    tied = dg.StepTiming(['a', 'b'], 256, {'one_device': _m('one_device', [1.9, 1.9, 2.2, 2.2, 2.2]),
                                           'in_turn': _m('in_turn', [5.0, 5.1, 5.2, 5.3, 5.4]),
                                           'split': _m('split', [1.0, 1.0, 1.0, 2.0, 2.0])})
    title = show.draw_step_timing(tied).axes[0].get_title(loc='left')
    assert 'not told apart' in title and 'fastest' not in title
    assert 'two lanes together and one device with the whole minibatch: the medians' in show.step_timing_text(tied)
    # one outlying repeat of the faster way: still named fastest, in the title and in the sentence alike
    s = dg.StepTiming(['a', 'b'], 256, {'one_device': _m('one_device', [3.3, 3.3, 3.33, 3.42, 3.7]),
                                        'in_turn': _m('in_turn', [5.0, 5.1, 5.2, 5.3, 5.4]),
                                        'split': _m('split', [2.1, 2.2, 2.2, 2.3, 3.5])})
    assert verdicts(s) is verdicts(s)  # made once, kept on the result
    title = show.draw_step_timing(s).axes[0].get_title(loc='left')
    assert 'fastest here, "two lanes together"' in title
    assert 'two lanes together ran 1.51x as fast as one device' in show.step_timing_text(s)


def test_exercise_5_title_and_sentence_state_one_verdict():
    r = dg.dag_experiment(['cpu', 'cpu'], n=8, stages=1, repeats=1)
    one, planned = dg.DAG_VARIANTS[:2]
    # the zh CPU build's numbers: one outlying planned repeat inside the one-lane range
    r.measurements = {one: _m(one, [36.74, 38.0, 38.39, 38.8, 39.03]),
                      planned: _m(planned, [21.89, 22.1, 22.57, 23.0, 39.83])}
    title = show.draw_dag(r).axes[1].get_title(loc='left')
    assert '1.70x as fast as one lane in order' in title
    assert 'two lanes planned ran 1.70x as fast as one lane in order' in show.dag_text(r)
    r.measurements = {one: _m(one, [1.9, 1.9, 2.2, 2.2, 2.2]), planned: _m(planned, [1.0, 1.0, 1.0, 2.0, 2.0])}
    title = show.draw_dag(r).axes[1].get_title(loc='left')
    assert 'not told apart' in title and 'as fast' not in title
    assert 'two lanes planned and one lane in order: the medians' in show.dag_text(r)


def _overlap_timing(fraction, intervals, split, in_turn):
    t = dg.StepTiming(['a', 'b'], 256, {'one_device': _m('one_device', [3.05, 3.1, 3.15]),
                                        'in_turn': _m('in_turn', in_turn), 'split': _m('split', split)},
                      predicted={'in_turn': 3e-3, 'split': 2e-3})
    t.overlap = dg.LaneOverlap(intervals, fraction)
    return t


def test_a_saving_without_overlap_is_not_put_down_to_overlap():
    halves = [(1.5e-3, 3.0e-3), (0.0, 1.4e-3)]  # recorded in the order they ended: one after the other
    t = _overlap_timing(0.0, halves, split=[3.0, 3.1, 3.2], in_turn=[4.0, 4.1, 4.2])
    text = show.overlap_text(t)
    assert 'busy 0% of its time' in text
    assert 'one half was busy from 0.00 to 1.40 ms and the other from 1.50 to 3.00 ms' in text
    assert 'below that of "two lanes, one after the other" (4.10 ms)' in text and 'one device' not in text
    assert 'does not explain that difference' in text
    d2l_ext.set_language('zh')
    assert '本次运行测得的重叠解释不了这个差别' in show.overlap_text(t)
    d2l_ext.set_language('en')
    within = _overlap_timing(0.0, halves, split=[3.0, 3.1, 4.1, 4.2], in_turn=[4.0, 4.1, 4.2])  # IQRs overlap
    assert 'does not explain' not in show.overlap_text(within)
    overlapped = _overlap_timing(0.95, [(0.0, 1.4e-3), (0.05e-3, 1.45e-3)], split=[3.0, 3.1, 3.2],
                                 in_turn=[4.0, 4.1, 4.2])
    assert 'does not explain' not in show.overlap_text(overlapped)


class _RatesAt:
    def __init__(self, together):
        self.together, self.others_busy = together, None


def test_the_schedule_apart_from_the_step_is_given_its_difference_without_a_cause():
    plan = _Plan()
    plan.others_busy = None
    timing = _timing(None)  # measured median 6 ms; the schedule 40 ms is beyond 1.5x: the older sentence
    assert 'do not predict the step' in show.schedule_vs_step_text(plan, _Rates(None), timing)
    plan.total = 0.0075  # 1.25x the measured step: apart by more than 10%, within 1.5x
    text = show.schedule_vs_step_text(plan, _Rates(None), timing)
    assert '(7.50 ms) is 1.25x the measured step (6.00 ms)' in text and 'differ by 1.50 ms' in text
    assert 'does not break that difference down' in text
    plan.total = 0.0043  # 0.72x: shorter than the step, said as shorter
    text = show.schedule_vs_step_text(plan, _Rates(None), timing)
    assert '(4.30 ms) is shorter than the measured step (6.00 ms) by 1.70 ms' in text
    assert 'does not break that difference down' in text and 'read the schedule for its order' not in text
    plan.total = 0.0017  # 0.28x: shorter beyond 1.5x
    assert 'read the schedule for its order' in show.schedule_vs_step_text(plan, _Rates(None), timing)
    plan.total = 0.0059  # within 10%: nothing to reconcile
    assert 'break that difference' not in show.schedule_vs_step_text(plan, _Rates(None), timing)


def test_both_lanes_boxes_at_once_timed_twice_are_set_side_by_side_when_they_differ():
    timing = _timing(None)
    timing.overlap = dg.LaneOverlap([(0.0, 1.5e-3), (0.05e-3, 1.55e-3)], 0.97)
    plan = _Plan()
    plan.others_busy = None
    text = show.schedule_vs_step_text(plan, _RatesAt(2.77e-3), timing)
    assert '2.77 ms in the rates above' in text and '1.55 ms from the first half' in text
    assert "(the rates' time is 1.79x the step's)" in text  # which over which, named
    assert 'does not test why' in text
    assert 'timed twice' not in show.schedule_vs_step_text(plan, _RatesAt(1.6e-3), timing)  # within 10%
    d2l_ext.set_language('zh')
    zh = show.schedule_vs_step_text(plan, _RatesAt(2.77e-3), timing)
    assert '计时了两次' in zh and '测速度时的时间是训练步中的 1.79 倍' in zh


def test_the_thread_test_is_printed_only_beside_a_schedule_longer_than_the_step():
    plan = _Plan()
    plan.others_busy = None
    plan.thread_test = {'all': 0.0006, 'one': 0.0005, 'threads': 2}
    timing = _timing(None)  # the step's median: 6 ms
    assert 'a test:' in show.schedule_vs_step_text(plan, _Rates(None), timing)  # the schedule: 40 ms, too long
    plan.total = 0.0017  # too short: a slow box outside the lanes could only lengthen it
    text = show.schedule_vs_step_text(plan, _Rates(None), timing)
    assert 'a test:' not in text and 'shorter than the measured step (6.00 ms) by 4.30 ms' in text
    plan.total = 0.0059  # within 10%: no gap, no test
    assert 'a test:' not in show.schedule_vs_step_text(plan, _Rates(None), timing)


def test_lane_0s_boxes_timed_twice_are_set_side_by_side_when_they_differ():
    gpu = dg.LaneRates([0.43e-3, 1.88e-3], 1.76e-3, 0.65e-3, cores=16, kind='gpu')
    text = show.rates_text(gpu)
    assert '0.43 ms alone above, 0.65 ms as the one-device baseline (the baseline is 1.51x the first)' in text
    assert 'does not test why' in text
    assert 'timed twice' not in show.rates_text(dg.LaneRates([0.43e-3, 1.88e-3], 1.76e-3, 0.45e-3, 16, kind='gpu'))
    cpu = dg.LaneRates([1.51e-3, 1.57e-3], 2.81e-3, 2.22e-3, cores=2, kind='cpu')
    text = show.rates_text(cpu)
    assert "took 2.22 ms with all 2 cores in one thread against 1.51 ms on lane 0's own share" in text
    assert 'does not test why more cores took longer' in text
    faster = dg.LaneRates([1.51e-3, 1.57e-3], 2.81e-3, 0.9e-3, cores=2, kind='cpu')  # all cores faster: expected
    assert 'took longer' not in show.rates_text(faster)
    d2l_ext.set_language('zh')
    assert '计时了两次' in show.rates_text(gpu) and '核心更多反而更慢' in show.rates_text(cpu)


def test_a_prediction_far_from_its_measurement_is_said_in_numbers():
    s = dg.StepTiming(['a', 'b'], 256, {'one_device': _m('one_device', [0.7, 0.74, 0.76, 0.8, 0.9]),
                                        'split': _m('split', [3.3, 3.35, 3.36, 3.4, 3.5])},
                      predicted={'one_device': 1.46e-3, 'split': 3.3e-3})
    text = show.step_timing_text(s)
    assert 'one device, whole minibatch, no copies, measured 0.76 ms against 1.46 ms predicted (0.52x' in text
    assert 'two lanes together, measured' not in text and 'this run does not test why' in text
    s.predicted['one_device'] = 0.78e-3  # within 10%: no sentence
    assert 'further apart than' not in show.step_timing_text(s)


def test_the_schedules_floor_prints_the_critical_path_and_the_busiest_row_and_takes_the_larger():
    from types import SimpleNamespace
    events = [{'lane': 'lane 0', 'start': 0.0, 'end': 1e-3}, {'lane': 'lane 1', 'start': 0.0, 'end': 0.8e-3},
              {'lane': 'lane 1', 'start': 0.8e-3, 'end': 1.3e-3}]
    for crit, floor in ((1.473e-3, '1.473 ms'), (1.1e-3, '1.300 ms')):
        r = SimpleNamespace(costs='model', serial_total=2.3e-3, total=1.5e-3, critical_path_s=crit, repeats=0,
                            events=events, critical_path=[])
        d2l_ext.set_language('en')
        text = show.schedule_text(r, path=False)
        assert f'the critical path, {crit * 1e3:.3f} ms,' in text and 'busiest row (lane 1)' in text
        assert 'in turn, 1.300 ms; the floor is the larger, ' + floor in text
        d2l_ext.set_language('zh')
        assert '下界取两者中较大的一个，即 ' + floor.replace('ms', '毫秒') in show.schedule_text(r, path=False)
    d2l_ext.set_language('en')


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_a_prediction_off_its_measurement_points_to_the_thread_test_only_where_it_follows(lang):
    d2l_ext.set_language(lang)
    tested = {'en': 'one possible cause is tested below the schedule', 'zh': '调度下方检验了一个可能的原因'}[lang]
    untested = {'en': 'this run does not test why', 'zh': '本次运行没有检验原因'}[lang]
    timing = _timing(None)  # measured 6 ms, predicted 30 ms: a prediction above its measurement
    plan = _Plan()  # the schedule, 40 ms, longer than the step: the thread test is printed after it
    plan.others_busy, plan.thread_test = None, {'all': 0.0006, 'one': 0.0005, 'threads': 2}
    before, after = show.step_timing_text(timing, plan), show.schedule_vs_step_text(plan, _Rates(None), timing)
    assert tested in before and untested not in before and show.thread_test_text(plan) in after
    assert untested in show.step_timing_text(timing)  # no schedule given: nothing said to follow
    plan.total = 0.0017  # the schedule shorter than the step: no thread test follows, so none is pointed to
    assert untested in show.step_timing_text(timing, plan) and tested not in show.step_timing_text(timing, plan)
    plan.total, timing.predicted = 0.040, {TOGETHER: 0.003}  # measured above its prediction: the test cannot bear
    assert untested in show.step_timing_text(timing, plan)


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_other_programs_all_at_zero_are_said_as_zero_not_at_most_zero(lang):
    from d2l_ext.i18n import using_language
    with using_language(lang):
        zero, some = _vs(0.0, 0.001, 0.0), _vs(0.0, 0.03, 0.0)
    if lang == 'en':
        assert 'used 0% of the cores in all three' in zero and 'at most 0%' not in zero and 'at most 3%' in some
    else:
        assert '都是 0%' in zero and '都不超过 0%' not in zero and '都不超过 3%' in some
