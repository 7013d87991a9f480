"""13.3.1's speedup against matrix size: the curve's shape judged by results.told_apart, in words and a plot."""
from __future__ import annotations

from ..i18n import t
from ..results import close as _close
from ..results import told_apart
from . import style
from .apart import apart
from .gaps import _sentences
from .parallel import _shown, above_two, serial_above_two, speedup_repeats

FAR = 1.5  # a size whose measured speedup is more than this factor from its prediction gets a sentence

# scaling_shape's shapes: the keys parallel.scaling.<shape>
SHAPES = ('flat', 'no_trend', 'rises', 'rises_dips', 'falls', 'falls_bumps', 'uneven')


def scaling_shape(pts) -> tuple[str, list]:
    """The curve's shape by results.told_apart on the sizes' speedups in each repeat, and the steps against it.

    'rises'/'falls': the largest size's speedup told apart from the smallest's and every step goes that way;
    'rises_dips'/'falls_bumps': the same overall, with steps against it each not told apart;
    'uneven': a step against it told apart; 'no_trend': smallest and largest not told apart;
    'flat': every size within NOISE of the smallest. Returns (shape, [(before, after) of each step against it]).
    """
    if all(_close(p.speedup, pts[0].speedup) for p in pts):
        return 'flat', []
    if not told_apart(speedup_repeats(pts[0]), speedup_repeats(pts[-1])):
        return 'no_trend', []
    up = pts[-1].speedup > pts[0].speedup
    pairs = [(pts[i], pts[i + 1]) for i in range(len(pts) - 1)
             if (pts[i + 1].speedup < pts[i].speedup if up else pts[i + 1].speedup > pts[i].speedup)]
    if not pairs:
        return ('rises' if up else 'falls'), []
    if not any(told_apart(speedup_repeats(a), speedup_repeats(b)) for a, b in pairs):
        return ('rises_dips' if up else 'falls_bumps'), pairs
    return 'uneven', pairs


def point_notes(q) -> str:
    """One size's measured speedup below 1 (together took longer) or more than FAR from its prediction: numbers only."""
    notes = []
    serial, together = getattr(q, 'serial_sum', None), getattr(q, 'together', None)
    if q.speedup < 1 and serial and together is not None:
        notes.append(t('parallel.scaling.below_one', size=q.size, together=together.median, serial=serial,
                       measured=q.speedup))
    if q.expected_speedup and max(q.speedup / q.expected_speedup, q.expected_speedup / q.speedup) > FAR:
        notes.append(t('parallel.scaling.far', size=q.size, measured=q.speedup, expected=q.expected_speedup,
                       ratio=max(q.speedup, q.expected_speedup) / min(q.speedup, q.expected_speedup), far=FAR))
    return _sentences(*notes)


def scaling_text(results) -> str:
    """The measured curve in words, its shape judged by results.told_apart; each size's numbers (13.3.1)."""
    lines = []
    for r in results:
        pts = sorted(r.points, key=lambda p: p.size)
        best = max(pts, key=lambda p: p.speedup)
        shape, pairs = scaling_shape(pts)
        steps = t('parallel.speed.sep').join(t('parallel.scaling.step', before=a.size, after=b.size,
                                                 before_speedup=a.speedup, after_speedup=b.speedup,
                                                 apart=apart(speedup_repeats(a), speedup_repeats(b), 'x',
                                                             medians=False).clause)
                                               for a, b in pairs)
        lines.append(t(f'parallel.scaling.{shape}', framework=_shown(r.framework), small=pts[0].size,
                       small_speedup=pts[0].speedup, large=pts[-1].size, large_speedup=pts[-1].speedup,
                       best=best.size, best_speedup=best.speedup, steps=steps,
                       apart=apart(speedup_repeats(pts[0]), speedup_repeats(pts[-1]), 'x',
                                   medians=False).clause))
        lines.append(t('parallel.scaling.points', framework=_shown(r.framework), points=t('parallel.recorded.sep').join(
            t('parallel.scaling.point', size=q.size, measured=q.speedup, expected=q.expected_speedup) for q in pts)))
        lines += [note for note in map(point_notes, pts) if note]
        above = [q for q in pts if above_two(q.speedup) and getattr(q, 'lane_times', None)]
        lines += [t('parallel.scaling.above_two', size=q.size, note=serial_above_two(
            q.speedup, q.together.median, max(m.median for m in q.lane_times))) for q in above]
    return '\n'.join(lines)


def plot_scaling(results, ax=None):
    """Measured speedup (each size) and the expectation, per framework, against matrix size (13.3.1)."""
    if ax is None:
        _, ax = style.figure()
    else:
        style.apply()
    # below this line, running together lost time; drawn under the curves, so a prediction of exactly 1 (MXNet's
    # engine rule) stays visible on it
    ax.axhline(1.0, color=style.color('idle'), lw=1.5, zorder=1)
    for k, r in enumerate(results):
        sizes = [p.size for p in r.points]
        colour = style.color(style.lane_role(k))
        name = _shown(r.framework)
        ax.plot(sizes, [p.speedup for p in r.points], 'o-', color=colour, ms=8, zorder=2,
                label=style.plot_text('parallel.scaling_measured', framework=name))
        ax.plot(sizes, [p.expected_speedup for p in r.points], '--', color=colour, lw=2, zorder=3,
                label=style.plot_text('parallel.scaling_expected', framework=name))
    ax.set_xscale('log', base=2)
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.set_ylim(bottom=0)
    ax.set_xlabel(style.plot_text('panels.size_axis'))
    ax.set_ylabel(style.plot_text('panels.speedup_axis'))
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.set_title(style.plot_text('parallel.scaling_title'), loc='left')
    return ax.figure
