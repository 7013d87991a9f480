"""13.3.1: expectations from the hardware, typed results, checked answers (CPU lanes, small sizes)."""
import json

import pytest

from d2l_ext import UsageError
from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel_exercises as dx
from d2l_ext.display import scaling as ds
from d2l_ext.lanes import fake_hardware, find_lanes, make_lane, pick_lanes
from d2l_ext.parallel import (
    expectation,
    measure_independence,
    measure_launch_order,
    measure_parallel,
    measure_small_ops,
    measure_sync_mistake,
    measure_timeline,
)

GPU0, GPU1 = make_lane('torch', 'gpu', 0), make_lane('torch', 'gpu', 1)


def test_separate_hardware_expects_the_slower_lane():
    e = expectation([GPU0, GPU1], [1.0, 0.6], cores=2)
    assert e.rule == 'separate' and e.seconds == 1.0 and e.speedup == pytest.approx(1.6)


def test_one_core_expects_no_speedup():
    with fake_hardware(gpus=0, cores=1):
        lanes = find_lanes('torch')
    e = expectation(lanes, [0.5, 0.5], cores=1)
    assert e.rule == 'shared' and e.ways == 1 and e.speedup == pytest.approx(1.0)


def test_two_cores_one_thread_each_expect_two_at_once():
    with fake_hardware(gpus=0, cores=2):
        lanes = find_lanes('torch')
    assert expectation(lanes, [0.5, 0.5], cores=2).speedup == pytest.approx(2.0)


def test_mxnet_engine_expects_no_gain_on_cpu():
    lanes = [make_lane('mxnet', 'cpu', i, threads=1) for i in range(2)]
    e = expectation(lanes, [0.3, 0.3], cores=2)
    assert e.rule == 'engine' and e.speedup == pytest.approx(1.0)


def test_parallel_result_is_typed_checked_and_json():
    r = measure_parallel(pick_lanes('torch'), size=64, iters=3, repeats=2)
    assert r.iters == [3, 3] and len(r.lane_times) == 2 and len(r.together.times) == 2
    assert r.serial_sum == pytest.approx(sum(m.median for m in r.lane_times))
    assert r.speedup == pytest.approx(r.serial_sum / r.together.median)
    assert r.max_rel_error < 1e-4 and r.expected <= r.serial_sum
    d = json.loads(json.dumps(r.to_json()))
    assert {'lanes', 'lane_times', 'serial_sum', 'together', 'expected', 'expected_speedup', 'expectation',
            'speedup', 'max_rel_error', 'machine'} <= set(d)
    assert len(r.to_frame()) == 5  # two lanes, the sum, together, the expectation


def test_too_long_is_refused_with_the_estimate():
    with pytest.raises(UsageError, match='would take about'):
        measure_parallel(pick_lanes('torch'), size=2000, iters=50, repeats=3, max_seconds=1)


def test_timeline_and_exercises_on_cpu():
    with fake_hardware(gpus=0):  # the CPU lanes' version, on a GPU machine too
        lanes = pick_lanes('torch')
    t = measure_timeline(lanes, size=64, iters=3)
    assert len(t.events) == 6 and {e['lane'] for e in t.events} == {lane['name'] for lane in t.lanes}
    assert all(e['role'].startswith('lane ') for e in t.events)
    ind = measure_independence(lanes, size=64, iters=3, repeats=1)
    assert set(ind.times) == {'one_at_a_time', 'issued_together'} and ind.threads == lanes[0].threads
    small = measure_small_ops(lanes, size=16, iters=4, repeats=1)
    assert set(small.times) == {'one_lane', 'two_threads', 'batched'} and small.products == 8
    assert measure_sync_mistake(lanes).reason == 'parallel.sync.no_gpu'
    assert measure_launch_order(lanes).reason == 'parallel.launch.needs_gpu_cpu'


def test_sentences_follow_the_numbers():
    from types import SimpleNamespace as NS

    from d2l_ext.display import parallel as dp
    from d2l_ext.i18n import using_language
    with using_language('en'):
        assert 'sum of the lanes alone (0.200 s): 0.0% apart (a share of the sum), within 10%' in dp.book_text(
            [0.1, 0.1], 0.2)  # numbers only
        assert '5.0% apart (a share of the slower lane alone)' in dp.book_text([0.1, 0.1], 0.105)
        # 'close' is within 10% as a ratio to the reference: the GPU edition's 0.275 s is 10.4% above 0.249 s
        assert 'between' in dp.book_text([0.2493, 0.2466], 0.2753) and '10.4%' in dp.book_text([0.2493, 0.2466], 0.2753)
        assert 'between' in dp.book_text([0.1, 0.1], 0.15)
        above = dp.book_text([0.1, 0.1], 0.3)  # together slower than the sum: never 'between'
        assert 'more than the sum' in above and 'between' not in above
        below = dp.book_text([0.1, 0.2], 0.15)  # faster than the slower lane alone
        assert 'less than the slower lane' in below and 'between' not in below
        assert '0.050 s less' in dp.wall_text(0.3, 0.25) and '0.050 s longer' in dp.wall_text(0.25, 0.3)
        assert '-' not in dp.wall_text(0.25, 0.3)
    with using_language('zh'):
        assert '多用 0.050 秒' in dp.wall_text(0.25, 0.3) and '超过' in dp.book_text([0.1, 0.1], 0.3)
    with using_language('en'):
        assert 'About the same' in dp.no_wait_text({'no_wait': [0.2], 'every_device': [0.21]})
        assert 'queued' in dp.no_wait_text({'no_wait': [0.001], 'every_device': [0.13]})
        not_early = dp.no_wait_text({'no_wait': [0.70], 'every_device': [0.49]})  # longer, yet not 'about the same'
        assert 'did not stop early' in not_early and 'About the same' not in not_early
        lost = dp.verdict_text([0.1, 0.1], 0.2, 0.12, 0.08)
        assert 'one device doing both was 1.50x as fast as the lanes together' in lost and 'pay' not in lost
        small = dp.verdict_text([0.1, 0.1], 0.2, 0.1, 0.102)
        assert 'together was faster than one device doing both, 2.0% apart (a share of the larger), within 10%' in small
        beaten = dp.verdict_text([0.1, 0.1], 0.2, 0.1, 0.15)  # same cores: no claim of added computing power
        assert 'together was 1.50x as fast as one device doing both' in beaten and 'computing power' not in beaten

        def curve(*speedups):
            return NS(framework='torch', points=[NS(size=64 * 2 ** i, speedup=s, expected_speedup=1.9)
                                                 for i, s in enumerate(speedups)])
        assert 'the median speedup did not fall' in ds.scaling_text([curve(1.0, 1.4, 1.9)])
        assert 'shrank' in ds.scaling_text([curve(1.06, 1.0, 0.93, 0.5)])
        assert 'no steady trend' in ds.scaling_text([curve(1.0, 1.6, 0.9)])
        assert 'about the same' in ds.scaling_text([curve(1.0, 1.02, 0.98)])


def _timeline(spans, lanes=('lane A', 'lane B')):
    from d2l_ext.parallel import TimelineResult
    events = [{'lane': lane, 'name': f'mm {j}', 'start': a + j * (b - a) / 4, 'end': a + (j + 1) * (b - a) / 4}
              for lane, (a, b) in zip(lanes, spans) for j in range(4)]
    return TimelineResult('torch', 64, [4, 4], _ids(*lanes), events, 'thread clock')


def _ids(*names):
    """Lane dicts as a result stores them (ids only); a name no lane id matches is its own label."""
    return [dict(framework='torch', name=n, kind='cpu', index=i) for i, n in enumerate(names)]


def test_lane_overlap_is_an_interval_fraction_with_the_wall_clock_beside_it():
    from d2l_ext.i18n import using_language
    assert dl.lane_overlap(_timeline([(0.0, 1.0), (0.0, 0.5)])) == pytest.approx(1.0)
    assert dl.lane_overlap(_timeline([(0.0, 1.0), (1.0, 2.0)])) == pytest.approx(0.0)
    assert dl.lane_overlap(_timeline([(0.0, 1.0), (0.75, 1.25)])) == pytest.approx(0.5)
    with using_language('en'):
        text = dl.overlap_text(_timeline([(0.0, 1.0), (0.75, 1.25)]), serial=1.5, together=1.25)
    assert '50% of its time' in text and 'predicted 100%' in text and '0.250 s less' in text


def test_guess_cells_show_the_closed_form_and_the_measurement_with_or_without_a_guess():
    from d2l_ext.display import parallel as dp
    from d2l_ext.i18n import using_language
    with using_language('en'):
        none = dp.guess_text(None, 0.2, 0.25)
        mine = dp.guess_text(0.3, 0.2, 0.25)
    assert 'my_guess' in none and 'closed form: 0.200 s' in none and 'measured: 0.250 s' in none
    assert 'your guess: 0.300 s' in mine
    with using_language('en'):
        assert 'my_overlap' in dp.guess_text(None, 1.0, 0.9, unit='%', name='my_overlap')
    with using_language('zh'):
        assert '倍' in dp.guess_text(1.5, 2.0, 1.9, unit='x')


def test_timeline_prediction_by_lane_order_survives_a_language_switch():
    """13.3.1's cell 12 broke when the lanes were named in one language and the timeline in another."""
    from d2l_ext.i18n import using_language
    tl = _timeline([(0.0, 1.0), (0.0, 0.5)], lanes=('CPU 执行路 0', 'CPU 执行路 1'))
    with using_language('en'):
        fig = dl.plot_timeline(tl, predicted=[1.0, 0.5])
    assert fig.axes


def test_gpu_lane_is_never_labelled_with_threads():
    from types import SimpleNamespace as NS

    from d2l_ext.i18n import using_language
    from d2l_ext.results import Times
    times = {'one_at_a_time': Times.from_times([0.2], 'one_at_a_time'),
             'issued_together': Times.from_times([0.2], 'issued_together')}
    lane = make_lane('torch', 'gpu', 0).as_dict()  # the result stores the lane's ids; the text labels it
    r = NS(framework='torch', engine='eager', lane=lane, threads=0, iters=10, size=64, times=times, ratio=1.0)
    with using_language('en'):
        text = dx.independence_text(r)
    assert 'thread' not in text and 'GPU 0' in text


def test_independence_sentence_is_chosen_by_what_the_variants_differ_in():
    # issue 21: on a GPU lane the gain of issuing together is the skipped waits, never 'ran at the same time'
    from types import SimpleNamespace as NS

    from d2l_ext.i18n import using_language
    from d2l_ext.results import Times
    times = {'one_at_a_time': Times.from_times([0.4], 'one_at_a_time'),
             'issued_together': Times.from_times([0.2], 'issued_together')}

    def run(framework, kind, engine, ts=times):
        lane = dict(framework=framework, name='x', kind=kind, index=0)
        return NS(framework=framework, engine=engine, lane=lane, threads=0 if kind == 'gpu' else 1, iters=10,
                  size=64, times=ts, ratio=ts['one_at_a_time'].median / ts['issued_together'].median, kind=kind)

    def said(framework, kind, engine, control=None):
        with using_language('en'):
            return dx.independence_text(run(framework, kind, engine), control)
    gpu = said('torch', 'gpu', 'eager')
    assert 'skipped waits' in gpu and 'same time by itself' not in gpu
    assert 'nothing measured' in said('torch', 'cpu', 'eager')
    assert 'nothing measured' in said('mxnet', 'cpu', 'ThreadedEnginePerDevice')  # no in-order control: untested
    assert 'nothing measured' in said('mxnet', 'cpu', 'NaiveEngine')
    # en reader item 7: the control's one at a time (0.15 s) beat issued together (0.2 s): no concurrency claimed
    quick = {'one_at_a_time': Times.from_times([0.15], 'one_at_a_time'),
             'issued_together': Times.from_times([0.15], 'issued_together')}
    lost = said('mxnet', 'cpu', 'ThreadedEnginePerDevice', run('mxnet', 'cpu', 'NaiveEngine', quick))
    assert 'does not show' in lost and 'same time by itself' not in lost and 'thread(s)' not in lost
    slow = {'one_at_a_time': Times.from_times([0.4], 'one_at_a_time'),
            'issued_together': Times.from_times([0.4], 'issued_together')}
    assert 'same time by itself' in said('mxnet', 'cpu', 'ThreadedEnginePerDevice',
                                         run('mxnet', 'cpu', 'NaiveEngine', slow))
    with using_language('en'):
        both = dx.independence_lines([run('mxnet', 'cpu', 'ThreadedEnginePerDevice'),
                                      run('mxnet', 'cpu', 'NaiveEngine', slow)])
    assert 'same time by itself' in both


def test_overview_names_a_cause_only_when_measured():
    import statistics
    from types import SimpleNamespace as NS

    from d2l_ext.display import parallel as dp
    from d2l_ext.i18n import using_language
    from d2l_ext.results import Times

    def result(alone, together, expected):
        return NS(speedup=sum(alone) / statistics.median(together), expected_speedup=expected,
                  serial_sum=sum(alone), together=Times.from_times(together, 'together'),
                  lane_times=[Times.from_times([a], 'x') for a in alone])
    with using_language('en'):
        unbalanced = dp.overview_text(result([0.5, 0.33], [0.5, 0.5, 0.5], 1.66), closed_form=2.0)
        assert 'within 10%' in unbalanced and 'not equal' in unbalanced and 'in each other' not in unbalanced
        below = dp.overview_text(result([0.5, 0.5], [0.8, 0.8, 0.81], 2.0), closed_form=2.0)
        assert 'below' in below and 'not equal' not in below and 'noise' not in below
        # one outlying repeat (2.00x) does not make the prediction reachable: the middle halves decide (told_apart)
        outlier = dp.overview_text(result([0.5, 0.5], [0.5, 0.8, 0.8], 2.0), closed_form=2.0)
        assert 'below' in outlier and 'includes it' not in outlier
        spread = dp.overview_text(result([0.5, 0.5], [0.5, 0.52, 0.8, 0.8, 0.7], 2.0), closed_form=2.0)
        assert 'middle half 1.25–1.92x): not told apart' in spread and 'below' not in spread


def test_sync_mistake_arms_wait_for_what_they_say():
    """Issue 23: the book's arm is the bare synchronize() on purpose; the every-device arm names each GPU."""
    from types import SimpleNamespace as NS

    from d2l_ext.parallel.exercises import sync_waits
    calls = []
    torch = NS(cuda=NS(synchronize=lambda *args: calls.append(args)))
    waits = sync_waits([GPU0, GPU1, make_lane('torch', 'cpu', 0)], torch)
    waits['no_wait']()
    assert calls == []
    waits['book_synchronize']()
    assert calls == [()]  # the current device only: the mistake shown
    calls.clear()
    waits['every_device']()
    assert calls == [(0,), (1,)]  # every GPU used, by index; the CPU lane needs no wait


def test_side_by_side_speed_is_measured_inside_the_common_window():
    from d2l_ext.parallel import TimelineResult
    from d2l_ext.parallel.sharing import common_window, predict_at, product_seconds, slowdowns
    # lane A: 4 products of 0.2 s from 0; lane B: 2 products of 0.2 s from 0, then it is done
    events = ([{'lane': 'A', 'name': f'mm {j}', 'start': 0.2 * j, 'end': 0.2 * (j + 1)} for j in range(4)]
              + [{'lane': 'B', 'name': f'mm {j}', 'start': 0.2 * j, 'end': 0.2 * (j + 1)} for j in range(2)])
    events[2]['end'] = events[3]['start'] = 0.7  # A's third product, after B ended, is slower: not counted
    tl = TimelineResult('torch', 64, [4, 2], _ids('A', 'B'), events, 'thread clock')
    assert common_window(tl) == pytest.approx((0.0, 0.4))
    assert product_seconds(tl) == pytest.approx([0.2, 0.2])
    assert slowdowns([0.2, 0.2], [0.1, 0.2]) == pytest.approx([2.0, 1.0])
    assert predict_at([0.2, 0.1], [4, 2]) == pytest.approx(0.8)
    assert predict_at([None, 0.1], [4, 2]) is None
    apart = TimelineResult('torch', 64, [1, 1], _ids('A', 'B'), [{'lane': 'A', 'name': 'mm 1', 'start': 0, 'end': 1},
                                                             {'lane': 'B', 'name': 'mm 1', 'start': 1, 'end': 2}],
                           'thread clock')
    assert common_window(apart) is None and product_seconds(apart) == [None, None]


def test_gaps_are_explained_only_by_a_measured_test():
    from d2l_ext.display import gaps as dp
    from d2l_ext.i18n import using_language
    with using_language('en'):
        assert 'within 10%' in dp.gap_text('together', 0.10, [0.10, 0.105, 0.11])
        spread = dp.gap_text('together', 0.10, [0.09, 0.13, 0.14])
        assert 'includes the prediction' in spread and '1.30x the prediction' in spread
        shared = dp.gap_text('together', 0.10, [0.19, 0.2, 0.21], shared=0.2)
        assert 'side by side account for' in shared and '0.200 s' in shared
        open_ = dp.gap_text('baseline', 0.10, [0.29, 0.3, 0.31], shared=0.2)  # 3x, and nothing measured explains it
        assert '3.00x the prediction' in open_ and 'Nothing measured here tests a cause' in open_
        assert 'slowly' not in open_ and 'noise' not in open_ and 'overhead' not in open_
        lines = dp.prediction_text({'a': 0.1, 'b': 0.2, 'c': 1.0}, {'a': [0.1], 'b': [0.4]})
        assert lines.count('\n') == 1  # a prediction without a measurement is not shown
    with using_language('zh'):
        assert '是预测的 3.00 倍' in dp.gap_text('基线', 0.10, [0.29, 0.3, 0.31])


def test_full_overlap_with_slower_lanes_says_what_was_measured():
    """Both lanes busy at once but each at half speed: the overlap is 100%, and the text says how slow they ran."""
    from d2l_ext.display import parallel as dp
    from d2l_ext.i18n import using_language
    tl = _timeline([(0.0, 0.8), (0.0, 0.8)])  # 4 products of 0.2 s on each lane, side by side
    with using_language('en'):
        text = dl.overlap_text(tl, serial=0.8, together=0.8, expected=0.4, alone=[0.1, 0.1],
                               labels=['lane 0', 'lane 1'])
    assert '100% of its time' in text and 'together took' not in text
    assert 'one after the other 0.800 s, together 0.400 s, 0.400 s less' in text
    with using_language('en'):
        longer = dp.wall_text(0.8, 0.9, expected=1.0)
        predicted = dp.wall_text(1.332, 1.2, expected=1.006, expected_serial=0.939)  # predicted vs predicted
    assert 'together 1.000 s, 0.200 s longer' in longer and '-' not in longer
    assert 'one after the other 0.939 s, together 1.006 s, 0.067 s longer' in predicted
    assert 'lane 0 200 ms against 100 ms per product (2.00x as long)' in text
    with using_language('en'):  # together's repeats: the gap, tested against the speed measured side by side
        tested = dl.overlap_text(tl, serial=0.8, together=0.8, expected=0.4, alone=[0.1, 0.1],
                                 repeats=[0.79, 0.8, 0.82])
    assert 'measured while both lanes ran, in the timeline: 0.800 s' in tested and 'side by side account for' in tested


def test_a_timeline_paced_unlike_the_repeats_is_said_to_be_another_run():
    """The per-product times come from the timeline's own run: when it took far longer than together's repeats,
    the text says so instead of letting a slow timeline read as a slowdown of the repeats."""
    from d2l_ext.i18n import using_language
    tl = _timeline([(0.0, 0.8), (0.0, 0.8)])
    with using_language('en'):
        slow = dl.overlap_text(tl, serial=0.8, together=0.4, expected=0.4, alone=[0.1, 0.1])
        same = dl.overlap_text(tl, serial=1.6, together=0.8, expected=0.4, alone=[0.1, 0.1])
    assert 'The timeline is another run' in slow and '0.800 s, against 0.400 s' in slow
    assert 'another run' not in same
    with using_language('zh'):
        assert '时间线是另一次运行' in dl.overlap_text(tl, serial=0.8, together=0.4, expected=0.4, alone=[0.1, 0.1])


def test_overview_names_the_side_by_side_slowdown_only_when_it_matches():
    import statistics
    from types import SimpleNamespace as NS

    from d2l_ext.display import parallel as dp
    from d2l_ext.i18n import using_language
    from d2l_ext.results import Times

    def result(together):
        return NS(speedup=0.8 / statistics.median(together), expected_speedup=2.0, serial_sum=0.8, iters=[4, 4],
                  together=Times.from_times(together, 'together'),
                  lane_times=[Times.from_times([0.4], 'x'), Times.from_times([0.4], 'x')])
    slow = _timeline([(0.0, 0.6), (0.0, 0.6)])  # side by side a product took 0.15 s, alone 0.1 s
    with using_language('en'):
        matched = dp.overview_text(result([0.6, 0.6, 0.61]), 2.0, slow)
        unmatched = dp.overview_text(result([0.8, 0.8, 0.81]), 2.0, slow)
    assert 'side by side account for' in matched and '1.33x' in matched
    assert 'more slowly' not in unmatched and 'below' in unmatched


def test_recorded_text_says_which_run_the_timeline_is():
    """A timeline kept from the median repeat says so; one from a run of its own states both runs per product."""
    import dataclasses

    from d2l_ext.display import parallel_recorded as dp
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import newest
    rec = newest()
    if rec is None or not rec.timelines:
        pytest.skip('no GPU recording with a timeline is shipped')
    p, tl = rec.parallel[0], rec.timelines[0]
    own_run = dataclasses.replace(rec, timelines=[dataclasses.replace(tl, repeat=None)])
    kept = dataclasses.replace(rec, timelines=[dataclasses.replace(tl, repeat=1)])
    with using_language('en'):
        separate, median = dp.recorded_overlap_text(own_run), dp.recorded_overlap_text(kept)
    assert 'different runs' in separate and 'different runs' not in median
    assert f'{p.iters[1]} products in {p.lane_times[1].median:.3f} s' in separate
    assert f'{tl.iters[1]} in ' in separate
    assert f'repeat 2 of {p.together.repeats} of "together"' in median


def test_small_products_are_called_launch_bound_on_a_gpu_only_when_the_numbers_show_it():
    from d2l_ext.display import gaps as dp
    from d2l_ext.i18n import using_language
    from d2l_ext.parallel.exercises import SmallOpsResult
    from d2l_ext.results import Times

    def result(one_lane, batched, launch=20e-6):
        times = {'one_lane': Times.from_times([one_lane], 'one_lane'), 'batched': Times.from_times([batched], 'b')}
        return SmallOpsResult('cuda:0', 'gpu', 64, 800, 16, times, launch, 1e-7)
    with using_language('en'):
        bound = dp.small_ops_text(result(800 * 21e-6, 800 * 1e-6))  # lane ~ issue time, bmm far below it
        compute = dp.small_ops_text(result(800 * 60e-6, 800 * 1e-6))  # the lane took 3x the issue time
    assert 'about as long' in bound and '1.00 us per product' in bound  # the numbers; no cause named
    assert 'launch' in compute and 'waited on the launches' not in compute and 'do not show' in compute
    with using_language('zh'):
        assert '并不表明' in dp.small_ops_text(result(800 * 60e-6, 800 * 1e-6))
