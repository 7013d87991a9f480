"""13.3.4's four "Build it" tasks: (a) all-reduce after backward, (b) one flat buffer, (c) from hooks, (d) buckets."""
from __future__ import annotations

import ast
import functools
import inspect
import math

import torch
import torch.distributed as dist
from torch import nn

from ..allreduce import harness
from ..allreduce import steps as _steps
from ..allreduce.plan import free_port
from ..allreduce.steps import bucket_params, loss_of
from . import allreduce_checks as checks
from . import allreduce_ranks as ranks
from .allreduce_overlap import overlap
from .core import Task, criterion, untouched

SOLUTIONS = _steps.SOLUTIONS  # each task's worked solution, from the technique's one home

# (d)'s sizes in MiB: 1, 2 and 3 buckets of the graded network's gradients (forward-order buckets differ: tested)
BUCKET_MB = (0.5, 0.25, 0.15625)
WORLD = 2
START_S = 15.0  # seconds the processes may take to join and load the learner's code
WORK_S = 20.0  # then each graded run (3 steps; ~0.1 s here): a process silent for longer has hung


def _cases(task_id) -> list:
    """bucket_mb per graded run: (d) three sizes, the 3-bucket one last; others one run."""
    return list(BUCKET_MB) if task_id.endswith('buckets') else [None]


def grade(task_id: str, submission) -> list:
    """13.3.4: the learner's step on two gloo processes forked from this one; the criteria judged here."""
    task = TASKS[task_id]
    if untouched(ast.parse(submission.source), task.functions):  # a skeleton: nothing to start
        return [criterion('runs', False, 'grading.todo', name=task.functions[0])]
    job = {'source': submission.source, 'cases': _cases(task_id)}
    reports, stopped = harness.run_ranks(ranks.grade_rank, (job, task, free_port()), WORLD, start='fork',
                                         silence_s=START_S + WORK_S)
    if stopped is None:
        return _judge(task_id, reports)
    if stopped.why == 'error' and stopped.payload:  # the learner's function raised: the criterion its process made
        return [criterion('runs', False, stopped.payload['key'], **stopped.payload['fields'])]
    key, fields = stopped.reason(ranks.COLLECTIVE_TIMEOUT_S)  # the harness's first cause
    return [criterion('runs', False, key, **fields)]


def grade_many(items: list) -> list:
    """[(task id, submission)] -> each one's criteria (benchmarks and tests grade many in one process)."""
    return [grade(task_id, submission) for task_id, submission in items]


def _judge(task_id: str, reports: list) -> list:
    """The criteria, here, from both processes' reports: 'runs', 'correct', 'safe', then the task's own."""
    name, sizes = TASKS[task_id].functions[0], ranks.trainable_bytes(ranks.GradedNet())
    cases = [[r['cases'][i] | {'sizes': sizes} for r in reports] for i in range(len(_cases(task_id)))]
    ran = 'task.allreduce.ran_sizes' if len(cases) > 1 else 'task.allreduce.ran'
    verdict = [criterion('runs', True, ran, name=name, steps=ranks.STEPS, sizes=len(cases)),
               checks.correct(cases, len(reports)), checks.safe(cases)]
    if any(not step['calls'] for case in cases for rep in case for step in rep['steps']):
        verdict[1] = criterion('correct', False, 'task.allreduce.no_allreduce')  # right numbers, no communication
    if task_id.endswith('flat'):
        verdict.append(checks.calls(cases))
    if task_id.endswith('buckets'):
        verdict.append(checks.buckets(cases, sizes))
    required = task_id.endswith(('hooks', 'buckets'))  # (a) and (b): reported beside the prediction 0, not judged
    # (d): judged at the size that overlapped most (loaded, gloo can finish an async call before it returns)
    judged = [overlap(case, required) for case in cases[-1:] + cases[:-1]]
    verdict.append(max(judged, key=lambda c: (c.passed, c.fields.get('measured', 0.0))) if required else judged[0])
    return verdict


def budget_s(task_id: str) -> float:
    """The processes' start, then each graded run's bound, and room to judge."""
    return START_S + WORK_S * len(_cases(task_id)) + 15.0


def namespace() -> dict:
    """What the learner's cell may use without importing: the lesson's names."""
    return {'torch': torch, 'dist': dist, 'nn': nn, 'math': math, 'loss_of': loss_of, 'bucket_params': bucket_params}


def _task(task_id) -> Task:
    """A task whose one function, with its name and signature, is the worked solution's (allreduce.steps)."""
    fn = SOLUTIONS[task_id]
    return Task(id=task_id, section='13.3.4', functions=(fn.__name__,),
                signatures={fn.__name__: f'{fn.__name__}{inspect.signature(fn)}'},
                description_key=f"task.allreduce.{task_id.split('-')[1]}.description",
                grade=functools.partial(grade, task_id), budget_s=functools.partial(budget_s, task_id),
                namespace=namespace)


TASK_A, TASK_B, TASK_C, TASK_D = (_task(task_id) for task_id in SOLUTIONS)
TASKS = {task.id: task for task in (TASK_A, TASK_B, TASK_C, TASK_D)}
