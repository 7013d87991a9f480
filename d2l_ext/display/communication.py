"""13.3.2's pictures: each copy mode's repeats beside its expectation, compute/copy stream timelines,
and the book's first non_blocking copy (cold vs warm, the profiler's CPU vs CUDA time).

Each function takes a typed result from d2l_ext.communication and returns the Figure.
"""
from __future__ import annotations

from . import style
from .parallel import repeats_of, variant_name
from .repeats import plot_repeats
from .timeline import draw_timeline

STREAM_ROWS = {'compute stream': 'compute', 'copy stream': 'copy', 'compute thread': 'compute', 'copy thread': 'copy'}


def plot_comm_row(row, ax=None, title=None):
    """One copy mode: run, copy, run then copy, overlapped (every repeat), the expectation beside overlapped."""
    times = {variant_name('communication', v): repeats_of(m) for v, m in row.times.items()}
    overlapped = variant_name('communication', 'overlapped')
    return plot_repeats(times, ax=ax, predicted={overlapped: row.expected}, title=title or row.mode)


def plot_comm(result):
    """Every copy mode of a CommResult, one panel each, stacked (13.3.2)."""
    fig, axes = style.figure(nrows=len(result.rows), height=2.8 * len(result.rows))
    for row, ax in zip(result.rows, _flat(axes)):
        plot_comm_row(row, ax=ax, title=_mode_name(row.mode))
    return fig


def _flat(axes) -> list:
    """style.figure's axes as a list, whether it returned one panel or an array."""
    return list(axes.flat) if hasattr(axes, 'flat') else [axes]


def _mode_name(mode: str) -> str:
    from ..i18n import catalogue
    key = f'communication.mode.{mode}'
    return style.plot_text(key) if key in catalogue('en') else mode


def plot_comm_timelines(timelines, title=None):
    """One stream timeline per copy plan, stacked, each with its own time axis (no clipped panel)."""
    fig, axes = style.figure(nrows=len(timelines), height=2.4 * len(timelines))
    for tl, ax in zip(timelines, _flat(axes)):
        rows = {lane: role for lane, role in STREAM_ROWS.items() if any(e['lane'] == lane for e in tl.events)}
        draw_timeline(tl.events, ax=ax, rows=rows, title=_mode_name(tl.plan))
    if title:
        fig.suptitle(title)
    return fig


def plot_first_copy(result, ax=None):
    """The book's non_blocking copy: the first call beside every later one, and the profiler's split."""
    if result.warm is None:
        return None
    cold, warm = variant_name('communication', 'cold'), variant_name('communication', 'warm')
    return plot_repeats({cold: [result.cold], warm: repeats_of(result.warm)}, ax=ax,
                        title=style.plot_text('communication.first_copy.title'))


def plot_profile(result, ax=None):
    """torch.profiler's CPU time against CUDA time for the copy operators, cold and warm (13.3.2)."""
    if ax is None:
        _, ax = style.figure()
    else:
        style.apply()
    rows = [(f'{when}: {p.name}', p.cpu_time_us / 1e3, p.cuda_time_us / 1e3)
            for when, prof in (('cold', result.profile_cold), ('warm', result.profile_warm)) for p in prof]
    ys = range(len(rows))
    ax.barh([y - 0.2 for y in ys], [r[1] for r in rows], 0.4, color=style.color('cpu'),
            label=style.plot_text('panels.col_cpu_time_ms'))
    ax.barh([y + 0.2 for y in ys], [r[2] for r in rows], 0.4, color=style.color('gpu'),
            label=style.plot_text('panels.col_cuda_time_ms'))
    ax.set_yticks(list(ys), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel('ms')
    ax.legend()
    ax.set_title(style.plot_text('communication.profile_title'))
    return ax.figure
