"""Grading a class (every "Build it" task): notebook submissions, a folder of students, Gradescope, nbgrader/otter.

    source_of(task_id, path)        the learner's code for a task, from a .py file or their notebook's Build-it cell
    grade_class(folder, tasks)      every task in every submission -> rows (student, task, status, score, ...)
    write_table(rows, out)          class.csv, class.json and class.png (passed / not yet / cannot measure per task,
                                    the overlap measured beside the model's, every student a dot)
    gradescope(verdicts)            Gradescope's results.json: one test per criterion, score / max_score / status
    score(task_id, code)            for nbgrader and otter-grader: the points as a number, nothing on stderr
"""
from __future__ import annotations

import ast
import csv
import json
import re
from pathlib import Path

from .core import BadSubmission, Verdict

SUFFIXES = ('.py', '.ipynb')  # what a submission in a class folder may be
BARS = ('passed', 'not_yet', 'cannot_measure')  # the figure's groups: keys grading.class.<status>
COLORS = {'passed': 'tab:green', 'not_yet': 'tab:orange', 'cannot_measure': 'tab:gray'}


def _cells(path: Path) -> list[str]:
    try:
        notebook = json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError, UnicodeDecodeError):
        raise BadSubmission('grading.bad_notebook', path=str(path)) from None
    out = []
    for cell in notebook.get('cells', []):
        if cell.get('cell_type') == 'code':
            text = cell.get('source', '')
            out.append(''.join(text) if isinstance(text, list) else str(text))
    return out


def _runnable(text: str) -> str:
    """A cell without IPython's magics and shell lines (they are not Python)."""
    return '\n'.join('' if line.lstrip().startswith(('%', '!')) else line for line in text.splitlines())


def _defines(text: str, name: str) -> bool:
    try:
        tree = ast.parse(_runnable(text))
    except (SyntaxError, ValueError):
        return re.search(rf'^def\s+{re.escape(name)}\s*\(', text, re.M) is not None
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name for n in tree.body)


def notebook_source(task_id: str, path: Path) -> str:
    """The Build-it cell(s) for `task_id` in an en or zh notebook: the last cell defining each of its functions.

    Only the definitions are kept (no `d2l_ext.check(...)` call, no other top-level code), so a notebook
    grades the same as the cell alone.
    """
    from .registry import entry
    cells = _cells(path)
    pieces = []
    for name in entry(task_id).functions:
        found = [c for c in cells if _defines(c, name)]
        if not found:
            raise BadSubmission('grading.no_cell', task=task_id, name=name, path=str(path))
        tagged = [c for c in found if task_id in c]  # the Build-it cell names its task in its check call
        cell = _runnable((tagged or found)[-1])
        tree = ast.parse(cell)
        keep = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Import
                                                   | ast.ImportFrom) and getattr(n, 'name', name) == name]
        pieces.append('\n'.join(ast.get_source_segment(cell, n, padded=True) or '' for n in keep))
    return '\n\n'.join(dict.fromkeys(pieces))


def source_of(task_id: str, path: str) -> str:
    """The code to grade for `task_id` in a .py file or a notebook (.ipynb); BadSubmission if unusable."""
    from .cli import read_source
    if str(path).endswith('.ipynb'):
        read_source(path)  # the same checks on the file (exists, size, UTF-8)
        return notebook_source(task_id, Path(path))
    return read_source(path)


def tasks_in(path: Path) -> list[str]:
    """The tasks a submission answers: those whose functions it defines (all of them)."""
    from .registry import TASKS
    try:
        text = '\n'.join(_cells(path)) if path.suffix == '.ipynb' else path.read_text(encoding='utf-8')
    except (BadSubmission, OSError, UnicodeDecodeError):
        return []
    return [tid for tid, e in TASKS.items()
            if all(re.search(rf'^\s*def\s+{re.escape(f)}\s*\(', text, re.M) for f in e.functions)]


def max_points(task_id: str) -> int:
    from .registry import TASKS
    return sum(score for _, score in TASKS[task_id].criteria) if task_id in TASKS else 0


def points(verdict: Verdict) -> tuple[float, int]:
    """(points, maximum): one point per criterion met that the task scores; an unmeasurable one is not counted."""
    from .registry import TASKS
    scores = dict(TASKS[verdict.task].criteria) if verdict.task in TASKS else {}
    got = sum(scores.get(c.id, 0) for c in verdict.criteria if c.passed)
    top = sum(scores.get(c.id, 0) for c in verdict.criteria if not c.fields.get('unmeasurable'))
    return float(got), top


def row(student: str, verdict: Verdict) -> dict:
    got, top = points(verdict)
    overlap = next((c for c in verdict.criteria if c.id == 'overlap'), None)
    f = overlap.fields if overlap is not None else {}
    return {'student': student, 'task': verdict.task, 'status': verdict.status, 'score': got, 'max_score': top,
            'overlap': f.get('measured'), 'model': f.get('predicted'), 'seconds': round(verdict.seconds, 2)}


def grade_class(folder: str, tasks=None, *, progress: bool = True, budget_s=None) -> tuple[list[dict], dict]:
    """Every task in every submission of `folder` (a .py or .ipynb per student): rows, {(student, task): verdict}."""
    from .runner import bad_input, grade
    subs = sorted(p for p in Path(folder).iterdir() if p.suffix in SUFFIXES and p.is_file())
    jobs = [(p, tid) for p in subs for tid in (tasks or tasks_in(p))]
    bar = None
    if progress:
        try:
            from tqdm.auto import tqdm
            bar = tqdm(total=len(jobs), unit='grading', leave=False)
        except ImportError:
            pass
    rows, verdicts = [], {}
    for path, tid in jobs:
        try:
            verdict = grade(tid, source_of(tid, str(path)), budget_s=budget_s, filename=path.name)
        except BadSubmission as e:
            verdict = bad_input(tid, e)
        verdicts[(path.stem, tid)] = verdict
        rows.append(row(path.stem, verdict))
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows, verdicts


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

    from ..i18n import t
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
    from ..display.grading import criterion_line, task_title
    from ..i18n import t
    from .core import message
    from .registry import TASKS
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

    from ..display.grading import submitted
    from .runner import bad_input, grade
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            source = code if isinstance(code, str) else submitted(task_id, [code])
            verdict = grade(task_id, source)
        except BadSubmission as e:
            verdict = bad_input(task_id, e)
    return points(verdict)[0]
