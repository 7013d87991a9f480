"""Grading a class (every "Build it" task): `source_of` (a .py file or a notebook's Build-it cell), `grade_class`
(every task of every submission in a folder -> rows), `points`. Drawn in d2l_ext.display.grading: the table and
figure, Gradescope's results.json, `score(task_id, code)` for nbgrader and otter-grader.
"""
from __future__ import annotations

import ast
import json
import re
import stat
from pathlib import Path

from .core import BadSubmission, Verdict

MAX_BYTES = 1 << 20  # a learner's answer is a few functions; anything larger is the wrong file
SUFFIXES = ('.py', '.ipynb')  # what a submission in a class folder may be


def read_source(path: str) -> str:
    """The learner's file as text; BadSubmission saying what to change if missing, a folder, unreadable, not UTF-8."""
    p = Path(path)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise BadSubmission('grading.no_file', path=path) from None
    except OSError as e:
        raise BadSubmission('grading.unreadable', path=path, error=e.strerror or type(e).__name__) from None
    if stat.S_ISDIR(info.st_mode):
        raise BadSubmission('grading.is_dir', path=path)
    if not stat.S_ISREG(info.st_mode):  # a pipe or a device would block or never end
        raise BadSubmission('grading.not_regular', path=path)
    if info.st_size > MAX_BYTES:
        raise BadSubmission('grading.too_big', path=path, limit=MAX_BYTES)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise BadSubmission('grading.unreadable', path=path, error=e.strerror or type(e).__name__) from None
    try:
        return data.decode('utf-8-sig')
    except UnicodeDecodeError:
        raise BadSubmission('grading.not_utf8', path=path) from None


def _cells(path: Path) -> list[str]:
    try:
        notebook = json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError, UnicodeDecodeError):
        raise BadSubmission('grading.bad_notebook', path=str(path)) from None
    out = []
    for cell in notebook.get('cells', []):
        hidden = (cell.get('metadata') or {}).get('jupyter', {}).get('source_hidden')
        if cell.get('cell_type') == 'code' and not hidden:  # a collapsed cell is the lesson's worked answer
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
    """The Build-it cell(s) for `task_id` in an en or zh notebook: the last cell defining each of its functions, only
    the definitions kept (no `d2l_ext.check(...)` call), so a notebook grades the same as the cell alone."""
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
            'overlap': f.get('measured'), 'model': f.get('predicted', f.get('model')),
            'seconds': round(verdict.seconds, 2)}


def grade_class(folder: str, tasks=None, *, progress: bool = True, budget_s=None) -> tuple[list[dict], dict]:
    """Every task in every submission of `folder` (a .py or .ipynb per student): rows, {(student, task): verdict}."""
    from .runner import bad_input, grade_batch
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
    for path in subs:  # one student's tasks in one contained process (runner.grade_batch)
        mine, ready = [tid for p, tid in jobs if p == path], {}
        for tid in mine:
            try:
                ready[tid] = source_of(tid, str(path))
            except BadSubmission as e:
                verdicts[(path.stem, tid)] = bad_input(tid, e)
        graded = grade_batch([(tid, src, path.name) for tid, src in ready.items()], budget_s=budget_s)
        verdicts.update({(path.stem, tid): v for tid, v in zip(ready, graded)})
        for tid in mine:
            rows.append(row(path.stem, verdicts[(path.stem, tid)]))
        if bar is not None:
            bar.update(len(mine))
    if bar is not None:
        bar.close()
    return rows, verdicts
