"""13.3.2 on a CPU-only machine: a labelled analogue with every repeat, timelines with raw events."""
import json

import pytest

from d2l_ext.communication import (
    expected_overlap,
    measure_comm,
    measure_comm_timelines,
    measure_exercise_three,
    measure_first_copy,
)
from d2l_ext.lanes import fake_hardware, pick_lanes


def cpu_lanes():
    """This file tests the CPU analogue: pick CPU lanes on a GPU machine too."""
    with fake_hardware(gpus=0):
        return pick_lanes('torch')


def test_expectation_rules():
    assert expected_overlap(1.0, 0.5, 'separate') == 1.0
    # ten products, each copied once done: the last copy (0.05) follows the last product
    assert expected_overlap(1.0, 0.5, 'separate', iters=10) == pytest.approx(1.05)
    assert expected_overlap(0.5, 1.0, 'separate', iters=10) == pytest.approx(1.05)  # the first product, before any copy
    assert expected_overlap(1.0, 0.5, 'one_stream') == 1.5
    assert expected_overlap(1.0, 0.5, 'engine') == 1.5


def test_a_copy_thread_on_shared_cores_is_predicted_as_its_label_says():
    from d2l_ext.communication import copy_thread_rule
    from d2l_ext.i18n import t, using_language
    # a core left for the copy thread: the free-core closed form, and the label says the copy has a core of its own
    assert copy_thread_rule(1, cores=2) == 'own_core'
    assert expected_overlap(1.0, 0.5, 'own_core', 1, iters=10, cores=2) == pytest.approx(1.05)
    # no core left (2 computing threads on 2 cores): the copy cannot be free; the cores' work spread over them
    assert copy_thread_rule(2, cores=2) == 'shared' and copy_thread_rule(1, cores=1) == 'shared'
    assert expected_overlap(1.0, 0.5, 'shared', 2, iters=10, cores=2) == pytest.approx(1.25)  # (2 x 1 + 0.5) / 2
    assert expected_overlap(1.0, 0.5, 'shared', 1, cores=1) == pytest.approx(1.5)  # one core: run + copy
    assert expected_overlap(1.0, 0.5, 'shared', 2, cores=2) > max(1.0, 0.5)  # never the free-core bound
    assert expected_overlap(1.0, 0.5, 'thread', 2, cores=2) == expected_overlap(1.0, 0.5, 'shared', 2, cores=2)
    with using_language('en'):
        assert 'max(run, copy)' in t('communication.rule.own_core') and 'a core of its own' in t(
            'communication.rule.own_core')
        shared = t('communication.rule.shared')
        assert shared.startswith('(computing threads x run + copy) / cores') and 'needs a core' in shared
    with using_language('zh'):
        assert '自己的核心' in t('communication.rule.own_core') and '核心数' in t('communication.rule.shared')


def test_the_cpu_row_records_the_rule_its_number_follows():
    from d2l_ext.communication import copy_thread_rule
    lanes = cpu_lanes()
    r = measure_comm(lanes, size=64, iters=3, repeats=2)
    (row,) = r.rows
    assert row.expectation == copy_thread_rule(lanes[0].threads)
    assert row.expected == pytest.approx(expected_overlap(row.run, row.copy, row.expectation, lanes[0].threads,
                                                          iters=3))


def test_comm_on_cpu_is_a_labelled_analogue():
    r = measure_comm(cpu_lanes(), size=64, iters=3, repeats=2)
    assert r.has_link is False and r.link_gbps is None
    (row,) = r.rows
    assert row.mode == 'cpu_analogue' and row.max_rel_error < 1e-4
    assert set(row.times) == {'run', 'copy', 'run_then_copy', 'overlapped'}
    assert all(len(m.times) == 2 for m in row.times.values())
    d = json.loads(json.dumps(r.to_json()))
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'expected', 'copy_gbps'} <= set(d['rows'][0])
    assert len(r.to_frame()) == 1


def test_timelines_first_copy_and_exercise_three_on_cpu():
    lanes = cpu_lanes()
    (tl,) = measure_comm_timelines(lanes, size=64, iters=3)
    assert tl.plan == 'cpu_analogue' and {e['role'] for e in tl.events} == {'compute', 'copy'}
    assert len(tl.events) == 6
    assert measure_first_copy(lanes).reason == 'communication.first_copy.no_gpu'
    ex = measure_exercise_three(lanes, size=64, iters=2, repeats=1)
    assert set(ex.times) == {'lane1_compute_and_copy', 'lane2_compute', 'together'}
    assert ex.serial_sum == pytest.approx(ex.times['lane1_compute_and_copy'].median + ex.times['lane2_compute'].median)


def test_rates_predict_and_texts_follow_the_numbers():
    from d2l_ext.communication import measure_rates
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    from d2l_ext.timing import Comparison, Measurement
    lane = cpu_lanes()[0]
    r = measure_rates(lane, 64, repeats=2)
    assert r.gpu is False and r.flops > 0 and r.copy_gbps > 0
    s = r.seconds(3)
    assert s['run'] > 0 and s['copy'] > 0
    def runs(overlapped):  # a Measurement is read-only: a new comparison per case
        return Comparison({'run': Measurement('run', [1.0]), 'run_then_copy': Measurement('r', [1.5]),
                           'overlapped': Measurement('o', [overlapped])})
    c = runs(1.1)
    fast = dict(measured=0.9, predicted=0.9, compute_busy=1.0)
    text = show.overlap_text(c, {'overlapped': 1.0}, fast)
    assert '90%' in text and '0.4000 s less' in text and 'slower' not in text
    # wall clock gained less than the overlap, and the products ran longer beside the copies: the cause is named
    c = runs(1.45)
    slowed = show.overlap_text(c, {'overlapped': 1.0}, dict(fast, compute_busy=1.4))
    # the ratio belongs to the traced busy time, not to the median it is set against
    assert 'does not show which' in slowed and 'busy 1.4000 s beside the copies, 1.40 times the untraced' in slowed
    # the same gap without products that ran longer: numbers only, no cause
    assert 'slower' not in show.overlap_text(c, {'overlapped': 1.0}, fast)
    assert '0.5000 s more' in show.overlap_text(runs(2.0), {'overlapped': 1.0}, fast)
    assert 'no overlap to measure' in show.overlap_text(c, {}, dict(measured=None, predicted=0.0))
    assert 'my_guess first' in show.guess_text(None, 1.0, 1.2)
    assert 'your guess 0.9000 s' in show.guess_text(0.9, 1.0, 1.2)
    assert 'my_guess first' in show.guess_text('soon', 1.0, 1.2)
    # en reader item 3: three outcomes; clearly slower is never 'within the spread'
    def spread(over):
        return Comparison({'run': Measurement('run', [1.0, 1.0, 1.0, 1.0]),
                           'run_then_copy': Measurement('r', [1.40, 1.45, 1.5, 1.55]),
                           'overlapped': Measurement('o', over)})
    with using_language('en'):
        slower = show.overlap_text(spread([1.7, 1.75, 1.8, 1.85]), {'overlapped': 1.0}, fast)
        within = show.overlap_text(spread([1.42, 1.47, 1.52, 1.57]), {'overlapped': 1.0}, fast)
        beyond = show.overlap_text(spread([1.1, 1.12, 1.14, 1.16]), {'overlapped': 1.0}, fast)
    assert 'slower than run then copy: the medians' in slower and 'not told apart' not in slower
    assert 'no more than the larger interquartile range' in within and 'not told apart' in within
    assert 'beat run then copy' in beyond and 'do not overlap' in beyond
    for text in (slower, within, beyond):  # results.told_apart's wording: never a bare 'spread'
        assert "repeats' spread" not in text
    # en reader item 4: the share is labelled as a difference of medians, not as the copies' time
    assert 'difference of two medians' in within and 'of copying' not in within
    with using_language('en'):  # a closed form outside the repeats' range gets its ratio, in either direction
        assert '2.5x the measured time' in show.guess_text(None, 0.05, 0.02, repeats=[0.019, 0.02, 0.021])
        assert 'was 2.0x what' in show.guess_text(None, 0.01, 0.02, repeats=[0.019, 0.02, 0.021])
        assert 'within 10% of each other' in show.guess_text(None, 0.02, 0.02, repeats=[0.019, 0.02, 0.021])
        # a 1.34x gap whose repeats include the closed form: said to be within the run-to-run spread
        spread_line = show.guess_text(None, 0.0050, 0.0067, repeats=[0.0048, 0.0067, 0.0090])
        assert 'the larger 1.34x the smaller' in spread_line and 'within the run-to-run spread' in spread_line
    with using_language('zh'):  # never "相差 x 倍", which reads two ways
        spread_zh = show.guess_text(None, 0.0050, 0.0067, repeats=[0.0048, 0.0067, 0.0090])
        assert '较大者是较小者的 1.34 倍' in spread_zh and '相差' not in spread_zh
    assert [show._two_digits(x) for x in (0.00064, 0.64, 9.99, 64.3, 6407)] == ['0.00064', '0.64', '10', '64', '6400']
    rec = show.newest(load_recordings())
    with using_language('zh'):
        assert '秒' in show.recorded_text(rec) and '秒' in show.recorded_prediction_text(rec)
    assert show.timelines_missing_text(None) and show.first_copy_text(None)


def test_recorded_captions_and_overlap_come_from_the_recording():
    from d2l_ext.display import communication as show
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    c = rec.comm[0]
    title = show.recorded_title(rec)
    assert rec.machine['gpus'][0] in title and f'{c.iters} products of {c.size} x {c.size}' in title
    o = show.recorded_overlap(rec)
    assert 0 <= o['measured'] <= 1 and 0 <= o['predicted'] <= 1 and o['copies'] == c.iters
    assert f"{o['measured']:.0%}" in show.recorded_text(rec)
    tl = rec.comm_timelines[-1]
    products = sum(e['role'] == 'compute' for e in tl.events)
    assert f'{products} products' in show.timeline_title(tl)
    # one overlap, three numbers: the interval fraction, its closed form, and the wall-clock difference beside them
    side = {r.mode: r for r in c.rows}['pinned, preallocated, copy stream + events']
    saved = side.run_then_copy - side.overlapped
    assert f'{saved:.4f} s less' in show.recorded_text(rec)


def test_results_carry_lane_ids_and_display_makes_labels():
    from d2l_ext.display import communication as show
    lanes = cpu_lanes()
    ex = measure_exercise_three(lanes, size=32, iters=1, repeats=1)
    assert ex.lanes[0]['name'] == lanes[0].name  # ids, not a translated label
    text = show.exercise_three_alone_text(ex)
    assert all(lane.label in text for lane in lanes[:2])
    (tl,) = measure_comm_timelines(lanes, size=32, iters=2)
    assert tl.lane == lanes[0].name


def test_copy_plans_come_from_the_framework_description():
    from d2l_ext.frameworks import framework
    # PyTorch runs CPU work in the caller's thread: it gets the explicit plans (a copy thread here)
    assert framework('torch').cpu_queued is False
    r = measure_comm(cpu_lanes(), size=32, iters=2, repeats=1)
    assert [row.mode for row in r.rows] == ['cpu_analogue'] and r.rows[0].lane == cpu_lanes()[0].name


def test_profile_split_counts_each_copy_once():
    from types import SimpleNamespace

    from d2l_ext.display import communication as show
    # torch.profiler lists a device-to-host copy twice: the operator and its kernel, with the same time
    rows = [SimpleNamespace(key='aten::mm', self_device_time_total=131e3),
            SimpleNamespace(key='aten::copy_', self_device_time_total=57.9e3),
            SimpleNamespace(key='Memcpy DtoH (Device -> Pinned)', self_device_time_total=57.9e3)]
    prof = SimpleNamespace(key_averages=lambda: rows)
    text = show.profile_text(prof, gpu=True)
    assert '0.0579 s' in text and '0.1158' not in text


def test_copy_share_and_spread_judgement():
    from d2l_ext.communication.core import copy_share
    from d2l_ext.results import Measurement, told_apart
    from d2l_ext.results import quartiles as _q

    def quartiles(times):
        return _q(Measurement('', times))

    def faster_beyond_spread(faster, slower):
        a, b = Measurement('', faster), Measurement('', slower)
        return a.median < b.median and told_apart(a, b)
    assert copy_share(1.0, 1.5) == pytest.approx(1 / 3)
    assert copy_share(1.2, 1.0) == 0.0 and copy_share(0.0, 0.0) == 0.0 and copy_share(-1.0, 1.0) == 1.0
    # results.quartiles and results.told_apart: the one copy of the test, every lesson
    assert quartiles([1.0, 2.0, 3.0, 4.0, 5.0]) == (2.0, 4.0) and quartiles([2.0]) == (2.0, 2.0)
    assert faster_beyond_spread([1.0, 1.1, 1.2, 1.3, 2.5], [1.45, 1.5, 1.6, 1.7, 0.9])
    assert not faster_beyond_spread([1.0, 1.1, 1.2, 1.5, 2.5], [1.45, 1.5, 1.6, 1.7, 0.9])  # quartiles overlap
    # medians 0.2 apart, no more than the larger IQR (0.2), though the middle halves are apart: not told apart
    assert not faster_beyond_spread([1.0, 1.1, 1.2, 1.3, 2.5], [1.35, 1.4, 1.5, 1.6, 0.9])
    assert not faster_beyond_spread([1.45, 1.5, 1.6, 1.7, 0.9], [1.0, 1.1, 1.2, 1.3, 2.5])  # the slower one
    import d2l_ext.communication.core as core
    assert not hasattr(core, 'quartiles') and not hasattr(core, 'faster_beyond_spread')  # one copy: d2l_ext.results


def test_told_apart_text_says_both_parts_of_the_test():
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.results import Measurement
    over, serial = Measurement('o', [1.0, 1.1, 1.2, 1.3, 1.4]), Measurement('r', [2.0, 2.1, 2.2, 2.3, 2.4])
    with using_language('en'):
        text = show.told_apart_text(over, serial)
        assert text.startswith('Overlapped beat run then copy: the medians (1.200 s and 2.200 s) differ by 1.000 s')
        assert 'more than the larger interquartile range' in text and 'do not overlap' in text
        assert text.index('interquartile') < text.index('middle halves')  # both parts, in that order, in one clause
        assert show.told_apart_text(serial, over).startswith('Overlapped was slower than run then copy:')
        # medians apart by no more than the larger IQR: not told apart, and why
        wide, narrow = Measurement('a', [0.0, 0.0, 9.0, 10.0, 10.0]), Measurement('b', [10.1, 10.1, 10.2, 10.3, 10.3])
        gap = show.told_apart_text(wide, narrow)
        assert 'no more than the larger interquartile range' in gap and 'not told apart' in gap
        # medians apart by more than the larger IQR, middle halves overlapping: not told apart, with both ranges
        same = show.told_apart_text(over, Measurement('r', [1.2, 1.25, 1.5, 1.52, 1.7]))
        assert same.startswith('Overlapped and run then copy: ') and 'not told apart' in same
        assert 'the middle halves of the repeats overlap (1.100–1.300 s and 1.250–1.520 s)' in same
        # one wording for every lesson: display.apart's clause, no copy of it in this lesson's catalogue
        from d2l_ext.i18n import catalogue
        assert not any(k in catalogue('en') for k in ('communication.overlap.beyond', 'communication.overlap.within',
                                                       'communication.overlap.within_gap',
                                                       'communication.overlap.slower'))
    with using_language('zh'):
        zh = show.told_apart_text(over, serial)
        assert '各次重复的中间一半' in zh and '互不重叠' in zh
        assert '相互重叠' in show.told_apart_text(over, Measurement('r', [1.2, 1.25, 1.5, 1.52, 1.7]))


def test_traced_text_says_how_much_of_the_wall_clock_the_bars_span():
    from d2l_ext.display import communication_overlap as show
    from d2l_ext.i18n import using_language
    with using_language('en'):
        part = show._traced_text(0.0052, [0.005, 0.006], [0.004, 0.0045], 0.00516, span=0.0046)
        assert 'Its bars span 4.60 ms of its 5.20 ms wall clock; the other 0.60 ms holds no traced' in part
        assert 'about all of its' in show._traced_text(0.0052, [0.005, 0.006], [0.004], 0.005, span=0.0051)
        assert 'span' not in show._traced_text(0.0052, [0.005, 0.006], [0.004], 0.005)
    with using_language('zh'):
        assert '其余 0.60 毫秒' in show._traced_text(0.0052, [0.005, 0.006], [0.004], 0.005, span=0.0046)


def test_overlapped_rows_name_their_stream_setup():
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    with using_language('en'):
        names = {show.overlapped_name(r) for r in ('separate', 'one_stream', 'shared', 'engine')}
        assert len(names) == 4 and 'run and copy: copy stream + events' in names
        fig = show.plot_comm(rec.comm[0])
        labels = [[tick.get_text() for tick in ax.get_yticklabels()] for ax in fig.axes]
        rules = [r.expectation for r in rec.comm[0].rows]
        for rule, ticks in zip(rules, labels):
            assert show.overlapped_name(rule) in ticks
    with using_language('zh'):
        assert show.overlapped_name('separate') != show.overlapped_name('one_stream')
        assert '每个点是一次重复' in show.recorded_title(rec)


def test_recorded_timeline_titles_say_when_bars_merge():
    from matplotlib.colors import to_rgb

    from d2l_ext.display import communication as show
    from d2l_ext.display import style
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    # copies back to back, each narrower than an edge: drawn as one stretch, and the legend says so
    touching = [{'lane': 's', 'role': 'copy', 'start': i * 1.0, 'end': i * 1.0 + 1.0} for i in range(50)]
    assert show.merged_roles(touching, px_per_second=2.0) == {'copy'}
    assert show.merged_roles(touching, px_per_second=10.0) == set()  # wide enough for an edge: countable
    apart = [{'lane': 's', 'role': 'copy', 'start': i * 3.0, 'end': i * 3.0 + 1.0} for i in range(50)]
    assert show.merged_roles(apart, px_per_second=2.0) == set()
    # only gaps below the threshold are closed: a wider gap stays a gap, and the legend counts the stretches
    split = touching[:25] + [dict(e, start=e['start'] + 5.0, end=e['end'] + 5.0) for e in touching[25:]]
    drawn, merged = show.merge_touching(split, px_per_second=2.0)
    assert [(e['start'], e['end']) for e in drawn] == [(0.0, 25.0), (30.0, 55.0)]
    assert merged == {'copy': {'count': 50, 'stretches': 2, 'gap': pytest.approx(0.005 * 55.0)}}
    with using_language('en'):
        assert '(50, gaps under 275 ms\nmerged: drawn as 2 stretches)' in show.legend_names(
            type('TL', (), {'events': split})(), merged)['copy']
        fig = show.plot_comm_timelines(rec.comm_timelines)
        axes = [ax for ax in fig.axes if ax.get_legend() is not None]
        legends = [' '.join(tx.get_text() for tx in ax.get_legend().get_texts()) for ax in axes]
        one_stream = [lg for tl, lg in zip(rec.comm_timelines, legends) if tl.plan != show.SIDE_PLAN]
        side = [lg for tl, lg in zip(rec.comm_timelines, legends) if tl.plan == show.SIDE_PLAN]
        assert one_stream and all('(50, gaps under' in lg and 'one stretch' in lg for lg in one_stream)
        assert side and all('merged' not in lg for lg in side)  # 50 separate copies: countable
        # the picture is what the legend says: each one-stream panel draws its 50 copies as one orange bar (the
        # recorded 2026-12-04 panel drew one copy with an edge, a white line at about 145 ms inside the block)
        copy_colour = style.color('copy')
        for tl, ax in zip(rec.comm_timelines, axes):
            bars = [p for p in ax.patches if tuple(p.get_facecolor()[:3]) == to_rgb(copy_colour)]
            assert len(bars) == (1 if tl.plan != show.SIDE_PLAN else 50), tl.plan
    with using_language('zh'):
        fig = show.plot_comm_timelines(rec.comm_timelines)
        texts = ' '.join(tx.get_text() for ax in fig.axes if ax.get_legend() for tx in ax.get_legend().get_texts())
        assert '间隔不到' in texts and '画成一整段' in texts and '首尾相接' not in texts


def test_overlap_text_prints_the_share_and_says_whether_beyond_the_spread():
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.timing import Comparison, Measurement
    def runs(*overlapped):
        return Comparison({'run': Measurement('run', [1.0, 1.0, 1.0]),
                           'run_then_copy': Measurement('r', [1.45, 1.5, 1.55]),
                           'overlapped': Measurement('o', overlapped)})
    c = runs(1.05, 1.1, 1.15)
    o = dict(measured=0.9, predicted=0.95, compute_busy=1.0)
    with using_language('en'):
        text = show.overlap_text(c, {'overlapped': 1.0}, o)
        assert '= 0.5000 s, 33% of run then copy' in text and 'difference of two medians' in text
        assert 'the middle halves of the repeats (1.075–1.125 s and 1.475–1.525 s) do not overlap' in text
        assert "repeats' spread" not in text
        assert 'cores' not in text  # a GPU run: no CPU time to report
        c = runs(1.05, 1.5, 1.6)
        assert 'not told apart' in show.overlap_text(c, {'overlapped': 1.0}, o)
        # on a CPU the traced run's CPU time / wall clock is reported, joined to the interval share by what each
        # measures: CPU time (cores x wall) against the time the products' and copies' intervals add up to
        with fake_hardware(gpus=0, cores=2):
            traced = dict(o, compute_busy=1.0, copy_busy=0.5, wall=1.2)  # intervals add up to 1.5 s
            part = show.overlap_text(c, {'overlapped': 1.0}, dict(traced, cores=1.0))  # 1.2 s of CPU: 80%
            assert 'kept 1.0 of the 2 cores' in part and 'The 90% above counts' in part
            assert '1.2000 s, is 80% of the 1.5000 s' in part and 'without running on a core' in part
            full = show.overlap_text(c, {'overlapped': 1.0}, dict(traced, cores=1.3))  # 1.56 s: all of it
            assert 'for about all of their intervals' in full and 'without running' not in full
            assert 'seldom' not in part + full  # no cause the run did not test
            bare = show.overlap_text(c, {'overlapped': 1.0}, dict(o, cores=1.1))  # no wall: the cores alone
            assert 'kept 1.1 of the 2 cores' in bare and 'above counts' not in bare
            with using_language('zh'):
                zh = show.overlap_text(c, {'overlapped': 1.0}, dict(traced, cores=1.0))
                assert '上面的 90% 统计的是' in zh and '只是乘积和复制的区间加起来的 1.5000 秒的 80%' in zh
        assert 'overlap alone cannot do' not in text
        faster = Comparison({'run': Measurement('run', [1.2]), 'run_then_copy': Measurement('r', [1.5]),
                             'overlapped': Measurement('o', [1.0])})
        below = show.overlap_text(faster, {'overlapped': 1.2}, dict(o, compute_busy=0.9))
        assert 'took less than the products alone (1.2000 s)' in below and 'busy 0.9000 s' in below
        near = Comparison({'run': Measurement('run', [1.2]), 'run_then_copy': Measurement('r', [1.5]),
                           'overlapped': Measurement('o', [1.15])})  # 4% below: within NOISE, nothing to explain
        assert 'less than the products alone' not in show.overlap_text(near, {'overlapped': 1.2}, o)
    with using_language('zh'):
        assert '33%' in show.overlap_text(c, {'overlapped': 1.0}, o)


def test_freed_memory_is_kept_for_the_next_product():
    import subprocess
    import sys
    if not sys.platform.startswith('linux'):
        pytest.skip('mallopt is glibc-only')
    # A fresh process: a test runner's own heap (other tests, their threads' arenas) must not decide it.
    code = """if True:
        import resource, sys, torch
        from d2l_ext.communication import tracing
        if not tracing.keep_freed_memory():
            print('no-mallopt'); sys.exit()
        def faults_for_products():
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            ys = [torch.ones(1000, 1000) for _ in range(10)]  # 10 results of 4 MB alive at once, as run then copy keeps
            del ys
            return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
        faults_for_products()
        print(min(faults_for_products() for _ in range(3)))  # the least of three: other work may fault too
    """
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120).stdout.split()
    if out[-1:] == ['no-mallopt']:
        pytest.skip('mallopt is glibc-only')
    # 40 MB of fresh pages would be ~9,800 faults; kept memory is reused with (nearly) none
    assert int(out[-1]) < 1000


def test_traced_run_on_a_cpu_reports_the_cores_it_kept_busy():
    import os

    from d2l_ext.communication import task as T
    lane = cpu_lanes()[0]
    run = T.traced_run(T.run_and_copy, lane)
    assert run['wall'] > 0 and 0 < run['cores'] <= (os.cpu_count() or 1) + 0.5  # CPU time / wall clock
    assert {e['role'] for e in run['events']} == {'compute', 'copy'}


def _ex3(together, alone=(1.0, 0.8), threads=(1, 1), copy_threads=1, cores=2, rule='oversubscribed'):
    from d2l_ext.communication import ExerciseThreeResult
    from d2l_ext.results import Measurement
    times = {'lane1_compute_and_copy': Measurement('a', [alone[0]]), 'lane2_compute': Measurement('b', [alone[1]]),
             'together': Measurement('t', together)}
    lanes = [dict(kind='cpu', index=i, threads=n) for i, n in enumerate(threads)]
    return ExerciseThreeResult(lanes, 64, [2, 2], times, sum(alone), max(alone), rule, 0.0, list(threads),
                               copy_threads, cores)


def test_exercise_three_with_more_threads_than_cores_predicts_a_range():
    # fresh-reader finding: lane 0's compute and copy threads plus lane 1's thread are 3 threads on 2 cores
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
        ex = measure_exercise_three(lanes, size=32, iters=1, repeats=1)
    if sum(ln.threads for ln in lanes[:2]) + 1 > 2:
        alone = [ex.times['lane1_compute_and_copy'].median, ex.times['lane2_compute'].median]
        assert ex.expectation == 'oversubscribed' and ex.expected == max(alone) and ex.cores == 2
        assert ex.copy_threads == 1 and ex.lane_threads == [ln.threads for ln in lanes[:2]]
    with using_language('en'):
        text = show.exercise_three_text(_ex3([1.4]))
        assert '3 threads want a core (lane 0: 1 computing, 1 copying; lane 1: 1 computing)' in text
        assert 'this machine has 2' in text and 'from max(lane times) = 1.0000 s' in text
        assert 'up to one after the other 1.8000 s' in text and 'between the two ends' in text
        assert 'close to max(lane times)' in show.exercise_three_text(_ex3([1.02]))
        assert 'about one after the other' in show.exercise_three_text(_ex3([1.78]))
        assert 'above one after the other' in show.exercise_three_text(_ex3([2.5]))
        # as many threads as cores: the old rule and its one number, no range
        fits = show.exercise_three_text(_ex3([1.02], rule='shared', copy_threads=0))
        assert 'range' not in fits and 'close to the expectation 1.0000 s' in fits
    with using_language('zh'):
        assert '有 3 个线程需要核心' in show.exercise_three_text(_ex3([1.4]))
    fig = show.plot_exercise_three(_ex3([1.4, 1.5]))
    ax = fig.axes[0]
    assert ax.get_xlim()[1] >= 1.8 and len(ax.get_legend().get_texts()) == 4  # repeats, median, predicted, range


def test_recorded_pageable_text_says_what_each_ratio_compares():
    from types import SimpleNamespace

    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    c = rec.comm[0]
    rows = {r.mode: r for r in c.rows}
    book, pinned = rows['book: copy_to_cpu(y)'], rows['pinned, preallocated, same stream']
    with using_language('en'):
        text = show.recorded_text(rec)
        assert 'compares new pageable memory with reused pinned memory' in text
        if show.REUSED_PLAN not in rows:  # an older recording: its link measurement of a reused pageable buffer
            assert f"pageable {c.link_gbps['pageable']:.1f} GB/s" in text
        reused = SimpleNamespace(copy=pinned.copy * 3.4)  # a recording with the reused-pageable row
        line = show.pageable_text(c, book, pinned, reused)
        assert 'reused on every repeat' in line and '3.4 times as long as the pinned buffers' in line
        assert 'link measurement' not in line
        bare = SimpleNamespace(size=c.size, iters=c.iters, link_gbps=None)  # neither: the first sentence only
        only = show.pageable_text(bare, book, pinned)
        assert 'reused pageable' not in only and 'link' not in only and only.endswith('reused pinned memory.')


def test_book_labels_say_new_memory_not_page_locking():
    # readers: new pageable tensors are as slow as the first pinned call, so page-locking was never isolated as the
    # cause; the labels say what differs (new memory on every call against reused memory) and name no cause
    import d2l_ext
    from d2l_ext.i18n import catalogue
    for lang in ('en', 'zh'):
        with d2l_ext.i18n.using_language(lang):
            assert ('new host memory' if lang == 'en' else '新的主机内存') in d2l_ext.t('communication.book.both')
            assert ('new memory' if lang == 'en' else '新内存') in d2l_ext.t('communication.variant.cold')
            assert ('new memory' if lang == 'en' else '新内存') in d2l_ext.t('communication.first_copy.title')
            assert ('new pageable' if lang == 'en' else '新建的可分页') in d2l_ext.t('communication.book.copy')
    en = {**catalogue('en')}
    for key, text in en.items():
        if key.startswith(('communication.', 'task.copy.')):
            assert 'page-lock' not in text and 'pinning' not in text, key
    zh = catalogue('zh')
    for key in ('communication.book.both', 'communication.variant.cold', 'communication.first_copy.title',
                'communication.first_copy.summary', 'communication.first_copy.profile',
                'communication.first_copy.no_gpu', 'communication.recorded.nb_like_pinned'):
        assert '锁页' not in zh[key].replace('锁页内存', '').replace('锁页缓冲区', ''), key


def test_first_copy_text_splits_the_gpu_copy_from_the_rest_and_names_no_cause():
    from types import SimpleNamespace

    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    to = SimpleNamespace(name='aten::to', cpu_time_us=1.030e6, cuda_time_us=0.058e6)
    from d2l_ext.results import Measurement
    result = SimpleNamespace(cold=1.032, warm=Measurement('warm', [0.058, 0.058, 0.058]), profile_cold=[to],
                             reason=None)
    with using_language('en'):
        text = show.first_copy_text(result)
    # the first call is one timing (item 1 of the GPU-edition read): said so beside the later calls' repeats
    assert 'first call, into new host memory, 1.032 s (one timing' in text
    assert '0.058 s (median of 3 repeats; the first took 18 times as long)' in text
    assert 'the GPU copy 0.058 s of CUDA time' in text and '1.030 s - 0.058 s = 0.972 s' in text
    assert 'does not test what it was spent on' in text and 'page-lock' not in text
    with using_language('zh'):
        zh = show.first_copy_text(result)
    assert '复制到新的主机内存' in zh and '0.972 秒' in zh and '为它锁页' not in zh


def test_recorded_reused_line_sets_new_pageable_tensors_against_reused_buffers():
    from types import SimpleNamespace

    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    result = SimpleNamespace(size=4000, iters=50, link_gbps=None)
    book, pinned, reused = (SimpleNamespace(copy=c) for c in (2.11, 0.0581, 0.218))
    with using_language('en'):
        line = show.pageable_text(result, book, pinned, reused)
    assert 'the new pageable tensors took 9.7 times as long as these reused ones' in line


def test_newest_recording_has_new_memory_slower_than_reused_buffers():
    # the lesson's pitfalls say so in prose: in the recording, new pageable tensors were slower than reused pageable
    # buffers, the first call into new pinned memory slower than later calls, and pageable copies ran at fewer GB/s
    # than pinned ones; this holds them to the newest recording's numbers
    from d2l_ext.display import communication as show
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    rows = {r.mode: r for r in rec.comm[0].rows}
    book = rows['book: copy_to_cpu(y)']
    reused = rows.get(show.REUSED_PLAN) or rows['pinned, preallocated, same stream']
    assert book.copy > reused.copy
    assert reused.copy > rows['pinned, preallocated, same stream'].copy  # the same bytes: fewer GB/s when pageable
    if rec.first_copy is not None and rec.first_copy.warm is not None:
        assert rec.first_copy.cold > rec.first_copy.warm.median


def test_book_times_text_single_timings_chosen_by_the_numbers():
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    with using_language('en'):
        apart = show.book_times_text(0.1374, 0.1915, 0.2065, gpu=False)
        near = show.book_times_text(0.1374, 0.1400, 0.1350, gpu=False)
        gpu = show.book_times_text(0.1314, 1.8523, 0.1896, gpu=True)
    assert 'one timing' in apart and '1.39 and 1.50 times as long as compute alone (0.1374 s)' in apart
    assert 'at least one more than 10% away' in apart
    assert 'this run does not test why' in apart and 'pin' not in apart
    assert 'within 10% of compute alone' in near and 'why' not in near
    assert 'one timing' in gpu and 'with repeats' in gpu
    with using_language('zh'):
        zh = show.book_times_text(0.1374, 0.1915, 0.2065, gpu=False)
    assert '1.39 倍和 1.50 倍' in zh and '没有检验其原因' in zh


def test_book_setting_line_labels_its_numbers():
    import d2l_ext
    from d2l_ext.i18n import using_language
    with using_language('en'):
        assert d2l_ext.t('communication.book.setting', n=800, k=10) == '800 x 800 matrices, 10 products per call of run'
    with using_language('zh'):
        assert '800 x 800 矩阵' in d2l_ext.t('communication.book.setting', n=800, k=10)


def test_products_slower_beside_copies_only_beyond_the_untraced_repeats():
    # zh reader: one traced run (0.0099 s) against an untraced median (0.0076 s) whose repeats ran 0.0049-0.0106 s
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.timing import Comparison, Measurement

    def runs(run_times):
        return Comparison({'run': Measurement('run', run_times),
                           'run_then_copy': Measurement('r', [0.0119] * 3),
                           'overlapped': Measurement('o', [0.0072, 0.0116, 0.0132])})
    traced = dict(measured=0.95, predicted=0.95, compute_busy=0.0099)
    wide, narrow = [0.0049, 0.0076, 0.0106], [0.0074, 0.0076, 0.0078]
    for lang, slower, within in (('en', 'which of the two slowed', 'does not show the copies slowing'),
                                 ('zh', '哪一个让乘积变慢', '不能说明复制拖慢了乘积')):
        with using_language(lang):
            inside = show.overlap_text(runs(wide), {'overlapped': 0.0063}, traced)
            beyond = show.overlap_text(runs(narrow), {'overlapped': 0.0063}, traced)
        assert within in inside and slower not in inside
        assert slower in beyond and within not in beyond
    with using_language('en'):
        inside = show.overlap_text(runs(wide), {'overlapped': 0.0063}, traced)
    assert '(0.0049-0.0106 s)' in inside


def test_traced_run_wall_clock_is_labelled_one_run_and_placed_against_the_repeats():
    # E18: the drawn timeline ended at 4.3 ms, below the closed form and every products-alone repeat
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.timing import Comparison, Measurement
    c = Comparison({'run': Measurement('run', [0.0049, 0.0053, 0.0106]),
                    'run_then_copy': Measurement('r', [0.0096] * 3),
                    'overlapped': Measurement('o', [0.0041, 0.0064, 0.0072])})
    base = dict(measured=0.92, predicted=0.95, compute_busy=0.004)
    with using_language('en'):
        below = show.overlap_text(c, {'overlapped': 0.0057}, dict(base, wall=0.0040))
        inside = show.overlap_text(c, {'overlapped': 0.0057}, dict(base, wall=0.0043))
        above = show.overlap_text(c, {'overlapped': 0.0057}, dict(base, wall=0.0090))
        none = show.overlap_text(c, {'overlapped': 0.0057}, base)
    assert 'one traced run, not a median: its wall clock 0.0040 s is below every untraced overlapped' in below
    assert 'products alone took 0.0049-0.0106 s' in below and 'closed form, 0.0057 s' in below
    assert 'lies within the untraced overlapped repeats (0.0041-0.0072 s)' in inside
    assert 'is above every untraced overlapped repeat' in above
    assert 'traced run, not a median' not in none
    with using_language('zh'):
        zh = show.overlap_text(c, {'overlapped': 0.0057}, dict(base, wall=0.0040))
    assert '一次跟踪运行，不是中位数' in zh and '低于' in zh


def test_titles_fit_their_figure_in_both_languages():
    # zh reader: titles must not run past the figure (nor be wrapped mid-phrase): drawn with the CJK font
    from d2l_ext.display import communication as show
    from d2l_ext.display.fonts import cjk_font
    from d2l_ext.recorded import load_recordings
    if cjk_font() is None:
        pytest.skip('no CJK font here')
    rec = show.newest(load_recordings())
    for lang in ('zh', 'en'):
        _titles_fit(show, rec, lang)


def _titles_fit(show, rec, lang):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from d2l_ext.i18n import using_language
    with using_language(lang):
        figs = [show.plot_comm(rec.comm[0], title=show.recorded_title(rec)),
                show.plot_comm_timelines(rec.comm_timelines, title=show.recorded_title(rec, repeats=False)),
                show.plot_exercise_three(_ex3([1.4])), show.plot_first_copy(rec.first_copy, rec=rec),
                show.plot_profile(rec.first_copy, rec=rec)]
        for fig in figs:
            renderer = FigureCanvasAgg(fig).get_renderer()
            fig.draw(renderer)
            width = fig.bbox.width
            texts = [tx for ax in fig.axes for tx in (ax.title, ax._left_title)]  # plots title on the left
            texts += [fig._suptitle] if fig._suptitle else []
            for text in texts:
                if text.get_text():
                    box = text.get_window_extent(renderer)
                    assert '\n' not in text.get_text() and box.x0 >= 0 and box.x1 <= width, text.get_text()


def test_recorded_worked_answer_and_recorded_text_print_one_closed_form():
    """The worked answer's 'plus the shorter of one product and one copy' is the number the copy-stream panel is
    set against: a reader never sees two values for one closed form."""
    from d2l_ext.display import communication as show
    from d2l_ext.i18n import using_language
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    side = {r.mode: r for r in rec.comm[0].rows}[show.SIDE_PLAN]
    with using_language('en'):
        assert f'one product and one copy = {side.expected:.4f} s' in show.recorded_prediction_text(rec)
        assert f'one product and one copy = {side.expected:.4f} s' in show.recorded_text(rec)
        assert 'last copy' not in show.recorded_text(rec)  # the shorter one is named, whichever it is
