"""The grading process, forked by the keeper (sandbox.py): it restricts its writes (Landlock), imports the task,
notes the machine (measurable.py), grades the learner's source, checks the grader was left as it was
(integrity.py), and sends one nonce-marked result line per item; the grader's own process judges it (runner.py).
"""
from __future__ import annotations

import contextlib
import json
import os
import sys

from . import integrity, landlock, measurable, registry
from .core import BadSubmission, Criterion, criterion, error_text, is_out_of_memory, load_submission


def _plain(value):
    """JSON for what a grader may put in a criterion's fields: numpy and torch scalars, tuples, else text."""
    for name in ('item', 'tolist'):
        with contextlib.suppress(Exception):
            return getattr(value, name)()
    return str(value)


def _sender(write: int, nonce: str):
    def send(**message):
        data = (json.dumps({**message, 'nonce': nonce}, default=_plain) + '\n').encode()
        while data:
            data = data[os.write(write, data):]
    return send


def child_main(request: dict, keeper: int) -> None:
    """The grading process: import the tasks, then for each item load the learner's source, grade it, report, exit."""
    send = _sender(request.pop('result_fd'), request.pop('nonce'))
    from ..i18n import set_language
    set_language(request['language'])
    items = request.get('batch') or [request]  # a class grades one student's tasks in one process
    tasks = []
    try:
        landlock.landlock(request['folder'])  # before any learner code: writes only in its folder (where supported)
        for item in items:
            tasks.append(registry.load(item['target']))
    except Exception as e:  # noqa: BLE001 (a task module that does not import is reported, not a traceback)
        send(event='started', index=len(tasks), budget_s=60.0)
        send(event='result', status='crashed', key='grading.task_broken', fields={'error': error_text(e)})
        os._exit(0)
    grades, changed, before = [t.grade for t in tasks], integrity.changed, integrity.snapshot()  # before learner code
    for k, (item, task) in enumerate(zip(items, tasks)):
        send(event='started', index=k, budget_s=request['budget_s'] or float(task.budget_s()))
        result = _grade_one(task, grades[k], item, changed, before)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        send(event='result', index=k, **result)
        _release()
    os._exit(0)  # threads the learner's code left running must not hold the process open


def _release() -> None:
    """Between two items of a batch: memory the last one held goes back (the tree's memory is limited as a whole)."""
    import gc
    gc.collect()
    torch = sys.modules.get('torch')
    if torch is not None and torch.cuda.is_initialized():
        with contextlib.suppress(Exception):
            torch.cuda.empty_cache()
            torch._C._host_emptyCache()  # pinned host buffers cached by PyTorch


def _grade_one(task, grade_fn, item: dict, changed, before) -> dict:
    try:
        submission = load_submission(task, item['source'], item['filename'])
        machine = measurable.state()  # before the learner's code runs: cores, and what others keep busy
        criteria = [c if isinstance(c, Criterion) else Criterion(**c) for c in grade_fn(submission)]
        criteria = measurable.mark(criteria, machine)
        what = changed(before)
        if what:
            criteria.append(criterion('integrity', False, 'grading.tampered', what=what))
        return {'status': 'graded', 'criteria': [vars(c) for c in criteria]}
    except BadSubmission as e:
        return {'status': 'bad_input', 'key': e.key, 'fields': e.fields}
    except BaseException as e:  # noqa: BLE001 (anything escaping grade, even SystemExit, is this run's verdict)
        oom = is_out_of_memory(e)
        return {'status': 'out_of_memory' if oom else 'crashed',
                'key': 'grading.out_of_memory' if oom else 'grading.crashed_error', 'fields': {'error': error_text(e)}}

