"""13.3.4's figures and lines: steps in measured parts, the share during backward, profiled steps per process."""
from __future__ import annotations

import statistics

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..i18n import t
from ..overlap import busy
from . import style, verdict
from .timeline import draw_timeline

NAMES = ('backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets')  # the keys allreduce.version.<id>
LETTERS = {'a': 'serial', 'b': 'flat', 'c': 'hooks', 'd': 'buckets'}  # the lesson's letters and their version ids
STREAMS = ('compute', 'allreduce')  # the keys allreduce.lane.<stream>
MS = 1e3


def name(result, version, text=t) -> str:
    """A version's short name: '(c) hooks', 'DDP 1 MiB', 'DDP one bucket'; a learner's own step keeps its id."""
    if version.bucket_mb is not None:
        return text('allreduce.version.one_bucket') if result.one_bucket(version) else \
            text('allreduce.version.ddp', mb=version.bucket_mb)
    from ..allreduce.steps import BUCKET_MB
    return text(f'allreduce.version.{version.id}', mb=BUCKET_MB) if version.id in NAMES else version.id


def machine_text(backend: str, world_size: int, cores: int | None = None) -> str:
    """The lesson's first lines: versions, cores and GPUs; the processes it starts and whether they share cores."""
    from ..machine import cpu_cores
    from .machine import machine_line
    cores = cpu_cores() if cores is None else cores
    key = 'allreduce.processes.shared' if world_size > cores else 'allreduce.processes.gloo'  # gloo: the only one
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
    """The two measurements the prediction starts from and the all-reduce model fitted to them and one buffer."""
    p = result.prediction
    return '\n'.join([
        t('allreduce.ingredients.step', step=verdict.num(p.backward, 'ms'),
          alone=verdict.num(result.version('allreduce').median, 'ms'), tensors=len(p.tensor_bytes)),
        t('allreduce.ingredients.fit', alpha=verdict.num(p.per_call, 'ms'), gbps=f'{p.bus_bandwidth / 1e9:.2f}',
          mb=f'{p.buffer_bytes / 2**20:.0f}')])


def prediction_text(allreduce: float, serial: float, hooks: float) -> str:
    """The predicted all-reduce, (a) and (c), in one line."""
    return t('allreduce.predict', allreduce=verdict.num(allreduce, 'ms'), serial=verdict.num(serial, 'ms'),
             hooks=verdict.num(hooks, 'ms'))


def verdict_text(result, vid: str = 'hooks', against: str = 'serial') -> str:
    """'(c) hooks 90.0 ms vs (a) after backward 111 ms: 19% faster; 74% of the all-reduce ran during backward'."""
    v, a = result.version(vid), result.version(against)
    head = verdict.line(name(result, v), v.measurement, name(result, a), a.measurement, 'ms')
    if v.overlap is None:
        return head
    return head + t('allreduce.share', share=verdict.num(v.overlap, '%'),
                    model=verdict.num(result.predicted(vid)['overlap'], '%'))


def steps_text(result) -> str:
    """'step (ms), predicted · measured median: (a) 93.9 · 92.5, ...': the model's step beside each of (a)-(d)'s."""
    rows = [f'({k}) {verdict.sig(result.prediction.for_version(v) * MS)} · {verdict.sig(result.version(v).median * MS)}'
            for k, v in LETTERS.items() if result.has(v)]
    return t('allreduce.steps', rows=t('allreduce.sep_list').join(rows))


def guess_text(my_guess, result, vid: str = 'hooks') -> str:
    """'your guess 60% · predicted 85% · measured 74%': the share of (c)'s all-reduce during backward."""
    return verdict.guess(my_guess, result.predicted(vid)['overlap'], result.version(vid).overlap or 0.0, '%')


def parts_text(*runs) -> str:
    """Exercise 1: per run (c)'s share against the model's, backward's growth beside (a)'s, time outside backward."""
    lines = []
    for r in runs:
        share, model = r.version('hooks').overlap or 0.0, r.predicted('hooks')['overlap']
        grew = {vid: ('+' if (r.slowdown(vid) or 1.0) >= 1 else '') + verdict.num((r.slowdown(vid) or 1.0) - 1, '%')
                for vid in ('hooks', 'serial')}  # backward's span against the step without all-reduce's
        outside = statistics.mean(s['comm'] - s['shared'] for process in r.version('hooks').stats for s in process)
        m_out = r.predicted('hooks')['exposed']
        above = t('allreduce.above' if outside > m_out else 'allreduce.below')
        lines.append(t('allreduce.parts', n=r.processes, cores=r.cores, share=verdict.num(share, '%'), above=above,
                       model=verdict.num(model, '%'), c_slow=grew['hooks'], a_slow=grew['serial'],
                       c_out=verdict.num(outside, 'ms'), m_out=verdict.num(m_out, 'ms')))
    return '\n'.join(lines)


def _ranks(result, vid: str):
    """The drawn profiled step's events, process by process: (all-reduce intervals, backward's end, update's start)."""
    for rank in range(result.processes):
        mine = [e for e in result.events.get(vid, []) if e['rank'] == rank]
        sent = [(e['start'], e['end']) for e in mine if e['role'] == 'allreduce']
        ends = [e['end'] for e in mine if e['role'] in ('backward', 'compute')]
        update = [e['start'] for e in mine if e['role'] == 'optimizer']
        if sent and ends:
            yield sent, max(ends), min(update or [max(ends)])


def flat_text(result) -> str:
    """(b)'s question: its step against (a)'s; then, in the profiled steps drawn, what its one call saved and paid."""
    b, a = result.version('flat'), result.version('serial')
    head = verdict.line(name(result, b), b.measurement, name(result, a), a.measurement, 'ms')
    one, many = (statistics.mean([busy(sent) for sent, _, _ in _ranks(result, v)] or [0.0]) for v in ('flat', 'serial'))
    gaps = statistics.mean([sent[0][0] - end + update - max(e for _, e in sent) for sent, end, update in
                            _ranks(result, 'flat')] or [0.0])  # backward's end to the call, the call to the update
    return head + '\n' + t('allreduce.flat_paid', saved=verdict.num(many - one, 'ms'), k=a.calls, gaps=verdict.num(
        gaps, 'ms'), model=verdict.num((a.calls - 1) * result.prediction.per_call, 'ms'),
        above=t('allreduce.above' if gaps > many - one else 'allreduce.below'))


def drawn(result, ids=None) -> list:
    """The figure's rows: (a)-(d), DDP at (d)'s bucket size (or the first DDP size), if measured."""
    from ..allreduce.steps import BUCKET_MB
    ddp = [v for v in result.ddp_versions() if v.bucket_mb == BUCKET_MB] or result.ddp_versions()[:1]
    wanted = ids or ['serial', 'flat', 'hooks', 'buckets'] + [v.id for v in ddp]
    return [result.version(vid) for vid in wanted if result.has(vid)]


def plot_steps(result, guess=None, ids=None, title=None):
    """Left: timed steps (dots), median (mark), model (hatched), step without all-reduce (dashed). Right: shares."""
    versions = drawn(result, ids)
    fig, (left, right) = style.figure(ncols=2, height=2.0 + 0.75 * len(versions))
    mark = dict(marker='|', s=500, linewidths=3, color='black', zorder=4)
    dots = dict(s=40, color=style.color('measured'), zorder=3)
    model = dict(fill=False, hatch='///', edgecolor=style.color('predicted'))
    base = dict(ls='--', lw=1.5, color=style.color('idle'), zorder=1)
    left.axvline(result.version('backward').median * MS, **base)
    for y, v in enumerate(versions):
        n = len(v.step_times)
        left.scatter([x * MS for x in v.step_times], [y - 0.3 + 0.2 * i / max(n - 1, 1) for i in range(n)], **dots)
        left.scatter([v.median * MS], [y - 0.2], **mark)
        left.barh(y + 0.2, result.prediction.for_version('flat' if result.one_bucket(v) else v.id, v.bucket_mb) * MS,
                  height=0.25, **model)
        shares = [s['shared'] / s['comm'] for process in v.stats for s in process if s['comm'] > 0]  # per step
        right.scatter(shares, [y - 0.2] * len(shares), **dots)
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
    handles = [Line2D([], [], **base, label=style.plot_text('allreduce.plot.base')),
               Line2D([], [], ls='', marker='o', color=dots['color'], label=style.plot_text('allreduce.plot.repeats')),
               Line2D([], [], ls='', marker='|', markersize=14, mew=3, color='black',
                      label=style.plot_text('allreduce.plot.marks')),
               Patch(**model, label=style.plot_text('style.predicted'))]
    handles += [Line2D([], [], ls='', marker='D', color=style.color('guess'),
                       label=style.plot_text('style.guess'))] if guess is not None else []
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
    leads = [end - min(s for s, _ in sent) for sent, end, _ in _ranks(result, version_id)]  # before backward's end
    label = name(result, result.version(version_id), style.plot_text)
    title = style.plot_text('allreduce.plot.timeline_during', label=label, ms=' / '.join(f'{x * MS:.0f}' for x in
        leads)) if max(leads, default=0) > 1e-6 else style.plot_text('allreduce.plot.timeline_after', label=label)
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


def bucket_text(result) -> str:
    """Exercise 2: the DDP size with the shortest median step against (a), unless the next size is not told apart
    from it; and the model's fastest size."""
    ddp, a = sorted(result.ddp_versions(), key=lambda v: v.median), result.version('serial')
    if not ddp:
        return ''
    fastest = result.version(f'ddp-{result.prediction.best_buckets(sorted(v.bucket_mb for v in ddp))[0]:g}')
    tie = len(ddp) > 1 and verdict.compare(ddp[0].measurement, ddp[1].measurement) == 'same'
    line = verdict.line(name(result, ddp[0]), ddp[0].measurement, name(result, a), a.measurement, 'ms')
    return t('allreduce.buckets_tie' if tie else 'allreduce.buckets', line=line, model=name(result, fastest))


def ratio_text(result, half) -> str:
    """Exercise 4: each term and their ratio, batch to half (factors); all-reduce alone's repeats' span at batch."""
    (a1, b1), (a2, b2) = [(r.version('allreduce').median, r.version('backward').median) for r in (result, half)]
    span = '-'.join(verdict.num(f(result.version('allreduce').step_times) / a1, 'x') for f in (min, max))
    return t('allreduce.ratio', batch=result.batch_per_process, half=half.batch_per_process, step=verdict.num(
        b2 / b1, 'x'), alone=verdict.num(a2 / a1, 'x'), ratio=verdict.num((a2 / b2) / (a1 / b1), 'x'), span=span)
