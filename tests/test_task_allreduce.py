"""13.3.4's graded tasks: worked solutions pass, typical wrong versions fail for their reason, the lesson shows them.

Every graded source gets two gloo processes forked from the test's own (allreduce/harness.py). The pure parts
(bucket rule, skeleton detection, the float64 reference, the overlap judged from intervals, 'safe' judged from
the calls and waits recorded) are tested without processes.
"""
import ast
import inspect
import pathlib
import re
import time

import psutil
import pytest

from d2l_ext.allreduce import harness
from d2l_ext.allreduce.results import buckets_of
from d2l_ext.allreduce.steps import backward_then_allreduce
from d2l_ext.grading import allreduce as tasks
from d2l_ext.grading import allreduce_checks as checks
from d2l_ext.grading import allreduce_overlap as grader_overlap
from d2l_ext.grading import allreduce_ranks as ranks
from d2l_ext.grading.core import load_submission, untouched
from d2l_ext.i18n import catalogue
from tests.wrong_versions import ALLREDUCE_WRONG as WRONG
from tests.wrong_versions import ALLREDUCE_WRONG_TASK as WRONG_TASK

LESSON = pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.4-Allreduce-During-Backward.py'
CRITERIA = {'13.3.4-a-after': {'runs', 'correct', 'safe', 'overlap'},
            '13.3.4-b-flat': {'runs', 'correct', 'safe', 'calls', 'overlap'},
            '13.3.4-c-hooks': {'runs', 'correct', 'safe', 'overlap'},
            '13.3.4-d-buckets': {'runs', 'correct', 'safe', 'buckets', 'overlap'}}
# The sentence each wrong version must get: the reason, not only the failing criterion.
REASON = {'a_no_average': 'task.allreduce.wrong_sum', 'a_tied_twice': 'task.allreduce.wrong_tied',
          'a_frozen_has_grad': 'grading.raised_at', 'b_one_call_per_tensor': 'task.allreduce.calls_wrong',
          'b_no_copy_back': 'task.allreduce.wrong_local', 'b_no_average': 'task.allreduce.wrong_sum',
          'b_frozen_has_grad': 'grading.raised_at', 'c_blocking_hooks': 'task.allreduce.overlap_blocking',
          'c_wait_in_hook': 'task.allreduce.overlap_blocking', 'c_no_wait': 'task.allreduce.unwaited',
          'c_after_backward': 'task.allreduce.overlap_after', 'c_frozen_hook': 'grading.raised_at',
          'd_forward_order': 'task.allreduce.buckets_forward', 'd_no_wait': 'task.allreduce.unwaited',
          'd_ignores_bucket_mb': 'task.allreduce.buckets_wrong', 'd_no_average': 'task.allreduce.wrong_sum'}


BEFORE: set[int] = set()  # pytest's children from before this module (another module's helpers): not ours


@pytest.fixture(scope='module', autouse=True)
def children_before():  # autouse: before `graded`, the module's first processes
    BEFORE.update(p.pid for p in psutil.Process().children(recursive=True))


def _running(p) -> bool:
    try:  # spawn's resource tracker lives as long as pytest
        return p.status() != psutil.STATUS_ZOMBIE and 'resource_tracker' not in ' '.join(p.cmdline())
    except psutil.Error:
        return False


def left() -> list[str]:
    """The command lines of processes this module started that still run (named in a failing assert)."""
    return [' '.join(p.cmdline())[:200] for p in psutil.Process().children(recursive=True)
            if p.pid not in BEFORE and _running(p)]


def nothing_left(tries: int = 50) -> bool:
    """True once no process this module started runs; a process killed a moment ago may take a moment to go."""
    for _ in range(tries):
        if not left():
            return True
        time.sleep(0.1)
    return False


def test_nothing_left_sees_a_process_this_module_started():
    import multiprocessing
    rank = multiprocessing.get_context('fork').Process(target=time.sleep, args=(60,), daemon=True)
    rank.start()
    try:
        assert not nothing_left(tries=3)  # a leaked rank fails the check
    finally:
        rank.kill()
        rank.join(5.0)
    assert nothing_left(), left()


@pytest.fixture(scope='module')
def graded():
    """{name: {criterion id: Criterion}}: every worked solution and wrong version."""
    named = [(task_id, tasks.TASKS[task_id], inspect.getsource(fn)) for task_id, fn in tasks.SOLUTIONS.items()]
    named += [(name, WRONG_TASK[name], source) for name, (_, source) in WRONG.items()]
    verdicts = tasks.grade_many([(task.id, load_submission(task, source)) for _, task, source in named])
    return {name: {c.id: c for c in verdict} for (name, _, _), verdict in zip(named, verdicts)}


@pytest.mark.slow
@pytest.mark.parametrize('task_id', sorted(tasks.TASKS))
def test_worked_solution_passes_every_criterion(graded, task_id):
    verdict = graded[task_id]
    assert set(verdict) == CRITERIA[task_id]
    o = verdict['overlap'].fields
    if not verdict['overlap'].passed and o['measured'] < grader_overlap.THRESHOLD:
        # a timing (unit tests assert none): two test workers on two cores can starve a rank's all-reduce thread;
        # the runner then says 'cannot measure here' or 'not yet' on overlap alone, which the grader's tests cover
        verdict = {k: c for k, c in verdict.items() if k != 'overlap'}
    assert all(c.passed for c in verdict.values()), [(c.id, c.key, c.fields) for c in verdict.values()]
    if 'overlap' not in verdict:
        return
    assert 0 <= o['measured'] <= 1 and o['threshold'] == grader_overlap.THRESHOLD
    if task_id.endswith(('after', 'flat')):  # reported beside the closed form, not judged
        assert verdict['overlap'].key == 'task.allreduce.overlap_info'
    else:
        assert verdict['overlap'].key == 'task.allreduce.overlap' and o['measured'] >= grader_overlap.THRESHOLD
    several = task_id.endswith('buckets')  # (d): STEPS steps at each of its bucket sizes, said so in both lines
    assert verdict['runs'].key == ('task.allreduce.ran_sizes' if several else 'task.allreduce.ran')
    assert verdict['correct'].key == ('task.allreduce.correct_sizes' if several else 'task.allreduce.correct')
    assert verdict['runs'].fields['steps'] == ranks.STEPS
    assert verdict['correct'].fields['error'] <= verdict['correct'].fields['tolerance']


@pytest.mark.slow
def test_grading_many_sources_leaves_nothing_running(graded):
    assert len(graded) == len(tasks.SOLUTIONS) + len(WRONG)
    assert nothing_left(), left()


def test_every_wrong_version_has_its_reason():
    assert set(REASON) == set(WRONG)
    assert {name[0] for name in WRONG} == {'a', 'b', 'c', 'd'}
    assert all(sum(n.startswith(letter) for n in WRONG) >= 3 for letter in 'abcd')


@pytest.mark.slow
@pytest.mark.parametrize('name', sorted(WRONG))
def test_wrong_versions_fail_for_their_reason(graded, name):
    failing, _ = WRONG[name]
    verdict = graded[name]
    assert not verdict[failing].passed and verdict[failing].key == REASON[name], (
        name, verdict[failing].key, verdict[failing].fields)
    if failing != 'runs':
        assert verdict['runs'].passed
    if failing == 'overlap':  # right answers, overlapped too little
        assert verdict['correct'].passed and verdict['overlap'].fields['measured'] < grader_overlap.THRESHOLD


@pytest.mark.slow
def test_the_tied_weight_is_named(graded):
    verdict = graded['a_tied_twice']
    assert verdict['correct'].fields['parameter'] == 'embed.weight'


@pytest.mark.parametrize('body, skeleton', [
    ('"""(d) Buckets."""\n    # TODO: ...\n    raise NotImplementedError', True),
    ('pass\n    raise NotImplementedError()', True),
    ('optimizer.step()\n    raise NotImplementedError', False), ('raise ValueError', False)])
def test_only_a_bare_raise_is_a_skeleton_answered_without_starting_processes(monkeypatch, body, skeleton):
    started = []
    monkeypatch.setattr(harness, 'run_ranks', lambda *a, **k: started.append(a) or (None, harness.Stopped('hung', 0)))
    source = f'def allreduce_in_buckets(model, X, y, optimizer, bucket_mb):\n    {body}\n'
    verdict = [(c.id, c.passed, c.key) for c in tasks.TASK_D.grade(load_submission(tasks.TASK_D, source))]
    assert (verdict == [('runs', False, 'grading.todo')]) == skeleton and bool(started) != skeleton


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
STOPS = """
def backward_then_allreduce(model, X, y, optimizer):
    import os, signal
    if dist.get_rank() == 1:
        os.kill(os.getpid(), signal.SIGSTOP)  # stopped, not a mismatch of calls (issue 33)
    optimizer.zero_grad()
"""
EXITS = """
def backward_then_allreduce(model, X, y, optimizer):
    import os
    os._exit(0)
"""


@pytest.mark.slow
def test_a_collective_nobody_joins_a_loop_a_crash_a_stop_and_an_exit_are_reported(monkeypatch):
    # Where fork is unsafe (a GPU machine after a backward: harness falls back to spawn) the ranks re-import the
    # module and keep the default timeout, so the silence bound must outlast that one (found on an H100).
    timeout = 2.0 if harness.fork_safe() else ranks.COLLECTIVE_TIMEOUT_S
    monkeypatch.setattr(ranks, 'COLLECTIVE_TIMEOUT_S', 2.0)
    monkeypatch.setattr(tasks, 'WORK_S', timeout + 4.0)  # well past the all-reduce's timeout (loaded too): 'waited'
    monkeypatch.setattr(tasks, 'START_S', 1.0)
    sources = (HANGS, LOOPS, CRASHES, STOPS, EXITS, inspect.getsource(backward_then_allreduce))
    verdicts = tasks.grade_many([(tasks.TASK_A.id, load_submission(tasks.TASK_A, s)) for s in sources])
    want = [('waited', None), ('hung', None), ('died', {'rank': 0, 'code': 'exit code 3'}),
            ('stopped', {'rank': 1}), ('died', {'rank': 0, 'code': 'exit code 0'})]
    for verdict, (key, fields) in zip(verdicts, want):
        assert [(c.id, c.passed) for c in verdict] == [('runs', False)]
        assert verdict[0].key == f'task.allreduce.{key}', (key, verdict[0].fields)
        assert fields is None or verdict[0].fields == fields
    assert all(c.passed for c in verdicts[-1]), [(c.id, c.key, c.fields) for c in verdicts[-1]]  # new processes
    assert nothing_left(), left()


def test_fork_is_unsafe_where_a_forked_child_cannot_run_backward(monkeypatch):
    import torch

    def refused(*args, **kwargs):  # what PyTorch raises in a child forked after autograd's device threads started
        raise RuntimeError("Unable to handle autograd's threading in combination with fork-based multiprocessing")
    monkeypatch.setattr(torch.Tensor, 'backward', refused)
    assert not harness.fork_safe()


@pytest.mark.slow
def test_grading_spawns_its_processes_where_fork_is_unsafe(monkeypatch):
    import multiprocessing
    methods, get_context = [], multiprocessing.get_context
    monkeypatch.setattr(harness, 'fork_safe', lambda: False)
    monkeypatch.setattr(multiprocessing, 'get_context',
                        lambda method=None: methods.append(method) or get_context(method))
    verdict = tasks.grade(tasks.TASK_A.id, load_submission(tasks.TASK_A, inspect.getsource(backward_then_allreduce)))
    assert methods == ['spawn']
    assert {c.id: c.passed for c in verdict if c.id != 'overlap'} == {'runs': True, 'correct': True, 'safe': True}
    assert nothing_left(), left()


SLEEPS = """
def backward_then_allreduce(model, X, y, optimizer):
    import time
    while True:  # never returns, and spends no CPU while the bound runs out
        time.sleep(0.05)
"""


@pytest.mark.slow
def test_a_hang_through_the_runner_leaves_nothing_running():
    runner = pytest.importorskip('d2l_ext.grading.runner')
    verdict = runner.grade('13.3.4-a-after', SLEEPS, budget_s=8)
    assert verdict.status == 'hung' and not verdict.passed
    assert nothing_left(), left()


def test_bucket_sizes_give_one_two_and_three_buckets_unlike_forward_order():
    sizes = ranks.trainable_bytes(ranks.GradedNet())
    assert [s // 1024 for s in sizes] == [96, 48, 32, 128, 128, 64]  # KiB, backward's order: unequal
    assert [len(buckets_of(sizes, mb)) for mb in tasks.BUCKET_MB] == [1, 2, 3]
    for mb in tasks.BUCKET_MB[1:]:  # forward order gives other buckets: issue 33's forward-order version fails
        backward = sorted(sum(sizes[i] for i in b) for b in buckets_of(sizes, mb))
        assert backward != sorted(sum(sizes[::-1][i] for i in b) for b in buckets_of(sizes[::-1], mb))
    assert buckets_of([3, 1, 2], 3 / 2**20) == [[0], [1, 2]]  # a bucket closes once it holds bucket_mb


def test_the_model_has_a_tied_and_a_frozen_parameter():
    model = ranks.GradedNet()
    assert model.out.weight is model.embed.weight
    names = [n for n, _ in model.named_parameters()]
    assert 'out.weight' not in names and 'embed.weight' in names
    assert [n for n, p in model.named_parameters() if not p.requires_grad] == ['frozen.weight']


def test_the_graders_sgd_steps_as_the_reference_does():
    import torch
    seen = []
    w, frozen = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2), requires_grad=False)
    w.grad = torch.tensor([1.0, -2.0])
    sgd = ranks.SGD([w, frozen], 0.5, before_step=lambda: seen.append(w.detach().clone()))
    sgd.step()
    assert torch.equal(seen[0], torch.ones(2)) and torch.equal(w.detach(), torch.tensor([0.5, 2.0]))
    assert frozen.grad is None and torch.equal(frozen.detach(), torch.ones(2))
    sgd.zero_grad(set_to_none=False)
    assert torch.equal(w.grad, torch.zeros(2))
    sgd.zero_grad()
    assert w.grad is None


def test_tolerance_comes_from_float32_rounding():
    tol = harness.tolerance(2, ranks.BATCH, scale=100.0, steps=ranks.STEPS)
    assert 1e-5 < tol < 1e-2 and harness.tolerance(4, ranks.BATCH, 100.0, 3) > tol
    assert harness.tolerance(2, ranks.BATCH, 200.0, 3) > tol


def _step(forward_end, backward_end, calls, waits=()):
    return {'forward_end': forward_end, 'backward_end': backward_end, 'grads': [(backward_end, 0)],
            'calls': [dict(start=s, returned=r, done=d, numel=1, **{'async': a}) for s, r, d, a in calls],
            'waits': list(waits), 'step_start': None, 'unfinished': 0}


def _case(step):
    return [{'steps': [step], 'sizes': [4], 'bucket_mb': None}]


def test_overlap_is_judged_from_intervals():
    # started at 1 during backward 0..10, returned at once, done at 5: all of it beside compute
    ok = grader_overlap.overlap(_case(_step(0, 10, [(1, 1.01, 5, True)], [(10, 10.01)])), True)
    assert ok.passed and ok.key == 'task.allreduce.overlap' and ok.fields['measured'] > 0.99
    # the same call blocking: backward waited inside it, nothing computed beside it
    blocking = grader_overlap.overlap(_case(_step(0, 10, [(1, 5, 5, False)])), True)
    assert not blocking.passed and blocking.key == 'task.allreduce.overlap_blocking'
    assert blocking.fields['measured'] == 0
    # started after backward
    after = grader_overlap.overlap(_case(_step(0, 10, [(11, 11.01, 15, True)], [(11.02, 15)])), True)
    assert not after.passed and after.key == 'task.allreduce.overlap_after'
    # (a), (b): reported, not judged
    assert grader_overlap.overlap(_case(_step(0, 10, [(11, 15, 15, False)])), False).passed


def _async_step(waits, unfinished=0, step_start=10.5):
    """Two async calls during backward 0..10, the optimizer step at `step_start`; the calls done at 10.2."""
    step = _step(0, 10, [(1, 1.01, 10.2, True), (6, 6.01, 10.2, True)], waits)
    return {**step, 'step_start': step_start, 'unfinished': unfinished}


def test_an_async_call_never_waited_for_is_unsafe_though_it_had_completed():
    """The load-proof part of 'safe': counted from the calls and waits recorded, not from what had finished."""
    never = checks.safe([[{'steps': [_async_step([])]}]])  # both done before the step: a busy machine's luck
    assert not never.passed and never.key == 'task.allreduce.unwaited'
    assert (never.fields['waits'], never.fields['calls'], never.fields['step']) == (0, 2, 1)
    one = checks.safe([[{'steps': [_async_step([(10.1, 10.2)])]}]])
    assert not one.passed and one.key == 'task.allreduce.unwaited' and one.fields['waits'] == 1
    late = checks.safe([[{'steps': [_async_step([(10.6, 10.7), (10.7, 10.8)])]}]])  # waited after the step began
    assert not late.passed and late.key == 'task.allreduce.unwaited' and late.fields['waits'] == 0
    both = [(10.1, 10.15), (10.15, 10.2)]
    assert checks.safe([[{'steps': [_async_step(both)]}]]).passed
    running = checks.safe([[{'steps': [_async_step(both, unfinished=1)]}]])  # waited, yet one still running
    assert not running.passed and running.key == 'task.allreduce.unsafe'
    blocking = _step(0, 10, [(1, 5, 5, False)])  # no handle to wait for
    assert checks.safe([[{'steps': [{**blocking, 'step_start': 10.5}]}]]).passed
    for lang in ('en', 'zh'):
        text = catalogue(lang)[never.key].format(**never.fields)
        assert '0' in text and '2' in text


def test_waiting_through_the_future_counts_as_waiting():
    """fut.wait() or torch.futures.wait_all on handle.get_future(): the handle's future taken before the step."""
    step = _async_step([])
    step['calls'] = [{**c, 'waited': None, 'future': 9.0} for c in step['calls']]
    assert checks.safe([[{'steps': [step]}]]).passed
    late = _async_step([])
    late['calls'] = [{**c, 'waited': None, 'future': 11.0} for c in late['calls']]  # taken after the step began
    assert checks.safe([[{'steps': [late]}]]).key == 'task.allreduce.unwaited'

    class Work:  # the real handle's part the proxy passes on
        def get_future(self):
            return 'the real future'
    call = {'waited': None}
    assert ranks.WorkProxy(Work(), call, ranks.Recorder()).get_future() == 'the real future'
    assert call['future'] is not None


def test_every_key_the_graders_use_is_in_both_catalogues():
    source = ''.join(inspect.getsource(m) for m in (tasks, ranks, checks, grader_overlap))
    keys = set(re.findall(r"'(task\.allreduce\.[a-z_.]+)'", source))
    keys |= {f'task.allreduce.wrong_{k}' for k in ('sum', 'local')} | {f'task.allreduce.{k}_wrong' for k in
                                                                         ('calls', 'buckets')}
    keys |= {f'task.allreduce.{k}' for k in ('calls', 'buckets', 'waited', 'hung', 'died', 'stopped', 'failed')}
    assert {'task.allreduce.unwaited', 'task.allreduce.overlap_blocking'} <= keys  # the split modules were read
    keys |= {t.description_key for t in tasks.TASKS.values()}
    for lang in ('en', 'zh'):
        assert keys <= set(catalogue(lang)), keys - set(catalogue(lang))


def test_the_lesson_shows_the_package_solutions_collapsed():
    cells = re.split(r'^# %%', LESSON.read_text(encoding='utf-8'), flags=re.M)
    build = next(i for i, c in enumerate(cells) if '## Build it: four versions' in c)
    remember = next(i for i, c in enumerate(cells) if c.startswith(' [markdown]') and '# ## Remember' in c)
    assert build < remember and 'lang="zh"' in cells[build + 1]
    section = cells[build:remember]
    for task_id, fn in tasks.SOLUTIONS.items():
        assert fn.__module__ == 'd2l_ext.allreduce.steps'  # the technique's one home
        shown = [c for c in section if f'#@source d2l_ext.allreduce.steps.{fn.__name__}' in c]
        assert len(shown) == 1, task_id
        header = shown[0].splitlines()[0]
        assert '"source_hidden": true' in header and '"outputs_hidden": true' in header
        skeleton = [c for c in section if f'def {fn.__name__}(' in c and c is not shown[0]]
        assert len(skeleton) == 1 and 'raise NotImplementedError' in skeleton[0]
        assert f"d2l_ext.check('{task_id}', {fn.__name__})" in skeleton[0]
        signature = tasks.TASKS[task_id].signatures[fn.__name__]
        defined = [n for n in ast.parse(skeleton[0].split('\n', 1)[1]).body if isinstance(n, ast.FunctionDef)]
        assert f'def {signature}:' in skeleton[0] and untouched(ast.Module(defined, []), [fn.__name__])


def test_registry_lists_what_the_tasks_grade():
    registry = pytest.importorskip('d2l_ext.grading.registry')
    for task_id, task in tasks.TASKS.items():
        entry = registry.entry(task_id)
        assert entry.signatures == task.signatures and entry.description_key == task.description_key
