"""13.3.4 as recorded at 2, 4 and 8 gloo processes on the recorded machine (named from the recording): caption, figure.

Every sentence and title is generated from the recording it describes (machine, versions, date, sizes,
repeats, each version's medians, the interval overlap beside the model's, and the per-process numbers
behind a step below backward alone or an overlap far from the model's); the timelines are the lesson's
own (display.allreduce.draw_step_timeline) drawn from a recorded run.
"""
from __future__ import annotations

from ..allreduce import recording
from ..i18n import t
from . import allreduce as show
from . import style

# The versions drawn against the world size, in the lesson's order; (d) is each run's DDP bucket size with the
# lowest median step (results.best_ddp), named by ddp_label / sweep_text from what was recorded.
DRAWN = ('backward', 'allreduce', 'serial', 'flat', 'hooks', 'ddp')


def where_text(rec: dict) -> str:
    """Where, when and with what the recording was made, and how its processes used the cores."""
    m, v = rec['machine'], rec['machine'].get('versions', {})
    fields = dict(cores=m.get('cpu_cores'), torch=v.get('torch'), python=v.get('python'), numpy=v.get('numpy'),
                  date=m.get('date', '')[:10],
                  sizes=t('allreduce.sep_list').join(str(r['world_size']) for r in rec['runs']))
    gpus = m.get('gpus') or []
    if gpus:
        return t('allreduce.recorded.where', gpus=t('core.gpus', name=gpus[0], count=len(gpus)), **fields)
    return t('allreduce.recorded.where_cpu', **fields)


def _machine(gpus, cores, text=t) -> str:
    """'NVIDIA H200 x1 and 16 CPU cores' / 'no GPU and 2 CPU cores' (text: t, or style.plot_text in a figure)."""
    if gpus:
        return text('allreduce.recorded.machine_gpu', gpus=text('core.gpus', name=gpus[0], count=len(gpus)),
                    cores=cores)
    return text('allreduce.recorded.machine_cpu', cores=cores)


def _recorded_on(rec: dict, key: str, **fields) -> str:
    """A figure's heading from the recording itself: the date and the machine it was recorded on."""
    m = rec['machine']
    return style.plot_text(key, date=m.get('date', '')[:10],
                           machine=_machine(m.get('gpus') or [], m.get('cpu_cores'), style.plot_text), **fields)


def this_machine_text(rec: dict, here: dict | None = None) -> str:
    """Whether this machine is the kind the recording was made on (its GPUs and cores), and both when not.

    `here`: {'gpus', 'cpu_cores'} of this machine (default: measured now); the recording's date is in where_text.
    """
    from ..machine import cpu_cores, gpu_names_torch
    there = rec['machine']
    here = here or {'gpus': gpu_names_torch(), 'cpu_cores': cpu_cores()}
    mine, theirs = (list(d.get('gpus') or []) for d in (here, there))
    same = mine == theirs and here.get('cpu_cores') == there.get('cpu_cores')
    if same:
        return t('allreduce.recorded.same_machine', machine=_machine(mine, here.get('cpu_cores')))
    return t('allreduce.recorded.other_machine', here=_machine(mine, here.get('cpu_cores')),
             there=_machine(theirs, there.get('cpu_cores')))


def _swept(runs) -> tuple[list[float], list]:
    """The DDP bucket sizes recorded (any world size), and each run's size with the lowest median step."""
    return sorted({v.bucket_mb for _, r in runs for v in r.ddp_versions()}), [r.best_ddp() for _, r in runs]


def ddp_label(runs, text=t) -> str:
    """(d)'s name in the figure, from what was recorded: the one bucket size there is, or the size with the lowest
    median of the N recorded (the same at every world size, or the sizes that were lowest at some world size)."""
    swept, best = _swept(runs)
    if len(swept) == 1:
        return show._label(runs[-1][1], best[-1], text)
    chosen = sorted({v.bucket_mb for v in best})
    mb = text('allreduce.sep_list').join(f'{x:g}' for x in chosen)
    if len(chosen) == 1:
        return text('allreduce.recorded.best_ddp_same', mb=mb, n=len(swept))
    return text('allreduce.recorded.best_ddp_each', mb=mb, n=len(swept))


def sweep_text(runs) -> str:
    """The caption's line on (d): the bucket sizes recorded and which one each world size shows (nothing when
    only one size was recorded: every line below names it)."""
    swept, best = _swept(runs)
    if len(swept) < 2:
        return ''
    sweep = t('allreduce.sep_list').join(f'{x:g}' for x in swept)
    if len({v.bucket_mb for v in best}) == 1:
        return t('allreduce.recorded.sweep_same', n=len(swept), sweep=sweep, mb=f'{best[0].bucket_mb:g}')
    each = t('allreduce.sep_list').join(t('allreduce.recorded.sweep_at', mb=f'{v.bucket_mb:g}', n=n)
                                        for (n, _), v in zip(runs, best))
    return t('allreduce.recorded.sweep_each', n=len(swept), sweep=sweep, each=each)


def _version_label(result, vid, text=t) -> str:
    v = result.best_ddp() if vid == 'ddp' else result.version(vid)
    return show._label(result, v, text)


def _ms(values) -> str:
    return t('allreduce.sep_list').join(f'{x * 1e3:.1f}' for x in values)


def below_text(result, vid: str) -> str:
    """A version whose median step is below backward alone's: by how much against the spread, and each process's
    own medians (a repeat's step is its slowest process, and in backward alone the processes never wait)."""
    alone, v = result.version('backward'), result.version(vid)
    if v.median >= alone.median:
        return ''
    told, clause = show.compared(result, alone, v, medians=False)
    verdict = t('allreduce.recorded.below_' + ('beyond' if told else 'within'), verdict=clause)
    return t('allreduce.recorded.below', label=show._label(result, v, t), ms=v.median * 1e3,
             gap=(alone.median - v.median) * 1e3, alone=alone.median * 1e3, verdict=verdict,
             mine_alone=_ms(alone.per_process()), mine=_ms(v.per_process()))


def _each(version, key) -> list[float]:
    return [s[key] for process in version.stats for s in process]


def processes_text(result, vid: str) -> str:
    """A version's profiled steps, per process: backward's span and the all-reduce's busy time, each beside its
    time alone; when backward ran for less time than the all-reduce was busy, the cap that puts on the overlap
    (the overlap counts only all-reduce time during backward's operators, so it is at most their ratio)."""
    v, alone, sent = result.version(vid), result.version('backward'), result.version('allreduce')
    spans, comm = _each(v, 'backward'), _each(v, 'comm')
    if not spans or not _each(alone, 'backward') or not _each(sent, 'comm'):
        return ''
    line = t('allreduce.recorded.processes', label=show._label(result, v, t),
             lo=min(spans) * 1e3, hi=max(spans) * 1e3,
             alo=min(_each(alone, 'backward')) * 1e3, ahi=max(_each(alone, 'backward')) * 1e3,
             clo=min(comm) * 1e3, chi=max(comm) * 1e3,
             xlo=min(_each(sent, 'comm')) * 1e3, xhi=max(_each(sent, 'comm')) * 1e3)
    cap = sum(spans) / sum(comm) if sum(comm) > 0 else 1.0
    return line + (t('allreduce.recorded.cap', cap=cap) if cap < 1 else '')


def steps_text(result, vid: str) -> str:
    """Backward's span on every process in each profiled step of a version: which processes were slow, and when."""
    v = result.version(vid)
    steps = [t('allreduce.recorded.step', step=k + 1, spans=_ms(step)) for k, step in
             enumerate(zip(*([s['backward'] for s in process] for process in v.stats)))]
    return t('allreduce.recorded.steps', label=show._label(result, v, t), last=result.processes - 1,
             steps=t('allreduce.why.join').join(steps)) if steps else ''


def run_text(rec: dict, result, drawn: bool = False) -> str:
    """One world size: how its processes used the cores, every version's median, the overlaps of (c) and best DDP,
    and the per-process numbers behind them; `drawn`: this run's (c) timeline is drawn below (its steps listed)."""
    s = recording.summary(result)
    cores = rec['machine'].get('cpu_cores') or result.cores
    share = 'shared' if result.processes > cores else 'own'
    lines = [t(f'allreduce.recorded.run_{share}', n=result.processes, cores=cores, repeats=s['repeats'],
               layers=result.layers, width=result.width, batch=result.batch_per_process,
               mb=result.prediction.gradient_bytes / 2 ** 20)]  # MiB, as the buckets
    medians = [t('allreduce.recorded.median', label=_version_label(result, vid),
                 ms=(result.best_ddp() if vid == 'ddp' else result.version(vid)).median * 1e3) for vid in DRAWN]
    lines.append('    ' + t('allreduce.why.join').join(medians))
    for vid in s['overlap']:
        lines.append('    ' + show.overlap_sentence(result, result.version(vid)))
        steps = steps_text(result, vid) if drawn and vid == 'hooks' else ''
        lines += ['        ' + text for text in (below_text(result, vid), processes_text(result, vid), steps) if text]
    return '\n'.join(lines)


def recorded_text(rec: dict) -> str:
    """The caption of a recording: where and when, then each world size's numbers (or that none is shipped), then
    what none of them explains."""
    if rec is None:
        return t('allreduce.recorded.none')
    runs = sorted(recording.results(rec).items())
    largest = runs[-1][0]  # the lesson draws one step of (c) at the largest world size
    sweep = sweep_text(runs)
    return '\n'.join([where_text(rec), this_machine_text(rec)] + ([sweep] if sweep else []) +
                     [run_text(rec, r, drawn=n == largest) for n, r in runs] + [t('allreduce.recorded.unexplained')])


def plot_recorded(rec: dict):
    """Step time (every repeat a dot, median a line) and interval overlap beside the model's, against world size."""
    runs = sorted(recording.results(rec).items())
    sizes = [n for n, _ in runs]
    fig, (left, right) = style.figure(ncols=2, height=6.6)
    colours = {}
    for vid in DRAWN:
        versions = [(n, r.best_ddp() if vid == 'ddp' else r.version(vid)) for n, r in runs]
        label = _version_label(runs[-1][1], vid, style.plot_text) if vid != 'ddp' else \
            ddp_label(runs, style.plot_text)
        line, = left.plot(sizes, [v.median * 1e3 for _, v in versions], marker='o', label=label)
        colours[vid] = line.get_color()
        for n, v in versions:
            left.scatter([n] * len(v.step_times), [x * 1e3 for x in v.step_times], s=12, alpha=0.5,
                         color=line.get_color())
    left.set_ylabel(style.plot_text('allreduce.recorded.ylabel_ms'))
    left.set_ylim(bottom=0)
    # (c) and (d) in the colours of the left panel, by their letters: their full names are in the legend once
    for vid, marker, label in (('hooks', 'o', '(c)'), ('ddp', 's', '(d)')):
        ids = [r.best_ddp().id if vid == 'ddp' else vid for _, r in runs]
        measured = [r.version(i).overlap or 0.0 for (_, r), i in zip(runs, ids)]
        model = [r.predicted(i)['overlap'] for (_, r), i in zip(runs, ids)]
        right.plot(sizes, measured, marker=marker, color=colours[vid],
                   label=style.plot_text('allreduce.recorded.measured', label=label))
        right.plot(sizes, model, ls='--', marker=marker, mfc='none', color=colours[vid],
                   label=style.plot_text('allreduce.recorded.model', label=label))
    right.set_ylim(0, 1.05)
    right.set_ylabel(style.plot_text('allreduce.recorded.ylabel_overlap'))
    for ax in (left, right):
        ax.set_xticks(sizes, [str(n) for n in sizes])
    handles = []
    for ax in (left, right):
        ax.set_xlabel(style.plot_text('allreduce.recorded.xlabel'))
        handles += list(zip(*ax.get_legend_handles_labels()))
    # one legend below both panels (step times, then overlaps): it covers no axis label, tick or point
    fig.legend(*zip(*handles), loc='outside lower center', ncol=2, fontsize=style.MIN_FONT_PT - 1, frameon=False,
               handlelength=1.5, columnspacing=1.0)
    fig.suptitle(_recorded_on(rec, 'allreduce.recorded.title'))
    return fig


def draw_recorded_timeline(rec: dict, world_size: int, version_id: str = 'hooks'):
    """One recorded profiled step of a version at a world size, per process (the lesson's own timeline)."""
    runs = recording.results(rec)
    if world_size not in runs:
        from ..errors import UsageError
        sizes = t('allreduce.sep_list').join(map(str, sorted(runs)))
        raise UsageError(t('allreduce.recorded.no_size', n=world_size, sizes=sizes))
    # the title says which run this is: recorded, where, when, at how many processes (not this session's run)
    heading = _recorded_on(rec, 'allreduce.recorded.timeline', n=world_size)
    return show.draw_step_timeline(runs[world_size], version_id, heading=heading)
