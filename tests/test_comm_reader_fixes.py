"""13.3.2 reader findings (round 2): Remember states no rule the lesson's own numbers break, recorded first-copy
figures say where and when, one timing is not drawn as a median, thin products say their shapes, and the traced
run is called traced (with its wall clock), never 'timed'."""
import pathlib
import re

from d2l_ext.communication import CommTimeline
from d2l_ext.i18n import catalogue, using_language
from d2l_ext.lanes import fake_hardware, pick_lanes
from d2l_ext.timing import Comparison, Measurement

SRC = pathlib.Path(__file__).resolve().parents[1] / 'notebooks/src/13.3.2-Parallel-Computation-and-Communication.py'


def _remember(lang: str) -> str:
    text = SRC.read_text()
    head = '# ## Remember' if lang == 'en' else '# ## 记住'
    return text.split(head, 1)[1].split('# ## ', 1)[0]


def test_remember_bounds_what_overlap_saves_instead_of_saying_or_more():
    # CPU build: overlapped 0.0043 s, below max(run, copy) = 0.0051 s; 'about max(...) or more' broke on it
    en = re.sub(r'\n#\s*', ' ', _remember('en'))  # one line per bullet
    zh = re.sub(r'\n#\s*', '', _remember('zh'))  # Chinese lines join without a space
    assert 'or more' not in en and '或更长' not in zh
    assert 'Overlap saves at most the shorter: at best max(run, copy) plus the shorter of one product' in en
    assert 'Below max(run, copy), something besides the overlap changed' in en
    assert '重叠最多省下两者中较短的那一个：最好也是 max(计算, 复制)' in zh
    assert '低于 max(计算, 复制)，说明除了重叠之外还有别的变化' in zh


def _recorded():
    from d2l_ext.display import communication as show
    from d2l_ext.recorded import load_recordings
    return show, show.newest(load_recordings())


def test_recorded_first_copy_figures_say_where_and_when_they_were_recorded():
    show, rec = _recorded()
    date = rec.machine['date'][:10]
    for lang, words in (('en', f'recorded on NVIDIA H200, {date}'), ('zh', f'录制于 NVIDIA H200，{date}')):
        with using_language(lang):
            for plot in (show.plot_first_copy, show.plot_profile):
                fig = plot(rec.first_copy, rec=rec)
                assert fig._suptitle is not None and words in fig._suptitle.get_text(), plot.__name__
                assert f'{rec.first_copy.iters}' in fig._suptitle.get_text()
                here = plot(rec.first_copy)  # measured on this machine's GPU: no 'recorded on'
                assert here._suptitle is None
    src = SRC.read_text()
    assert 'show.plot_first_copy(first, rec=source)' in src and 'show.plot_profile(first, rec=source)' in src
    assert 'Measured here on a GPU, else from the GPU recording' in src and '否则展示GPU上的录制结果' in src


def test_first_call_is_drawn_as_its_one_timing_not_a_median():
    from matplotlib.collections import LineCollection
    show, rec = _recorded()
    first = rec.first_copy
    for lang, one, med in (('en', '(one timing)', '(median of 5)'), ('zh', '（一次计时）', '（5 次的中位数）')):
        with using_language(lang):
            ax = show.plot_first_copy(first, rec=rec).axes[0]
            bars = [c for c in ax.collections if isinstance(c, LineCollection)]
            assert len(bars) == 1  # the later calls' median only
            (seg,) = bars[0].get_segments()
            assert min(seg[:, 1]) > 0.5  # drawn on the later calls' row (y = 1), not the first call's (y = 0)
            labels = [tx.get_text() for tx in ax.texts]
            assert any(one in x and x.startswith('1.03') for x in labels), labels
            assert any(med in x for x in labels), labels
            legend = [tx.get_text() for tx in ax.get_legend().get_texts()]
            assert legend[0] == show.style.plot_text('communication.first_copy.one_timing_legend')


def test_thin_products_say_both_shapes_in_the_timeline_title():
    from d2l_ext.communication.tracing import as_timeline
    from d2l_ext.display import communication as show
    with fake_hardware(gpus=0):
        lane = pick_lanes('torch')[0]
    tl = as_timeline({'events': []}, lane)
    assert tl.inner == 4 and tl.size == 700
    events = [dict(lane='compute thread', name='', start=0.0, end=1.0, role='compute'),
              dict(lane='copy thread', name='', start=1.0, end=1.5, role='copy')]
    thin = CommTimeline('run_and_copy', 'cpu0', 700, 1, events, 'thread clock', inner=4)
    with using_language('en'):
        assert '1 products (700 x 4 times 4 x 700), 1 copies of 700 x 700' in show.timeline_title(thin)
        square = CommTimeline('run_and_copy', 'cuda:0', 4000, 1, events, 'cuda events')
        assert show.timeline_title(square).endswith('(4000 x 4000)')
    with using_language('zh'):
        title = show.timeline_title(thin)
        assert '（700 x 4 乘以 4 x 700）' in title and '1 次 700 x 700 的复制' in title


def test_the_traced_run_is_called_traced_with_its_wall_clock():
    from d2l_ext.display import communication as show
    # the CPU build's numbers: products alone 0.0047-0.0053 s, overlapped 0.0043 s, traced wall 0.0055 s
    c = Comparison({'run': Measurement('run', [0.0047, 0.0050, 0.0051, 0.0052, 0.0053]),
                    'run_then_copy': Measurement('r', [0.0088, 0.0089, 0.0090, 0.0090, 0.0091]),
                    'overlapped': Measurement('o', [0.0040, 0.0042, 0.0043, 0.0046, 0.0048])})
    o = dict(measured=0.9, predicted=0.95, compute_busy=0.0045, wall=0.0055)
    with using_language('zh'):
        zh = show.overlap_text(c, {'overlapped': 0.0053}, o)
    with using_language('en'):
        en = show.overlap_text(c, {'overlapped': 0.0053}, o)
    assert '在跟踪的那次重叠运行中（挂钟时间 0.0055 秒），乘积忙碌了 0.0045 秒' in zh and '计时的那次' not in zh
    assert 'in the traced overlapped run (wall clock 0.0055 s) the products were busy 0.0045 s, below every' in en
    assert 'this run does not test why' in en and '这次运行没有检验原因' in zh
    within = show.overlap_text(c, {'overlapped': 0.0053}, dict(o, compute_busy=0.0049))
    assert 'within the untraced products-alone repeats' in within
    for key, text in catalogue('zh').items():
        if key.startswith('communication.overlap.'):
            assert '计时的那次' not in text and '计时跟踪' not in text, key
    for key, text in catalogue('en').items():
        if key.startswith('communication.overlap.'):
            assert 'timed overlapped run' not in text and 'the timed run' not in text, key
