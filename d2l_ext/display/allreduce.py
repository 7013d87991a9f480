"""13.3.4's figures and lines: timed steps against the model, profiled steps per process, the exercises' lines."""
from __future__ import annotations

from ..allreduce.results import BUCKET_MB
from ..i18n import t
from . import style, verdict
from .repeats import plot_repeats
from .timeline import draw_timeline

NAMES = ('backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets')  # the keys allreduce.version.<id>
LETTERS = {'a': 'serial', 'b': 'flat', 'c': 'hooks', 'd': 'buckets'}  # the lesson's letters and their version ids
MS = 1e3


def name(result, version, text=t) -> str:
    """A version's short name: '(c) hooks', 'DDP 1 MiB', 'DDP one bucket'; a learner's own step keeps its id."""
    if version.bucket_mb is not None:
        return text('allreduce.version.one_bucket') if result.one_bucket(version) else \
            text('allreduce.version.ddp', mb=version.bucket_mb)
    return text(f'allreduce.version.{version.id}', mb=BUCKET_MB) if version.id in NAMES else version.id


def machine_text(backend: str, world_size: int, cores: int | None = None) -> str:
    """The lesson's first lines: versions, cores and GPUs; the processes it starts and whether they share cores."""
    from ..machine import cpu_cores
    from .machine import machine_line
    cores = cpu_cores() if cores is None else cores
    key = 'shared' if world_size > cores else 'gloo'
    return machine_line() + '\n' + t(f'allreduce.processes.{key}', n=world_size, cores=cores)


def choose(mine: dict, checked: dict) -> tuple[dict, str]:
    """Steps by version id (the learner's where its check passed, else the package's) and a line saying which."""
    from ..allreduce import steps
    yours = [k for k in sorted(LETTERS) if getattr(checked.get(k), 'passed', False) and k in mine]
    chosen = {vid: mine[k] if k in yours else steps.STEPS[vid] for k, vid in LETTERS.items()}
    theirs = [k for k in sorted(LETTERS) if k not in yours]
    listed = t('allreduce.sep_list').join
    key = 'yours' if not theirs else 'package' if not yours else 'mixed'
    return chosen, t(f'allreduce.which.{key}', yours=listed(f'({k})' for k in yours),
                     package=listed(f'({k})' for k in theirs))


def ingredients_text(result) -> str:
    """The two measurements the prediction starts from and the all-reduce model fitted to them and one buffer."""
    p, ms = result.prediction, lambda seconds: verdict.num(seconds, 'ms')
    return t('allreduce.ingredients.step', step=ms(p.backward), alone=ms(result.version('allreduce').median),
             tensors=len(p.tensor_bytes)) + '\n' + t('allreduce.ingredients.fit', alpha=ms(p.per_call),
                                                     gbps=f'{p.bus_bandwidth / 1e9:.2f}')


def verdict_text(result, vid: str = 'hooks', against: str = 'serial') -> str:
    """A version against another by the one rule; then the share of its all-reduce time during backward, if any."""
    v, a = result.version(vid), result.version(against)
    head = verdict.line(name(result, v), v.measurement, name(result, a), a.measurement, 'ms')
    return head + t('allreduce.share', share=verdict.num(v.overlap, '%')) if v.overlap else head


def steps_text(result) -> str:
    """'step (ms), predicted · measured median: (a) 93.9 · 92.5, ...' for (a)-(c)."""
    row = [(k, v) for k, v in LETTERS.items() if k != 'd' and result.has(v)]
    return t('allreduce.steps', rows=t('allreduce.sep_list').join(f'({k}) ' + ' · '.join(verdict.sig(x * MS) for x in (
        result.predicted(v)['step'], result.version(v).median)) for k, v in row))


def guess_text(my_guess, result, vid: str = 'hooks') -> str:
    """'your guess 60% · predicted 85% · measured 74%': the share of (c)'s all-reduce during backward."""
    return verdict.guess(my_guess, result.predicted(vid)['overlap'], result.version(vid).overlap or 0.0, '%')


def parts_text(r, vid: str = 'hooks', against: str = 'serial') -> str:
    """One run: a version against another, backward's profiled time in each, and for (c) against (a)
    whether overlap paid (nothing said where the verdict is no clear difference)."""
    v, a = r.version(vid), r.version(against)
    short = {vid: f'({k})' for k, vid in LETTERS.items()}
    paid = {'faster': 'allreduce.paid', 'slower': 'allreduce.unpaid'}.get(verdict.compare(v.measurement, a.measurement))
    return t('allreduce.on', n=r.processes, cores=r.cores) + t(
        'allreduce.parts', line=verdict.line(name(r, v), v.measurement, name(r, a), a.measurement, 'ms'),
        paid=t(paid) if paid and (vid, against) == ('hooks', 'serial') else '', mine=_back(r, vid),
        me=short.get(vid, name(r, v)), theirs=_back(r, against), them=short.get(against, name(r, a)))


def so_text(there, here) -> str:
    """Exercise 1's conclusion: (c) against (a), backward in (c) and in (a) (the control), GPU host, then here."""
    by = [verdict.by(r.version('hooks').measurement, r.version('serial').measurement) for r in (there, here)]
    return t('allreduce.so', by=by, c=[_back(r, 'hooks') for r in (there, here)],
             a=[_back(r, 'serial') for r in (there, here)])


def _back(r, vid: str) -> str:
    """Backward's profiled span in a version, in ms."""
    return verdict.num(r.version(vid).backward_span, 'ms')


def winners_text(runs) -> str:
    """Exercise 2, a line per run: the shortest median DDP against the next by the one rule, then (c) against it."""
    out = []
    for r in [r for i, r in enumerate(runs) if all(r is not q for q in runs[:i])]:
        best, nxt = sorted(r.ddp_versions(), key=lambda v: v.median)[:2]
        out.append(t('allreduce.on', n=r.processes, cores=r.cores) + t('allreduce.winner', line=verdict.line(
            name(r, best), best.measurement, name(r, nxt), nxt.measurement, 'ms'), by=verdict.by(
            r.version('hooks').measurement, best.measurement)))
    return '\n'.join(out)


def _leads(result, vid: str) -> list[float]:
    """Per process, in the drawn profiled step: how long before backward's end its first all-reduce started."""
    out = []
    for rank in range(result.processes):
        mine = [e for e in result.events.get(vid, []) if e['rank'] == rank]
        sent = [e['start'] for e in mine if e['role'] == 'allreduce']
        ends = [e['end'] for e in mine if e['role'] in ('backward', 'compute')]
        out += [max(ends) - min(sent)] if sent and ends else []
    return out


def plot_steps(result, ids=None, title=None):
    """Each version's timed steps, their middle half and median (plot_repeats), the model's step hatched; the step
    without all-reduce on top; (a)-(c) unless `ids`."""
    versions = [result.version(v) for v in ['backward'] + (ids or ['serial', 'flat', 'hooks']) if result.has(v)]
    fig = plot_repeats({v.id: v.step_times for v in versions}, unit='ms', halves=True,
                       predicted={v.id: result.predicted(v.id)['step'] for v in versions[1:]},
                       labels={v.id: name(result, v, style.plot_text) for v in versions},
                       title=title or style.plot_text('allreduce.plot.title'))
    fig.axes[0].set_xlabel(style.plot_text('allreduce.plot.step_ms'))
    return fig


def draw_step_timeline(result, version_id: str, ax=None, heading: str | None = None):
    """One profiled step per process, titled with how long before backward's end the first all-reduce started."""
    if version_id not in result.events:
        from ..errors import UsageError
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    back = {r: [x for e in result.events[version_id] if (e['rank'], e['role']) == (r, 'backward')
                for x in (e['start'], e['end'])] or [0.0] for r in range(result.processes)}  # its span, per process
    lane = {(rank, s): style.plot_text('allreduce.lane', rank=rank, what=style.plot_text(
        f'allreduce.lane.{s}', ms=(max(back[rank]) - min(back[rank])) * MS)) for rank in range(result.processes)
        for s in ('compute', 'allreduce')}
    events = [{**e, 'name': '' if e['role'] in ('allreduce', 'copy') else e['name'], 'lane': lane[e['rank'],
               e['stream']], 'role': 'cpu' if e['role'] == 'copy' else e['role']} for e in result.events[version_id]]
    rows = {label: 'backward' if s == 'compute' else 'allreduce' for (_, s), label in lane.items()}
    leads = _leads(result, version_id)
    label = name(result, result.version(version_id), style.plot_text)
    title = style.plot_text('allreduce.plot.timeline_during', label=label, ms=' / '.join(f'{x * MS:.0f}' for x in
        leads)) if max(leads, default=0) > 1e-6 else style.plot_text('allreduce.plot.timeline_after', label=label)
    return draw_timeline(events, ax=ax, rows=rows, title=title if heading is None else heading + '\n' + title,
                         legend_names={'cpu': style.plot_text('allreduce.lane.copy')})


def bucket_table(runs):
    """Exercise 2: per run (processes, cores), each DDP size's and (d)'s step, predicted and median, in ms."""
    import pandas as pd
    rows = {}
    for r in runs:
        where, vs = t('allreduce.on', n=r.processes, cores=r.cores).rstrip(': ：'), r.ddp_versions()
        vs += [r.version('buckets')] if r.has('buckets') else []
        rows[where, t('allreduce.table.predicted')] = {name(r, v): verdict.sig(r.predicted(v.id)['step'] * MS)
                                                       for v in vs}
        rows[where, t('allreduce.table.measured')] = {name(r, v): verdict.sig(v.median * MS) for v in vs}
    return pd.DataFrame(rows).T.fillna('')
