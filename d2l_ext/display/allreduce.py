"""13.3.4's figures and lines: timed steps against the model, profiled steps per process, the exercises' lines."""
from __future__ import annotations

from ..allreduce.results import BUCKET_MB
from ..i18n import t
from ..results import Measurement
from . import style, verdict
from .repeats import plot_repeats
from .timeline import draw_timeline

NAMES = ('backward', 'allreduce', 'serial', 'flat', 'kept', 'hooks', 'buckets', 'buckets_kept', 'beside')  # their names
LETTERS = {'a': 'serial', 'b': 'flat', 'c': 'hooks', 'd': 'buckets'}  # the measured letters and their version ids
LETTER = {vid: k for k, vid in LETTERS.items()}
control = {'flat': 'kept', 'buckets': 'buckets_kept'}  # (b)'s and (d)'s: the buffers made once
MS = 1e3
_plot = style.plot_text  # a figure's words; zh '（a）' full-width, as in the prose


def name(result, version, text=t) -> str:
    """A version's short name: '(c) hooks', 'DDP 1 MiB', 'DDP 25 MiB (one bucket)'; a learner's step keeps its id."""
    if version.bucket_mb is not None:
        return text(f"allreduce.version.{'one_bucket' if result.one_bucket(version) else 'ddp'}", mb=version.bucket_mb)
    return text(f'allreduce.version.{version.id}', mb=BUCKET_MB) if version.id in NAMES else version.id


def machine_text(backend: str, world_size: int, cores: int | None = None) -> str:
    """The lesson's first line: PyTorch, the cores, the processes it starts and whether they share cores."""
    from ..machine import cpu_cores, versions
    cores = cpu_cores() if cores is None else cores
    return t(f"allreduce.processes.{'shared' if world_size > cores else 'gloo'}", n=world_size, cores=cores,
             torch=versions().get('torch'))


def choose(mine: dict, checked: dict) -> tuple[dict, str]:
    """Steps by version id (the learner's where its check passed, else the package's; the controls too), which."""
    from ..allreduce import steps
    yours = [k for k in sorted(LETTERS) if getattr(checked.get(k), 'passed', False) and k in mine]
    chosen = {vid: mine[k] if k in yours else steps.STEPS[vid] for k, vid in LETTERS.items()}
    theirs = [k for k in sorted(LETTERS) if k not in yours]
    listed = lambda ks: t('allreduce.sep_list').join(t('allreduce.letter', k=k) for k in ks)  # noqa: E731
    key = 'yours' if not theirs else 'package' if not yours else 'mixed'
    return {**chosen, **steps.CONTROLS}, t(f'allreduce.which.{key}', yours=listed(yours), package=listed(theirs))


def ingredients_text(result) -> str:
    """The two measurements the prediction starts from and the all-reduce model fitted to them and one buffer."""
    p, ms = result.prediction, lambda seconds: verdict.num(seconds, 'ms')
    return t('allreduce.ingredients.step', step=ms(p.backward), span=ms(p.backward_span), tensors=len(
        p.tensor_bytes), alone=ms(result.version('allreduce').median)) + '\n' + t(
        'allreduce.ingredients.fit', alpha=ms(p.per_call), mibs=f'{p.bus_bandwidth / 2 ** 20:.0f}')


def verdict_text(result, vid: str = 'hooks', against: str = 'serial') -> str:
    """A version against another by the one rule: '(c) hooks 99.2 ms vs (a) after backward 108 ms: faster (...)'."""
    v, a = result.version(vid), result.version(against)
    return verdict.line(name(result, v), v.measurement, name(result, a), a.measurement, 'ms')


def paid_line(r, my_guess=None) -> str:
    """The measuring cell's lines, here or recorded: the guess line (if any), then (c) against (a) by the one rule."""
    return verdict.lines(guess_text(my_guess, r), t('allreduce.on', n=r.processes, cores=r.cores) + verdict_text(r))


def guess_text(my_guess, result, vid: str = 'hooks') -> str:
    """'your guess 80.0 ms · predicted 68.0 ms · measured 99.2 ms': (c)'s step; my_guess in ms; '' without one."""
    guess = None if my_guess is None else float(my_guess) / MS
    return verdict.guess(guess, result.predicted(vid)['step'], result.version(vid).median, 'ms')


def _where(pairs, line) -> list[str]:
    """One verdict sentence per (where, result): 'On the 16-core host, DDP 1 MiB ... vs ...: faster (...).'"""
    return [t('allreduce.answer.where', where=t(w, cores=r.cores), line=line(r)) for w, r in pairs if r is not None]


def _spans(r, vid: str):
    """Backward in each profiled step of `vid` (mean of the processes), as a Measurement the one rule reads."""
    return Measurement(vid, [sum(s['backward'] for s in step) / len(step) for step in zip(*r.version(vid).stats)])


def _line(*sentences) -> str:  # sentences on one printed line, joined as the language joins them
    return t('verdict.answer_join').join(s.strip() for s in sentences if s.strip())


def _back(vid: str, text=t) -> str:  # a backward row's label: 'backward in (c)', 'backward without all-reduce'
    return text('allreduce.plot.back_in', k=LETTER[vid]) if vid in LETTER else text(
        'allreduce.plot.back_beside' if vid == 'beside' else 'allreduce.plot.back_backward')


def miss_answer(r, my_guess=None) -> str:
    """Exercise 1's answer: the control's backward vs backward alone and vs (c)'s, a line each; then (c)'s backward
    vs alone, (c) vs the formula's estimate and, where the control slowed backward, vs it with that backward."""
    v, (c, a), x = r.version('hooks'), (_spans(r, k) for k in ('hooks', 'backward')), r.predicted('hooks')['step']
    pair = lambda x, y: verdict.line(_back(x.label), x, _back(y.label), y, 'ms')  # noqa: E731
    kept = [(_spans(r, 'beside'), m) for m in (a, c) if r.has('beside')]  # the control, gloo beside: vs alone, (c)
    models = [('allreduce.answer.model', x)] + [('allreduce.answer.model_back', x + k.median - a.median) for k, _ in
                                                kept[:1] if verdict.compare(k, a) == 'slower']  # the control's, slower
    end = lambda line: line[:1].upper() + line[1:] + t('allreduce.answer.end')  # noqa: E731
    return verdict.lines(*(end(pair(k, m)) for k, m in kept), verdict.answer(end(pair(c, a)), *(end(verdict.vs_model(
        name(r, v), v.median, t(k), m, 'ms')) for k, m in models), _guess(my_guess)))


def buckets_answer(here, there=None, my_guess=None) -> str:
    """Exercise 3's answer by the one rule, at most 3 lines: DDP 1 MiB against its one bucket recorded, (d) against
    DDP 1 MiB here (then its control, and the cause, only where the rule parts (d) from DDP 1 MiB), then here."""
    one, ddp = lambda r: next(v.id for v in r.ddp_versions() if r.one_bucket(v)), f'ddp-{BUCKET_MB:g}'  # noqa: E731
    sizes = lambda pairs: _where(pairs, lambda r: verdict_text(r, ddp, one(r)))  # noqa: E731
    d = _where([('allreduce.here', here)] * here.has('buckets'), lambda r: verdict_text(r, 'buckets', ddp))
    slower = d and verdict.compare(*(here.version(v).measurement for v in ('buckets', ddp))) == 'slower'
    return verdict.lines(*sizes([('allreduce.there', there)]), _line(*d, *_kept(here, 'buckets')[:1] * slower),
                         verdict.answer(*sizes([('allreduce.here', here)]), _guess(my_guess)))


def _kept(r, vid: str) -> list[str]:
    """(b) or (d) against its control here by the one rule, then the cause that control tests if the rule parts them."""
    if not r.has(control[vid]):
        return []
    way = verdict.compare(*(r.version(v).measurement for v in (vid, control[vid])))
    return _where([('allreduce.here', r)], lambda x: verdict_text(x, vid, control[vid])) + [t(
        'allreduce.answer.kept', k=LETTER[vid], mib=2 * r.prediction.gradient_bytes / 2 ** 20) * (way == 'slower')]


def flat_answer(r, my_guess=None) -> str:
    """Exercise 2's answer, two lines: (b) vs its control (the cause if they part), (b) vs (a), (b) vs the formula."""
    flat, v = _where([('allreduce.here', r)], lambda x: verdict_text(x, 'flat')), r.version('flat')
    model = verdict.vs_model(name(r, v), v.median, t('allreduce.answer.model'), r.predicted('flat')['step'], 'ms')
    return verdict.lines(_line(*_kept(r, 'flat')), verdict.answer(*flat, model + t('allreduce.answer.end'),
                                                                  _guess(my_guess)))


def _guess(g) -> str:  # 'Your guess: 12.5.' or 'Your guess: slower.' under a worked answer; '' without one
    return '' if g is None else t('allreduce.answer.guess', guess=g if isinstance(g, str) else f'{float(g):.3g}')


def sum_answer(wrong, n: int, my_guess=None) -> str:
    """Exercise 4's worked answer: the printed relative error against n - 1 (a sum is n times the mean), the guess."""
    head = str(wrong).split(' > ')[0]  # '... relative error 1.00e+00', '...相对误差1.00e+00'
    return verdict.answer(t('allreduce.answer.sum', error=head[len(head.rstrip('0123456789.e+-')):], n=n, n1=n - 1),
                          _guess(my_guess))


def _leads(result, vid: str) -> list[float]:
    """Per process, in the drawn profiled step: how long before backward's end its first all-reduce started."""
    out = []
    for rank in range(result.processes):
        sent, ends = ([e[at] for e in result.events.get(vid, []) if e['rank'] == rank and e['role'] in roles]
                      for at, roles in (('start', ('allreduce',)), ('end', ('backward', 'compute'))))
        out += [max(ends) - min(sent)] if sent and ends else []
    return out


def plot_steps(result, ids=None, title=None, guess=None, model=True, ax=None, guess_on='hooks'):
    """Timed steps (plot_repeats): no all-reduce on top, then `ids` or (a), (c); `guess`: `guess_on`'s step in ms, a
    diamond, and the formula's estimate for it hatched (`model`)."""
    drawn = [v for v in ['backward'] + (ids or ['serial', 'hooks']) if result.has(v)]
    x = result.predicted(guess_on)['step'] if (model := model and guess_on in drawn) else None  # the estimate
    fig = plot_repeats({v: result.version(v).step_times for v in drawn}, ax=ax, unit='ms', halves=True, labels={
        v: name(result, result.version(v), _plot) for v in drawn}, guess={guess_on: guess and guess / MS},
        predicted={guess_on: x} if model else {}, title=title or _plot('allreduce.plot.title'),
        predicted_label=_plot('allreduce.plot.formula'))
    (ax := ax or fig.axes[0]).set_xlabel(_plot('allreduce.plot.step_ms'))
    if model:  # the estimate's value at its end, as the medians are written
        ax.annotate(_plot('verdict.unit.ms', value=verdict.sig(x * MS)), (x * MS, drawn.index(guess_on) + 0.25),
                    xytext=(3, 0), textcoords='offset points', va='center', fontsize=style.MIN_FONT_PT)
    ax.set_xlim(0, ax.get_xlim()[1])  # from 0
    return fig


def plot_backward(result, ids, guess=None):
    """Backward's span in each profiled step of `ids` (mean of the processes); `guess`: (c)'s in ms, a diamond."""
    spans = {v: _spans(result, v).times for v in ids}
    fig = plot_repeats(spans, unit='ms', halves=min(map(len, spans.values())) >= 3, labels={v: _back(v, _plot) for v in
                       ids}, title=_plot('allreduce.plot.back', n=min(map(len, spans.values()))), guess={
                       'hooks': guess and guess / MS})
    fig.axes[0].set_xlabel(_plot('allreduce.plot.back_ms'))
    fig.axes[0].set_xlim(0, fig.axes[0].get_xlim()[1])
    return fig


def draw_step_timeline(result, version_id: str, ax=None):
    """One profiled step per process, titled with how long before backward's end the first all-reduce started."""
    if version_id not in result.events:
        from ..errors import UsageError
        raise UsageError(t('allreduce.usage.no_trace', version=version_id, traced=', '.join(result.events) or '-'))
    back = {r: [x for e in result.events[version_id] if (e['rank'], e['role']) == (r, 'backward')
                for x in (e['start'], e['end'])] or [0.0] for r in range(result.processes)}  # its span, per process
    lane = {(rank, s): _plot('allreduce.lane', rank=rank, what=_plot(f'allreduce.lane.{s}', ms=(
        max(back[rank]) - min(back[rank])) * MS))  # what the bars are, not why
        for rank in range(result.processes) for s in ('compute', 'allreduce')}
    events = [{**e, 'name': '' if e['role'] in ('allreduce', 'copy') else e['name'], 'lane': lane[e['rank'],
               e['stream']], 'role': 'cpu' if e['role'] == 'copy' else e['role']} for e in result.events[version_id]]
    rows = {label: 'backward' if s == 'compute' else 'allreduce' for (_, s), label in lane.items()}
    leads, label = _leads(result, version_id), name(result, result.version(version_id), _plot)
    ms = _plot('allreduce.sep_list').join(_plot('allreduce.plot.lead', ms=x * MS, rank=k) for k, x in enumerate(leads))
    title = _plot(f"allreduce.plot.timeline_{'during' if max([0, *leads]) > 1e-6 else 'after'}", label=label, ms=ms,
        which=_plot('allreduce.plot.step_of'))
    fig = draw_timeline(events, ax=ax, rows=rows, title=title, legend_names={'cpu': _plot(
        'allreduce.lane.copy'), 'allreduce': _plot('allreduce.lane.waiting')})
    (ax := ax or fig.axes[0]).set_xlabel(_plot('allreduce.plot.from_backward', axis=ax.get_xlabel()))
    return fig


def step_timelines(result, ids):
    """One profiled step of each version in `ids`, one panel each, on one time axis."""
    fig, axes = style.figure(nrows=len(ids), height=4 * len(ids))
    for ax, vid in zip(axes, ids):
        draw_step_timeline(result, vid, ax=ax)
    for ax in axes:
        ax.set_xlim(0, max(a.get_xlim()[1] for a in axes))
    return fig


def plot_buckets(result, guess=None):
    """Exercise 3's figure: (a), DDP by bucket size, (d) and its control (1 MiB buckets) below DDP 1 MiB; `guess` on
    DDP 1 MiB."""
    ids, ddp = ['serial'] + [v.id for v in result.ddp_versions()], f'ddp-{BUCKET_MB:g}'
    ids[ids.index(ddp) + 1:ids.index(ddp) + 1] = ['buckets', 'buckets_kept']
    return plot_steps(result, ids=ids, guess=guess, guess_on=ddp, model=False)


def layer_note(here) -> str:
    """The line under exercise 3's table: one weight's MiB, so which buckets hold one layer."""
    return t('allreduce.table.note', w=here.width, mib=max(here.prediction.tensor_bytes) / 2 ** 20)


def bucket_table(here, there=None):
    """Exercise 3: DDP's calls a step, then per run (here, recorded) its median step ('not recorded')."""
    import pandas as pd
    rows = {t('allreduce.table.calls'): {name(here, v): here.predicted(v.id)['calls'] for v in here.ddp_versions()}}
    for where, r in (('allreduce.here', here), ('allreduce.there', there))[:1 + (there is not None)]:
        rows[t('allreduce.table.measured', where=t(where, cores=r.cores))] = {name(r, v): verdict.sig(v.median * MS)
            for v in r.ddp_versions() if v.bucket_mb in {u.bucket_mb for u in here.ddp_versions()}}  # sizes run here
    return pd.DataFrame(rows).T.fillna(t('allreduce.table.not_recorded'))
