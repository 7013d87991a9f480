"""13.3.4's display (display.allreduce): one verdict line per measuring cell, timed steps drawn beside
the model, the learner's versions measured once they pass; golden lines in both languages."""
import pathlib

import pytest
from matplotlib.collections import PathCollection

from d2l_ext.allreduce import AllreduceResult, Prediction, Version, recording, steps
from d2l_ext.display import allreduce as show
from d2l_ext.i18n import using_language

ROOT = pathlib.Path(__file__).resolve().parents[1]
LESSON = ROOT / 'notebooks' / 'src' / '13.3.4-Allreduce-During-Backward.py'
LAYER = 1024 * 1024 * 4  # one 1024 x 1024 float32 weight
TENSORS = [4096, LAYER] * 6  # backward order: each layer's bias, then its weight


def fake(serial=0.14, hooks=0.13, ddp=0.12, backward=0.10, spread=0.001, hooks_shared=0.02, slow=0.06, cores=2,
         alone_span=0.05, serial_span=0.05, beside=None):
    """A result with three repeats per version around the given medians and one profiled step per process."""
    def v(vid, median, mb=None, calls=12, comm=0.04, shared=0.0, span=0.05):
        stats = [[{'comm': comm, 'shared': shared, 'calls': calls, 'backward': span}] for _ in range(2)]
        return Version(vid, vid, mb, [[median - spread, median - spread], [median, median],
                                      [median + spread, median]], 1e-7, 'whole', stats)
    versions = [v('backward', backward, calls=0, comm=0.0, span=alone_span), v('allreduce', 0.04, span=0.0),
                v('serial', serial, span=serial_span), v('flat', serial - 0.005, calls=1, comm=0.035),
                v('kept', serial - 0.02, calls=1, comm=0.035),
                v('hooks', hooks, shared=hooks_shared, span=slow), v('buckets', hooks, calls=6, shared=0.03),
                v('ddp-1', ddp, 1.0, calls=6, shared=0.03), v('ddp-25', serial - 0.004, 25.0, calls=1)]
    versions += [v('beside', serial, span=beside)] if beside else []  # (c)'s control: gloo busy beside backward
    grad = sum(TENSORS)
    pred = Prediction.from_measurements(2, grad, 4 * grad, [0.12, 0.12], backward, [0.04], TENSORS, 0.05)
    spans = (('compute', 'backward', 0.0, 0.10), ('allreduce', 'allreduce', 0.03, 0.12),
             ('compute', 'optimizer', 0.10, 0.20))
    events = {'hooks': [{'rank': r, 'stream': s, 'role': role, 'name': 'x', 'start': a, 'end': b, 'lane': ''}
                        for r in (0, 1) for s, role, a, b in spans]}
    return AllreduceResult('gloo', 2, ['cpu', 'cpu'], 6, 1024, 128, 1, versions, pred, {}, events, cores, 1e-3)


def test_the_verdict_line_is_the_one_rule_with_where_it_ran():
    r = fake()
    assert show.verdict_text(r) == '(c) hooks 130 ms vs (a) after backward 140 ms: faster (7.1% less time)'
    assert show.verdict_text(fake(hooks=0.1401, spread=0.01)) == \
        '(c) hooks 140 ms vs (a) after backward 140 ms: no clear difference (medians within 5%)'
    assert show.paid_line(fake(hooks=0.16, cores=16)) == \
        '2 processes, 16 cores: (c) hooks 160 ms vs (a) after backward 140 ms: slower (14% more time)'
    with using_language('zh'):
        assert show.paid_line(r) == \
            '2个进程、2个核心：（c）在钩子中全归约130毫秒，（a）先反向传播再全归约140毫秒：更快（执行时间少7.1%）'


def test_the_guess_is_c_s_step_in_ms_printed_above_the_verdict_and_nothing_without_one():
    r = fake()
    assert show.guess_text(80, r) == 'your guess 80.0 ms · predicted 106 ms · measured 130 ms'
    assert show.guess_text(None, r) == '' and show.paid_line(r, None) == show.paid_line(r)  # no blank line
    assert show.paid_line(r, 80) == 'your guess 80.0 ms · predicted 106 ms · measured 130 ms\n' + show.paid_line(r)
    ax = show.plot_steps(r, guess=80).axes[0]  # the diamond on (c)'s row, at 80 ms
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert [c.get_offsets()[0][0] for c in dots if c.get_sizes()[0] == 140] == [pytest.approx(80.0)]
    ax = show.plot_steps(r, ids=['serial', 'ddp-1'], guess=90, guess_on='ddp-1').axes[0]  # Exercise 2's guess
    diamond = [c.get_offsets()[0] for c in ax.collections if isinstance(c, PathCollection) and c.get_sizes()[0] == 140]
    assert [x for x, _ in diamond] == [pytest.approx(90.0)]


def test_exercise_1_reads_the_control_then_c_against_the_formula_and_the_formula_with_the_controls_backward():
    here = fake(slow=0.065, beside=0.064)  # backward: without all-reduce 50 ms, (c) 65 ms, the control 64 ms
    assert show.miss_answer(here) == 'Backward in (a) with gloo alongside 64.0 ms vs backward without ' \
        'all-reduce 50.0 ms: slower (28% more time).\nBackward in (a) with gloo alongside 64.0 ms vs backward ' \
        'in (c) 65.0 ms: no clear difference (medians within 5%).\nWorked answer: Backward in (c) 65.0 ms vs ' \
        "backward without all-reduce 50.0 ms: slower (30% more time). (c) hooks 130 ms: 23% above the formula's " \
        "estimate 106 ms. (c) hooks 130 ms: 8.5% above the formula's estimate with the control's backward 120 ms."
    assert show.miss_answer(fake(slow=0.065)) == show.miss_answer(here).split('\n')[2].split(' (c) hooks 130 ms: 8.5%')[
        0]  # no control run: no word on it, no second estimate
    assert 'control' not in show.miss_answer(fake(slow=0.065, beside=0.05)).split('\n')[2]  # not slowed: one estimate
    below = "(c) hooks 100 ms: 5.5% below the formula's estimate 106 ms."
    assert below in show.miss_answer(fake(hooks=0.1))  # vs_model
    assert show.miss_answer(fake(slow=0.045, beside=0.05), 'slower').endswith(
        "the formula's estimate 106 ms. Your guess: slower.")
    with using_language('zh'):
        assert show.miss_answer(here).split('\n')[2] == '参考答案：（c）中的反向传播65.0毫秒，不做全归约时的反向传播' \
            '50.0毫秒：更慢（执行时间多30%）。（c）在钩子中全归约130毫秒，比公式的估算106毫秒高23%。' \
            '（c）在钩子中全归约130毫秒，比按对照中的反向传播算出的公式估算120毫秒高8.5%。'


def test_the_backward_panel_draws_the_formulas_backward_c_and_c_s_control_and_the_guess():
    fig = show.plot_backward(fake(slow=0.065, beside=0.064), ['backward', 'hooks', 'beside'], guess=70)
    low = fig.axes[0]
    assert [x.get_text().split('\n')[0] for x in low.get_yticklabels()] == [
        'backward without all-reduce', 'backward in (c)', 'backward in (a) with gloo alongside']
    diamond = [c.get_offsets()[0] for c in low.collections if isinstance(c, PathCollection) and c.get_sizes()[0] == 140]
    assert [x for x, _ in diamond] == [pytest.approx(70.0)] and low.get_legend() is not None  # on (c)'s row


def test_the_figure_draws_every_repeat_its_middle_half_median_and_the_model_of_c_only():
    r = fake(hooks=0.095)  # a median below the step without all-reduce: drawn where it is
    ax = show.plot_steps(r).axes[0]
    drawn = [r.version(v) for v in ['serial', 'hooks']]
    assert [t.get_text().split('\n')[0] for t in ax.get_yticklabels()][1:] == [show.name(r, v) for v in drawn]
    assert [t.get_text().split('\n')[0] for t in ax.get_yticklabels()][0] == 'step without all-reduce'
    medians = [seg[0][0] for c in ax.collections if hasattr(c, 'get_segments') for seg in c.get_segments()]
    assert pytest.approx(95.0) in medians and pytest.approx(100.0) in medians  # (c), the step without all-reduce
    dots = sum(len(c.get_offsets()) for c in ax.collections if isinstance(c, PathCollection))
    assert dots == sum(len(v.step_times) for v in [r.version('backward'), *drawn])  # every repeat
    hatched = [p.get_width() for p in ax.patches if p.get_hatch() == '///']
    assert hatched == [pytest.approx(r.predicted('hooks')['step'] * 1e3)]  # the prediction: (c)'s, nothing else
    assert len(ax.get_legend().get_texts()) == 4  # dots, median, middle half, model
    assert [x.get_text() for x in ax.texts] == [f'{w:.3g} ms' for w in hatched]  # the model bar's value written
    ax = show.plot_steps(r, ids=['serial', 'flat', 'kept'], guess=90, guess_on='flat', model=False).axes[0]
    assert not [p for p in ax.patches if p.get_hatch() == '///'] and not ax.texts  # exercise 2: no model


def test_the_flat_answer_reads_its_control_then_b_against_a_naming_the_cause_only_where_the_rule_parts_them():
    assert show.flat_answer(fake(), 'slower') == 'Here, (b) flat 135 ms vs (b), buffer made once 120 ms: slower ' \
        '(12% more ' \
        "time). (b)'s torch.cat and ÷n make 48 MiB of new tensors a step; its control, none.\n" \
        'Worked answer: Here, (b) flat 135 ms vs (a) after backward 140 ms: no clear difference (medians within 5%). ' \
        "(b) flat 135 ms: within 5% of the formula's estimate 131 ms. Your guess: slower."  # the answer last
    close = fake(serial=0.125)  # (b) 120 ms, its control 105 ms, but one repeat of the control at 140 ms
    close.version('kept').times[2] = [0.14, 0.14]
    assert show.flat_answer(close).splitlines()[0].endswith('no clear difference (grey boxes overlap).')  # no cause
    with using_language('zh'):
        assert show.flat_answer(fake()).splitlines()[0].endswith(
            '（b）每次迭代都用torch.cat和除法新建共48 MiB的张量，它的对照只新建一次。')


def test_a_timeline_of_b_draws_its_flatten_and_copy_back():
    r = fake(serial=0.15)  # (b)'s drawn step copies for 10 ms on process 0, 12 ms on process 1
    r.events['flat'] = [{'rank': k, 'stream': s, 'role': role, 'name': 'x', 'start': a, 'end': b}
                        for k in (0, 1) for s, role, a, b in (('compute', 'backward', 0.0, 0.05),
                                                              ('compute', 'copy', 0.05, 0.06 + 0.002 * k),
                                                              ('allreduce', 'allreduce', 0.06, 0.08 - 0.005 * k))]
    legend = [x.get_text() for x in show.draw_step_timeline(r, 'flat').axes[0].get_legend().get_texts()]
    assert 'flatten (cat, ÷n), copy back' in legend and 'all-reduce (incl. waiting\nfor the other process)' in legend
    assert show.draw_step_timeline(r, 'flat').axes[0].get_xlabel() == \
        "time (ms) from backward's start (forward not drawn)"


def test_the_timeline_title_is_worked_out_from_the_events_drawn_not_the_optimizer():
    fig = show.draw_step_timeline(fake(), 'hooks')
    title = ' '.join(ax.get_title(loc) for ax in fig.axes for loc in ('left', 'center'))
    assert "(c) hooks, each process's median-length profiled step:\nfirst all-reduce started 70 ms (process 0), " \
        '70 ms (process 1) before backward ended' in title  # not step()
    assert fig.axes[0].get_yticklabels()[0].get_text() == 'process 0: compute (backward 100 ms)'  # its own span
    (r := fake()).events['hooks'][0]['end'] = 0.09  # process 0's backward ends first: its label still says what it is
    labels = [x.get_text() for x in show.draw_step_timeline(r, 'hooks').axes[0].get_yticklabels()]
    assert [x for x in labels if 'all-reduce' in x] == ['process 0: all-reduce', 'process 1: all-reduce']
    with using_language('zh'):
        fig = show.draw_step_timeline(fake(), 'hooks')
    assert '第一个全归约开始时，反向传播还要70毫秒（进程0）、70毫秒（进程1）才结束' in fig.axes[0].get_title(loc='left')


def test_the_learners_versions_are_measured_once_they_pass_else_the_packages():
    class Verdict:
        def __init__(self, passed):
            self.passed = passed

    def mine(model, X, y, optimizer):
        pass
    chosen, line = show.choose({'a': mine, 'c': mine}, {'a': Verdict(True), 'c': Verdict(False)})
    assert chosen == {'serial': mine, 'flat': steps.flat_allreduce, 'hooks': steps.allreduce_in_hooks,
                      'buckets': steps.allreduce_in_buckets, 'kept': steps.flat_kept,
                      'buckets_kept': steps.buckets_kept, 'beside': steps.allreduce_beside}  # the controls
    assert line == 'measured: your (a); the reference (b), (c), (d)'
    assert show.choose({}, {})[1] == 'measured: the reference (a)-(d), until yours pass'
    every = {k: Verdict(True) for k in 'abcd'}
    assert show.choose({k: mine for k in 'abcd'}, every)[1] == 'measured: your (a)-(d)'


def test_the_bucket_sweep_is_a_table_of_each_sizes_calls_then_median_step_per_run():
    r, there = fake(), fake(ddp=0.125, cores=16)
    table = show.bucket_table(r, there)
    assert list(table.columns) == ['DDP 1 MiB', 'DDP 25 MiB (one bucket)']  # DDP only: (d) is drawn beside DDP 1 MiB
    assert all(table.index)  # every row and column labelled
    assert table.loc['all-reduce calls per step'].tolist() == [6, 1]  # each weight with its bias
    assert show.layer_note(r) == 'A 1024 × 1024 weight is 4 MiB: buckets up to 4 MiB hold one layer.'
    assert len(table) == 3  # the formula is drawn in the figure, not printed
    assert table.loc['Here: median step (ms)'].tolist() == ['120', '136']
    assert table.loc['On the 16-core host: median step (ms)'].tolist() == ['125', '136']
    (lacking := fake(cores=16)).versions.remove(lacking.version('ddp-25'))  # a size the recording lacks
    assert show.bucket_table(r, lacking).loc['On the 16-core host: median step (ms)'].tolist()[-1] == 'not recorded'
    assert len(show.bucket_table(r)) == 2  # no recording: here only
    (fewer := fake()).versions.remove(fewer.version('ddp-25'))  # a size measured only in the recording: not shown
    assert list(show.bucket_table(fewer, there).columns) == ['DDP 1 MiB']
    fig = show.plot_steps(r, ids=['serial', 'ddp-1', 'ddp-25'])  # the sweep: one row per size
    labels = [t.get_text().split('\n')[0] for t in fig.axes[0].get_yticklabels()]
    assert labels == ['step without all-reduce', '(a) after backward', 'DDP 1 MiB', 'DDP 25 MiB (one bucket)']
    assert show.buckets_answer(r, there, 110) == (  # the recording, (d), then the question here: 3 lines at most
        'On the 16-core host, DDP 1 MiB 125 ms vs DDP 25 MiB (one bucket) 136 ms: faster (8.1% less time).\n'
        'Here, (d) buckets 1 MiB 130 ms vs DDP 1 MiB 120 ms: slower (8.3% more time).\n'  # no control drawn: no cause
        'Worked answer: Here, DDP 1 MiB 120 ms vs DDP 25 MiB (one bucket) 136 ms: faster (12% less time). '
        'Your guess: 110.')
    assert 'host' not in show.buckets_answer(r) and len(show.buckets_answer(r).splitlines()) == 2  # here only
    with using_language('zh'):
        assert show.buckets_answer(r).endswith('参考答案：本机，DDP（1 MiB）120毫秒，' \
            'DDP（25 MiB，一个桶）136毫秒：更快（执行时间少12%）。')
        assert show.bucket_table(r).index[0] == '每次迭代的全归约调用次数'
        assert show.layer_note(r) == '一个1024×1024的权重是4 MiB，所以不超过4 MiB的桶只装一层。'


def test_d_is_read_against_its_control_too_naming_the_cause_only_where_the_rule_parts_them():
    r, kept = fake(), fake(hooks=0.11).version('hooks')  # (d) 130 ms; its control 110 ms
    r.versions.append(Version('buckets_kept', '', None, kept.times, 1e-7, 'whole', kept.stats))
    assert show.buckets_answer(r).splitlines()[0].endswith(
        'vs (d), buffers made once 110 ms: slower (18% more time).')  # the cause is named once, in exercise 2
    r.version('buckets_kept').times = r.version('buckets').times
    assert show.buckets_answer(r).splitlines()[0].endswith('no clear difference (medians within 5%).')  # no cause
    assert r.predicted('buckets_kept') == r.predicted('buckets')  # the same buckets and calls


def test_exercise_4_s_answer_reads_the_relative_error_the_check_printed():
    wrong = AssertionError('hooks_without_average, process 0: wrong gradient, relative error 1.00e+00 > 1e-03')
    assert show.sum_answer(wrong, 2) == 'Worked answer: Check stopped: relative error 1.00e+00, near n − 1 = 1 (n = 2).'
    assert show.sum_answer(wrong, 2, 0.5).endswith('(n = 2). Your guess: 0.5.')  # the guess beside the answer
    with using_language('zh'):
        wrong = AssertionError('进程0上的“(c)钩子”使用了错误的梯度：相对误差1.00e+00 > 2e-04')
        assert show.sum_answer(wrong, 2) == '参考答案：检查终止了运行：相对误差1.00e+00，接近n − 1 = 1（n = 2个进程）。'


def test_the_machine_lines_say_when_processes_share_cores():
    assert show.machine_text('gloo', 4, cores=2).endswith(': 4 gloo processes share 2 CPU core(s): no overlap')
    assert show.machine_text('gloo', 2, cores=2).endswith(', 2 CPU cores: 2 gloo processes, 1 thread each')
    assert show.machine_text('gloo', 2).startswith('PyTorch ') and '\n' not in show.machine_text('gloo', 2)
    with using_language('zh'):
        assert show.machine_text('gloo', 2, cores=16).endswith('，16个CPU核心：2个gloo进程，每个进程1个线程')


def test_the_ingredients_are_one_line_each():
    r = fake()
    lines = show.ingredients_text(r).split('\n')
    assert lines == ['step without all-reduce: median 100 ms, its backward 50.0 ms (profiled); '
                     'all-reduce alone: median 40.0 ms, 12 calls',
                     'cost formula: α = 0.851 ms a call, β = 807 MiB/s']
    with using_language('zh'):
        assert show.ingredients_text(r).split('\n')[1] == '代价公式：每次调用α = 0.851毫秒，β = 807 MiB/s'


def test_the_model_is_fitted_to_this_runs_own_calls():
    r = fake()  # all-reduce alone: 12 calls on the gradients; the buffer: one call on four times their bytes
    p = r.prediction
    assert p.allreduce == pytest.approx(r.version('allreduce').median)  # the model's term is what was measured
    assert p.call(p.buffer_bytes) == pytest.approx(0.12) and p.per_call > 0


def test_the_shipped_recording_is_drawn_as_the_lessons_own_figure():
    rec = recording.newest()
    if rec is None:
        pytest.skip('no 13.3.4 recording shipped')
    r = recording.results(rec)[2]
    assert all(r.has(v) for v in ['serial', 'flat', 'hooks'])
    assert show.verdict_text(r, 'flat') == '(b) flat 85.4 ms vs (a) after backward 69.6 ms: slower (23% more time)'
    assert show.bucket_table(r).loc['Here: median step (ms)', 'DDP 0.25 MiB'] == '58.8'
    assert r.prediction.allreduce == pytest.approx(r.version('allreduce').median)  # fitted to the run's own calls
    assert show.paid_line(r) == '2 processes, 16 cores: (c) hooks 55.9 ms vs (a) after backward 69.6 ms: faster ' \
                                '(20% less time)'
    assert show.miss_answer(r).startswith('Worked answer: Backward in (c) 32.9 ms vs backward without all-reduce ')
    assert "(c) hooks 55.9 ms: 8.0% above the formula's estimate 51.8 ms." in show.miss_answer(r)


def test_the_lesson_shows_no_finished_a_or_c_before_their_checks():
    source = LESSON.read_text(encoding='utf-8')
    assert source.count('#@source d2l_ext.allreduce.steps.') == 4  # the worked answers come from steps.py
    before = source[:source.index("checked['c'] = d2l_ext.check")]
    assert 'register_post_accumulate_grad_hook(send)' not in before and 'work.wait()' not in before


def test_every_version_has_a_short_name_in_both_languages():
    r = fake()
    for lang in ('en', 'zh'):
        with using_language(lang):
            names = [show.name(r, v) for v in r.versions]
        assert len(set(names)) == len(names) and not any(n.startswith('allreduce.') for n in names)


def test_backward_in_the_profiled_steps_is_a_panel_of_its_own_on_its_own_time_axis():
    r = fake(serial=0.124)  # DDP one bucket (serial - 0.004) beside DDP 1 MiB, both 120 ms
    assert 'Here, DDP 1 MiB 120 ms vs DDP 25 MiB (one bucket) 120 ms: no clear difference' in show.buckets_answer(r, r)
    top, low = show.plot_steps(r).axes[0], show.plot_backward(r, ['serial', 'hooks']).axes[0]
    labels = [[t.get_text().split('\n')[0] for t in ax.get_yticklabels()] for ax in (top, low)]
    assert labels == [['step without all-reduce', '(a) after backward', '(c) hooks'],
                      ['backward in (a)', 'backward in (c)']]
    assert (top.get_xlabel(), low.get_xlabel()) == ('step time (ms, slowest process)',
                                                    'backward (ms, mean of processes)')
    assert low.get_title(loc='left') + low.get_title() == 'backward in the 1 profiled steps'  # fake(): one
    assert low.get_xlim()[0] == top.get_xlim()[0] == 0 and low.get_xlim()[1] < top.get_xlim()[1]  # its own range


def test_a_zh_plot_label_starting_with_a_letter_keeps_its_full_width_brackets_as_the_prose():
    from d2l_ext.display import style
    r = fake()
    with using_language('zh'):
        if not style.cjk_available():
            pytest.skip('no CJK font: plots are labelled in English')
        top, low = show.plot_steps(r, ['serial', 'flat']).axes[0], show.plot_backward(r, ['serial', 'hooks']).axes[0]
        labels = [t.get_text().split('\n')[0] for ax in (top, low) for t in ax.get_yticklabels()]
        title = show.draw_step_timeline(r, 'hooks').axes[0].get_title(loc='left')
    assert labels[1:3] == ['（a）先反向传播再全归约', '（b）展平'] and labels[-1] == '（c）中的反向传播'  # as the prose
    assert title.startswith('（c）在钩子中全归约，')


def test_the_hatched_bars_are_named_the_cost_formula_the_lesson_defines():
    legend = show.plot_steps(fake()).axes[0].get_legend()
    assert "the formula's estimate (backward unchanged)" in [t.get_text() for t in legend.get_texts()]
