"""The "Build it" tasks of 13.3.1-13.3.4 by id: where each lives, and what `check --list` says without importing it.

The functions, signatures and description keys are written here as well as in each `Task`, so
listing the tasks imports no framework (PyTorch takes seconds); tests/test_grading.py checks that
both say the same for every task whose module imports.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from .core import BadSubmission, Task


@dataclass(frozen=True)
class Entry:
    """One task as the registry knows it: its id, its 'module:attribute', and what the learner writes."""
    id: str
    target: str
    section: str
    signatures: dict
    description_key: str
    checks_key: str = ''  # what the grader will check, with its thresholds: told while the task is still a skeleton
    checks: tuple = ()  # (field, value) pairs for checks_key; the values equal the task module's (tests say so)
    criteria: tuple = ()  # (criterion id, maximum score) in the order drawn; the same for every outcome

    @property
    def functions(self) -> tuple[str, ...]:
        """The names of the functions the learner's cell or file must define, in the task's order."""
        return tuple(self.signatures)


def _entry(id, target, section, signatures, description_key, checks_key='', criteria=(), **checks):
    scored = tuple((c, 0 if c.startswith('~') else 1) for c in criteria)  # '~overlap': shown, not scored
    scored = tuple((c.lstrip('~'), score) for c, score in scored)
    return id, Entry(id, target, section, signatures, description_key, checks_key, tuple(sorted(checks.items())),
                     scored)


BASIC = ('runs', 'correct', 'safe')


# In lesson order; `check --list` prints them so.
TASKS: dict[str, Entry] = dict([
    _entry('13.3.1-lanes', 'd2l_ext.grading.lanes:TASK', '13.3.1',
           {'run_together': 'run_together(lanes, works)'}, 'task.lanes.description',
           'grading.checks.lanes', ('runs', 'correct', 'threads', 'safe', 'overlap', 'streams'), threshold=0.5),
    _entry('13.3.2-copy', 'd2l_ext.grading.copy:TASK', '13.3.2',
           {'run_and_copy': 'run_and_copy(x, w, buffers, lane)'}, 'task.copy.description',
           'grading.checks.copy', (*BASIC, 'overlap', 'streams'), threshold=0.5),
    _entry('13.3.3-mlp', 'd2l_ext.grading.mlp:TASK', '13.3.3',
           {'mlp_step': 'mlp_step(lanes, params, X, y, lr)'}, 'task.mlp.description',
           'grading.checks.mlp', ('runs', 'correct', 'placement', 'overlap'), threshold=0.5),
    _entry('13.3.4-a-after', 'd2l_ext.grading.allreduce:TASK_A', '13.3.4',
           {'backward_then_allreduce': 'backward_then_allreduce(model, X, y, optimizer)'},
           'task.allreduce.a.description', 'grading.checks.allreduce_a', (*BASIC, '~overlap')),
    _entry('13.3.4-b-flat', 'd2l_ext.grading.allreduce:TASK_B', '13.3.4',
           {'flat_allreduce': 'flat_allreduce(model, X, y, optimizer)'}, 'task.allreduce.b.description',
           'grading.checks.allreduce_b', (*BASIC, 'calls', '~overlap')),
    _entry('13.3.4-c-hooks', 'd2l_ext.grading.allreduce:TASK_C', '13.3.4',
           {'allreduce_in_hooks': 'allreduce_in_hooks(model, X, y, optimizer)'}, 'task.allreduce.c.description',
           'grading.checks.allreduce_c', (*BASIC, 'overlap'), threshold=0.2),
    _entry('13.3.4-d-buckets', 'd2l_ext.grading.allreduce:TASK_D', '13.3.4',
           {'allreduce_in_buckets': 'allreduce_in_buckets(model, X, y, optimizer, bucket_mb)'},
           'task.allreduce.d.description', 'grading.checks.allreduce_d', (*BASIC, 'buckets', 'overlap'),
           threshold=0.2),
])


def entry(task_id: str) -> Entry:
    """The registry's entry for `task_id`; BadSubmission 'grading.no_task' listing the ids otherwise."""
    found = TASKS.get(str(task_id).strip())
    if found is None:
        raise BadSubmission('grading.no_task', task=task_id, tasks=', '.join(TASKS))
    return found


def load(target: str) -> Task:
    """Import 'package.module:ATTRIBUTE' and return that Task (in the grading process: this imports the framework)."""
    module, _, attribute = target.partition(':')
    return getattr(importlib.import_module(module), attribute)


def task(task_id: str) -> Task:
    """The Task object of `task_id`, imported now; unknown ids raise BadSubmission 'grading.no_task'."""
    return load(entry(task_id).target)


def listing() -> list[dict]:
    """Per task: id, section, functions and signatures (also `function`, `signature` when there is one), description.

    The description is the task's one-line catalogue text in the language in use; nothing is imported.
    """
    from .core import message
    out = []
    for e in TASKS.values():
        row = {'id': e.id, 'section': e.section}
        if len(e.signatures) == 1:
            (name, signature), = e.signatures.items()
            row.update(function=name, signature=signature)
        row.update(functions=list(e.functions), signatures=list(e.signatures.values()),
                   description=message(e.description_key, {}),
                   criteria=[{'id': c, 'max_score': score} for c, score in e.criteria])
        out.append(row)
    return out
