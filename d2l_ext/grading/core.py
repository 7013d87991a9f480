"""What a graded task is, what it reports, and how a learner's source becomes functions (all four "Build it" tasks).

Data only: a verdict is a list of `Criterion` records with ids and numbers; the text a learner
reads is chosen from the catalogues when it is drawn (`d2l_ext.display.grading`), in their language.
"""
from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import UsageError


class BadSubmission(UsageError):
    """The learner's file or cell cannot be graded (missing, syntax error, function missing or misnamed).

    Carries an i18n key and fields; the CLI answers exit 2 and one line, a notebook one line.
    """

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(f'{key} {fields}')


@dataclass
class Criterion:
    """One graded property of a run: `id` ('correct', 'safe', 'overlap', ...), passed or not, and why.

    `key` is the catalogue key of the sentence drawn for it and `fields` fills it (measured numbers,
    predictions, the tolerance): data, never translated text.
    """
    id: str
    passed: bool
    key: str
    fields: dict = field(default_factory=dict)


def criterion(id: str, passed: bool, key: str, **fields) -> Criterion:
    """Shorthand for the graders: criterion('overlap', f > 0.2, 'task.lanes.overlap', measured=f, predicted=p)."""
    return Criterion(id, bool(passed), key, fields)


@dataclass
class Submission:
    """The learner's code: its source text and the functions it defines, by name."""
    source: str
    functions: dict[str, Callable]


@dataclass
class Task:
    """A "Build it" task: which functions the learner writes, how they are graded, how long that may take.

    `grade(submission) -> list[Criterion]` runs in a separate process (runner.py); it must not rely on
    anything but its arguments and its module. `budget_s()` is the time bound in seconds, derived from
    the task's sizes on this machine. `namespace()` gives the names a learner's code may use without
    importing them (torch, threading, dist, ...), the same in a notebook cell and a file.
    """
    id: str
    section: str
    functions: tuple[str, ...]
    signatures: dict[str, str]
    description_key: str
    grade: Callable[[Submission], list[Criterion]]
    budget_s: Callable[[], float]
    namespace: Callable[[], dict] = dict

    def parameters(self, name: str) -> list[str]:
        """The parameter names of `name` as the task asks for them ('run_together(lanes, works)' -> [...])."""
        sig = self.signatures[name]
        inside = sig[sig.index('(') + 1:sig.rindex(')')]
        return [p.strip().split('=')[0].strip() for p in inside.split(',') if p.strip()]


def source_of(fn: Callable) -> str:
    """The source of a function defined in a notebook cell or a file (IPython keeps cell sources for inspect)."""
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError) as e:
        raise BadSubmission('grading.no_source', name=getattr(fn, '__name__', repr(fn))) from e


def load_submission(task: Task, source: str, filename: str = '<submission>') -> Submission:
    """Execute the learner's source in a fresh namespace and check each required function's name and parameters.

    Raises BadSubmission (exit 2 from the CLI) for a syntax error, a missing function, a name that is
    not a function, or parameters other than the task's; errors raised while the file's top level
    runs are reported the same way, since nothing was graded yet.
    """
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        raise BadSubmission('grading.syntax', line=e.lineno or 0, message=e.msg) from None
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in task.functions:
        if name not in defined:
            raise BadSubmission('grading.missing', name=name, signature=task.signatures[name])
    namespace = dict(task.namespace())
    namespace['__name__'] = '__submission__'
    try:
        exec(compile(tree, filename, 'exec'), namespace)  # noqa: S102 (grading runs the learner's own code)
    except Exception as e:  # noqa: BLE001 (any error in their top level is theirs to fix)
        raise BadSubmission('grading.top_level', error=f'{type(e).__name__}: {e}') from None
    functions = {}
    for name in task.functions:
        fn = namespace.get(name)
        if not callable(fn):
            raise BadSubmission('grading.missing', name=name, signature=task.signatures[name])
        got = list(inspect.signature(fn).parameters)
        want = task.parameters(name)
        if got != want:
            raise BadSubmission('grading.signature', name=name, got=', '.join(got), signature=task.signatures[name])
        functions[name] = fn
    return Submission(source, functions)
