"""13.3.4: every printed difference and sum adds up as printed (each number rounded to its shown places first), the
plot titles carry the verdict, the recorded figures say which run they are, and the reader findings' wording."""
import itertools
import pathlib
import re

import pytest

from d2l_ext.allreduce import recording
from d2l_ext.display import allreduce as show
from d2l_ext.display import allreduce_recorded as R
from d2l_ext.i18n import using_language
from tests.test_allreduce_display import fake

NUMBER = r'([+-]?\d+\.\d+)'
SOURCE = pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.4-Allreduce-During-Backward.py'


def _spans(r, backward=None, **mine):
    """Set backward's profiled span (s) in the step without all-reduce and in the versions named in `mine`."""
    for vid, span in ({'backward': backward} if backward else {}).items() | mine.items():
        for process in r.version(vid).stats:
            for s in process:
                s['backward'] = span
    return r


def _check_adds_up(r, vid):
    """The '(a) minus it' line: its head is the clause's difference, and its terms add up to the head as printed."""
    clause = show.overlap_sentence(r, r.version(vid))
    why = show.why_text(r, r.version(vid))
    head = float(re.search(r'\(a\) minus it, ' + NUMBER + ' ms', why).group(1))
    medians = re.search(r'the medians \(' + NUMBER + ' ms and ' + NUMBER + r' ms\) differ by ' + NUMBER, clause)
    a, b, diff = (float(x) for x in medians.groups())
    assert abs(head - (a - b)) < 1e-9 and abs(abs(head) - diff) < 1e-9, (clause, why)
    terms = [float(re.match(NUMBER + ' ms', part).group(1)) for part in why.split(' = ', 1)[1].split('; ')]
    assert abs(sum(terms) - head) < 1e-9, why
    taking = re.search(r'took ' + NUMBER + ' ms instead of ' + NUMBER + ' ms', why)
    if taking:
        term = next(x for x, part in zip(terms, why.split(' = ', 1)[1].split('; ')) if 'took' in part)
        assert abs(term - (float(taking.group(2)) - float(taking.group(1)))) < 1e-9, why
    return why


def test_the_readers_cases_add_up_as_printed_cpu_and_gpu():
    # CPU zh cell 12: 96.2 and 88.5 differ by 7.7 (raw 7.78 printed +7.8 before); 35.8 vs 50.2 is 14.4, not 14.5
    cpu = _spans(fake(serial=0.09624, hooks=0.08846), backward=0.03576, hooks=0.05024)
    why = _check_adds_up(cpu, 'hooks')
    assert '(a) minus it, +7.7 ms' in why and '-14.4 ms' in why
    # GPU edition cell 12: (a) 108.1 ms and (c) 84.3 ms differ by 23.8 ms: the head says +23.8, never +23.9
    gpu = fake(serial=0.10814, hooks=0.08426)
    assert 'differ by 23.8 ms' in show.overlap_sentence(gpu, gpu.version('hooks'))
    assert '(a) minus it, +23.8 ms' in _check_adds_up(gpu, 'hooks')


@pytest.mark.parametrize('serial,other', list(itertools.product((0.09624, 0.10814, 0.0962, 0.14049),
                                                                 (0.08846, 0.08426, 0.0903, 0.1395, 0.1404))))
def test_every_split_adds_up_as_printed(serial, other):
    r = _spans(fake(serial=serial, hooks=other, ddp=other - 0.00037), backward=0.03576, hooks=0.05024)
    for vid in ('hooks', 'ddp-1'):
        _check_adds_up(r, vid)
    with using_language('zh'):
        why = show.why_text(r, r.version('hooks'))
        head = float(re.search(r'\(a\) 减去它，' + NUMBER, why).group(1))
        terms = [float(re.match(NUMBER + ' 毫秒', p).group(1)) for p in why.split('= ', 1)[1].split('；')]
        assert abs(sum(terms) - head) < 1e-9, why


@pytest.mark.parametrize('measured,predicted', [(0.03404, 0.01766), (0.03296, 0.02154), (0.10814, 0.08496)])
def test_the_models_gap_is_the_difference_of_the_printed_numbers(measured, predicted):
    # CPU zh: all-reduce alone 34.0 ms, the model 17.7 ms: 16.3 ms apart as printed (raw 16.38 printed 16.4 before)
    r = fake()
    r.version('allreduce').times = [[measured, measured]] * 3
    r.prediction.allreduce = predicted
    line = show.model_gap_text(r)
    m, p, gap = (float(x) for x in re.search(r'measured ' + NUMBER + ' ms, the model ' + NUMBER +
                                             r' ms: the model \w+-predicts it by ' + NUMBER, line).groups())
    assert abs(gap - abs(m - p)) < 1e-9, line


def test_the_step_plot_title_carries_the_verdict_never_a_bare_difference():
    untold = fake(ddp=0.1395, hooks=0.1398)  # both within (a)'s spread: not told apart
    title = show._title(untold)
    assert 'not told apart from (a)' in title and 'minus' not in title and not re.search(r'[+-]\d', title)
    told = fake()
    assert re.search(r'\d+\.\d ms faster than \(a\), told apart$', show._title(told))
    with using_language('zh'):
        assert '与 (a) 区分不出' in show._title(untold) and '减去它' not in show._title(untold)


def test_the_hatched_bars_are_called_predicted_in_text_and_legend():
    source = SOURCE.read_text(encoding='utf-8')
    assert 'hatched: the model' not in source and '斜线条：模型（' not in source
    assert 'hatched: predicted' in source and '斜线条：预测' in source
    assert show.model_steps_text(fake(), ['serial']).startswith('predicted step times')
    with using_language('zh'):
        assert show.model_steps_text(fake(), ['serial']).startswith('预测的每步时间')


def test_the_models_share_is_at_most_k_minus_1_over_k_and_the_measured_can_be_higher():
    source = SOURCE.read_text(encoding='utf-8')
    assert 'not a bound' not in source and '不是上限' not in source
    assert 'the model gives at most (K-1)/K' in source and 'a measured share can be higher' in source
    assert '模型\n# 给出的在反向传播期间进行的全归约比例最多是(K-1)/K' in source and '实测比例可能更高' in source


def test_the_remember_line_and_the_zh_legend_read_cleanly():
    source = SOURCE.read_text(encoding='utf-8')
    assert '在靠近输入的各层的反向传播完成之前' in source and '在它前面各层' not in source
    assert 'the layers nearer\n#   the input' in source and 'reaches the layers before it' not in source
    rec = recording.newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language('zh'):
        label = R.ddp_label(sorted(recording.results(rec).items()))
    assert '中中' not in label and '里中位数最小的' in label


def test_the_guess_line_names_the_time_the_model_gives():
    r = _spans(fake(), backward=0.035, hooks=0.0525)
    line = show.guess_text(None, r).splitlines()[-1]
    assert 'that time' not in line and line.endswith('the model gives them 35.0 ms, their time without all-reduce')
    assert '1.50x as long as the 35.0 ms' in line
    with using_language('zh'):
        assert show.guess_text(None, r).endswith('模型给它们的是不做全归约时的 35.0 毫秒')


def _boxes_apart(a, b) -> bool:
    return a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_the_recorded_figure_keeps_legend_labels_and_title_apart(lang):
    rec = recording.newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language(lang):
        fig = R.plot_recorded(rec)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    assert not any(ax.get_legend() for ax in fig.axes) and len(fig.legends) == 1  # one legend, below both panels
    legend = fig.legends[0].get_window_extent(renderer)
    for ax in fig.axes:
        assert _boxes_apart(legend, ax.get_tightbbox(renderer))  # covers no label, tick or point
    left, right = (ax.xaxis.label.get_window_extent(renderer) for ax in fig.axes)
    assert _boxes_apart(left, right)
    title = fig._suptitle.get_text()
    assert 'a NVIDIA' not in title and rec['machine']['date'][:10] in title


@pytest.mark.parametrize('lang,said', [('en', 'Recorded {date} ({gpus} and 16 CPU cores), 8 gloo processes'),
                                       ('zh', '录制于 {date}（机器有 {gpus} 和 16 个CPU核心），8 个 gloo 进程')])
def test_the_recorded_timeline_says_it_is_the_recording(lang, said):
    rec = recording.newest()
    if rec is None:
        pytest.skip('no recording shipped')
    from d2l_ext.i18n import t
    m = rec['machine']
    with using_language(lang):
        fig = R.draw_recorded_timeline(rec, 8)
        gpus = t('core.gpus', name=m['gpus'][0], count=len(m['gpus']))
    title = ' '.join(ax.get_title(loc) for ax in fig.axes for loc in ('left', 'center'))
    assert said.format(date=m['date'][:10], gpus=gpus) in title


def test_the_cli_summary_subtracts_the_medians_as_it_prints_them():
    r = fake(serial=0.09634, hooks=0.08866)  # printed 0.0963 s and 0.0887 s: 7.6 ms apart as printed, 7.68 raw
    with using_language('en'):
        text = r.summary()
    serial, hooks = round(r.version('serial').median, 4), round(r.version('hooks').median, 4)
    assert f'median {serial:.4f} s' in text and f'median {hooks:.4f} s' in text
    assert f'(a) minus it {(serial - hooks) * 1e3:+.1f} ms' in text and '(a) minus it +7.6 ms' in text
