"""13.3.0 and 13.3.1's recorded GPU run: its lanes alone, its figure and its one verdict line, its worked answers."""
from __future__ import annotations

from matplotlib.patches import Patch

from ..i18n import t
from ..lanes import Lane
from ..results import MIN_SHARE
from . import style, verdict
from .lane_timeline import plot_timeline
from .parallel import legend_below, plot_parallel, plot_variants


def _when(rec) -> dict:
    return dict(gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10])


def _share(guess) -> float | None:  # my_guess: the share of the baseline's time saved, 0.1 or 10 for 10%
    return None if guess is None else float(guess) / (100 if float(guess) > 1 else 1)


def _predicted(p) -> dict:  # the baseline at the GPU's pace alone, every product; together: the slower lane
    return dict(baseline=p.lane_times[0].median * sum(p.iters) / p.iters[0], together=p.expected)


def _saved(p, *more: float) -> list[str]:  # the baseline's share saved: the model's, measured (printed medians), more
    measured = float(verdict.printed_gap(p.baseline.median, p.together.median)) / float(verdict.sig(p.baseline.median))
    return [t('verdict.unit.%', value=f'{100 * share:.1f}') for share in (1 - p.expected / _predicted(p)['baseline'],
                                                                          measured, *more)]


def recorded_why(rec, lanes) -> str:  # why 13.3.0's picture is the recording, from what find_lanes found here
    gpu = 'gpu' if any(lane.kind == 'gpu' for lane in lanes) else 'none'
    return t(f'parallel.why.{gpu}', gpu=rec.machine['gpus'][0] if rec else '?')


def recorded_figure(rec, guess=None, max_bars: int = 200):
    """13.3.0's evidence: the guess's line; every repeat, the rule's 5%, the guess on together's row; one run."""
    if rec is None:
        return None
    if said := recorded_lines(rec, guess):
        print(said)
    p, (fig, axes), share = rec.parallel[0], style.figure(nrows=2, height=8.0), _share(guess)
    axes[0].get_gridspec().set_height_ratios([5, 3.5])  # the guessed share: the baseline's median less it
    plot_parallel(p, ax=axes[0], guess={'together': None if share is None else p.baseline.median * (1 - share)},
                  predicted=_predicted(p), products=True, title=style.plot_text(
                      'parallel.recorded_title', size=p.size, repeats=len(p.together.times), **_when(rec)))
    b, band = p.baseline.median, dict(color=style.color('cpu'), alpha=0.3, linewidth=0)  # results.within_share
    axes[0].fill_betweenx([1.55, 3.45], b * (1 - MIN_SHARE), b / (1 - MIN_SHARE), zorder=0, **band)
    legend_below(fig, {style.plot_text('parallel.within_5'): Patch(**band)}, -0.15)
    for y, key in ((2.52, 'parallel.model_together'), (3.52, 'parallel.model_baseline')):  # below each hatched bar
        axes[0].text(0.005, y, style.plot_text(key, cpu=p.iters[1], total=sum(p.iters)), va='center', fontsize='small',
                     color=style.color('predicted'), transform=axes[0].get_yaxis_transform())
    axes[0].set_ylim(3.75, -0.5)  # room for the last model's label; a gap: the legend belongs to the panel above
    fig.get_layout_engine().set(hspace=0.06)
    plot_timeline(rec.timelines[0], ax=axes[1], max_bars=max_bars)
    scale = style.time_unit(max(e['end'] for e in rec.timelines[0].events))[1]  # the timeline's unit: the axis above's
    axes[1].set(xlim=[v * scale for v in axes[0].get_xlim()], xlabel=axes[0].get_xlabel())
    axes[1].xaxis.set_major_formatter(lambda v, pos: axes[0].xaxis.get_major_formatter()(v / scale, pos))
    return fig


def recorded_alone(rec) -> str:
    """What 13.3.0's learner predicts from: each lane's median alone in the recording, with its products."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    p = rec.parallel[0]  # no time a product: the guess is a judgement, not arithmetic on the line
    return t('parallel.recorded_alone', gpu=rec.machine['gpus'][0], lanes=t('parallel.sep').join(
        t('parallel.lane_alone', lane=Lane.from_dict(lane).label, iters=k, time=verdict.num(m.median))
        for lane, k, m in zip(p.lanes, p.iters, p.lane_times)))


def recorded_lines(rec, guess=None) -> str:
    """The guessed share of the baseline's time saved against the model's and the measured one; '' without a guess."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    return '' if (share := _share(guess)) is None else t('parallel.guess.saved', line=t('verdict.guess', **dict(zip(
        ('predicted', 'measured', 'guess'), _saved(rec.parallel[0], share)))))


def plot_recorded_sync(rec):
    """13.3.1's recorded sync run: every repeat of each way of waiting (with one GPU the book's is every device's)."""
    import types
    if rec is None:  # no recording shipped: recorded_sync_line says so
        return None
    sync, one_gpu = rec.sync_mistake, len(rec.machine.get('gpus', [])) < 2
    times = {k: m for k, m in sync.times.items() if not (one_gpu and k == 'book_synchronize')}
    return plot_variants(types.SimpleNamespace(area=sync.area, times=times), halves=False, title=style.plot_text(
        'parallel.recorded_sync_title', size=sync.size, products=sum(sync.iters), **_when(rec)))  # no verdict: no box


def recorded_sync_line(rec) -> str:
    """What the clock measured with no wait (13.3.1): only the queueing; with a wait for every device, the work."""
    sync = rec and rec.sync_mistake
    if not (times := sync.times if sync else None):
        return t('panels.no_gpu_recordings') if rec is None else ''
    return t('parallel.sync_line', products=sum(sync.iters), **{k: verdict.num(times[v].median, 'ms') for k, v in (
        ('no_wait', 'no_wait'), ('every', 'every_device'))})  # in the figure's unit


def recorded_answer(rec) -> str:
    """13.3.0's worked answer: the share of the baseline's time the CPU can save at most, then the share together
    saved, with the rule's word."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    p = rec.parallel[0]
    said = dict(zip(('share', 'measured'), _saved(p)), cpu=p.iters[1], total=sum(p.iters))  # the CPU's products
    return verdict.answer(t('parallel.answer.rec_base', **said), t('parallel.answer.rec_saved', word=verdict.by(
        p.together, p.baseline), a=verdict.num(p.together.median), b=verdict.num(p.baseline.median), **said))
