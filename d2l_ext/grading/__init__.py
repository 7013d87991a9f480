"""The "Build it" graders of 13.3.1-13.3.4, the same in a notebook, on the command line and for a class.

One module per task (`lanes`, `copy`, `mlp`, `allreduce*`), each calling the worked solution in its technique's
home; `registry` names them without importing a framework; `runner` grades in a process tree contained by
`sandbox` and `landlock` (`child` is the grading process) and judges in its own process (`integrity`, `measurable`);
`classroom` grades a class; `cli` is `python -m d2l_ext check`; `d2l_ext.display.grading` draws verdicts.
"""
from .core import BadSubmission, Criterion, Submission, Task, Verdict, call_learner, criterion, load_submission

__all__ = ['BadSubmission', 'Criterion', 'Submission', 'Task', 'Verdict', 'call_learner', 'criterion',
           'load_submission']
