"""The "Build it" graders of 13.3.1-13.3.4: one per task, the same in a notebook, on the command line, for a class.

A task's module (next to its section: `parallel/task.py`, `communication/task.py`, `depgraph/task.py`,
`allreduce/tasks.py` with its helpers) defines `Task` objects; `registry.py` names them without importing
them (criteria, maximum scores, thresholds), so `check --list` loads no framework. `runner.py` grades a
learner's code in a contained process tree (`sandbox.py`: own folder, clean environment, limits, a
subreaper keeper, bubblewrap where it works; `child.py`: the grading process) and judges what it reports
in its own process (`integrity.py`, `measurable.py`: cannot measure here). `classroom.py` takes code from
notebooks and grades a class; `d2l_ext.display.grading` draws verdicts (and the class figure, Gradescope's
results.json, the nbgrader/otter score) and holds `d2l_ext.check`; `cli.py` is `python -m d2l_ext check`.
"""
from .core import BadSubmission, Criterion, Submission, Task, Verdict, call_learner, criterion, load_submission

__all__ = ['BadSubmission', 'Criterion', 'Submission', 'Task', 'Verdict', 'call_learner', 'criterion',
           'load_submission']
