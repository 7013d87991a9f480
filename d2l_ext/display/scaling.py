"""13.3.1's speedup against matrix size: the curve's shape judged by the repeats' spread, in words and a plot."""
from __future__ import annotations

from ..i18n import t
from ..results import Measurement, chance_gap
from ..results import close as _close
from . import style
from .parallel import _shown, above_two, serial_above_two

# scaling_shape's shapes: the keys parallel.scaling.<shape>
SHAPES = ('flat', 'no_trend', 'rises', 'rises_dips', 'falls', 'falls_bumps', 'uneven')


def speedup_repeats(p) -> Measurement:
    """One size's speedup in each repeat of together (one after the other, the lanes' medians, over that repeat).

    A point without repeats (a test's fake, an old recording) gives its median speedup alone, so no spread.
    """
    together = getattr(p, 'together', None)
    times = together.repeated() if together is not None else []
    serial = getattr(p, 'serial_sum', None)
    return Measurement('speedup', [serial / x for x in times] if serial and times else [p.speedup])


def scaling_shape(pts) -> tuple[str, list, float]:
    """The curve's shape by the repeats' spread (results.chance_gap, the package's one chance test), and its dips.

    'rises'/'falls': the largest size beats the smallest beyond the spread and every step goes that way;
    'rises_dips'/'falls_bumps': the same overall, with steps against it each within their sizes' spread;
    'uneven': a step against it beyond the spread; 'no_trend': smallest and largest within the spread;
    'flat': every size within NOISE of the smallest. Returns (shape, [(before, after, their spread) of each step
    against it], the spread of the smallest and largest sizes' speedups).
    """
    spread = [speedup_repeats(p) for p in pts]
    overall = chance_gap(spread[0], spread[-1])
    if all(_close(p.speedup, pts[0].speedup) for p in pts):
        return 'flat', [], overall
    first, last = pts[0].speedup, pts[-1].speedup
    if abs(last - first) <= overall:
        return 'no_trend', [], overall
    up = last > first
    against = [(i, i + 1) for i in range(len(pts) - 1)
               if (pts[i + 1].speedup < pts[i].speedup if up else pts[i + 1].speedup > pts[i].speedup)]
    if not against:
        return ('rises' if up else 'falls'), [], overall
    pairs = [(pts[i], pts[j], chance_gap(spread[i], spread[j])) for i, j in against]
    if all(abs(b.speedup - a.speedup) <= gap for a, b, gap in pairs):
        return ('rises_dips' if up else 'falls_bumps'), pairs, overall
    return 'uneven', pairs, overall


def scaling_text(results) -> str:
    """The measured curve in words, its shape judged against the repeats' spread; each size's numbers (13.3.1)."""
    lines = []
    for r in results:
        pts = sorted(r.points, key=lambda p: p.size)
        best = max(pts, key=lambda p: p.speedup)
        shape, pairs, spread = scaling_shape(pts)
        steps = t('parallel.speed.sep').join(t('parallel.scaling.step', before=a.size, after=b.size,
                                                 before_speedup=a.speedup, after_speedup=b.speedup, spread=gap)
                                               for a, b, gap in pairs)
        lines.append(t(f'parallel.scaling.{shape}', framework=_shown(r.framework), small=pts[0].size,
                       small_speedup=pts[0].speedup, large=pts[-1].size, large_speedup=pts[-1].speedup,
                       best=best.size, best_speedup=best.speedup, steps=steps, spread=spread,
                       diff=abs(pts[-1].speedup - pts[0].speedup)))
        lines.append(t('parallel.scaling.points', framework=_shown(r.framework), points=t('parallel.recorded.sep').join(
            t('parallel.scaling.point', size=q.size, measured=q.speedup, expected=q.expected_speedup) for q in pts)))
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
