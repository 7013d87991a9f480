"""13.3.4's figures and lines: steps as stacked bars beside their control, the all-reduce's share during backward,
profiled steps per process; one verdict line per measuring cell."""
from __future__ import annotations

import statistics

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..i18n import t
from . import style, verdict
from .timeline import draw_timeline

NAMES = ('backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets')  # the keys allreduce.name.<id>
LETTERS = {'a': 'serial', 'b': 'flat', 'c': 'hooks', 'd': 'buckets'}  # the lesson's letters and their version ids
BACKENDS = ('gloo', 'nccl')  # the keys allreduce.processes.<backend>
STREAMS = ('compute', 'allreduce')  # the keys allreduce.lane.<stream>
PARTS = ('base', 'slowed', 'outside', 'rest')  # the keys allreduce.part.<part>: a step's stacked bar
MS = 1e3


def name(result, version, text=t) -> str:
    """A version's short name: '(c) hooks', 'DDP 1 MiB', 'DDP one bucket'; a learner's own step keeps its id."""
    if version.bucket_mb is not None:
        return text('allreduce.name.one_bucket') if result.one_bucket(version) else \
            text('allreduce.name.ddp', mb=version.bucket_mb)
    from ..allreduce.steps import BUCKET_MB
    return text(f'allreduce.name.{version.id}', mb=BUCKET_MB) if version.id in NAMES else version.id


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
    """Steps by version id (the learner's where its check passed, else the package's) and a line saying which."""
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
        t('allreduce.ingredients.step', step=verdict.num(p.backward, 'ms'),
          alone=verdict.num(result.version('allreduce').median, 'ms'), tensors=len(p.tensor_bytes)),
        t('allreduce.ingredients.fit', alpha=verdict.num(p.per_call, 'ms'), gbps=f'{p.bus_bandwidth / 1e9:.2f}',
          mb=f'{p.gradient_bytes / 2**20:.1f}')])


def prediction_text(allreduce: float, serial: float, overlapped: float) -> str:
    """The predicted all-reduce, (a), and perfect overlap, in one line."""
    return t('allreduce.predict', allreduce=verdict.num(allreduce, 'ms'), serial=verdict.num(serial, 'ms'),
             overlapped=verdict.num(overlapped, 'ms'))


def verdict_text(result, vid: str = 'hooks', against: str = 'serial') -> str:
    """'(c) hooks 90.0 ms vs (a) after backward 111 ms: 19% faster; 74% of the all-reduce ran during backward'."""
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
    """A step's parts (s): the step without all-reduce (timed), backward's extra time and the all-reduce outside
    backward (profiled), the rest of the median step (copies, waits)."""
    base = result.version('backward').median
    if version.id == 'allreduce' or not version.stats:
        return {'base': 0.0 if version.id == 'allreduce' else base, 'slowed': 0.0,
                'outside': version.median if version.id == 'allreduce' else 0.0, 'rest': 0.0}
    slowed = max(0.0, version.backward_span - result.version('backward').backward_span)
    outside = statistics.mean(s['comm'] - s['shared'] for process in version.stats for s in process)
    return {'base': base, 'slowed': slowed, 'outside': outside,
            'rest': max(0.0, version.median - base - slowed - outside)}


def parts_text(result) -> str:
    """Exercise 1: (c)'s slowed and outside parts beside its control (a)'s slowed part, on this run's cores."""
    c, a = parts(result, result.version('hooks')), parts(result, result.version('serial'))
    return t('allreduce.parts', n=result.processes, cores=result.cores, c_slow=verdict.num(c['slowed'], 'ms'),
             c_out=verdict.num(c['outside'], 'ms'), a_slow=verdict.num(a['slowed'], 'ms'))


def _edges(result, vid: str) -> list[tuple]:
    """Per process: backward's end, the first all-reduce's start, the last one's end, the optimizer's start."""
    out = []
    for rank in range(result.processes):
        mine = [e for e in result.events.get(vid, []) if e['rank'] == rank]
        sent = [e for e in mine if e['role'] == 'allreduce']
        ends = [e['end'] for e in mine if e['role'] in ('backward', 'compute')]  # not the optimizer step
        if sent and ends:
            out.append((max(ends), min(e['start'] for e in sent), max(e['end'] for e in sent),
                        min((e['start'] for e in mine if e['role'] == 'optimizer'), default=None)))
    return out


def copies(result, vid: str = 'flat') -> float:
    """(b)'s copies: from backward's end to its all-reduce and from that to the optimizer step (mean of processes)."""
    gaps = [max(0.0, s - b) + max(0.0, o - e) for b, s, e, o in _edges(result, vid) if o is not None]
    return statistics.mean(gaps) if gaps else 0.0


def flat_text(result) -> str:
    """(b)'s question: its step against (a)'s, its one all-reduce call against (a)'s, and its copies."""
    b, a = result.version('flat'), result.version('serial')
    return verdict.line(name(result, b), b.measurement, name(result, a), a.measurement, 'ms') + t(
        'allreduce.flat', one=verdict.num(b.comm_seconds, 'ms'), many=verdict.num(a.comm_seconds, 'ms'),
        calls=a.calls, copies=verdict.num(copies(result), 'ms'))


def shares(version) -> list[float]:
    """The share of the all-reduce during backward in each profiled step of each process (the dots)."""
    return [s['shared'] / s['comm'] for process in version.stats for s in process if s['comm'] > 0]


def drawn(result, ids=None) -> list:
    """The figure's rows: all-reduce alone, (a)-(d), DDP at (d)'s bucket size (or the first DDP size), if measured."""
    from ..allreduce.steps import BUCKET_MB
    ddp = [v for v in result.ddp_versions() if v.bucket_mb == BUCKET_MB] or result.ddp_versions()[:1]
    wanted = ids or ['allreduce', 'serial', 'flat', 'hooks', 'buckets'] + [v.id for v in ddp]
    return [result.version(vid) for vid in wanted if result.has(vid)]


def plot_steps(result, guess=None, ids=None, title=None):
    """Left: all-reduce alone, then each version's step in measured parts, its median marked, every repeat a dot,
    the model's hatched. Right: the all-reduce's share during backward per profiled step, pooled (marked), the
    model's, the guess."""
    versions = drawn(result, ids)
    fig, (left, right) = style.figure(ncols=2, height=2.0 + 0.75 * len(versions))
    colours = dict(zip(PARTS, (style.color('idle'), style.color('gpu'), style.color('allreduce'), '#F4C9A8')))
    mark = dict(marker='|', s=500, linewidths=3, color='black', zorder=4)
    model = dict(fill=False, hatch='///', edgecolor=style.color('predicted'))
    for y, v in enumerate(versions):
        start = 0.0
        for part, seconds in parts(result, v).items():  # solid up to the median step, crossed past it
            inside = max(0.0, min(start + seconds, v.median) - start)
            left.barh(y + 0.1, inside * MS, left=start * MS, height=0.35, color=colours[part], zorder=2)
            left.barh(y + 0.1, (seconds - inside) * MS, left=(start + inside) * MS, height=0.35, fill=False,
                      hatch='xx', edgecolor=style.color('measured') if part == 'base' else colours[part], zorder=2)
            start += seconds
        left.scatter([v.median * MS], [y + 0.1], **mark)
        n = len(v.step_times)
        left.scatter([x * MS for x in v.step_times], [y - 0.3 + 0.2 * i / max(n - 1, 1) for i in range(n)], s=40,
                     color=style.color('measured'), zorder=3)
        vid = 'flat' if result.one_bucket(v) else v.id
        left.barh(y + 0.4, result.prediction.for_version(vid, v.bucket_mb) * MS, height=0.15, **model)
        if v.id == 'allreduce':
            continue
        measured = shares(v)
        right.scatter(measured, [y - 0.2] * len(measured), s=40, marker='^', color=style.color('measured'),
                      zorder=3)
        if v.overlap is not None:
            right.scatter([v.overlap], [y - 0.2], **mark)
        right.barh(y + 0.2, result.predicted(v.id)['overlap'], height=0.25, **model)
        if v.id == 'hooks' and guess is not None:
            right.scatter([float(guess)], [y - 0.2], s=140, marker='D', color=style.color('guess'), zorder=5)
    for ax in (left, right):
        ax.set_yticks(range(len(versions)), [name(result, v, style.plot_text) for v in versions])
        ax.set_ylim(len(versions) - 0.4, -0.6)
        ax.grid(axis='x', alpha=0.3)
    right.set_yticks(range(len(versions)), [''] * len(versions))
    right.set_xlim(0, 1.05)
    left.set_xlabel(style.plot_text('allreduce.plot.step_ms'))
    right.set_xlabel(style.plot_text('allreduce.plot.share'))
    dots = dict(ls='', color=style.color('measured'))
    handles = [Patch(color=colours[p], label=style.plot_text(f'allreduce.part.{p}')) for p in PARTS] + [
        Patch(fill=False, hatch='xx', edgecolor=style.color('measured'),
              label=style.plot_text('allreduce.plot.past_median')),
        Line2D([], [], marker='o', label=style.plot_text('allreduce.plot.repeats'), **dots),
        Line2D([], [], ls='', marker='|', markersize=14, mew=3, color='black',
               label=style.plot_text('allreduce.plot.marks')),
        Line2D([], [], marker='^', label=style.plot_text('allreduce.plot.profiled'), **dots),
        Patch(**model, label=style.plot_text('style.predicted'))]
    if guess is not None:
        handles.append(Line2D([], [], ls='', marker='D', color=style.color('guess'),
                              label=style.plot_text('style.guess')))
    fig.legend(handles=handles, loc='outside lower center', ncol=2, frameon=False)
    fig.suptitle(title or style.plot_text('allreduce.plot.title'))
    return fig


def draw_step_timeline(result, version_id: str, ax=None, heading: str | None = None):
    """One profiled step per process, titled with how long before backward's end the first all-reduce started."""
    if version_id not in result.events:
        from ..errors import UsageError
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    lane = {(rank, s): style.plot_text('allreduce.lane', rank=rank, what=style.plot_text(f'allreduce.lane.{s}'))
            for rank in range(result.processes) for s in STREAMS}
    events = [{**e, 'name': '' if e['stream'] == 'allreduce' else e['name'], 'lane': lane[e['rank'], e['stream']]}
              for e in result.events[version_id]]
    rows = {label: 'backward' if s == 'compute' else 'allreduce' for (_, s), label in lane.items()}
    lead = statistics.mean([b - s for b, s, _, _ in _edges(result, version_id)] or [0.0])
    v = result.version(version_id)
    drawn_ms = (max(e['end'] for e in events) - min(e['start'] for e in events)) * MS if events else 0.0
    label = name(result, v, style.plot_text)
    title = style.plot_text('allreduce.plot.timeline_during', label=label, ms=f'{lead * MS:.0f}') if lead > 1e-6 \
        else style.plot_text('allreduce.plot.timeline_after', label=label)
    title += '\n' + style.plot_text('allreduce.plot.timeline_step', step=f'{drawn_ms:.0f}',
                                    median=f'{v.median * MS:.0f}')
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
    """Exercise 2: the size with the shortest median step against the model's fastest (or, where they are one, the
    next shortest), as a verdict line."""
    ddp = sorted(result.ddp_versions(), key=lambda v: v.median)
    if len(ddp) < 2:
        return ''
    model = result.version(f'ddp-{result.prediction.best_buckets(sorted(v.bucket_mb for v in ddp))[0]:g}')
    other = model if model is not ddp[0] else ddp[1]
    return t('allreduce.buckets', line=verdict.line(name(result, ddp[0]), ddp[0].measurement, name(result, other),
                                                    other.measurement, 'ms'), model=name(result, model))


def buckets_verdict(result) -> str:
    """(d) against DDP at (d)'s bucket size, as a verdict line (empty where that size was not measured)."""
    from ..allreduce.steps import BUCKET_MB
    if not (result.has('buckets') and result.has(f'ddp-{BUCKET_MB:g}')):
        return ''
    d, ddp = result.version('buckets'), result.version(f'ddp-{BUCKET_MB:g}')
    return verdict.line(name(result, d), d.measurement, name(result, ddp), ddp.measurement, 'ms')


def ratio_text(result, half) -> str:
    """Exercise 4: all-reduce alone and the step without it at the batch and half of it, and their ratio's rise."""
    (a1, b1), (a2, b2) = [(r.version('allreduce').median, r.version('backward').median) for r in (result, half)]
    return t('allreduce.ratio', batch=result.batch_per_process, half=half.batch_per_process,
             alone=verdict.num(a1, 'ms'), alone_half=verdict.num(a2, 'ms'), step=verdict.num(b1, 'ms'),
             step_half=verdict.num(b2, 'ms'), rise=verdict.num((a2 / b2) / (a1 / b1), 'x'))
