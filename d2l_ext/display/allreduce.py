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
_plus = lambda s: '+' * (s >= 0) + verdict.num(round(s, 6) + 0.0, 'ms')  # noqa: E731 ('+6.90 ms', '-1.20 ms', to µs)
_back = lambda r, vid: verdict.num(r.version(vid).backward_span, 'ms')  # noqa: E731 (backward's profiled span)


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
    return machine_line() + '\n' + t(f"allreduce.processes.{'shared' if world_size > cores else 'gloo'}",
                                     n=world_size, cores=cores)


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


def parts_text(r) -> str:
    """One run: (c) against (a), whether overlap paid (nothing said at no clear difference), backward in each."""
    c, a = r.version('hooks'), r.version('serial')
    paid = {'faster': 'allreduce.paid', 'slower': 'allreduce.unpaid'}.get(verdict.compare(c.measurement, a.measurement))
    return t('allreduce.on', n=r.processes, cores=r.cores) + t('allreduce.parts', line=verdict.line(
        name(r, c), c.measurement, name(r, a), a.measurement, 'ms'), paid=t(paid) if paid else '',
        c=_back(r, 'hooks'), a=_back(r, 'serial'))


_took = lambda r, vid, role: [sum(e['end'] - e['start'] for e in r.events.get(vid, []) if (e['rank'], e['role']) == (  # noqa: E731
    k, role)) for k in range(r.processes)]  # seconds per process in the profiled step drawn ('copy': flatten+copy back)


def flat_answer(r, there=None) -> str:
    """(b)'s worked answer: (b) against (a) on the GPU host and here; (b)'s copies and all-reduce, profiled here."""
    ms = lambda role: ' / '.join(verdict.num(round(x, 6), 'ms') for x in _took(r, 'flat', role))  # noqa: E731 (to µs)
    pairs = [('allreduce.there', there), ('allreduce.here', r)][there is None or there is r:]
    return verdict.answer(*(t('allreduce.answer.flat', where=t(w), line=verdict_text(x, 'flat')) for w, x in pairs),
                          t('allreduce.answer.flat_profile', ranks=' / '.join(map(str, range(r.processes))),
                            copies=ms('copy'), comm=ms('allreduce')))


def paid_answer(there, here) -> str:
    """Exercise 1's worked answer: on the GPU host, then here, (c) against (a), and backward in each (the control)."""
    def one(where, r):
        c, a = r.version('hooks'), r.version('serial')
        return t('allreduce.answer.paid', where=t(where), by=verdict.by(
            c.measurement, a.measurement), saved=verdict.num(a.median - c.median, 'ms'), grew=_plus(
            c.backward_span - a.backward_span), c=_back(r, 'hooks'), a=_back(r, 'serial'))
    return verdict.answer(*(one(*p) for p in [('allreduce.there', there), ('allreduce.here', here)][there is here:]))


def buckets_answer(here, there) -> str:
    """Exercise 2's worked answer: DDP's fastest sizes by the model (ties: within 5%) and by the one rule (the
    sizes not told apart from the shortest median), here and on the GPU host; (d) against DDP at its size."""
    def best(r, alike, keys):  # the sizes alike the best, in the words of keys (one size, several)
        vs = [name(r, v) for v in r.ddp_versions() if alike(r, v)]
        return t(keys[len(vs) > 1], names=t('allreduce.sep_list').join(vs))
    step = lambda r, v: r.predicted(v.id)['step']  # noqa: E731
    model = [best(r, lambda r, v: step(r, v) * (1 - verdict.MIN_SHARE) < min(step(r, u) for u in r.ddp_versions()), (
        'allreduce.answer.names', 'allreduce.answer.tie')) for r in (here, there)]
    rule = [best(r, lambda r, v: verdict.compare(v.measurement, r.best_ddp().measurement) == 'same', (
        'allreduce.answer.shortest', 'allreduce.answer.same')) for r in (here, there)]
    d, v, copies = here.version('buckets'), here.version(f'ddp-{BUCKET_MB:g}'), _took(here, 'buckets', 'copy')
    return verdict.answer(t('allreduce.answer.sizes', model=model, best=rule), t('allreduce.answer.d', line=verdict.
        line(name(here, d), d.measurement, name(here, v), v.measurement, 'ms'), more=_plus(d.backward_span - v.
        backward_span), copies=verdict.num(sum(copies) / here.processes, 'ms')))  # copies: mean of processes


def sum_answer(wrong, n: int) -> str:
    """Exercise 3's worked answer: the relative error the check printed, against n - 1 (a sum is n times the mean)."""
    head = str(wrong).split(' > ')[0]  # '... relative error 1.00e+00', '...相对误差1.00e+00'
    return verdict.answer(t('allreduce.answer.sum', error=head[len(head.rstrip('0123456789.e+-')):], n=n, n1=n - 1))


def _leads(result, vid: str) -> list[float]:
    """Per process, in the drawn profiled step: how long before backward's end its first all-reduce started."""
    out = []
    for rank in range(result.processes):
        mine = [e for e in result.events.get(vid, []) if e['rank'] == rank]
        sent = [e['start'] for e in mine if e['role'] == 'allreduce']
        ends = [e['end'] for e in mine if e['role'] in ('backward', 'compute')]
        out += [max(ends) - min(sent)] if sent and ends else []
    return out


def plot_steps(result, ids=None, title=None, backward=()):
    """Each version's timed steps, their middle half and median (plot_repeats), the model's step hatched; the step
    without all-reduce on top; (a)-(c) unless `ids`; under each of `backward`, its span in each profiled step."""
    versions = [result.version(v) for v in ['backward'] + (ids or ['serial', 'flat', 'hooks']) if result.has(v)]
    times = {k: x for v in versions for k, x in [(v.id, v.step_times), (f'{v.id}/back', v.id in backward and [
        sum(s['backward'] for s in step) / len(step) for step in zip(*v.stats)])] if x}  # backward: mean of processes
    labels = {v.id: name(result, v, style.plot_text) for v in versions} | {f'{v}/back': style.plot_text(
        'allreduce.plot.back', letter=k) for k, v in LETTERS.items() if v in backward}
    fig = plot_repeats(times, unit='ms', halves=True, labels=labels,
                       predicted={v.id: result.predicted(v.id)['step'] for v in versions[1:]},
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
    fig = draw_timeline(events, ax=ax, rows=rows, title=title if heading is None else heading + '\n' + title,
                        legend_names={'cpu': style.plot_text('allreduce.lane.copy')})
    ax = ax or fig.axes[0]
    ax.set_xlabel(style.plot_text('allreduce.plot.from_backward', axis=ax.get_xlabel()))
    return fig


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
