"""13.3.0 and 13.3.1's recorded GPU run: its lanes alone, its figure and its one verdict line, its worked answers."""
from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..i18n import t, tight
from ..lanes import Lane
from ..results import MIN_SHARE, quartiles
from . import style, verdict
from .lane_timeline import plot_timeline
from .parallel import plot_parallel, plot_variants, serial


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
    p, (fig, axes) = rec.parallel[0], style.figure(nrows=2, height=8.0)
    plot_parallel(p, ax=axes[0], guess=_guesses(guess, baseline), predicted=_predicted(p), products=True,
                  title=style.plot_text('parallel.recorded_title', size=p.size, repeats=len(p.together.times),
                                        **_when(rec)))
    rows = (*p.lane_times, p.together, p.baseline)  # not the sum (row 2): its repeats are arrowheads at the edge
    edge = 1.15 * max(v for v in [*(x for m in rows for x in m.repeated()), *_predicted(p).values(),
                                  *_guesses(guess, baseline).values()] if v)
    if far := [v for v in serial(p).repeated() if v > edge]:  # so it cannot squeeze the comparison to a sliver
        axes[0].set_xlim(0, edge * 1.02)
        axes[0].scatter([edge] * len(far), [1.7 + 0.3 * i / max(1, len(far) - 1) for i in range(len(far))], s=60,
                        marker='>', color=style.color('measured'), zorder=3)
        axes[0].annotate(tight(f"{style.plot_text('style.median')} {verdict.num(serial(p).median)}"), (edge, 1.85),
                         xytext=(-8, 0), textcoords='offset points', ha='right', va='center')
        axes[0].barh(1.85, edge * 1.02, height=0.46, color=style.color('measured'), alpha=0.5, zorder=1)  # its bar,
        axes[0].text(0.3 * edge, 1.85, '//', ha='center', va='center', fontsize=16, backgroundcolor='white')  # broken
    b, band = p.baseline.median, dict(color=style.color('cpu'), alpha=0.3, linewidth=0)  # results.within_share
    axes[0].fill_betweenx([2.55, 4.45], b * (1 - MIN_SHARE), b / (1 - MIN_SHARE), zorder=0, **band)
    legend, shown = axes[0].get_legend(), max(b - a for a, b in map(quartiles, rows)) > 0.01 * edge  # a box shows
    kept = {**{x.get_text(): h for h, x in zip(legend.legend_handles, legend.texts)
               if shown or x.get_text() != style.plot_text('style.grey_box')},
            **({style.plot_text('style.beyond'): Line2D([], [], ls='', marker='>', color=style.color('measured'))}
               if far else {}), style.plot_text('parallel.within_5'): Patch(**band)}
    axes[0].legend(kept.values(), kept, ncol=2, loc='upper center', bbox_to_anchor=(0.5, -0.2))  # beside: squeezed
    plot_timeline(rec.timelines[0], ax=axes[1], max_bars=max_bars)
    scale = style.time_unit(max(e['end'] for e in rec.timelines[0].events))[1]  # the timeline's unit: the axis above's
    axes[1].set(xlim=[v * scale for v in axes[0].get_xlim()], xlabel=axes[0].get_xlabel())
    axes[1].xaxis.set_major_formatter(lambda v, pos: axes[0].xaxis.get_major_formatter()(v / scale, pos))
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
