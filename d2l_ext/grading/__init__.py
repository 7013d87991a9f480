"""The "Build it" graders of 13.3.1-13.3.4: one per task, the same in a notebook and from the command line.

A task's module (next to its section: `parallel/task.py`, `communication/task.py`, `depgraph/task.py`,
`allreduce/tasks.py`) defines `Task` objects; `registry.py` names them without importing them, so
`check --list` loads no framework; `runner.py` runs the learner's code in a separate process with a
time bound; `d2l_ext.display.grading` draws the verdict in the learner's language.
"""
from .core import BadSubmission, Criterion, Submission, Task, criterion, load_submission

__all__ = ['BadSubmission', 'Criterion', 'Submission', 'Task', 'criterion', 'load_submission']
