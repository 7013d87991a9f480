"""13.3.0 and 13.3.1's recorded GPU run: its lanes alone, its figure and its one verdict line, its worked answers."""
from __future__ import annotations

from matplotlib.patches import Patch

from ..i18n import t
from ..lanes import Lane
from ..results import MIN_SHARE
from . import style, verdict
from .lane_timeline import plot_timeline
from .parallel import plot_bars, plot_parallel, plot_variants, serial, variant_name


def _when(rec) -> dict:
    return dict(gpu=rec.machine['gpus'][0], date=rec.machine.get('date', '')[:10])


def _guesses(together, baseline) -> dict:  # my_guess (together) and my_guess_baseline, in seconds
    return {k: None if g is None else float(g) for k, g in (('baseline', baseline), ('together', together))}


def _predicted(p) -> dict:  # the baseline at the GPU's pace alone, every product; together: the slower lane
    return dict(baseline=p.lane_times[0].median * sum(p.iters) / p.iters[0], together=p.expected)


def recorded_why(rec, lanes) -> str:  # why 13.3.0's picture is the recording, from what find_lanes found here
    gpu = 'gpu' if any(lane.kind == 'gpu' for lane in lanes) else 'none'
    return t(f'parallel.why.{gpu}', gpu=rec.machine['gpus'][0] if rec else '?')


def recorded_figure(rec, guess=None, baseline=None, max_bars: int = 200):
    """13.3.0's evidence: guess lines; every repeat, the rule's 5% around the baseline; below, together's median run."""
    if rec is None:
        return None
    if said := recorded_lines(rec, guess, baseline):
        print(said)
    p, (fig, axes) = rec.parallel[0], style.figure(nrows=3, height=10.0)
    axes[0].get_gridspec().set_height_ratios([5, 2.2, 3.5])
    plot_parallel(p, ax=axes[0], guess=_guesses(guess, baseline), predicted=_predicted(p), products=True,
                  sum_row=False, title=style.plot_text('parallel.recorded_title', size=p.size,
                                                       repeats=len(p.together.times), **_when(rec)))
    b, band = p.baseline.median, dict(color=style.color('cpu'), alpha=0.3, linewidth=0)  # results.within_share
    axes[0].fill_betweenx([1.55, 3.45], b * (1 - MIN_SHARE), b / (1 - MIN_SHARE), zorder=0, **band)
    kept = {**dict(zip(map(lambda x: x.get_text(), (lg := axes[0].get_legend()).texts), lg.legend_handles)),
            style.plot_text('parallel.within_5'): Patch(**band)}  # the sum: its own panel below
    axes[0].legend(kept.values(), kept, ncol=2, loc='upper center', bbox_to_anchor=(0.5, -0.2))  # beside: squeezed
    names = variant_name('parallel', 'serial_sum'), variant_name('parallel', 'together'), t('parallel.name.baseline')
    plot_bars({f'{name}\n{style.plot_text("style.median")}': m.median for name, m in zip(names, (serial(p), p.together,
                                                                                         p.baseline))}, ax=axes[1])
    plot_timeline(rec.timelines[0], ax=axes[2], max_bars=max_bars)
    scale = style.time_unit(max(e['end'] for e in rec.timelines[0].events))[1]  # the timeline's unit: the axis above's
    axes[2].set(xlim=[v * scale for v in axes[0].get_xlim()], xlabel=axes[0].get_xlabel())
    axes[2].xaxis.set_major_formatter(lambda v, pos: axes[0].xaxis.get_major_formatter()(v / scale, pos))
    return fig


def recorded_alone(rec) -> str:
    """What 13.3.0's learner predicts from: each lane's median alone in the recording, with its products."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    p = rec.parallel[0]  # no time a product: the baseline's guess is a judgement, not a multiplication
    return t('parallel.recorded_alone', gpu=rec.machine['gpus'][0], lanes=t('parallel.sep').join(
        t('parallel.lane_alone', lane=Lane.from_dict(lane).label, iters=k, time=verdict.num(m.median))
        for lane, k, m in zip(p.lanes, p.iters, p.lane_times)))


def recorded_lines(rec, guess=None, baseline=None) -> str:
    """The guesses (together, `baseline`) against each prediction and measurement, a line each; '' without any."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    p, said = rec.parallel[0], _guesses(guess, baseline)
    return verdict.lines(*(t(f'parallel.guess.{k}', line=line) for k in ('baseline', 'together') if (
        line := verdict.guess(said[k], _predicted(p)[k], getattr(p, k).median))))


def plot_recorded_sync(rec):
    """13.3.1's recorded sync run: every repeat of each way of waiting (with one GPU the book's is every device's)."""
    import types
    sync, one_gpu = rec.sync_mistake, len(rec.machine.get('gpus', [])) < 2
    times = {k: m for k, m in sync.times.items() if not (one_gpu and k == 'book_synchronize')}
    return plot_variants(types.SimpleNamespace(area=sync.area, times=times), halves=False, title=style.plot_text(
        'parallel.recorded_sync_title', size=sync.size, products=sum(sync.iters), **_when(rec)))  # no verdict: no box


def recorded_sync_line(rec) -> str:
    """What the clock measured with no wait (13.3.1): only the queueing; with a wait for every device, the work."""
    sync = rec.sync_mistake
    if not (times := sync.times if sync else None):
        return ''
    ms = {k: verdict.num(times[k].median, 'ms') for k in ('no_wait', 'every_device')}  # in the figure's unit
    return t('parallel.sync_line', no_wait=ms['no_wait'], every=ms['every_device'], products=sum(sync.iters))


def recorded_answer(rec) -> str:
    """13.3.0's worked answer: together vs the baseline by the rule first, then the baseline's arithmetic."""
    if rec is None:
        return t('panels.no_gpu_recordings')
    p = rec.parallel[0]
    own, total = p.iters[0], sum(p.iters)  # share: the CPU's products, at most what it can take off the baseline
    said = dict(alone=verdict.num(p.lane_times[0].median), own=own, total=total,
                share=f'{100 - 100 * own / total:.1f}%', predicted=verdict.num(_predicted(p)['baseline']),
                pace=f'{max(per := [m.median / k for m, k in zip(p.lane_times, p.iters)]) / min(per):.0f}')
    line = verdict.line(t('parallel.name.together'), p.together, t('parallel.name.baseline'), p.baseline)
    return verdict.answer(t('parallel.answer.line', line=line), t('parallel.answer.rec_base', **said))
