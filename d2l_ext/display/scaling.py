"""13.3.1's speedup against matrix size: measured and predicted, per framework, in one plot and one line."""
from __future__ import annotations

from ..frameworks import framework
from ..i18n import t
from . import style, verdict


def scaling_line(results) -> str:
    """'PyTorch: 1.02x at n=64, 1.96x at n=512' per framework (one after the other / together, medians)."""
    return '\n'.join(t('parallel.scaling_line', framework=framework(r.framework).display, points=t('parallel.sep').join(
        t('parallel.scaling_point', size=p.size, speedup=verdict.num(p.speedup, 'x')) for p in (pts[0], pts[-1])))
        for r in results for pts in [sorted(r.points, key=lambda p: p.size)])


def plot_scaling(results, ax=None):
    """Measured speedup (each size) and the prediction, per framework, against matrix size (13.3.1)."""
    if ax is None:
        _, ax = style.figure()
    else:
        style.apply()
    ax.axhline(1.0, color=style.color('idle'), lw=1.5, zorder=1)  # below it, together lost time
    for k, r in enumerate(results):
        sizes = [p.size for p in r.points]
        colour, name = style.color(style.lane_role(k)), framework(r.framework).display
        ax.plot(sizes, [p.speedup for p in r.points], 'o-', color=colour, ms=8, zorder=2,
                label=style.plot_text('parallel.scaling_measured', framework=name))
        ax.plot(sizes, [p.expected_speedup for p in r.points], '--', color=colour, lw=2, zorder=3,
                label=style.plot_text('parallel.scaling_expected', framework=name))
    ax.set_xscale('log', base=2)
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.set_ylim(bottom=0)
    ax.set_xlabel(style.plot_text('parallel.size_axis'))
    ax.set_ylabel(style.plot_text('panels.speedup_axis'))
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.set_title(style.plot_text('parallel.scaling_title'), loc='left')
    return ax.figure
