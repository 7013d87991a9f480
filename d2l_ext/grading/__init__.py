"""The "Build it" graders of 13.3.1-13.3.4: one per task, the same in a notebook, on the command line, for a class.

Every grader is here, one module per task: `lanes.py` (13.3.1), `copy.py` (13.3.2), `mlp.py` (13.3.3),
`allreduce.py` (13.3.4, with `allreduce_launcher.py`, `allreduce_ranks.py`, `allreduce_checks.py`,
`allreduce_overlap.py`). Each defines `Task` objects and calls the worked solution and instrumentation in the
technique's home below (parallel.together, communication.copying, depgraph.model, allreduce.steps); no section
imports a grader. `registry.py` names the tasks without importing them (criteria, maximum scores, thresholds),
so `check --list` loads no framework. `runner.py` grades a learner's code in a contained process tree
(`sandbox.py`: own folder, clean environment, limits, a subreaper keeper, bubblewrap where it works;
`child.py`: the grading process) and judges what it reports in its own process (`integrity.py`,
`measurable.py`: cannot measure here). `classroom.py` takes code from notebooks and grades a class;
`d2l_ext.display.grading` draws verdicts (and the class figure, Gradescope's results.json, the nbgrader/otter
score) and holds `d2l_ext.check`; `cli.py` is `python -m d2l_ext check`.
"""
from .core import BadSubmission, Criterion, Submission, Task, Verdict, call_learner, criterion, load_submission

__all__ = ['BadSubmission', 'Criterion', 'Submission', 'Task', 'Verdict', 'call_learner', 'criterion',
           'load_submission']
