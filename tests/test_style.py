"""One visual language: a colour per role, projector-sized text, Chinese labels only with a font that draws them."""
import re
import warnings

import matplotlib as mpl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.text import Text

from d2l_ext.display import fonts, style
from d2l_ext.display.repeats import plot_repeats
from d2l_ext.display.timeline import draw_timeline
from d2l_ext.errors import UsageError
from d2l_ext.i18n import t, text_in, using_language

CONTRACT_ROLES = ('lane 0', 'lane 1', 'lane 2', 'lane 3', 'gpu', 'cpu', 'compute', 'copy', 'backward',
                  'allreduce', 'optimizer', 'idle', 'measured', 'predicted')
# Roles drawn side by side must differ.
TOGETHER = (('lane 0', 'lane 1', 'lane 2', 'lane 3'), ('gpu', 'cpu'), ('compute', 'copy'),
            ('backward', 'allreduce', 'optimizer', 'idle'), ('measured', 'predicted'))
EVENTS = [{'lane': 'GPU 0', 'name': 'matmul', 'start': 0.0, 'end': 0.132, 'role': 'compute'},
          {'lane': 'GPU 0 copy', 'name': 'to CPU', 'start': 0.01, 'end': 0.03, 'role': 'copy'},
          {'lane': 'CPU (1 of 2 cores)', 'name': 'work', 'start': 0.0, 'end': 0.1}]


def _render(fig):
    """Lay out and draw the figure as the notebook's inline backend would (a bare Figure's canvas draws nothing)."""
    FigureCanvasAgg(fig).draw()


def _figures():
    return [draw_timeline(EVENTS, title='The copy hides behind the computation', predicted=0.134),
            plot_repeats({'one after the other': [0.19, 0.2, 0.18], 'overlapped': [0.13, 0.14, 0.135]},
                         predicted={'overlapped': 0.132}, title='Overlap saves 0.05 s')]


@pytest.fixture
def no_cjk_font(monkeypatch):
    """As on a machine without a CJK font: the lookup finds nothing and the hint has not been shown yet."""
    monkeypatch.setattr(fonts, 'cjk_font', lambda: None)
    monkeypatch.setitem(fonts._hint_shown, 'done', False)
    yield
    style.apply()


def test_every_role_has_a_colour():
    for role in CONTRACT_ROLES:
        assert re.fullmatch(r'#[0-9A-Fa-f]{6}', style.color(role)), role
    with pytest.raises(UsageError, match='lane 0'):
        style.color('lane 9')


@pytest.mark.parametrize('group', TOGETHER)
def test_roles_drawn_together_differ(group):
    colours = [style.color(r) for r in group]
    assert len(set(colours)) == len(colours), group


def test_text_is_at_least_11_pt_at_the_default_size():
    style.apply()
    assert tuple(mpl.rcParams['figure.figsize']) == (style.WIDTH_IN, style.ROW_HEIGHT_IN)
    for key in ('font.size', 'axes.titlesize', 'axes.labelsize', 'xtick.labelsize', 'ytick.labelsize',
                'legend.fontsize'):
        assert FontProperties(size=mpl.rcParams[key]).get_size_in_points() >= style.MIN_FONT_PT, key
    for fig in _figures():
        _render(fig)
        sizes = {t.get_text(): t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()}
        assert sizes and min(sizes.values()) >= style.MIN_FONT_PT, sizes


def test_no_text_outside_the_figure():
    for fig in _figures():
        _render(fig)
        canvas = fig.bbox
        for text in fig.findobj(Text):
            if text.get_visible() and text.get_text():
                box = text.get_window_extent()
                assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= canvas.x1 + 1 and box.y1 <= canvas.y1 + 1, \
                    (text.get_text(), box, canvas)


def test_figure_makes_panels_with_constrained_layout():
    fig, axes = style.figure(ncols=2)
    assert len(axes) == 2 and fig.get_layout_engine() is not None
    with pytest.raises(UsageError):
        style.figure(ncols=0)


def test_time_unit_keeps_ticks_short():
    assert style.time_unit(2.0) == ('s', 1.0)
    assert style.time_unit(0.132) == ('ms', 1e3)
    assert style.time_unit(5e-5) == ('µs', 1e6)


@pytest.mark.skipif(not style.cjk_available(), reason='no CJK font installed (Debian: apt-get install fonts-noto-cjk)')
def test_chinese_labels_render_with_a_cjk_font():
    with using_language('zh'):
        assert style.plot_language() == 'zh'
        assert style.plot_text('style.time_axis', unit='s') == '时间（s）'
        fig = draw_timeline(EVENTS, title='复制被计算掩盖')
        assert style.cjk_font() in mpl.rcParams['font.family']
        with warnings.catch_warnings():
            warnings.simplefilter('error')  # matplotlib warns "Glyph ... missing" where it would draw a box
            _render(fig)
        path = findfont(FontProperties(family=style.cjk_font()))
        assert 'DejaVu' not in path
    style.apply()


def test_without_a_cjk_font_plots_fall_back_to_english_with_one_hint(no_cjk_font, capsys):
    with using_language('zh'):
        assert style.plot_language() == 'en'
        assert style.plot_text('style.time_axis', unit='s') == 'time (s)'
        fig = draw_timeline(EVENTS)
        assert fig.axes[0].get_xlabel() == 'time (ms)'
        style.plot_text('style.median')
        hint = capsys.readouterr().err
    assert hint.count('\n') == 1 and 'fonts-noto-cjk' in hint
    assert hint.strip() == text_in('zh', 'style.no_cjk_font')
    assert mpl.rcParams['font.family'] == ['DejaVu Sans']


def test_english_needs_no_cjk_font(no_cjk_font, capsys):
    assert style.plot_language() == 'en'
    assert style.plot_text('style.median') == 'median'
    assert capsys.readouterr().err == ''


def test_without_a_cjk_font_chinese_messages_on_a_figure_become_english(no_cjk_font, capsys):
    with using_language('zh'):
        lane = t('core.lane_cpu_label', threads=1, cores=2)
        title = t('style.predicted_total', value=t('common.seconds', value=0.5))
        assert title == '预测：0.500 秒'
        events = [{'lane': lane, 'name': t('style.role.copy'), 'start': 0, 'end': 1}]
        fig = draw_timeline(events, title=title)
        fig2, ax = style.figure()
        ax.set_title(t('style.median'))  # added after: the figure turns it into English as it draws
        _render(fig)
        _render(fig2)
    ax0 = fig.axes[0]
    assert ax0.get_title(loc='left') == 'predicted: 0.500 s'
    assert [x.get_text() for x in ax0.get_yticklabels()] == [text_in('en', 'core.lane_cpu_label', threads=1, cores=2)]
    assert ax.get_title() == 'median'
    capsys.readouterr()


def test_english_for_leaves_other_text_alone():
    assert fonts.english_for('GPU 0 (NVIDIA H200)') == 'GPU 0 (NVIDIA H200)'
    assert fonts.english_for('一句不在目录里的话') == '一句不在目录里的话'
