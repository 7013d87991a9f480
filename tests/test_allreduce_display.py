"""13.3.4's sentences, titles, bucket plot and panel: chosen from the numbers, in both languages, never a traceback."""
import glob
import os
import re
import tempfile

import pytest

from d2l_ext.allreduce import AllreduceResult, Prediction, Version
from d2l_ext.display import allreduce as show
from d2l_ext.display import allreduce_buckets as buckets
from d2l_ext.display.style import cjk_available
from d2l_ext.i18n import using_language
from d2l_ext.results import told_apart

TINY = dict(layers=2, width=32, batch=4)
LAYER = 1024 * 1024 * 4  # one 1024 x 1024 float32 weight
TENSORS = [4096, LAYER] * 6  # backward order: each layer's bias, then its weight


def fake(serial=0.14, hooks=0.13, ddp=0.12, backward=0.10, spread=0.001, hooks_shared=0.02, slow=0.06,
         cores=2, backend='gloo', ddp_mb=1.0):
    """A result with three repeats per version around the given medians and one profiled step per process."""
    def v(vid, median, mb=None, calls=12, comm=0.04, shared=0.0, span=0.05):
        stats = [[{'comm': comm, 'shared': shared, 'calls': calls, 'backward': span}] for _ in range(2)]
        return Version(vid, vid, mb, [[median - spread, median - spread], [median, median],
                                      [median + spread, median]], 1e-7, 'whole', stats)
    ddp_calls = 6 if ddp_mb < 25 else 1
    versions = [v('backward', backward, calls=0, comm=0.0), v('allreduce', 0.04, span=0.0), v('serial', serial),
                v('flat', serial - 0.005, calls=1), v('hooks', hooks, shared=hooks_shared, span=slow),
                v(f'ddp-{ddp_mb:g}', ddp, ddp_mb, calls=ddp_calls, shared=0.03, span=0.05)]
    grad = sum(TENSORS)
    pred = Prediction.from_measurements(2, grad, 4 * grad, [0.16, 0.16], backward, 4, [0.0004] * 3, TENSORS, 0.05)
    spans = (('compute', 'backward', 0.0, 0.10), ('allreduce', 'allreduce', 0.03, 0.12))
    events = {f'ddp-{ddp_mb:g}': [{'rank': r, 'stream': s, 'role': role, 'name': 'x', 'start': a, 'end': b,
                                   'lane': ''} for r in (0, 1) for s, role, a, b in spans]}
    return AllreduceResult(backend, 2, ['cpu', 'cpu'], 6, 1024, 128, 1, versions, pred, {}, events, cores, 1e-3)


def test_the_overlap_is_the_interval_fraction_with_the_model_and_the_wall_clock_beside_it():
    r = fake()
    line = show.overlap_sentence(r, r.version('hooks'))
    assert line.startswith('(c) all-reduce from gradient hooks: 50% of its 40.0 ms') and 'model: 8' in line
    assert '(a) and this step: the medians (' in line and line.endswith('do not overlap; this step is faster')
    same = fake(hooks=0.1395)
    assert ('differ by 0.5 ms, no more than the larger interquartile range (1.0 ms): not told apart (middle halves '
            'of the repeats: (a) 139.5–140.5 ms and (c) 139.0–140.0 ms)') in show.overlap_sentence(
        same, same.version('hooks'))
    slower = fake(hooks=0.20)
    assert show.overlap_sentence(slower, slower.version('hooks')).endswith('this step is slower')


@pytest.mark.parametrize('kwargs', [dict(hooks_shared=0.2), dict(hooks_shared=-0.1), dict(hooks=0.01)])
def test_no_overlap_above_100_or_below_0_percent_is_ever_shown(kwargs):
    r = fake(**kwargs)
    for v in r.versions:
        assert v.overlap is None or 0.0 <= v.overlap <= 1.0
    for pct in re.findall(r'(?:^|[\s(])(-?\d+)%', show.overlap_text(r)):
        assert 0 <= int(pct) <= 100


def test_the_wall_clock_is_split_into_measured_terms():
    r = fake()
    why = show.why_text(r, r.version('ddp-1'))
    assert '6 fewer calls' in why and 'of all-reduce hidden behind backward' in why and 'none of these' in why
    hooks = show.why_text(r, r.version('hooks'))
    assert 'fewer calls' not in hooks  # (a) and (c) make the same calls
    # the profiled span inside each step, named so: never the whole step 'backward alone' prints as a median
    assert ('-10.0 ms lost to the slower backward: its operators (profiled) took 60.0 ms instead of 50.0 ms in the '
            'step without all-reduce (1.20x as long)') in hooks
    assert 'because' not in hooks  # a term is a measured difference, not a cause
    assert "gloo's threads" not in hooks and 'core' not in hooks  # sharing cores was never tested as the cause


def test_a_bucket_holding_every_gradient_is_named_one_bucket_never_a_negative_overlap():
    r = fake(ddp_mb=50.0, ddp=0.16)
    v = r.version('ddp-50')
    assert r.one_bucket(v) and r.predicted('ddp-50')['overlap'] == 0.0
    line = show.overlap_sentence(r, v)
    assert '(one bucket: the whole gradient)' in line and not re.search(r'-\d+%', line)


def test_per_call_cost_comes_from_the_flat_control():
    r = fake()
    assert 'flat is faster, by 0.455 ms per call it avoids' in show.per_call_text(r)
    noisy = fake(spread=0.01)
    assert 'no more than the larger interquartile range (10.0 ms): not told apart' in show.per_call_text(noisy)


def test_the_model_predicts_a_bucket_size_and_the_plot_draws_it_beside_the_sweep():
    r = fake()
    p = r.prediction
    assert p.best_buckets([0.25, 1, 8, 50]) == [0.25, 1]  # one bucket per layer: same calls, earliest start
    assert p.schedule('ddp', 50)['overlap'] == 0.0 and p.schedule('hooks')['overlap'] > 0.5
    assert 'measured fastest: 1 MiB, median 120.0 ms (1 MiB is in both)' in buckets.bucket_text(r, [0.25, 1, 8, 50])
    fig = buckets.plot_buckets(r, sizes=[0.25, 1, 8, 50])
    ax = fig.axes[0]
    assert "model's fastest: 0.25, 1 MiB (6 buckets)\nmeasured fastest: 1 MiB (median 120.0 ms)" == ax.get_title(
        loc='left')
    assert any(line.get_label().startswith('model: 0.40 ms per call') for line in ax.get_lines())


def test_the_distance_in_the_sweep_names_both_sizes_and_the_sweep():
    sweep = [0.25, 1, 8, 50]  # the model's fastest: 0.25 and 1 MiB
    text = buckets.bucket_text(fake(ddp_mb=8.0), sweep)
    assert ('measured 8 MiB and model 1 MiB are neighbouring sizes in the sweep of 0.25, 1, 8, 50 MiB' in text
            and 'step' not in text)
    assert 'measured 50 MiB and model 1 MiB are 2 positions apart in the sweep' in buckets.bucket_text(
        fake(ddp_mb=50.0), sweep)
    with using_language('zh'):
        assert '实测的 8 MiB 与模型的 1 MiB 在所试的 0.25、1、8、50 MiB 中是相邻的两个大小' in buckets.bucket_text(
            fake(ddp_mb=8.0), sweep)


def test_bucket_sizes_within_the_spread_of_the_fastest_are_named_together_never_one_of_them_alone():
    r = fake(ddp_mb=1.0, ddp=0.120)
    near, far = fake(ddp_mb=0.25, ddp=0.1205).version('ddp-0.25'), fake(ddp_mb=8.0, ddp=0.16).version('ddp-8')
    r.versions += [near, far]  # 0.25 MiB within the 1 ms spread of the fastest (1 MiB), 8 MiB far slower
    assert r.fastest_buckets([0.25, 1, 8]) == [0.25, 1]
    text = buckets.bucket_text(r, [0.25, 1, 8])
    assert ('measured fastest: 1 MiB, median 120.0 ms; not told apart from it (by the test in the lines below): '
            '0.25 MiB') in text
    title = ax_title(buckets.plot_buckets(r))
    assert title.endswith('measured fastest: 1 MiB (median 120.0 ms); not told apart from it: 0.25 MiB')
    assert 'best' not in title  # one size is the fastest; the others are only not told apart from it
    far_too = fake(ddp_mb=8.0, ddp=0.1203).version('ddp-8')
    r.versions[-1] = far_too  # now every size within the spread: none told apart
    assert 'measured: no size told apart' in buckets.bucket_text(r, [0.25, 1, 8])


def ax_title(fig) -> str:
    return fig.axes[0].get_title(loc='left')


def test_titles_and_sentences_in_chinese_too():
    r = fake()
    assert show._title(r).startswith('(d) DDP')  # the larger interval overlap
    assert 'ms before backward ends' in show._timeline_title(r, 'ddp-1')
    with using_language('zh'):
        assert '全归约' in show.overlap_text(r) and '反向传播' in show.why_text(r, r.version('hooks'))
        assert '扁平对照' in show.per_call_text(r)
        if cjk_available():  # plots fall back to English labels without a CJK font
            assert '反向传播结束前' in show._timeline_title(r, 'ddp-1')
        assert '个进程' in show.machine_text('gloo', 2)
        assert '轮流' in show.machine_text('gloo', 2, cores=1)


def test_one_core_is_explained_not_refused():
    text = show.machine_text('gloo', 2, cores=1)
    assert 'take turns' in text and 'cannot run at the same moment' in text
    assert 'take turns' not in show.machine_text('gloo', 2, cores=2)


def test_the_guess_cell_shows_model_and_measurement_with_or_without_a_guess():
    r = fake()
    assert 'Write your prediction' in show.guess_text(None, r) and 'measured: 50%' in show.guess_text(None, r)
    assert show.guess_text(0.3, r).startswith('your guess 30%')
    # with or without a guess, the line says what its percentages are a share of
    for guess in (None, 0.3):
        assert 'the share of the all-reduce that ran during backward' in show.guess_text(guess, r)
    with using_language('zh'):
        assert '中，全归约在反向传播期间进行的比例' in show.guess_text(None, r)
    # the ratio exercise names what it divides
    with using_language('en'):
        from d2l_ext.i18n import t
        assert 'ratio of their median times' in t('allreduce.ratio', batch=64, ratio=1.1)


def test_the_panel_runs_once_keeps_rows_and_turns_failures_into_one_line(monkeypatch):
    from d2l_ext.allreduce import ProcessFailed
    from d2l_ext.display import allreduce_panel
    from d2l_ext.errors import UsageError
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), 'allreduce-*')))
    from d2l_ext.display.panels import Panel
    panel = allreduce_panel.BucketPanel(bucket_mb=1.0, repeats=1, **TINY).show()
    assert isinstance(panel, Panel)  # the one panel base: Run, progress, a failure as one line
    assert len(panel.rows) == 1 and 'd2l-table' in panel.table.value and panel.figure is not None
    assert 'overlap' in panel.table.value and 'hidden' not in panel.table.value
    assert not panel.run_button.disabled and 'Error' not in panel.message.value
    assert set(glob.glob(os.path.join(tempfile.gettempdir(), 'allreduce-*'))) == before  # no trace folder left

    def dies(**_):
        raise ProcessFailed('process 1 ended unexpectedly (exit code -9); every other process was stopped')
    monkeypatch.setattr('d2l_ext.allreduce.run_allreduce', dies)
    panel.run()
    assert 'process 1 ended' in panel.message.value and '\n' not in panel.message.value
    assert not panel.run_button.disabled and len(panel.rows) == 1
    with pytest.raises(UsageError, match='not on the slider'):
        allreduce_panel.BucketPanel(bucket_mb=3.0)


def test_bad_input_in_the_panel_is_a_message():
    from d2l_ext.display.allreduce_panel import BucketPanel
    panel = BucketPanel(world_size=1, **TINY).show()
    assert 'use 2 or more' in panel.message.value and not panel.rows and not panel.run_button.disabled


def test_a_slower_flat_control_is_never_read_as_a_negative_cost_per_call():
    r = fake()
    r.version('flat').times = [[0.20, 0.20]] * 3  # flat 60 ms slower than (a)
    text = show.per_call_text(r)
    assert 'flat is slower' in text and 'per call' not in text.split('alpha')[0]


def test_one_gpu_says_why_the_lesson_runs_gloo_on_the_cpu(monkeypatch):
    from d2l_ext.display import allreduce as shown
    from d2l_ext.i18n import using_language
    for gpus, said in ((1, True), (0, False)):
        monkeypatch.setattr(shown, 'gpu_names_torch', lambda gpus=gpus: ['NVIDIA H200'] * gpus)
        with using_language('en'):
            assert ('the GPU is not used here' in shown.machine_text('gloo', 2, cores=16)) is said


def test_the_fewer_calls_term_is_the_models_and_the_flat_control_says_what_it_measured():
    r = fake()  # flat 5 ms faster than (a), spread 1 ms: the control shows a saving
    why = show.why_text(r, r.version('ddp-1'))
    assert '+2.4 ms saved, by the model, for 6 fewer calls (6 × α' in why
    assert '(a) and flat: the medians (140.0 ms and 135.0 ms) differ by 5.0 ms' in show.overlap_text(r)
    assert 'flat is faster' in show.overlap_text(r)
    slower = fake()
    slower.version('flat').times = [[0.20, 0.20]] * 3
    text = show.overlap_text(slower)
    assert "the fewer-calls terms above are the model's" in text and 'does not show that saving' in text
    noisy = fake(spread=0.01)
    assert 'does not show that saving' in show.overlap_text(noisy) and 'not told apart' in show.overlap_text(noisy)
    assert 'fewer-calls' not in show.overlap_text(r, ['hooks'])  # (c) makes (a)'s calls: no model term to qualify
    with using_language('zh'):
        assert '是省下的：模型按少了 6 次调用算出' in show.why_text(r, r.version('ddp-1'))
        assert '扁平对照更慢，所以看不出这份节省' in show.overlap_text(slower)


def test_a_slower_flat_control_names_its_copies_as_untimed_never_as_the_cause():
    r = fake()
    r.version('flat').times = [[0.20, 0.20]] * 3
    assert 'those copies are inside its timed step, not timed separately' in show.per_call_text(r)
    with using_language('zh'):
        assert '这些复制计入它的训练步时间，只是没有单独计时' in show.per_call_text(r)


def test_one_bucket_and_the_flat_control_both_one_call_are_set_side_by_side():
    r = fake(ddp_mb=50.0, ddp=0.16)  # flat at 0.135 s: 25 ms apart, spread 1 ms
    text = show.overlap_text(r)
    assert ('and the flat control (b) each make one all-reduce of the whole gradient after backward; the '
            'medians (160.0 ms and 135.0 ms) differ by 25.0 ms, more than the larger interquartile range (1.0 ms), '
            'and the middle halves of the repeats ((d) 50 MiB 159.5–160.5 ms and (b) 134.5–135.5 ms) do not '
            'overlap') in text
    assert 'because' not in text
    near = fake(ddp_mb=50.0, ddp=0.1355)
    assert 'differ by 0.5 ms, no more than the larger interquartile range' in show.overlap_text(near)
    assert 'flat control (b) each' not in show.overlap_text(fake())  # 1 MiB: several buckets, no such line


def test_a_measured_share_above_the_models_says_so_with_both_all_reduce_times():
    r = fake(hooks_shared=0.039)  # 98% measured, the model's 8x%
    line = show.overlap_sentence(r, r.version('hooks'))
    model = r.predicted('hooks')
    assert f"above the model's {model['overlap']:.0%}, whose all-reduce takes {model['busy'] * 1e3:.1f} ms" in line
    assert 'of its 40.0 ms of all-reduce' in line
    assert 'above' not in show.overlap_sentence(fake(), fake().version('hooks'))  # 50% below the model's
    with using_language('zh'):
        assert '高于模型的' in show.overlap_sentence(r, r.version('hooks'))


@pytest.mark.parametrize('factor, said', [(0.4, 'more than 2x (above 2.20x)'), (0.6, 'less than 2x (below 1.82x)'),
                                          (0.5, 'about 2x (from 1.82x to 2.20x)')])
def test_the_ratio_exercise_says_how_the_ratio_grew_beside_2x(factor, said):
    import copy
    r = fake()
    half = copy.deepcopy(r)
    half.batch_per_process //= 2
    half.version('backward').times = [[x * factor for x in row] for row in half.version('backward').times]
    text = show.ratio_text(r, half)
    assert text.count('batch of') == 2 and said in text.splitlines()[-1]
    with using_language('zh'):
        text = show.ratio_text(r, half)
    assert '随批量减半的工作' in text and '参数更新的工作量与批量无关' in text


def test_the_trace_lines_say_whose_traces_and_how_long_they_last():
    r = fake()
    r.traces = {'ddp-1': ['/tmp/x/p0.json', '/tmp/x/p1.json']}
    text = show.trace_text(r, 'ddp-1')
    assert "this run's trace of (d) DDP, 1 MiB buckets, process 1: /tmp/x/p1.json" in text
    assert 'removed when' in text and 'kernel ends' in text


def test_every_step_comparison_uses_the_one_told_apart_test_both_parts_in_order():
    r = fake()
    # medians 17 ms apart, more than either IQR (10 ms), but the middle halves overlap (109-110 ms)
    r.version('hooks').times = [[x, x] for x in (0.090, 0.100, 0.101, 0.110, 0.120)]
    r.version('serial').times = [[x, x] for x in (0.100, 0.109, 0.118, 0.119, 0.130)]
    assert not told_apart(r.version('serial').measurement, r.version('hooks').measurement)
    line = show.overlap_sentence(r, r.version('hooks'))
    assert 'more than the larger interquartile range' in line and 'but the middle halves of the repeats overlap' in line
    assert line.endswith('not told apart') and 'beyond' not in line and 'within' not in line
    with using_language('zh'):
        assert '各次重复的中间一半相互重叠' in show.overlap_sentence(r, r.version('hooks'))


def test_a_difference_not_told_apart_is_split_but_never_set_against_its_terms():
    r = fake(ddp=0.1395)  # (d) within (a)'s spread; its unexplained term is then the largest
    why = show.why_text(r, r.version('ddp-1'))
    assert 'not told apart above: these terms split a difference the repeats do not establish' in why
    assert 'do not explain the difference' not in why
    with using_language('zh'):
        assert '并未确认的差别' in show.why_text(r, r.version('ddp-1'))
        assert '解释不了这个差别' not in show.why_text(r, r.version('ddp-1'))


def test_every_hatched_model_value_is_printed_and_all_reduce_alone_too():
    r = fake()
    ids = ['backward', 'allreduce', 'serial', 'flat', 'hooks', 'ddp-1']
    text = show.model_steps_text(r, ids)
    for vid in ids:
        v = r.version(vid)
        assert f'{r.prediction.for_version(v.id, v.bucket_mb):.4f} s' in text
    ingredients = show.ingredients_text(r)
    assert 'step without all-reduce (forward, backward and update, nothing sent): 0.1000 s' in ingredients
    assert 'all-reduce alone (the 12 gradients' in ingredients and '0.0400 s (median)' in ingredients
