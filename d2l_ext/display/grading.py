"""The "Build it" verdicts drawn as text, and `d2l_ext.check`, the notebook's grader (13.3.1-13.3.4 tasks).

Within the reading budget (issue 32): a command line prints a first line (passed / not yet / cannot measure
here), one line per criterion (at most 20 words, e.g. `✓ overlap 44% (model 83%, needed 30%)`) and, when not
yet passing, one line saying what to change. A notebook cell prints at most 3 lines: the first line with every
criterion's mark, the first unmet criterion's line, and what to change. The full sentences with their
arithmetic are the verdict's details: `verdict.details()` in a notebook, `--json` ('details') on the command line.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from ..grading.core import BadSubmission, Verdict, message
from ..i18n import t

MARKS = {True: '✓', False: '✗'}
UNMEASURED = '–'  # a criterion this machine cannot show, or one not judged because an earlier one failed
# A criterion's short line names it; these ids have a label of their own (grading.label.<id>)
LABELS = ('runs', 'correct', 'threads', 'safe', 'overlap', 'placement', 'calls', 'buckets', 'integrity', 'streams')
# What to change, one line each: a criterion's key -> its fix (grading.fix.<fix>). Others repeat their own sentence.
FIXES = {
    'lanes.calls': ('task.lanes.calls', 'task.lanes.sim_calls'),
    'lanes.results': ('task.lanes.count', 'task.lanes.not_results', 'task.lanes.order', 'task.lanes.wrong'),
    'lanes.wait': ('task.lanes.unsafe_cpu', 'task.lanes.unsafe_gpu', 'task.lanes.unsafe_value',
                   'task.lanes.unfinished', 'task.lanes.sim_unsafe'),
    'lanes.overlap': ('task.lanes.overlap',),
    'lanes.threads': ('task.lanes.threads',),
    'copy.buffers': ('task.copy.count', 'task.copy.not_buffer', 'task.copy.wrong', 'task.copy.no_intervals',
                     'task.copy.sim_buffers'),
    'copy.wait': ('task.copy.unsafe', 'task.copy.sim_unsafe'),
    'copy.overlap': ('task.copy.overlap', 'task.copy.sim_serial'),
    'copy.event': ('task.copy.sim_early',),
    'copy.gpu': ('task.copy.sim_none',),
    'mlp.weights': ('task.mlp.not_weights', 'task.mlp.shape', 'task.mlp.result_device'),
    'mlp.wrong': ('task.mlp.wrong',),
    'mlp.halves': ('task.mlp.calls', 'task.mlp.rows', 'task.mlp.no_halves'),
    'mlp.lanes': ('task.mlp.device', 'task.mlp.threads', 'task.mlp.same_thread'),
    'mlp.server': ('task.mlp.server_device',),
    'mlp.overlap': ('task.mlp.overlap',),
    'allreduce.wrong': ('task.allreduce.wrong', 'task.allreduce.wrong_buckets', 'task.allreduce.wrong_local'),
    'allreduce.tied': ('task.allreduce.wrong_tied',),
    'allreduce.frozen': ('task.allreduce.wrong_frozen', 'task.allreduce.none_grad'),
    'allreduce.sum': ('task.allreduce.wrong_sum',),
    'allreduce.wait': ('task.allreduce.unsafe', 'task.allreduce.unwaited'),
    'allreduce.leftover_hooks': ('task.allreduce.leftover_hooks',),
    'allreduce.flat': ('task.allreduce.calls_wrong',),
    'allreduce.buckets': ('task.allreduce.buckets_wrong',),
    'allreduce.overlap': ('task.allreduce.overlap_after', 'task.allreduce.overlap_blocking',
                          'task.allreduce.overlap_low', 'task.allreduce.overlap'),
    'allreduce.same_calls': ('task.allreduce.waited',),
    'allreduce.none': ('task.allreduce.no_allreduce',),
    'correct': ('grading.correct',),
    'raised': ('grading.raised',),
    'raised_at': ('grading.raised_at',),
    'hung': ('grading.hung',),
    'memory': ('grading.killed', 'grading.out_of_memory'),
    'exit': ('grading.crashed_code',),
    'own_code': ('grading.worked_solution', 'grading.tampered', 'grading.forged'),
}
WORDS = 20  # a drawn line's most words (issue 32)


def task_title(task_id: str) -> str:
    """A task's name as a learner reads it ('Build it (dependency graph): mlp_step'); an unknown id as itself."""
    titles = {'13.3.1-lanes': t('grading.title.lanes'), '13.3.2-copy': t('grading.title.copy'),
              '13.3.3-mlp': t('grading.title.mlp'), '13.3.4-a-after': t('grading.title.a_after'),
              '13.3.4-b-flat': t('grading.title.b_flat'), '13.3.4-c-hooks': t('grading.title.c_hooks'),
              '13.3.4-d-buckets': t('grading.title.d_buckets')}
    return titles.get(str(task_id), str(task_id))


def _short(text: str, words: int = WORDS) -> str:
    """At most `words` words (a Chinese line: at most 3 characters a word), '…' where cut."""
    if any('\u4e00' <= ch <= '\u9fff' for ch in text):
        return text if len(text) <= 3 * words else text[:3 * words - 1] + '…'
    parts = text.split()
    return text if len(parts) <= words else ' '.join(parts[:words]) + ' …'


def _pct(value) -> str:
    from .verdict import num
    return num(float(value), '%')


def _label(c) -> str:
    for name in LABELS:
        if c.id == name:
            return t(f'grading.label.{name}')
    return c.id


def criterion_line(c) -> str:
    """One criterion in at most 20 words: its mark, its name, its measured number beside what was needed."""
    f = c.fields
    if f.get('unmeasurable'):
        return _short(f"{UNMEASURED} {t('grading.line.unmeasurable', label=_label(c), why=message(c.key, f))}")
    if f.get('not_judged'):
        return f"{UNMEASURED} {t('grading.line.not_judged', label=_label(c))}"
    mark = MARKS[c.passed]
    if c.id == 'overlap' and 'measured' in f and 'predicted' not in f:  # 13.3.4: no model; its task's own line
        return _short(f"{'·' if f.get('info') else mark} {message(c.key, f)}")
    if c.id == 'overlap' and 'measured' in f:
        measured, predicted = _pct(f['measured']), _pct(f.get('predicted', 0))
        if 'threshold' not in f or f.get('info'):
            return f"· {t('grading.line.overlap_info', measured=measured, predicted=predicted)}"
        needed = _pct(f['threshold'])
        return f"{mark} {t('grading.line.overlap', measured=measured, predicted=predicted, needed=needed)}"
    if c.id == 'correct' and 'error' in f and 'tolerance' in f:
        return f"{mark} {t('grading.line.error', label=_label(c), error=f['error'], tolerance=f['tolerance'])}"
    if c.id == 'threads' and not c.passed and 'got' in f:
        used = t('grading.line.threads', label=_label(c), lane=f.get('lane', '?'), got=f['got'], want=f.get('want'))
        return f'{mark} {used}'
    if c.id in ('calls', 'buckets') and not c.passed and 'calls' in f:
        return f"{mark} {t('grading.line.calls', label=_label(c), calls=f['calls'], expected=f.get('expected', '?'))}"
    if c.id == 'runs' and not c.passed or c.id in ('input', 'integrity'):
        return _short(f'{mark} {message(c.key, f)}')
    return f'{mark} {_label(c)}'


def fix_line(c) -> str:
    """What to change for an unmet criterion, in at most 20 words (its own sentence when none is written)."""
    for fix in FIXES:
        if c.key in FIXES[fix]:
            return _short(t('grading.change', fix=message(f'grading.fix.{fix}', c.fields)))
    if c.id == 'runs' or c.key == 'grading.todo':
        return ''  # its line says it already
    return _short(t('grading.change', fix=message(c.key, c.fields)))


def _first_unmet(verdict: Verdict):
    return next((c for c in verdict.criteria if not c.passed and not c.fields.get('unmeasurable')
                 and not c.fields.get('not_judged')), None)


def _header(verdict: Verdict) -> str:
    key = 'grading.not_yet'  # also for a run that was stopped (hung, crashed, out of memory)
    if verdict.status == 'passed':
        key = 'grading.passed'
    elif verdict.status == 'cannot_measure':
        key = 'grading.cannot_measure'
    return t(key, task=task_title(verdict.task))


def lines(verdict: Verdict, *, compact: bool = False) -> list[str]:
    """The verdict drawn: the first line, one line per criterion, and what to change (compact: at most 3 lines)."""
    if verdict.status == 'bad_input':
        reasons = '; '.join(message(c.key, c.fields) for c in verdict.criteria)
        if any(c.key == 'grading.no_task' for c in verdict.criteria):  # it names the task already
            return [reasons]
        return [t('grading.cannot_grade', task=task_title(verdict.task), reason=reasons)]
    header, unmet = _header(verdict), _first_unmet(verdict)
    drawn = [criterion_line(c) for c in verdict.criteria]
    change = fix_line(unmet) if unmet is not None else ''
    if verdict.status == 'cannot_measure' and unmet is None:
        change = t('grading.change_machine')
    if not compact and any(c.key == 'grading.todo' for c in verdict.criteria):  # a skeleton: what will be checked
        from ..grading.registry import TASKS
        e = TASKS.get(verdict.task)
        if e is not None and e.checks_key:
            change = t('grading.will_check', checks=t(e.checks_key, **dict(e.checks)))
    if compact:
        marks = ' '.join(line.split(' ', 2)[0] + ' ' + _label(c) for line, c in zip(drawn, verdict.criteria))
        shown = [header + t('grading.marks_sep') + marks if len(verdict.criteria) > 1 else header]
        worth = unmet if unmet is not None else next(
            (c for c in verdict.criteria if c.id == 'overlap' or c.fields.get('unmeasurable')), None)
        if worth is not None:
            shown.append('  ' + criterion_line(worth))
        return shown + (['  ' + change] if change else [])
    return [header] + ['  ' + line for line in drawn] + (['  ' + change] if change else [])


def details(verdict: Verdict) -> list[str]:
    """Every criterion's full sentence with its arithmetic (for an instructor, `--json`, or `verdict.details()`)."""
    return [f'{MARKS[c.passed]} {message(c.key, c.fields)}' for c in verdict.criteria]


@dataclass
class CheckedVerdict(Verdict):
    """The Verdict `check` returns: a notebook cell ending with the check shows the drawn lines once, never a repr."""

    def _ipython_display_(self):
        # check() has already printed the lines in this cell; a later cell showing the value prints them again
        shown_in = getattr(self, '_drawn_in', None)
        if shown_in is None or shown_in != _execution_count():
            print('\n'.join(lines(self, compact=True)))
        self._drawn_in = None

    def details(self) -> None:
        """Print every criterion's full sentence (the numbers behind the short lines)."""
        print('\n'.join(details(self)))


def _execution_count():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return None if shell is None else shell.execution_count


def check(task_id: str, *functions, budget_s: float | None = None) -> CheckedVerdict:
    """Grade the learner's functions for `task_id` and print the verdict in at most 3 lines; returns it.

    d2l_ext.check('13.3.1-lanes', run_together) runs the task's grader on the function's own
    source in a separate, contained process with the task's time bound, so a hang or a crash stops only that
    process. Bad input (unknown task, wrong function, wrong parameters, syntax error) is one line.
    `.details()` on the result prints the full sentences.
    """
    from ..grading.core import submitted
    from ..grading.registry import entry
    from ..grading.runner import bad_input, grade
    try:
        source = submitted(task_id, entry(task_id).functions, functions)
        verdict = grade(task_id, source, budget_s=budget_s, filename='<cell>')
    except BadSubmission as e:
        verdict = bad_input(task_id, e)
    except KeyboardInterrupt:  # the grading process and all it started are gone by now
        print(t('grading.interrupted'))
        raise
    shown = CheckedVerdict(**vars(verdict))
    print('\n'.join(lines(shown, compact=True)))
    shown._drawn_in = _execution_count()
    return shown


# -- a class: the table and its figure, Gradescope's results.json, a score for nbgrader / otter-grader ----

BARS = ('passed', 'not_yet', 'cannot_measure')  # the figure's groups: keys grading.class.<status>
COLORS = {'passed': 'tab:green', 'not_yet': 'tab:orange', 'cannot_measure': 'tab:gray'}


def write_table(rows: list[dict], out: str) -> list[str]:
    """class.csv, class.json and class.png in `out`; returns their paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    fields = ['student', 'task', 'status', 'score', 'max_score', 'overlap', 'model', 'seconds']
    with open(folder / 'class.csv', 'w', newline='', encoding='utf-8') as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    (folder / 'class.json').write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding='utf-8')
    figure(rows).savefig(folder / 'class.png', dpi=120, bbox_inches='tight')
    return [str(folder / n) for n in ('class.csv', 'class.json', 'class.png')]


def figure(rows: list[dict]):
    """Per task: students passed / not yet / could not measure (bars); the overlap measured, each student a dot."""
    import matplotlib
    matplotlib.use('Agg', force=False)
    import matplotlib.pyplot as plt

    tasks = list(dict.fromkeys(r['task'] for r in rows)) or ['-']
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.5 * len(tasks) + 2), sharey=True)
    start = [0] * len(tasks)
    for status in BARS:
        n = [sum(1 for r in rows if r['task'] == tid and (r['status'] == status or (
            status == 'not_yet' and r['status'] not in ('passed', 'cannot_measure')))) for tid in tasks]
        left.barh(range(len(tasks)), n, left=start, color=COLORS[status], label=t(f'grading.class.{status}'))
        start = [a + b for a, b in zip(start, n)]
    left.set_yticks(range(len(tasks)), tasks)
    left.set_xlabel(t('grading.class.students'))
    left.legend(loc='lower center', bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    for i, tid in enumerate(tasks):
        got = [r['overlap'] for r in rows if r['task'] == tid and r['overlap'] is not None]
        model = [r['model'] for r in rows if r['task'] == tid and r['model'] is not None]
        right.plot(got, [i] * len(got), 'o', color='tab:blue', alpha=0.6)
        if model:
            right.plot([sorted(model)[len(model) // 2]] * 2, [i - 0.35, i + 0.35], color='black')
    right.set_xlim(0, 1)
    right.set_xlabel(t('grading.class.overlap'))
    return fig


def gradescope(verdicts: list[Verdict]) -> dict:
    """Gradescope's results.json: one test per criterion (name, score, max_score, status, output)."""
    from ..grading.registry import TASKS
    tests = []
    for v in verdicts:
        scores = dict(TASKS[v.task].criteria) if v.task in TASKS else {}
        for c in v.criteria:
            top = 0 if c.fields.get('unmeasurable') else scores.get(c.id, 0)
            output = criterion_line(c) + '\n' + message(c.key, c.fields)
            if c.fields.get('unmeasurable'):
                output += '\n' + t('grading.class.unmeasured_score')
            tests.append({'name': f'{task_title(v.task)}: {c.id}', 'score': float(top if c.passed else 0),
                          'max_score': float(top), 'status': 'passed' if c.passed else 'failed', 'output': output})
    return {'score': sum(x['score'] for x in tests), 'output_format': 'text', 'tests': tests}


def score(task_id: str, code) -> float:
    """For nbgrader and otter-grader: grade `code` (a function or its source) and return the points; prints nothing."""
    import contextlib
    import io

    from ..grading.classroom import points
    from ..grading.core import submitted
    from ..grading.registry import entry
    from ..grading.runner import bad_input, grade
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            source = code if isinstance(code, str) else submitted(task_id, entry(task_id).functions, [code])
            verdict = grade(task_id, source)
        except BadSubmission as e:
            verdict = bad_input(task_id, e)
    return points(verdict)[0]
