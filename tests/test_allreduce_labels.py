"""13.3.4's labels say what their numbers are: (d) in the recorded figure names the bucket sizes recorded and the
one drawn, the Perfetto button keeps its English name and says so in zh, and every told-apart clause is
display.apart's (no allreduce.apart.* wording of its own)."""
import copy

import pytest

from d2l_ext import i18n
from d2l_ext.allreduce import recording
from d2l_ext.display import allreduce as show
from d2l_ext.display import allreduce_recorded as R
from d2l_ext.display.apart import apart
from d2l_ext.i18n import t, using_language


def _rec(keep=None, slow=None):
    """The shipped recording, with only the DDP sizes in `keep`, and `slow` {world size: MiB} made slowest there."""
    rec = copy.deepcopy(recording.newest())
    if rec is None:
        pytest.skip('no recording shipped')
    for run in rec['runs']:
        versions = run['result']['versions']
        if keep is not None:
            versions[:] = [v for v in versions if v['bucket_mb'] is None or v['bucket_mb'] in keep]
        for v in versions:
            if slow and v['bucket_mb'] == slow.get(run['world_size']):
                v['times'] = [[x * 10 for x in rep] for rep in v['times']]
    return rec


def _runs(rec):
    return sorted(recording.results(rec).items())


def _legend(rec):
    import matplotlib.pyplot as plt
    fig = R.plot_recorded(rec)
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    labels = [text.get_text() for legend in legends for text in legend.get_texts()]
    plt.close(fig)
    return labels


def test_the_recorded_legend_names_the_size_drawn_and_how_many_were_recorded():
    rec = _rec()
    swept = sorted({v.bucket_mb for _, r in _runs(rec) for v in r.ddp_versions()})
    best = {r.best_ddp().bucket_mb for _, r in _runs(rec)}
    assert len(swept) > 1 and len(best) == 1  # the shipped recording: a sweep, one size lowest everywhere
    label = f'(d) DDP, {min(best):g} MiB buckets (lowest median of the {len(swept)} sizes recorded)'
    with using_language('en'):
        legend = _legend(rec)
        assert label in legend and not any('fastest bucket size' in x for x in legend)
        assert (f'DDP was recorded at {len(swept)} bucket sizes' in R.recorded_text(rec))
    with using_language('zh'):
        assert R.ddp_label(_runs(rec)).startswith(f'(d) DDP，{min(best):g} MiB 的桶（录制的 {len(swept)} 种')
        assert f'DDP 录制了 {len(swept)} 种桶大小' in R.recorded_text(rec)


def test_one_size_recorded_is_named_as_it_is_and_no_sweep_is_claimed():
    rec = _rec(keep={25.0})
    with using_language('en'):
        assert R.ddp_label(_runs(rec)) == '(d) DDP, 25 MiB buckets (one bucket: the whole gradient)'
        assert R.sweep_text(_runs(rec)) == '' and 'lowest median' not in ' '.join(_legend(rec))


def test_a_size_lowest_at_some_world_sizes_only_is_listed_per_world_size():
    rec = _rec(keep={0.25, 1.0}, slow={2: 0.25})  # 1 MiB lowest at 2 processes, 0.25 MiB at 4 and 8
    with using_language('en'):
        assert R.ddp_label(_runs(rec)) == '(d) DDP, lowest median of the 2 sizes recorded (0.25, 1 MiB)'
        assert '1 MiB at 2 processes, 0.25 MiB at 4 processes' in R.sweep_text(_runs(rec))
    with using_language('zh'):
        assert '2 个进程时 1 MiB' in R.sweep_text(_runs(rec))


def test_the_perfetto_button_keeps_its_english_name_and_zh_says_the_interface_is_english():
    with using_language('en'):
        assert '"Open trace file"' in t('allreduce.perfetto')
    with using_language('zh'):
        line = t('allreduce.perfetto')
        assert '左侧菜单' in line and '“Open trace file”' in line and 'Perfetto 的界面是英文的' in line


def test_every_told_apart_clause_is_display_aparts_and_the_lessons_own_copy_is_gone():
    for lang in ('en', 'zh'):
        assert not [k for k in i18n.catalogue(lang) if k.startswith('allreduce.apart.')]
    rec = _rec()
    r = recording.results(rec)[2]
    a, b = r.version('serial'), r.version('hooks')
    for lang in ('en', 'zh'):
        with using_language(lang):
            told, clause = show.compared(r, a, b)
            expected = apart(a.measurement, b.measurement, 'ms', names=('(a)', '(c)'))
            assert (told, clause) == (expected.told, expected.clause)
            assert clause in show.overlap_sentence(r, b)
