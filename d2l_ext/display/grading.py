"""The "Build it" verdicts drawn as text, and `d2l_ext.check`, the notebook's grader (13.3.1-13.3.4 tasks).

A verdict is drawn as a first line (passed, or not yet) and one line per criterion with its measured
numbers beside the prediction, in the language in use; input that cannot be graded is one line.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

from ..grading.core import BadSubmission, Verdict, message
from ..i18n import t

MARKS = {True: '✓', False: '✗'}


def task_title(task_id: str) -> str:
    """A task's name as a learner reads it ('Build it (dependency graph): mlp_step'); an unknown id as itself."""
    titles = {'13.3.1-lanes': t('grading.title.lanes'), '13.3.2-copy': t('grading.title.copy'),
              '13.3.3-mlp': t('grading.title.mlp'), '13.3.4-a-after': t('grading.title.a_after'),
              '13.3.4-b-flat': t('grading.title.b_flat'), '13.3.4-c-hooks': t('grading.title.c_hooks'),
              '13.3.4-d-buckets': t('grading.title.d_buckets')}
    return titles.get(str(task_id), str(task_id))


def lines(verdict: Verdict, *, failed_only: bool = False) -> list[str]:
    """The verdict as text lines: a header, then one line per criterion (only the unmet ones with failed_only)."""
    if verdict.status == 'bad_input':
        reasons = '; '.join(message(c.key, c.fields) for c in verdict.criteria)
        if any(c.key == 'grading.no_task' for c in verdict.criteria):  # it names the task already
            return [reasons]
        return [t('grading.cannot_grade', task=task_title(verdict.task), reason=reasons)]
    header = t('grading.passed' if verdict.passed else 'grading.not_yet', task=task_title(verdict.task))
    shown = [c for c in verdict.criteria if not (failed_only and c.passed)]
    out = [header] + [f'  {MARKS[c.passed]} {message(c.key, c.fields)}' for c in shown]
    if any(c.key == 'grading.todo' for c in verdict.criteria):  # still the skeleton: say what will be checked
        from ..grading.registry import TASKS
        e = TASKS.get(verdict.task)
        if e is not None and e.checks_key:
            out.append('  ' + t('grading.will_check', checks=t(e.checks_key, **dict(e.checks))))
    return out


@dataclass
class CheckedVerdict(Verdict):
    """The Verdict `check` returns: a notebook cell ending with the check shows the drawn lines once, never a repr."""

    def _ipython_display_(self):
        # check() has already printed the lines in this cell; a later cell showing the value prints them again
        shown_in = getattr(self, '_drawn_in', None)
        if shown_in is None or shown_in != _execution_count():
            print('\n'.join(lines(self)))
        self._drawn_in = None


def _execution_count():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return None if shell is None else shell.execution_count


def _source(fn) -> tuple[str, int]:
    """The function's own source, from the notebook cell or file it was defined in, and its first line there."""
    import inspect
    if not inspect.isfunction(fn):
        raise BadSubmission('grading.not_function', given=type(fn).__name__)
    try:
        found, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise BadSubmission('grading.no_source', name=fn.__name__) from None
    return textwrap.dedent(''.join(found)), max(first, 1)


def submitted(task_id: str, functions) -> str:
    """The source to grade: each function's own source, after checking they are the task's functions.

    One function keeps its lines where they are in its cell, so an error's line number is the cell's.
    """
    from ..grading.registry import entry
    wanted = entry(task_id).functions
    sources = [_source(fn) for fn in functions]
    given = [fn.__name__ for fn in functions]
    if sorted(given) != sorted(wanted):
        raise BadSubmission('grading.names', task=task_id, given=', '.join(given) or '-', wanted=', '.join(wanted))
    if len(sources) == 1:
        text, first = sources[0]
        return '\n' * (first - 1) + text
    return '\n\n'.join(text for text, _ in sources)


def check(task_id: str, *functions, budget_s: float | None = None) -> CheckedVerdict:
    """Grade the learner's functions for `task_id` and print the verdict; returns it (a notebook shows it once).

    d2l_ext.check('13.3.1-lanes', run_together) runs the task's grader on the function's own
    source in a separate process with the task's time bound, so a hang or a crash stops only that
    process. Bad input (unknown task, wrong function, wrong parameters, syntax error) is one line.
    """
    from ..grading.runner import bad_input, grade
    try:
        verdict = grade(task_id, submitted(task_id, functions), budget_s=budget_s, filename='<cell>')
    except BadSubmission as e:
        verdict = bad_input(task_id, e)
    except KeyboardInterrupt:  # the grading process and all it started are gone by now
        print(t('grading.interrupted'))
        raise
    shown = CheckedVerdict(**vars(verdict))
    print('\n'.join(lines(shown)))
    shown._drawn_in = _execution_count()
    return shown
