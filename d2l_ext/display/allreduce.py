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
    """A version against another by the one rule: '(c) hooks 99.2 ms vs (a) after backward 108 ms: faster (...)'."""
    v, a = result.version(vid), result.version(against)
    return verdict.line(name(result, v), v.measurement, name(result, a), a.measurement, 'ms')


def paid_line(r) -> str:
    """The measuring cell's verdict line, here or recorded: '2 processes, 16 cores: (c) hooks ...: faster (...)'."""
    return t('allreduce.on', n=r.processes, cores=r.cores) + verdict_text(r)


def model_text(result) -> str:
    """"the model's step: (a) 96.5 ms, (b) 85.8 ms, (c) 68.0 ms", printed before the learner guesses (c)'s."""
    return t('allreduce.model', rows=t('allreduce.sep_list').join(f'({k}) ' + verdict.num(result.predicted(v)[
        'step'], 'ms') for k, v in LETTERS.items() if k != 'd'))


def guess_text(my_guess, result, vid: str = 'hooks') -> str:
    """'your guess 80.0 ms · predicted 68.0 ms · measured 99.2 ms': (c)'s step; my_guess in ms."""
    guess = None if my_guess is None else float(my_guess) / MS
    return verdict.guess(guess, result.predicted(vid)['step'], result.version(vid).median, 'ms')


_took = lambda r, vid, role: [sum(e['end'] - e['start'] for e in r.events.get(vid, []) if (e['rank'], e['role']) == (  # noqa: E731
    k, role)) for k in range(r.processes)]  # seconds per process in the profiled step drawn ('copy': flatten+copy back)


def flat_answer(r, there=None) -> str:
    """(b)'s worked answer: (b) against (a) on the GPU host and here; (b)'s copies and all-reduce, profiled here."""
    ms = lambda role: ' / '.join(verdict.num(round(x, 6), 'ms') for x in _took(r, 'flat', role))  # noqa: E731 (to µs)
    pairs = [('allreduce.there', there), ('allreduce.here', r)][there is None or there is r:]
    return verdict.answer(*(t('allreduce.answer.flat', where=t(w), line=verdict_text(x, 'flat')) for w, x in pairs),
                          t('allreduce.answer.flat_profile', ranks=' / '.join(map(str, range(r.processes))),
                            copies=ms('copy'), comm=ms('allreduce')))


def miss_answer(here, there) -> str:
    """Exercise 1's worked answer: here, then on the GPU host, the model's (c) against its median, and backward's
    growth in (c) against (a), the control, which the model leaves out (with the model plus that growth)."""
    def one(where, r):
        model, grew = r.predicted('hooks')['step'], r.version('hooks').backward_span - r.version('serial').backward_span
        return t('allreduce.answer.miss', where=t(where), model=verdict.num(model, 'ms'), measured=verdict.num(
            r.version('hooks').median, 'ms'), missed=_plus(r.version('hooks').median - model), c=_back(r, 'hooks'),
            a=_back(r, 'serial'), grew=_plus(grew), plus=verdict.num(model + grew, 'ms'))
    return verdict.answer(*(one(*p) for p in [('allreduce.here', here), ('allreduce.there', there)][:2 - (
        there is here)]))


def buckets_answer(here, there) -> str:
    """Exercise 2's worked answer: by the one rule, the DDP sizes not told apart from the shortest median, here and
    on the GPU host; (d) against DDP at its size."""
    def best(r):  # the sizes alike the shortest: one size, or several
        vs = [name(r, v) for v in r.ddp_versions() if verdict.compare(v.measurement, r.best_ddp().measurement) == (
            'same')]
        key = 'allreduce.answer.same' if len(vs) > 1 else 'allreduce.answer.shortest'
        return t(key, names=t('allreduce.sep_list').join(vs))
    d, v, copies = here.version('buckets'), here.version(f'ddp-{BUCKET_MB:g}'), _took(here, 'buckets', 'copy')
    return verdict.answer(t('allreduce.answer.sizes', here=best(here), there=best(there)), t('allreduce.answer.d',
        line=verdict.line(name(here, d), d.measurement, name(here, v), v.measurement, 'ms'), more=_plus(
            d.backward_span - v.backward_span), copies=verdict.num(sum(copies) / here.processes, 'ms')))  # mean


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


def plot_steps(result, ids=None, title=None, backward=(), guess=None, model=True, ax=None):
    """Each version's timed steps, their middle half and median (plot_repeats), the model's step hatched (`model`);
    the step without all-reduce on top; (a)-(c) unless `ids`; under each of `backward`, its span in each profiled
    step; `guess`: the learner's (c) step in ms, a diamond."""
    versions = [result.version(v) for v in ['backward'] + (ids or ['serial', 'flat', 'hooks']) if result.has(v)]
    times = {k: x for v in versions for k, x in [(v.id, v.step_times), (f'{v.id}/back', v.id in backward and [
        sum(s['backward'] for s in step) / len(step) for step in zip(*v.stats)])] if x}  # backward: mean of processes
    labels = {v.id: name(result, v, style.plot_text) for v in versions} | {f'{v}/back': style.plot_text(
        'allreduce.plot.back', letter=k) for k, v in LETTERS.items() if v in backward}
    fig = plot_repeats(times, ax=ax, unit='ms', halves=True, labels=labels, guess={'hooks': guess and guess / MS},
                       predicted={v.id: result.predicted(v.id)['step'] for v in versions[1:] if model},
                       title=title or style.plot_text('allreduce.plot.title'))
    (ax or fig.axes[0]).set_xlabel(style.plot_text('allreduce.plot.step_ms'))
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
