"""13.3.4's figures and lines: steps as stacked bars beside their control, the all-reduce's share during backward,
profiled steps per process, the bucket sweep; one verdict line per measuring cell."""
from __future__ import annotations

import statistics

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..i18n import t
from . import style, verdict
from .timeline import draw_timeline

NAMES = ('backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets', 'nosync')  # the keys allreduce.name.<id>
LETTERS = {'a': 'serial', 'b': 'flat', 'c': 'hooks', 'd': 'buckets'}  # the lesson's letters and their version ids
BACKENDS = ('gloo', 'nccl')  # the keys allreduce.processes.<backend>
STREAMS = ('compute', 'allreduce')  # the keys allreduce.lane.<stream>
PARTS = ('base', 'slowed', 'exposed')  # the keys allreduce.part.<part>: a step's stacked bar
MS = 1e3


def name(result, version, text=t) -> str:
    """A version's short name: '(c) hooks', 'DDP 1 MiB', 'DDP one bucket'; a learner's own step keeps its id."""
    if version.bucket_mb is not None:
        return text('allreduce.name.one_bucket') if result.one_bucket(version) else \
            text('allreduce.name.ddp', mb=version.bucket_mb)
    return text(f'allreduce.name.{version.id}') if version.id in NAMES else version.id


def machine_text(backend: str, world_size: int, cores: int | None = None) -> str:
    """The lesson's first lines: versions, cores and GPUs; the processes it starts and whether they share cores."""
    from ..machine import cpu_cores, gpu_names_torch
    from .machine import machine_line
    cores = cpu_cores() if cores is None else cores
    if backend == 'gloo' and world_size > cores:
        key = 'allreduce.processes.shared'
    elif backend == 'gloo' and len(gpu_names_torch()) == 1:
        key = 'allreduce.processes.one_gpu'
    else:
        key = f'allreduce.processes.{backend}'
    return machine_line() + '\n' + t(key, n=world_size, cores=cores)


def choose(mine: dict, checked: dict) -> tuple[dict, str]:
    """The steps to measure by version id (the learner's where its check passed, else the package's), and a line
    saying which; `mine`, `checked` by letter ('a'-'d')."""
    from ..allreduce import steps
    package = {**steps.STEPS, **steps.CONTROLS}
    yours = [k for k in sorted(LETTERS) if getattr(checked.get(k), 'passed', False) and k in mine]
    chosen = {vid: mine[k] if k in yours else package[vid] for k, vid in LETTERS.items()}
    theirs = [k for k in sorted(LETTERS) if k not in yours]
    listed = t('allreduce.sep_list').join
    key = 'yours' if not theirs else 'package' if not yours else 'mixed'
    return chosen, t(f'allreduce.which.{key}', yours=listed(f'({k})' for k in yours),
                     package=listed(f'({k})' for k in theirs))


def ingredients_text(result) -> str:
    """The two measurements the prediction starts from and the all-reduce model fitted to one float and a buffer."""
    p = result.prediction
    return '\n'.join([
        t('allreduce.ingredients.step', step=verdict.num(p.backward, 'ms'), span=verdict.num(p.backward_span, 'ms'),
          alone=verdict.num(result.version('allreduce').median, 'ms'), tensors=len(p.tensor_bytes)),
        t('allreduce.ingredients.fit', alpha=verdict.num(p.per_call, 'ms'), gbps=f'{p.bus_bandwidth / 1e9:.2f}',
          mb=f'{p.gradient_bytes / 2**20:.1f}')])


def prediction_text(allreduce: float, serial: float, overlapped: float, alone: float | None = None) -> str:
    """The predicted all-reduce (beside the measured one, where given), (a), and perfect overlap, in one line."""
    line = t('allreduce.predict', allreduce=verdict.num(allreduce, 'ms'), serial=verdict.num(serial, 'ms'),
             overlapped=verdict.num(overlapped, 'ms'))
    return line if alone is None else line + t('allreduce.predict_alone', alone=verdict.num(alone, 'ms'))


def verdict_text(result, vid: str = 'hooks', against: str = 'serial') -> str:
    """'(c) hooks 90.0 ms vs (a) after backward 111 ms: faster; 74% of the all-reduce ran during backward (model
    85%)'."""
    v, a = result.version(vid), result.version(against)
    head = verdict.line(name(result, v), v.measurement, name(result, a), a.measurement, 'ms')
    if v.overlap is None:
        return head
    return head + t('allreduce.share', share=verdict.num(v.overlap, '%'),
                    model=verdict.num(result.predicted(vid)['overlap'], '%'))


def guess_text(my_guess, result, vid: str = 'hooks') -> str:
    """'your guess 60% · predicted 85% · measured 74%': the share of (c)'s all-reduce during backward."""
    return verdict.guess(my_guess, result.predicted(vid)['overlap'], result.version(vid).overlap or 0.0, '%')


def parts(result, version) -> dict:
    """A step's measured parts (s): the step without all-reduce, backward's time beyond it there (profiled), and
    the all-reduce not hidden: what the median step adds beyond both (at least 0; the figure marks the median)."""
    base = result.version('backward').median
    slowed = max(0.0, version.backward_span - result.version('backward').backward_span) if version.stats else 0.0
    return {'base': base, 'slowed': slowed, 'exposed': max(0.0, version.median - base - slowed)}


def parts_text(result) -> str:
    """Exercise 1: (c)'s slowed and not-hidden parts beside its control (a)'s slowed part, on this run's cores."""
    c, a = parts(result, result.version('hooks')), parts(result, result.version('serial'))
    return t('allreduce.parts', n=result.processes, cores=result.cores, c_slow=verdict.num(c['slowed'], 'ms'),
             c_exp=verdict.num(c['exposed'], 'ms'), a_slow=verdict.num(a['slowed'], 'ms'))


def shares(version) -> list[float]:
    """The share of the all-reduce during backward in each profiled step of each process (the dots)."""
    return [s['shared'] / s['comm'] for process in version.stats for s in process if s['comm'] > 0]


def drawn(result, ids=None) -> list:
    """The versions of the figure: (a)-(d) and DDP at (d)'s bucket size (or the first DDP size), those measured."""
    from ..allreduce.steps import BUCKET_MB
    ddp = [v for v in result.ddp_versions() if v.bucket_mb == BUCKET_MB] or result.ddp_versions()[:1]
    wanted = ids or ['serial', 'flat', 'hooks', 'buckets'] + [v.id for v in ddp]
    return [result.version(vid) for vid in wanted if result.has(vid)]


def plot_steps(result, guess=None, ids=None, title=None):
    """Left: each version's step in stacked parts, its median marked, every repeat a dot, the model's hatched.
    Right: the all-reduce's share during backward per profiled step, pooled (marked), the model's, the guess."""
    versions = drawn(result, ids)
    fig, (left, right) = style.figure(ncols=2, height=2.0 + 0.75 * len(versions))
    colours = {'base': style.color('idle'), 'slowed': style.color('gpu'), 'exposed': style.color('allreduce')}
    mark = dict(marker='|', s=500, linewidths=3, color='black', zorder=4)
    for y, v in enumerate(versions):
        start = 0.0
        for part, seconds in parts(result, v).items():
            left.barh(y + 0.1, seconds * MS, left=start * MS, height=0.35, color=colours[part], zorder=2)
            start += seconds
        left.scatter([v.median * MS], [y + 0.1], **mark)
        n = len(v.step_times)
        left.scatter([x * MS for x in v.step_times], [y - 0.3 + 0.2 * i / max(n - 1, 1) for i in range(n)], s=40,
                     color=style.color('measured'), zorder=3)
        model = result.prediction.for_version('flat' if result.one_bucket(v) else v.id, v.bucket_mb)
        left.barh(y + 0.4, model * MS, height=0.15, fill=False, hatch='///', edgecolor=style.color('predicted'))
        measured = shares(v)
        right.scatter(measured, [y - 0.2] * len(measured), s=40, marker='^', color=style.color('measured'),
                      zorder=3)
        if v.overlap is not None:
            right.scatter([v.overlap], [y - 0.2], **mark)
        right.barh(y + 0.2, result.predicted(v.id)['overlap'], height=0.25, fill=False, hatch='///',
                   edgecolor=style.color('predicted'))
        if v.id == 'hooks' and guess is not None:
            right.scatter([float(guess)], [y - 0.2], s=140, marker='D', color=style.color('guess'), zorder=5)
    labels = [name(result, v, style.plot_text) for v in versions]
    for ax in (left, right):
        ax.set_yticks(range(len(versions)), labels)
        ax.set_ylim(len(versions) - 0.4, -0.6)
        ax.grid(axis='x', alpha=0.3)
    right.set_yticks(range(len(versions)), [''] * len(versions))
    right.set_xlim(0, 1.05)
    left.set_xlabel(style.plot_text('allreduce.plot.step_ms'))
    right.set_xlabel(style.plot_text('allreduce.plot.share'))
    dots = dict(ls='', color=style.color('measured'))
    handles = [Patch(color=colours[p], label=style.plot_text(f'allreduce.part.{p}')) for p in PARTS] + [
        Line2D([], [], marker='o', label=style.plot_text('allreduce.plot.repeats'), **dots),
        Line2D([], [], ls='', marker='|', markersize=14, mew=3, color='black',
               label=style.plot_text('allreduce.plot.marks')),
        Line2D([], [], marker='^', label=style.plot_text('allreduce.plot.profiled'), **dots),
        Patch(fill=False, hatch='///', edgecolor=style.color('predicted'), label=style.plot_text('style.predicted'))]
    if guess is not None:
        handles.append(Line2D([], [], ls='', marker='D', color=style.color('guess'),
                              label=style.plot_text('style.guess')))
    fig.legend(handles=handles, loc='outside lower center', ncol=2, frameon=False)
    fig.suptitle(title or style.plot_text('allreduce.plot.title'))
    return fig


def draw_step_timeline(result, version_id: str, ax=None, heading: str | None = None):
    """One profiled step of a version per process, titled with how long before backward's end the first all-reduce
    started."""
    if version_id not in result.events:
        from ..errors import UsageError
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    lane = {(rank, s): style.plot_text('allreduce.lane', rank=rank, what=style.plot_text(f'allreduce.lane.{s}'))
            for rank in range(result.processes) for s in STREAMS}
    events = [{**e, 'name': '' if e['stream'] == 'allreduce' else e['name'], 'lane': lane[e['rank'], e['stream']]}
              for e in result.events[version_id]]
    rows = {label: 'backward' if s == 'compute' else 'allreduce' for (_, s), label in lane.items()}
    leads = []
    for rank in range(result.processes):
        mine = [e for e in result.events[version_id] if e['rank'] == rank]
        ends = [e['end'] for e in mine if e['role'] in ('backward', 'compute')]  # not the optimizer step
        starts = [e['start'] for e in mine if e['stream'] == 'allreduce']
        if ends and starts:
            leads.append(max(ends) - min(starts))
    lead = statistics.mean(leads) if leads else 0.0
    label = name(result, result.version(version_id), style.plot_text)
    title = style.plot_text('allreduce.plot.timeline_during', label=label, ms=f'{lead * MS:.0f}') if lead > 1e-6 \
        else style.plot_text('allreduce.plot.timeline_after', label=label)
    return draw_timeline(events, ax=ax, rows=rows, title=title if heading is None else heading + '\n' + title)


def draw_step_timelines(result, version_ids=('serial', 'hooks')):
    """The versions' timelines (draw_step_timeline) stacked on one shared time axis, so their lengths compare."""
    ids = [vid for vid in version_ids if vid in result.events]
    fig, axes = style.figure(nrows=max(len(ids), 1), height=len(ids) * (1.5 + 0.6 * 2 * result.processes))
    axes = list(axes) if len(ids) > 1 else [axes]
    for ax, vid in zip(axes, ids):
        draw_step_timeline(result, vid, ax=ax)
    right = max(ax.get_xlim()[1] for ax in axes)
    for ax in axes:
        ax.set_xlim(0, right)
    return fig


def trace_text(result, version_id: str) -> str:
    """Where this run's Chrome traces of a version are, in one line."""
    import os
    paths = [p for p in result.traces.get(version_id, []) if p]
    return t('allreduce.traces', folder=os.path.dirname(paths[0])) if paths else ''


def bucket_text(result) -> str:
    """DDP at the model's fastest bucket size against one bucket, as measured here (the verdict line)."""
    sizes = sorted(v.bucket_mb for v in result.ddp_versions())
    best = result.version(f'ddp-{result.prediction.best_buckets(sizes)[0]:g}')
    whole = max(result.ddp_versions(), key=lambda v: v.bucket_mb)
    return verdict.line(name(result, best), best.measurement, name(result, whole), whole.measurement, 'ms')


def plot_buckets(result):
    """DDP's step time against its bucket size, every repeat a dot, the model's line; (a) and (b) as lines."""
    fig, ax = style.figure(height=3.8)
    p, versions = result.prediction, sorted(result.ddp_versions(), key=lambda v: v.bucket_mb)
    sizes = [v.bucket_mb for v in versions]
    ax.plot(sizes, [p.for_version('ddp', mb) * MS for mb in sizes], '--', marker='s', color=style.color('predicted'),
            label=style.plot_text('style.predicted'))
    for v in versions:
        ax.scatter([v.bucket_mb] * len(v.step_times), [x * MS for x in v.step_times], color=style.color('measured'),
                   s=40, zorder=3)
    ax.scatter([], [], color=style.color('measured'), label=style.plot_text('style.measured'))
    for vid, dash in (('serial', ':'), ('flat', '-.')):
        if result.has(vid):
            ax.axhline(result.version(vid).median * MS, ls=dash, color='grey', label=name(result, result.version(vid),
                                                                                           style.plot_text))
    ax.set_xscale('log')
    ax.set_xticks(sizes, [f'{mb:g}' for mb in sizes])
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel(style.plot_text('allreduce.plot.bucket_mb'))
    ax.set_ylabel(style.plot_text('allreduce.plot.step_ms'))
    ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return fig


def ratio_text(result, half) -> str:
    """Exercise 4: all-reduce alone and the step without it at the batch and half of it, and their ratio's rise."""
    (a1, b1), (a2, b2) = [(r.version('allreduce').median, r.version('backward').median) for r in (result, half)]
    return t('allreduce.ratio', batch=result.batch_per_process, half=half.batch_per_process,
             alone=verdict.num(a1, 'ms'), alone_half=verdict.num(a2, 'ms'), step=verdict.num(b1, 'ms'),
             step_half=verdict.num(b2, 'ms'), rise=verdict.num((a2 / b2) / (a1 / b1), 'x'))
