"""13.3.0 and 13.3.1 reader findings (wave 3): one run drawn and compared, measured small-product costs,
launch-once ways named a fix only when faster, the baseline beside every speedup, one Chinese word for 'predicted'."""
import pathlib
import statistics
from types import SimpleNamespace as NS

import pytest

from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel_exercises as dx
from d2l_ext.display import scaling as ds
from d2l_ext.i18n import using_language
from d2l_ext.lanes import fake_hardware, make_lane, pick_lanes
from d2l_ext.results import Times

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_together_keeps_each_repeat_and_draws_the_median_one():
    import torch

    from d2l_ext.parallel import Together
    from d2l_ext.parallel.sharing import product_seconds
    from d2l_ext.timing import compare
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    xs = [torch.rand(32, 32) for _ in lanes]
    run = Together(lanes, xs, [3, 2])
    cmp = compare({'together': run}, lanes=lanes, repeats=3)
    out = run()  # returns each lane's products, as run_on_lanes
    assert [len(ys) for ys in out] == [3, 2] and torch.allclose(out[0][0], xs[0] @ xs[0])
    times = [0.3, 0.1, 0.2]  # the median is the third repeat
    assert run.median_index(times) == 2 and run.median_index([0.1, 0.4, 0.2, 0.3]) in (2, 3)
    tl = run.timeline(cmp['together'].times)
    assert len(tl.events) == 5 and {e['lane'] for e in tl.events} == {lane.name for lane in lanes}
    assert all(0 <= e['start'] <= e['end'] for e in tl.events) and all(e['role'].startswith('lane ') for e in tl.events)
    assert len(product_seconds(tl)) == 2
    assert len(run.calls) == 1 + 3 + 1  # warm-up, repeats, the call above


def test_the_timeline_drawn_is_said_to_be_the_median_repeat_not_another_run():
    from d2l_ext.parallel import TimelineResult
    events = [{'lane': lane, 'name': f'mm {j}', 'start': 0.1 * j, 'end': 0.1 * (j + 1)} for lane in ('A', 'B')
              for j in range(4)]
    lanes = [dict(framework='torch', name=n, kind='cpu', index=i) for i, n in enumerate('AB')]
    tl = TimelineResult('torch', 64, [4, 4], lanes, events, 'thread clock')
    with using_language('en'):
        text = dl.overlap_text(tl, 0.8, 0.2, 0.4, [0.1, 0.1], repeats=[0.5, 0.2, 0.1], median_repeat=1)
    assert 'repeat 2 of 3' in text and '(0.200 s)' in text and 'another run' not in text
    with using_language('zh'):
        assert '3 次重复中的第 2 次' in dl.overlap_text(tl, 0.8, 0.2, 0.4, [0.1, 0.1], repeats=[0.5, 0.2, 0.1],
                                                       median_repeat=1)


def _small(kind, one_lane, batched, graph=None, rate=0.0):
    from d2l_ext.parallel.exercises import SmallOpsResult
    times = {'one_lane': Times.from_times([one_lane], 'one_lane'), 'batched': Times.from_times([batched], 'b')}
    if graph is not None:
        times['cuda_graph'] = Times.from_times([graph], 'g')
    return SmallOpsResult('cuda:0' if kind == 'gpu' else 'cpu', kind, 64, 800, 16, times, 12e-6, 1e-7,
                          rate_flops=rate, rate_size=512 if rate else 0)


def test_launch_once_ways_are_named_a_fix_only_when_they_measured_faster():
    from d2l_ext.display.gaps import small_ops_text
    with using_language('en'):
        both = small_ops_text(_small('gpu', 800 * 11e-6, 800 * 0.75e-6, graph=800 * 3.3e-6))
        slow_graph = small_ops_text(_small('gpu', 800 * 11e-6, 800 * 0.75e-6, graph=800 * 12e-6))
    assert 'CUDA Graph replay (one launch) 3.30 us per product, 3.3x as fast as one lane' in both
    assert 'CUDA Graph replay (one launch) 12.00 us per product, not faster than one lane' in slow_graph
    assert 'or a CUDA Graph' not in slow_graph
    with using_language('zh'):
        assert '并不比单条执行路快' in small_ops_text(_small('gpu', 800 * 11e-6, 800 * 0.75e-6, graph=800 * 12e-6))


def test_small_products_on_a_cpu_give_call_and_flop_times_side_by_side():
    from d2l_ext.display.gaps import small_ops_text
    with using_language('en'):
        text = small_ops_text(_small('cpu', 800 * 10e-6, 800 * 5e-6, rate=100e9))
    # 2 * 64^3 FLOP at 100 GFLOP/s: 5.2 us
    assert '10.0 us as one call each' in text and '5.0 us inside one batched product' in text
    assert '512x512 product on one lane with all 16 core(s) (100 GFLOP/s)' in text and '5.2 us' in text


def test_time_per_product_is_set_beside_the_largest_sizes_rate():
    from d2l_ext.display.gaps import per_product_text
    lane = make_lane('torch', 'cpu', 0, threads=1).as_dict()

    def point(n, seconds):
        return NS(size=n, iters=[10], lane_times=[Times.from_times([seconds], 'x')], lanes=[lane])
    # n=512: 10 products in 0.1 s (10 ms each); n=64 at that rate: 10 ms / 512 = 0.0195 ms, measured 0.05 ms
    curve = NS(framework='torch', points=[point(512, 0.1), point(64, 0.0005)])
    with using_language('en'):
        text = per_product_text([curve])
    assert '10 ms per product at n=512' in text and 'n=64 would take 0.0195 ms, measured 0.05 ms (2.6x)' in text


def _result(baseline=None, lane=None, cores=0):
    together = Times.from_times([0.25, 0.25, 0.26], 'together')
    return NS(speedup=1.9, expected_speedup=1.92, together=together, baseline=baseline, baseline_lane=lane,
              baseline_cores=cores)


def test_the_summary_sets_one_device_doing_both_jobs_beside_the_speedup():
    from d2l_ext.display import parallel as dp
    gpu = make_lane('torch', 'gpu', 0).as_dict()
    with using_language('en'):
        same = dp.overview_summary(_result(Times.from_times([0.255], 'b'), gpu))
        beaten = dp.overview_summary(_result(Times.from_times([0.5], 'b'), gpu))
        none = dp.overview_summary(_result())
    assert '1.90x as fast as one after the other' in same and "alone doing both lanes' work took 0.255 s" in same
    assert 'within 10%, so the second lane gained almost nothing here' in same and 'GPU 0' in same
    assert 'not told apart' in same  # 0.255 s against 0.25-0.26 s: the told-apart test is said too
    assert '2.00x as fast' in beaten
    assert 'alone doing both' not in none


def test_a_recording_without_the_baseline_says_so():
    from d2l_ext.display.parallel_recorded import recorded_summary
    from d2l_ext.recorded import newest
    rec = newest()
    if rec is None or not rec.parallel:
        pytest.skip('no GPU recording is shipped')
    with using_language('en'):
        text = recorded_summary(rec)
    if rec.parallel[0].baseline is None:
        assert 'not in it' in text
    else:
        assert "doing both lanes' work" in text


def test_chinese_text_of_13_3_0_and_13_3_1_says_predicted_one_way():
    files = [ROOT / 'd2l_ext/i18n/zh/overview.py', ROOT / 'd2l_ext/i18n/zh/parallel.py',
             *sorted((ROOT / 'notebooks/src').glob('13.3.[01]-*.py'))]
    for path in files:
        assert '预期' not in path.read_text(encoding='utf-8'), path.name


def test_measure_parallel_times_the_all_cores_baseline_for_shared_lanes_only_as_before():
    from d2l_ext.parallel import measure_parallel
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    r = measure_parallel(lanes, size=32, iters=2, repeats=1, baseline=True)
    assert r.baseline is not None and r.baseline_lane is None and r.baseline_cores >= 1
    assert statistics.median(r.baseline.repeated()) > 0


# -- wave 4 (a reader without a GPU, a d2l-zh reader): sentences chosen by the repeats' spread, ratios above 2 ----

def _point(size, together, serial=0.2, expected=1.9, lanes=(0.1, 0.1)):
    """A scaling point as measure_parallel gives it: every repeat of together, one after the other, each lane alone."""
    m = Times.from_times(together, 'together')
    return NS(size=size, together=m, serial_sum=serial, speedup=serial / m.median, expected_speedup=expected,
              lane_times=[Times.from_times([x], 'lane') for x in lanes])


def _curve(*points):
    return NS(framework='torch', points=list(points))


def test_the_scaling_sentence_says_grew_only_beyond_the_spread_and_names_dips_within_it():
    # the reader's run: 0.63x, 1.74x, 1.86x, 1.77x; the last step dips by 0.09x, inside those sizes' spread
    dips = _curve(_point(64, [0.30, 0.317, 0.33]), _point(128, [0.11, 0.115, 0.12]),
                  _point(256, [0.100, 0.1075, 0.118]), _point(512, [0.105, 0.113, 0.121]))
    assert [round(p.speedup, 2) for p in dips.points] == [0.63, 1.74, 1.86, 1.77]
    with using_language('en'):
        text = ds.scaling_text([dips])
        assert 'grew' not in text and 'rose overall' in text and 'dips not told apart' in text
        assert 'n=256 1.86x, then n=512 1.77x: the medians differ by 0.09,' in text
        assert 'interquartile range' in text and 'spread 0.' not in text
        assert 'n=64: together took longer than one after the other' in text  # 0.63x: below 1, said with numbers
        assert 'n=64: measured 0.63x against the predicted 1.90x: 3.01x apart' in text  # far from its prediction
        assert 'n=128: measured' not in text  # 1.74x against 1.90x: near its prediction
        steady = ds.scaling_text([_curve(_point(64, [0.2, 0.2, 0.2]), _point(128, [0.15, 0.15, 0.15]),
                                         _point(256, [0.11, 0.11, 0.11]))])
        assert 'the median speedup did not fall' in steady
        # the largest size within the spread of the smallest: no trend claimed
        within = ds.scaling_text([_curve(_point(64, [0.12, 0.16, 0.2]), _point(128, [0.2, 0.2, 0.2]),
                                         _point(256, [0.13, 0.15, 0.19]))])
        assert 'no clear trend' in within and 'grew' not in within and 'rose' not in within
        # a dip far beyond the spread: not 'rose overall'
        uneven = ds.scaling_text([_curve(_point(64, [0.2, 0.2, 0.2]), _point(128, [0.1, 0.1, 0.1]),
                                         _point(256, [0.19, 0.19, 0.19]), _point(512, [0.11, 0.11, 0.11]))])
        assert 'no steady trend' in uneven and 'rose overall' not in uneven
    with using_language('zh'):
        zh = ds.scaling_text([dips])
        assert '随矩阵增大而提高' not in zh and '总体上提高' in zh and '回落' in zh


def test_a_ratio_above_two_says_what_it_compares_and_only_above_two():
    from d2l_ext.display import parallel as dp
    from d2l_ext.parallel.exercises import SmallOpsResult
    with using_language('en'):
        above = dp.verdict_text([0.1, 0.12], 0.22, 0.105)  # 2.10x: together below the slower lane alone
        assert '2.10x is above 2x' in above and 'took less than the slower lane alone (0.12 s)' in above
        assert 'above 2x' not in dp.verdict_text([0.1, 0.1], 0.2, 0.1)  # exactly 2.00x: no sentence
        base = dp.verdict_text([0.1, 0.1], 0.2, 0.11, 0.3)  # 2.73x as fast as one device doing both jobs
        assert '2.73x is above 2x' in base and 'not against one after the other (0.200 s, 1.82x)' in base
        ind = NS(framework='mxnet', engine='ThreadedEnginePerDevice', threads=0, iters=10, size=800, ratio=2.19,
                 kind='cpu', lane=make_lane('mxnet', 'cpu', 0, threads=1).as_dict(),
                 times={'one_at_a_time': Times.from_times([0.11], 'a'),
                        'issued_together': Times.from_times([0.05], 'b')})
        text = dx.independence_text(ind)
        assert 'The ratio 2.19 is above 2, yet no second lane ran' in text and 'same 10 products' in text
        ind.ratio = 1.81
        assert 'above 2' not in dx.independence_text(ind)

        def small(batched):
            times = {'one_lane': Times.from_times([800 * 10e-6], 'one_lane'),
                     'two_threads': Times.from_times([800 * 9e-6], 't'), 'batched': Times.from_times([batched], 'b')}
            return SmallOpsResult('cpu', 'cpu', 64, 800, 2, times, 12e-6, 1e-7, rate_flops=100e9, rate_size=512)
        first, *_ = dx.small_ops_lines(small(800 * 4.95e-6)).split('\n')  # 2.02x
        assert 'fastest was' in first and '2.02x is above 2, yet no second lane ran' in first
        assert 'all 800 products' in first
        assert 'above 2' not in dx.small_ops_lines(small(800 * 6e-6))  # 1.67x
    with using_language('zh'):
        assert '超过了 2 倍' in dp.verdict_text([0.1, 0.12], 0.22, 0.105)


def test_the_recorded_sync_figure_says_why_one_gpus_two_waits_agree():
    from d2l_ext.display.parallel_recorded import recorded_sync_text
    from d2l_ext.parallel.exercises import SyncMistakeResult

    def rec(gpus, book):
        lanes = [make_lane('torch', 'gpu', i).as_dict() for i in range(gpus)]
        times = {'no_wait': Times.from_times([0.001] * 3, 'n'), 'book_synchronize': Times.from_times([book] * 3, 'b'),
                 'every_device': Times.from_times([0.13] * 3, 'e')}
        return NS(sync_mistake=SyncMistakeResult(lanes, 4000, [50] * gpus, times))
    with using_language('en'):
        one = recorded_sync_text(rec(1, 0.1301))
        two = recorded_sync_text(rec(2, 0.065))
    assert 'used one GPU' in one and 'the same GPU' in one and 'needs two GPUs' in one and '0.1301 s' in one
    assert 'used 2 GPUs' in two and 'same GPU' not in two and 'current device only' in two
    with using_language('zh'):
        assert '同一块 GPU' in recorded_sync_text(rec(1, 0.1301))


def test_every_legend_entry_of_the_scaling_plot_has_a_visible_line():
    curves = [_curve(_point(64, [0.12]), _point(128, [0.11])),
              NS(framework='mxnet', points=[_point(64, [0.2], expected=1.0), _point(128, [0.19], expected=1.0)])]
    fig = ds.plot_scaling(curves)
    ax = fig.axes[0]
    labelled = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith('_')}
    assert len(labelled) == 4 == len(ax.get_legend().get_lines())
    one = [line for line in ax.get_lines() if line.get_label().startswith('_') and set(line.get_ydata()) == {1.0}]
    mx_predicted = [line for label, line in labelled.items()
                    if label.startswith('MXNet') and line.get_linestyle() == '--']
    assert one and mx_predicted and mx_predicted[0].get_zorder() > one[0].get_zorder()  # drawn on top of the 1x line


def test_the_overview_summary_says_what_a_ratio_above_two_compares():
    from d2l_ext.display import parallel as dp
    shared = NS(speedup=0.97, expected_speedup=2.0, together=Times.from_times([0.236], 't'), serial_sum=0.229,
                baseline=Times.from_times([0.478], 'b'), baseline_lane=None, baseline_cores=2,
                lane_times=[Times.from_times([0.115], 'a'), Times.from_times([0.114], 'b')])
    with using_language('en'):
        text = dp.overview_summary(shared)
    assert 'together was 2.03x as fast as one device doing both' in text and '2.03x is above 2x' in text
    assert 'not against one after the other (0.229 s, 0.97x)' in text
    shared.baseline = Times.from_times([0.3], 'b')  # 1.27x: nothing to add
    with using_language('en'):
        assert 'above 2x' not in dp.overview_summary(shared)


def test_a_small_size_above_two_prints_times_that_differ():
    from d2l_ext.display import parallel as dp
    with using_language('en'):
        text = dp.serial_above_two(2.03, 0.004891, 0.005012)  # both 0.005 at three decimals
    assert '(0.004891 s)' in text and '(0.005012 s)' in text
