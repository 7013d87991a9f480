"""13.3.0 and 13.3.1 reader findings (wave 5): one told-apart test in every sentence, numbers said as measured.

Each test fakes the numbers a reader saw (CPU build, GPU edition, the shipped recording) and checks the sentence
the package chooses for them, in English and Chinese. No timing is asserted: every number here is given.
"""
from types import SimpleNamespace as NS

from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel as dp
from d2l_ext.display import parallel_exercises as dx
from d2l_ext.display import scaling as ds
from d2l_ext.i18n import catalogue, using_language
from d2l_ext.lanes import make_lane
from d2l_ext.recorded import newest, provenance_phrase
from d2l_ext.results import Times


def _t(times, label='x'):
    return Times.from_times(list(times), label)


def _independence(one, together, kind='cpu'):
    lane = make_lane('torch', kind, 0, **({} if kind == 'gpu' else {'threads': 1})).as_dict()
    times = {'one_at_a_time': _t(one), 'issued_together': _t(together)}
    return NS(framework='torch', engine='eager', lane=lane, threads=1, iters=10, size=800, times=times,
              ratio=times['one_at_a_time'].median / times['issued_together'].median, kind=kind)


def test_no_catalogue_sentence_says_beyond_the_spread_alone():
    for lang in ('en', 'zh'):
        for key, text in catalogue(lang).items():
            if key.startswith(('parallel.', 'overview.')):
                assert "beyond the repeats' spread" not in text and '超出了各次重复的波动范围' not in text, key


def test_exercise_1_says_both_parts_of_the_test_with_the_middle_halves():
    # the CPU build: medians 0.1004 and 0.1084 s, repeats overlapping at their ends, middle halves apart
    apart = _independence([0.1004, 0.0990, 0.1050], [0.1084, 0.1030, 0.1100])
    # one outlying repeat each way: the middle halves overlap, so not told apart whatever the medians
    overlap = _independence([0.100, 0.101, 0.102, 0.103, 0.140], [0.102, 0.103, 0.1035, 0.104, 0.090])
    with using_language('en'):
        said = dx.independence_text(apart)
        assert 'took longer' in said and 'more than the larger interquartile range' in said
        assert 'middle halves of the repeats (0.0997–0.1027 s and 0.1057–0.1092 s) do not overlap' in said
        assert 'not told apart' in dx.independence_text(overlap)
    with using_language('zh'):
        assert '互不重叠' in dx.independence_text(apart) and '区分不出' in dx.independence_text(overlap)


def _small_gpu(launch, lane_us):
    from d2l_ext.parallel.exercises import SmallOpsResult
    ways = dict(one_lane=lane_us, two_streams=lane_us * 1.01, batched=1.21, cuda_graph=3.37)
    times = {k: _t([800 * v * 1e-6 * f for f in (1.0, 1.01, 0.99, 1.02, 0.98)], k) for k, v in ways.items()}
    return SmallOpsResult('cuda:0', 'gpu', 64, 800, 16, times, launch, 1e-7)


def test_exercise_2_says_how_the_issue_time_was_timed_and_numbers_only():
    longer = _small_gpu(18.8e-6, 16.8)  # the GPU edition: issuing one product took longer than the lane's whole time
    with using_language('en'):
        text = dx.small_ops_lines(longer)
        assert 'the 800 calls timed once' in text and 'without waiting for the GPU' in text
        assert "issuing took 1.12x the lane's whole time per product" in text
        assert 'about as long' not in text and 'nothing to overlap' not in text  # no cause, no "about"
        close = dx.small_ops_lines(_small_gpu(17e-6, 16.8))
        assert "apart (a share of the lane's time per product), within 10%" in close
        assert "the lane's whole time per product was" in dx.small_ops_lines(_small_gpu(5e-6, 16.8))
    with using_language('zh'):
        assert '不等待 GPU' in dx.small_ops_lines(longer)


def test_the_scaling_sentence_gives_units_and_flags_sizes_below_one_or_far_from_their_prediction():
    def point(size, together, serial, expected):
        m = _t(together)
        return NS(size=size, together=m, serial_sum=serial, speedup=serial / m.median, expected_speedup=expected)
    gpu = NS(framework='torch', points=[point(1000, [0.0112, 0.0115, 0.0110], 0.0100, 1.97),
                                        point(2000, [0.0540, 0.0545, 0.0543], 0.1, 1.86),
                                        point(4000, [0.40, 0.41, 0.405], 0.66, 1.63)])
    with using_language('en'):
        text = ds.scaling_text([gpu])
    assert 'spread 0.00' not in text and 'interquartile range (' in text and 'x)' in text
    assert 'n=1000: together took longer than one after the other (0.0112 s against 0.01 s' in text
    assert 'n=1000: measured 0.89x against the predicted 1.97x: 2.21x apart, more than 1.5x' in text
    assert 'n=2000: measured' not in text and 'n=4000: measured' not in text


def test_the_mxnet_summary_tests_its_speedup_against_the_prediction():
    mx = NS(framework='mxnet', serial_sum=0.105, together=_t([0.099, 0.097, 0.101, 0.104, 0.098]),
            speedup=0.105 / 0.099, expected_speedup=1.0, lane_times=None,
            expectation=NS(rule='engine', seconds=0.105, cores=2, threads=2, ways=1))
    with using_language('en'):
        text = dp.summary_text(mx)
    assert "predicted from each lane's time alone: 1.00x" in text
    assert 'middle half (1.04–1.07x) does not include it' in text
    mx.together = _t([0.099, 0.090, 0.101, 0.110, 0.104])  # the middle half reaches 1.00x: not told apart
    with using_language('en'):
        assert 'not told apart' in dp.summary_text(mx)


def test_the_recorded_baseline_is_said_as_measured():
    rec = newest()
    with using_language('en'):
        text = dp.baseline_text('GPU 0', rec.parallel[0].baseline, rec.parallel[0].together)
    assert 'together was faster than one device doing both, 0.7% apart (a share of the larger), within 10%' in text
    assert 'gained almost nothing' in text and 'do not overlap' in text and 'did not beat' not in text
    with using_language('zh'):
        assert '几乎没有带来收益' in dp.baseline_text('GPU 0', rec.parallel[0].baseline, rec.parallel[0].together)


def test_the_timeline_caption_and_the_redone_prediction_come_from_the_data():
    rec = newest()
    tl, p = rec.timelines[0], rec.parallel[0]
    with using_language('en'):
        caption = dl.timeline_caption(tl)
        assert '1440 products, drawn as busy stretches' in caption and '26 products back to back' in caption
        assert 'one bar each' in dl.timeline_caption(tl, max_bars=5000).split(';')[0]  # drawn one by one
        text = dl.overlap_text(tl, p.serial_sum, p.together.median, p.expected,
                               [m.median / k for m, k in zip(p.lane_times, p.iters)], repeats=p.together.times,
                               median_repeat=tl.repeat)
    assert 'prediction made again at them' in text and 'max(products x median time per product) = max(' in text
    assert '1440 x 0.348 ms = 0.501 s' in text


def test_two_predictions_of_one_speedup_have_two_names():
    with using_language('en'):
        guess = dp.guess_text(None, 2.0, 1.95, unit='x', prediction='by_rule')
        assert 'by the hardware rule: 2.00x' in guess
    assert 'predicted from' in catalogue('en')['parallel.plot_title']
    assert '按硬件规则预测' in catalogue('zh')['parallel.guess.by_rule']


def test_cpu_lanes_with_one_core_each_split_the_cores_and_more_threads_share_them():
    def result(threads):
        lanes = [make_lane('torch', 'cpu', i, threads=threads).as_dict() for i in range(2)]
        return NS(baseline=_t([0.15] * 3), together=_t([0.152] * 3), baseline_lane=None, baseline_cores=2,
                  speedup=1.81, expected_speedup=2.0, serial_sum=0.276, lane_times=[_t([0.138])] * 2, lanes=lanes)
    with using_language('en'):
        assert "split the CPU's 2 cores" in dp.overview_summary(result(1))
        assert "share the CPU's 2 cores" in dp.overview_summary(result(2))
    with using_language('zh'):
        assert '分开用' in dp.overview_summary(result(1)) and '共用' in dp.overview_summary(result(2))


def test_the_provenance_of_a_recording_is_chosen_against_this_machine():
    rec = newest()
    same = {'gpus': list(rec.machine['gpus']), 'cpu_cores': rec.machine['cpu_cores']}
    assert provenance_phrase(rec, same) == 'panels.provenance.same_kind'
    assert provenance_phrase(rec, dict(same, cpu_cores=2)) == 'panels.provenance.other_kind'
    assert provenance_phrase(rec, {'gpus': [], 'cpu_cores': rec.machine['cpu_cores']}) == 'panels.provenance.other_kind'
    from d2l_ext.display.parallel_recorded import recorded_overlap_text
    with using_language('en'):
        assert 'an earlier run on a machine of the same kind' in recorded_overlap_text(rec, here=same)
        assert "another machine's run" in recorded_overlap_text(rec, here={'gpus': [], 'cpu_cores': 2})
