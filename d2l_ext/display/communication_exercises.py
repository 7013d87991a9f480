"""13.3.2's exercises: 3, a second lane beside compute and copies (its inputs, its verdict, its figure), and 4,
where the profiled run-and-copy spent its time.

Split from display/communication.py, which re-exports every public name here (the lesson reads them as `show.`);
this module imports nothing from it, so the two form no cycle.
"""
from __future__ import annotations

from ..i18n import t
from ..results import close
from . import style
from .parallel import variant_name
from .repeats import plot_repeats

EXPECTATIONS = ('separate', 'shared', 'engine', 'oversubscribed')  # rules: communication.variant.expected.<rule>


def _name(key: str) -> str:
    return variant_name('communication', key)


def lane_label(lane) -> str:
    """A lane's label in the learner's language from the ids a result carries: a Lane.as_dict, or a name (13.3.2)."""
    from ..lanes import Lane, label_of
    return Lane.from_dict(lane).label if isinstance(lane, dict) else label_of(lane)


def exercise_three_alone_text(r) -> str:
    """Exercise 3's inputs to the prediction: each lane's time alone (13.3.2)."""
    lanes = ' / '.join(lane_label(lane) for lane in r.lanes)
    return t('communication.ex3.alone', lanes=lanes, a=r.times['lane1_compute_and_copy'].median,
             b=r.times['lane2_compute'].median, serial=r.serial_sum)


def exercise_three_text(r) -> str:
    """Exercise 3's verdict: together against the expectation and against one after the other.

    With more threads than cores ('oversubscribed') the closed form is a range, max(lane times) to their sum,
    and the sentence says where 'together' fell in it and how many threads wanted how many cores.
    """
    together = r.times['together'].median
    if r.expectation == 'oversubscribed':
        return t('communication.ex3.oversubscribed', together=together, where=t(_where(r, together)),
                 threads=sum(r.lane_threads) + r.copy_threads, parts=_thread_parts(r), cores=r.cores,
                 expected=r.expected, serial=r.serial_sum)
    key = ('communication.ex3.like_expected' if close(together, r.expected, of=r.expected)
           else 'communication.ex3.like_serial' if close(together, r.serial_sum, of=r.serial_sum)
           else 'communication.ex3.between')
    return t(key, together=together, expected=r.expected, serial=r.serial_sum,
             rule=t(f'communication.variant.expected.{r.expectation}'))


def _where(r, together: float) -> str:
    """Where 'together' fell in the range from max(lane times) to one after the other: a catalogue key."""
    return ('communication.ex3.where_near_max' if close(together, r.expected, of=r.expected)
            else 'communication.ex3.where_near_serial' if close(together, r.serial_sum, of=r.serial_sum)
            else 'communication.ex3.where_below' if together < r.expected
            else 'communication.ex3.where_above' if together > r.serial_sum else 'communication.ex3.where_inside')


def _thread_parts(r) -> str:
    """Which threads want a core, lane by lane: 'lane 0: 1 computing, 1 copying; lane 1: 1 computing'."""
    parts = []
    for i, (lane, n) in enumerate(zip(r.lanes, r.lane_threads)):
        gpu = isinstance(lane, dict) and lane.get('kind') == 'gpu'
        key = ('communication.ex3.threads_gpu' if gpu else 'communication.ex3.threads_copy'
               if i == 0 and r.copy_threads else 'communication.ex3.threads_cpu')
        parts.append(t(key, lane=i, n=n))
    return t('communication.ex3.threads_sep').join(parts)


def plot_exercise_three(r):
    """Exercise 3: each lane alone and both together (every repeat), the expectation beside 'together'.

    With more threads than cores the expectation is a range: hatched up to max(lane times), dotted on to their sum.
    """
    times = {_name(k): m.repeated() for k, m in r.times.items()}
    fig = plot_repeats(times, predicted={_name('together'): r.expected},
                       title=style.plot_text('communication.ex3.title'))
    if r.expectation == 'oversubscribed' and r.serial_sum > r.expected:
        from matplotlib.patches import Patch
        ax = fig.axes[0]
        y = list(times).index(_name('together')) + 0.25  # where plot_repeats drew the hatched bar
        colour = style.color('predicted')
        ax.barh(y, r.serial_sum - r.expected, left=r.expected, height=0.2, fill=False, hatch='..',
                edgecolor=colour, linewidth=1.0, linestyle='--', zorder=2)
        ax.set_xlim(0, max(ax.get_xlim()[1], r.serial_sum * 1.05))
        legend = ax.get_legend()  # plot_repeats' entries, then the range's
        handles = list(legend.legend_handles) if legend else []
        labels = [text.get_text() for text in legend.get_texts()] if legend else []
        handles.append(Patch(fill=False, hatch='..', edgecolor=colour, linestyle='--'))
        labels.append(style.plot_text('communication.ex3.range_legend'))
        ax.legend(handles, labels, loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return fig


def profile_text(prof, gpu: bool) -> str:
    """Exercise 4: where the profiled run-and-copy spent its time, from torch.profiler's averages."""
    def total(names, attr):
        return sum(getattr(e, attr, 0.0) or 0.0 for e in prof.key_averages() if e.key in names) / 1e6
    attr = 'self_device_time_total' if gpu else 'self_cpu_time_total'
    # operator level only: the copy kernel (Memcpy DtoH) is the same time again, not more of it
    mm, copy = total({'aten::mm'}, attr), total({'aten::copy_'}, attr)
    return t('communication.profile.split_gpu' if gpu else 'communication.profile.split_cpu', mm=mm, copy=copy,
             share=copy / mm if mm > 0 else 0.0)


def profile_guess_text(prof, gpu: bool, guess: str | None) -> str:
    """Exercise 4's prediction: the learner's operator beside the aten:: operator with the most self time (CUDA time
    on a GPU, CPU time on a CPU); with no guess, where to write it. The table itself is in the hidden answer cell."""
    if guess is None:
        return t('communication.profile.guess_none')
    attr = 'self_device_time_total' if gpu else 'self_cpu_time_total'
    ops = {e.key: (getattr(e, attr, 0.0) or 0.0) / 1e6 for e in prof.key_averages() if e.key.startswith('aten::')}
    if not ops:
        return t('communication.profile.guess_no_ops', guess=guess)
    top = max(ops, key=ops.get)
    key = 'communication.profile.guess_right' if str(guess).strip() == top else 'communication.profile.guess_other'
    return t(key, guess=guess, top=top, seconds=ops[top], kind='CUDA' if gpu else 'CPU')
