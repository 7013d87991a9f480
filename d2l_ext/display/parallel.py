"""13.3.1's pictures: every repeat beside its expectation, lane timelines, speedup against size.

Each function takes a typed result from d2l_ext.parallel, draws with the common visual
language (display.style, display.repeats, display.timeline) and returns the Figure.
"""
from __future__ import annotations

from . import style
from .repeats import plot_repeats
from .timeline import draw_timeline


def variant_name(area: str, key: str) -> str:
    """A row's name in the plot language: '<area>.variant.<key>' where the catalogue has it, else the key."""
    from ..i18n import catalogue
    full = f'{area}.variant.{key}'
    return style.plot_text(full) if full in catalogue('en') else key


def repeats_of(times) -> list[float]:
    """Every repeat of a Times (just its median for recordings made before repeats were kept)."""
    return list(times.times) or [times.median]


def plot_parallel(result, ax=None, title=None):
    """Each lane alone and all together, every repeat a dot, the expected together-time beside (13.3.1)."""
    names = [lane['label'] for lane in result.lanes] + [variant_name('parallel', 'together')]
    values = [repeats_of(m) for m in result.lane_times] + [repeats_of(result.together)]
    return plot_repeats(dict(zip(names, values)), ax=ax, predicted={names[-1]: result.expected},
                        title=title or style.plot_text('parallel.plot_title', framework=result.framework,
                                                       speedup=result.speedup, expected=result.expected_speedup))


def plot_timeline(result, ax=None, title=None):
    """When each product ran on each lane, in one run of all lanes together (13.3.1)."""
    rows = {label: style.lane_role(i) for i, label in enumerate(result.lanes)}
    if result.framework == 'mxnet':  # rows are (context, engine worker): colour by the context
        rows = None
    return draw_timeline(result.events, ax=ax, rows=rows,
                         title=title or style.plot_text('parallel.timeline_title', framework=result.framework))


def plot_scaling(results, ax=None):
    """Measured speedup (each size) and the expectation, per framework, against matrix size (13.3.1)."""
    if ax is None:
        _, ax = style.figure()
    else:
        style.apply()
    for k, r in enumerate(results):
        sizes = [p.size for p in r.points]
        colour = style.color(style.lane_role(k))
        ax.plot(sizes, [p.speedup for p in r.points], 'o-', color=colour,
                label=style.plot_text('parallel.scaling_measured', framework=r.framework))
        ax.plot(sizes, [p.expected_speedup for p in r.points], '--', color=colour,
                label=style.plot_text('parallel.scaling_expected', framework=r.framework))
    ax.axhline(1.0, color=style.color('idle'), lw=1)  # below this line, running together lost time
    ax.set_xscale('log', base=2)
    ax.set_xlabel(style.plot_text('panels.size_axis'))
    ax.set_ylabel(style.plot_text('panels.speedup_axis'))
    ax.legend()
    ax.set_title(style.plot_text('parallel.scaling_title'))
    return ax.figure


def plot_variants(result, ax=None, title=None):
    """Any result with a `times` dict (exercises 1 and 2, the sync mistake): every repeat of each variant."""
    times = {variant_name(result.area, name): repeats_of(m) for name, m in result.times.items()}
    return plot_repeats(times, ax=ax, title=title)
