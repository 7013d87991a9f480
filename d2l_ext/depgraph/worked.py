"""13.3.3's typical wrong versions of the worked step (model.mlp_step): sources the grader (grading.mlp) must fail,
each for its reason (tests/test_task_mlp.py); wrong_version turns one into a function (exercise 1, the recordings)."""
from __future__ import annotations

import inspect

from ..timing import wait_for_lanes
from .model import mlp_step

_SOLUTION = inspect.getsource(mlp_step)
_DOC = _SOLUTION.split('\n')[1].strip()  # the comment saying what the worked step does (two lines)
_DOC2 = _SOLUTION.split('\n')[2].strip()


def _changed(old: str, new: str, doc: str) -> str:
    """The worked solution with one line changed (so each wrong version differs from it in one place)."""
    assert old in _SOLUTION, old
    return _SOLUTION.replace(old, new, 1).replace(_DOC, f'# {doc}', 1).replace(f'    {_DOC2}\n', '', 1)


_RUN = 'results = run_on_lanes(lanes, [lambda i=i, h=h: half(i, *h) for i, h in enumerate(halves)])'
WRONG = {  # name: (the criterion it must fail, its source)
    'in_turn': ('overlap', _changed(_RUN, '\n    '.join([
        'results = []',
        'for i, h in enumerate(halves):  # lane 1 starts only once lane 0 has finished',
        '    results += run_on_lanes([lanes[i]], [lambda i=i, h=h: half(i, *h)])',
        '    wait_for_lanes([lanes[i]])']),
        'The halves one after the other, each on its lane: right numbers, no overlap.')),
    'late_binding': ('correct', _changed(
        'lambda i=i, h=h: half(i, *h)', 'lambda: half(i, *h)',
        "Jobs made in a loop without binding i and h: both read the loop's last, lane 1's half.")),
    'main_thread': ('placement', _changed(
        _RUN,
        'results = [half(i, *h) for i, h in enumerate(halves)]',
        'Both halves in this thread, one after the other: right numbers, but not on the lanes.')),
    'half_means': ('correct', _changed(
        'lane_step(i, w, Xi, yi, n)',
        'lane_step(i, w, Xi, yi, Xi.shape[0])',
        "Each half's loss divided by its own rows: the sum of two means is twice the mean.")),
    'averaged': ('correct', _changed(
        'total = {k: grads[0][k] + grads[1][k] for k in params}',
        'total = {k: (grads[0][k] + grads[1][k]) / 2 for k in params}',
        'The gradients averaged, although each half already divided by all n rows.')),
    'lane0_twice': ('correct', _changed(
        'total = {k: grads[0][k] + grads[1][k] for k in params}',
        'total = {k: grads[0][k] + grads[0][k] for k in params}',
        "The server uses lane 0's gradients twice and never reads lane 1's.")),
    'stale': ('correct', '''
_copies = {}


def mlp_step(lanes, params, X, y, lr):
    """Copies the weights to the lanes once and keeps them: every later step runs on stale weights."""
    n = X.shape[0]
    halves = []
    for i, (lane, Xi, yi) in enumerate(zip(lanes, X.tensor_split(2), y.tensor_split(2))):
        if i not in _copies:
            _copies[i] = {k: v.to(lane.device(), copy=True) for k, v in params.items()}
        halves.append((_copies[i], Xi.to(lane.device()), yi.to(lane.device())))
    results = run_on_lanes(lanes, [lambda i=i, h=h: lane_step(i, *h, n) for i, h in enumerate(halves)])
    grads = [{k: g[k].to('cpu') for k in g} for _, g in results]
    return {k: params[k] - lr * (grads[0][k] + grads[1][k]) for k in params}
'''),
    'raises': ('runs', '''
def mlp_step(lanes, params, X, y, lr):
    """Crashes inside the learner's own code (an ordinary exception)."""
    return lane_step(0, params, X, y)
'''),
    'todo': ('runs', '''
def mlp_step(lanes, params, X, y, lr):
    """The skeleton."""
    raise NotImplementedError
'''),
}
WRONG_GPU = {  # wrong only where lane 0 is not the CPU: on CPU lanes the sum already runs on the server
    'sum_on_lane0': ('placement', _changed(
        'grads = [{k: g[k].to(server, copy=True) for k in g} for _, g in results]',
        'grads = [{k: g[k].to(lanes[0].device()) for k in g} for _, g in results]',
        "The gradients summed and applied on lane 0's device; only the result moved to the CPU.").replace(
        'return {k: params[k] - lr * total[k] for k in params}',
        'return {k: (params[k].to(lanes[0].device()) - lr * total[k]).cpu() for k in params}')),
}
HANGS = '''
def mlp_step(lanes, params, X, y, lr):
    """Waits for something that never happens."""
    threading.Event().wait()
'''
CRASHES = '''
def mlp_step(lanes, params, X, y, lr):
    """Takes the whole process down, as a segfault in an extension would."""
    import os
    os._exit(3)
'''


def wrong_version(name: str):
    """One of the wrong versions above as a function, in the namespace of model.mlp_step (exercise 1)."""
    from . import model
    source = (WRONG.get(name) or WRONG_GPU[name])[1]
    namespace = dict(vars(model), wait_for_lanes=wait_for_lanes)
    exec(compile(source, f'<wrong version {name}>', 'exec'), namespace)  # noqa: S102 - our own source
    return namespace['mlp_step']
