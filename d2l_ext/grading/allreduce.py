"""13.3.4's four "Build it" tasks: (a) all-reduce after backward, (b) one flat buffer, (c) from hooks, (d) buckets.

Each task's function is one data-parallel SGD step, `fn(model, X, y, optimizer)` (and `bucket_mb` for
(d)), run by two gloo processes on this machine, each on its half of the minibatch
(`allreduce_ranks.py`; the optimizer is a plain SGD with torch.optim's zero_grad() and step()).
Graded: the parameters after each of 3 steps against one float64 process on the whole minibatch, on
a model with a tied and a frozen weight ('correct'); every all-reduce finished before the optimizer
step read the gradients ('safe'); for (b) one call per step, for (d) one per bucket; for (c) and (d)
the overlap of the learner's own all-reduces with backward's computation, from the recorded
intervals (for (a) and (b) it is reported, not required).
"""
from __future__ import annotations

import ast
import functools
import inspect
import math

import torch
import torch.distributed as dist
from torch import nn

from ..allreduce.steps import allreduce_in_buckets, allreduce_in_hooks, backward_then_allreduce, flat_allreduce, loss_of
from . import allreduce_launcher as grader
from . import allreduce_ranks as ranks
from .core import Task, criterion, with_lines

BUCKET_MB = (0.375, 0.1875, 0.125)  # 6, 3 and 2 of the model's six 1/16 MB gradients: 1, 2 and 3 buckets


# -- the worked solutions: the technique's one home, allreduce/steps.py (the lesson's cells show its source) --

SOLUTIONS = {'13.3.4-a-after': backward_then_allreduce, '13.3.4-b-flat': flat_allreduce,
             '13.3.4-c-hooks': allreduce_in_hooks, '13.3.4-d-buckets': allreduce_in_buckets}


# -- the grader (in the grading process; allreduce_launcher forks the gloo processes) --------------------

def _cases(task_id) -> list:
    """bucket_mb per graded run: (d) three sizes, the 3-bucket one last; others one run.

    (d)'s overlap is judged at whichever size overlapped most (the 3-bucket one first among equals): see _judge."""
    return list(BUCKET_MB) if task_id.endswith('buckets') else [None]


def is_skeleton(source: str, name: str) -> bool:
    """The function only raises NotImplementedError (after a docstring, comments, pass): nothing to start."""
    fn = next((n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if fn is None:
        return False
    body = [s for s in fn.body if not isinstance(s, ast.Pass)
            and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return (len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].exc is not None
            and 'NotImplementedError' in ast.unparse(body[0].exc))


def grade(task_id: str, submission) -> list:
    """13.3.4: run the learner's step on two gloo processes; 'runs', 'correct', 'safe', then the task's own."""
    return grade_many([(task_id, submission)])[0]


def grade_many(items: list) -> list:
    """[(task id, submission)] -> each one's criteria: one launcher imports PyTorch, each gets two new processes."""
    verdicts, jobs = [None] * len(items), []
    for i, (task_id, submission) in enumerate(items):
        name = TASKS[task_id].functions[0]
        if is_skeleton(submission.source, name):
            verdicts[i] = [criterion('runs', False, 'grading.todo', name=name)]
        else:
            jobs.append((i, {'task': task_id, 'source': submission.source, 'cases': _cases(task_id)}))
    for (i, job), (reports, failure) in zip(jobs, grader.run_jobs([job for _, job in jobs]) if jobs else ()):
        verdicts[i] = [failure] if failure is not None else _judge(job['task'], reports)
    return verdicts


def _judge(task_id: str, reports: list) -> list:
    """The criteria from both processes' reports: 'runs', 'correct', 'safe', then the task's own."""
    name = TASKS[task_id].functions[0]
    cases = [[r['cases'][i] for r in reports] for i in range(len(_cases(task_id)))]  # [case][rank]
    ran = 'task.allreduce.ran_sizes' if len(cases) > 1 else 'task.allreduce.ran'  # (d): STEPS per bucket size
    verdict = [criterion('runs', True, ran, name=name, steps=ranks.STEPS, sizes=len(cases),
                         total=ranks.STEPS * len(cases)),
               grader.correct(cases, len(reports)), grader.safe(cases)]
    if any(not step['calls'] for case in cases for rep in case for step in rep['steps']):
        verdict[1] = criterion('correct', False, 'task.allreduce.no_allreduce')  # right numbers, no communication
    if task_id.endswith('flat'):
        verdict.append(grader.calls(cases, lambda case: 1, 'calls'))
    if task_id.endswith('buckets'):
        verdict.append(grader.calls(cases, lambda case: len(ranks.buckets_of(case['sizes'], case['bucket_mb'])),
                                    'buckets'))
    required = task_id.endswith(('hooks', 'buckets'))  # (a) and (b): reported beside the prediction 0, not judged
    # (d) runs three bucket sizes: judged on the one that overlapped most (the lesson's text says so, and the
    # sentence prints that size's calls per step), since on a loaded machine the
    # gloo thread can finish an async all-reduce before the call returns (3 of 138 loaded runs of one size)
    judged = [grader.overlap(case, [r['baseline'] for r in reports], required) for case in cases[-1:] + cases[:-1]]
    verdict.append(max(judged, key=lambda c: (c.passed, c.fields.get('measured', 0.0))) if required else judged[0])
    return verdict


def budget_s(task_id: str) -> float:
    """The launcher's start (PyTorch imported on a busy laptop), its two processes', then each graded run's bound."""
    return grader.START_S + grader.READY_S + grader.WORK_S * len(_cases(task_id)) + 15.0


def namespace() -> dict:
    """What the learner's cell may use without importing: the lesson's names."""
    return {'torch': torch, 'dist': dist, 'nn': nn, 'math': math, 'loss_of': loss_of}


def _task(task_id, letter, name, signature) -> Task:
    return Task(id=task_id, section='13.3.4', functions=(name,), signatures={name: signature},
                description_key=f'task.allreduce.{letter}.description',
                grade=functools.partial(grade, task_id), budget_s=functools.partial(budget_s, task_id),
                namespace=namespace)


TASK_A = _task('13.3.4-a-after', 'a', 'backward_then_allreduce', 'backward_then_allreduce(model, X, y, optimizer)')
TASK_B = _task('13.3.4-b-flat', 'b', 'flat_allreduce', 'flat_allreduce(model, X, y, optimizer)')
TASK_C = _task('13.3.4-c-hooks', 'c', 'allreduce_in_hooks', 'allreduce_in_hooks(model, X, y, optimizer)')
TASK_D = _task('13.3.4-d-buckets', 'd', 'allreduce_in_buckets',
               'allreduce_in_buckets(model, X, y, optimizer, bucket_mb)')
TASKS = {task.id: task for task in (TASK_A, TASK_B, TASK_C, TASK_D)}


# -- typical wrong versions (tests): name -> (the criterion that must fail, source) ------------------

_A_TIED_TWICE = """
def backward_then_allreduce(model, X, y, optimizer):
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for module in model.modules():  # a tied weight belongs to two modules: it is summed twice
        for p in module.parameters(recurse=False):
            if p.grad is not None:
                dist.all_reduce(p.grad)
    for p in model.parameters():
        if p.grad is not None:
            p.grad /= dist.get_world_size()
    optimizer.step()
"""
_C_AFTER = """
def allreduce_in_hooks(model, X, y, optimizer):
    ready = []
    hooks = [p.register_post_accumulate_grad_hook(ready.append) for p in model.parameters() if p.requires_grad]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    works = []
    for p in ready:  # started only once backward has ended
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))
    for work in works:
        work.wait()
    for hook in hooks:
        hook.remove()
    optimizer.step()
"""
_SOLUTION_B = inspect.getsource(flat_allreduce)
_SOLUTION_D = inspect.getsource(allreduce_in_buckets)
_D_FORWARD_ORDER = _SOLUTION_D.replace('reversed(list(model.parameters()))', 'model.parameters()').replace("""
        if missing[b] == 0:""", """
        while started and started[-1] < len(buckets) and missing[started[-1]] == 0:  # in order, as DDP
            b = started[-1]
            started[-1] += 1""").replace('    works = []\n', '    works, started = [], [0]\n')
_HOOK_SEND = 'works.append(dist.all_reduce(p.grad, async_op=True))'
WRONG = {  # most are a worked solution (allreduce.steps) with a line or two changed: what goes wrong, and why
    'a_no_average': ('correct', with_lines(backward_then_allreduce, ('p.grad /= dist.get_world_size()', ''))),
    'a_tied_twice': ('correct', _A_TIED_TWICE),
    'a_frozen_has_grad': ('runs', with_lines(backward_then_allreduce, ('if p.grad is None:', ''), ('continue', ''))),
    'b_one_call_per_tensor': ('calls', inspect.getsource(backward_then_allreduce).replace(  # one call per tensor
        'def backward_then_allreduce(', 'def flat_allreduce(')),
    'b_no_copy_back': ('correct', with_lines(flat_allreduce, ('offset = 0', ''), ('for g in grads:', ''),  # summed only
                                             ('g.copy_(flat[offset:offset + g.numel()].view_as(g))', ''),
                                             ('offset += g.numel()', ''))),
    'b_no_average': ('correct', _SOLUTION_B.replace(' / dist.get_world_size()', '')),
    'b_frozen_has_grad': ('runs', _SOLUTION_B.replace(' if p.grad is not None]', ']')),
    'c_blocking_hooks': ('overlap', with_lines(allreduce_in_hooks, (_HOOK_SEND, 'dist.all_reduce(p.grad)'))),
    'c_wait_in_hook': ('overlap', with_lines(allreduce_in_hooks,
                                             (_HOOK_SEND, 'dist.all_reduce(p.grad, async_op=True).wait()'))),
    'c_no_wait': ('safe', with_lines(allreduce_in_hooks, ('work.wait()', 'pass'))),  # never waited for
    'c_after_backward': ('overlap', _C_AFTER),
    'c_frozen_hook': ('runs', with_lines(allreduce_in_hooks, (  # frozen parameters get a hook too
        'hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters() if p.requires_grad]',
        'hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters()]'))),
    'd_forward_order': ('overlap', _D_FORWARD_ORDER),
    'd_no_wait': ('safe', _SOLUTION_D.replace('        work.wait()\n', '')),
    'd_ignores_bucket_mb': ('buckets', _SOLUTION_D.replace('bucket_mb * 2**20', '0')),
    'd_no_average': ('correct', _SOLUTION_D.replace(' / dist.get_world_size()', '')),
}
# The task each wrong version is for, by the letter its name starts with.
WRONG_TASK = {name: TASKS[f"13.3.4-{name[0]}-{dict(a='after', b='flat', c='hooks', d='buckets')[name[0]]}"]
              for name in WRONG}
HANGS = """
def backward_then_allreduce(model, X, y, optimizer):
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    if dist.get_rank() == 0:  # process 1 never joins: process 0 waits for it
        for p in model.parameters():
            if p.grad is not None:
                dist.all_reduce(p.grad)
    optimizer.step()
"""
LOOPS = """
def backward_then_allreduce(model, X, y, optimizer):
    while True:
        pass
"""
CRASHES = """
def backward_then_allreduce(model, X, y, optimizer):
    import os
    os._exit(3)  # the process ends without a word
"""
