"""Passing without doing the task is never graded as passed (every "Build it" task). Three guards:

`judge`, in the grader's own process: the verdict recomputed from the measured numbers against the registry's
thresholds, every listed criterion present, timing judged only after correctness. `snapshot` / `changed`, in the
grading process: the grader's functions, constants and torch.distributed's collectives not replaced.
`imports_solution`, before any process: a worked solution imported from this package instead of written.
"""
from __future__ import annotations

import ast
import sys
import types

from .core import Criterion, criterion

TIMED = ('overlap',)  # criteria that time the learner's code: judged only once the others pass
# a 'runs' criterion of a task's own harness that is a run's status (its processes hung or died), not an answer
STOPPED = {'task.allreduce.hung': 'hung', 'task.allreduce.stopped': 'hung', 'task.allreduce.died': 'crashed'}
WATCHED = ('d2l_ext', 'torch.distributed')  # modules whose functions and constants the learner must not replace


def imports_solution(tree: ast.Module, names) -> str | None:
    """The name of a task function this source takes from the d2l_ext package instead of defining it, or None."""
    names, from_package = set(names), False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or '').split('.')[0] == 'd2l_ext':
            from_package = True
            hit = next((a.name for a in node.names if a.name in names or a.name == '*'), None)
            if hit:
                return hit
        if isinstance(node, ast.Import) and any(a.name.split('.')[0] == 'd2l_ext' for a in node.names):
            from_package = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ('__import__',
                                                                                             'import_module'):
            from_package = True
    if from_package:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in names:
                return node.attr
    return None


def _watched(value) -> bool:
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type, types.MethodType)) or (
        type(value).__name__ in ('Task', 'partial'))


def snapshot() -> dict:
    """{(module, name): id(value)} for the functions, classes and UPPERCASE constants of the watched modules."""
    out = {}
    for name, module in list(sys.modules.items()):
        if module is None or not any(name == w or name.startswith(w + '.') for w in WATCHED):
            continue
        for attr, value in list(vars(module).items()):
            if _watched(value) or (attr.isupper() and isinstance(value, (int, float, str, tuple))):
                out[(name, attr)] = (id(value), value if isinstance(value, (int, float, str)) else None)
    return out


def changed(before: dict) -> str:
    """The first watched name that no longer holds what it held ('' when none): 'module.NAME'."""
    for (name, attr), (ident, value) in before.items():
        module = sys.modules.get(name)
        now = getattr(module, attr, None) if module is not None else None
        if now is None or (id(now) != ident and not (value is not None and now == value)):
            return f'{name}.{attr}'
    return ''


def judge(task_id: str, criteria: list[Criterion]) -> tuple[str, list[Criterion]]:
    """The status and the criteria as the grader's process judges them (see the module's docstring)."""
    from .registry import TASKS
    entry = TASKS.get(task_id)
    threshold = dict(entry.checks).get('threshold') if entry is not None else None
    out, earlier_failed = [], False
    for c in criteria:
        c = Criterion(c.id, bool(c.passed), c.key, dict(c.fields))
        if c.id in TIMED:
            if threshold is not None and 'measured' in c.fields and not c.fields.get('info'):
                c.fields['threshold'] = threshold
                c.passed = bool(float(c.fields['measured']) >= threshold) and not c.fields.get('unmeasurable')
            if earlier_failed and not c.fields.get('unmeasurable'):
                c.passed, c.fields['not_judged'] = False, True
        elif not c.passed:
            earlier_failed = True
        out.append(c)
    out = complete(task_id, out)
    stopped = next((STOPPED[c.key] for c in out if c.key in STOPPED), None)
    if stopped:  # a rank that hung or died inside the task's own harness: the run's status, not a wrong answer
        return stopped, out
    failed = [c for c in out if not c.passed and not c.fields.get('unmeasurable') and not c.fields.get('not_judged')]
    if failed or any(c.fields.get('not_judged') for c in out):
        return 'not_yet', out
    if any(c.fields.get('unmeasurable') for c in out):
        return 'cannot_measure', out
    return 'passed', out


def complete(task_id: str, criteria: list[Criterion]) -> list[Criterion]:
    """Every criterion the task lists (registry), in its order: one not reached is there as 'not judged'."""
    from .registry import TASKS
    entry = TASKS.get(task_id)
    have = {c.id for c in criteria}
    return criteria + [criterion(wanted, False, 'grading.line.not_judged', not_judged=True, label=wanted)
                       for wanted, _ in (entry.criteria if entry is not None else ()) if wanted not in have]
