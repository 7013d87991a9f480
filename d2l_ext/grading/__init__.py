"""The "Build it" graders of 13.3.1-13.3.4: one per task, the same in a notebook and from the command line.

A task's module (next to its section: `parallel/task.py`, `communication/task.py`, `depgraph/task.py`,
`allreduce/tasks.py`) defines `Task` objects; `registry.py` names them without importing them, so
`check --list` loads no framework; `runner.py` runs the learner's code in a separate process (its own
session, killed as a group) with the task's time bound and returns a `Verdict`;
`d2l_ext.display.grading` draws it in the learner's language and holds `d2l_ext.check`, the notebook
entry; `cli.py` is `python -m d2l_ext check` (also `python -m d2l_ext.grading`).
"""
from .core import BadSubmission, Criterion, Submission, Task, Verdict, call_learner, criterion, load_submission

__all__ = ['BadSubmission', 'Criterion', 'Submission', 'Task', 'Verdict', 'call_learner', 'criterion',
           'load_submission']
