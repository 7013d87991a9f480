"""What a graded task is, what it reports (data: drawn by `d2l_ext.display.grading`), how a learner's source
becomes functions and a learner's functions their source (all four "Build it" tasks)."""
from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import UsageError

# What a grading run can end as: the learner's code was graded (passed, not_yet, or cannot_measure: all
# else passed but this machine cannot show a timed criterion), it was stopped by the runner (hung,
# crashed, out_of_memory), or it could not be graded at all (bad_input). The command line's exit codes:
STATUSES = ('passed', 'not_yet', 'bad_input', 'cannot_measure', 'hung', 'crashed', 'out_of_memory')
EXIT_CODES = {status: code for code, status in enumerate(STATUSES)}  # passed 0, not_yet 1, ... out_of_memory 6


def message(key: str, fields: dict) -> str:
    """The catalogue text of `key` with `fields`; a key or field the catalogue lacks still gives a readable line."""
    from ..i18n import t
    try:
        return t(key, **fields)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):  # a task's text and fields disagree
        return f"{key}: {', '.join(f'{k}={v}' for k, v in fields.items())}"


class BadSubmission(UsageError):
    """The learner's file or cell cannot be graded (missing, syntax error, function missing or misnamed): a key."""

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(key)

    def __str__(self) -> str:  # translated when shown, in the language in use then
        return message(self.key, self.fields)


@dataclass
class Criterion:
    """One graded property of a run: `id` ('correct', 'overlap', ...), passed or not, the catalogue `key` saying
    why and the `fields` filling it (measured numbers, predictions, the tolerance): data, never text."""
    id: str
    passed: bool
    key: str
    fields: dict = field(default_factory=dict)


def criterion(id: str, passed: bool, key: str, **fields) -> Criterion:
    """Shorthand for the graders: criterion('overlap', f > 0.2, 'task.lanes.overlap', measured=f, predicted=p)."""
    return Criterion(id, bool(passed), key, fields)


@dataclass
class Verdict:
    """What grading one submission found: `status` (STATUSES), the task's `criteria`, the `seconds` it took after
    the task was imported, the `budget_s` it ran under, and the end of what it printed (`output`)."""
    task: str
    status: str
    criteria: list[Criterion]
    seconds: float = 0.0
    budget_s: float | None = None
    output: str = ''

    @property
    def passed(self) -> bool:
        """True only when every criterion was measured and met."""
        return self.status == 'passed'


def is_out_of_memory(error: BaseException) -> bool:
    """MemoryError, a framework's OutOfMemoryError (found by type name), or PyTorch's CPU allocator failing."""
    if isinstance(error, MemoryError) or any(c.__name__ == 'OutOfMemoryError' for c in type(error).__mro__):
        return True
    return isinstance(error, RuntimeError) and "can't allocate memory" in str(error)  # torch's DefaultCPUAllocator


def error_text(e: BaseException) -> str:
    """'Type: message', its first line, at most 300 characters."""
    return (f'{type(e).__name__}: {e}' if str(e) else type(e).__name__).splitlines()[0][:300]


def _where(error: BaseException, code) -> int | None:
    """The last line of the learner's own source in the error's traceback (None when it never got there)."""
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == code.co_filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def call_learner(fn: Callable, *args, name: str | None = None, **kwargs):
    """For the graders: call the learner's function; (True, its value), or (False, the 'runs' criterion saying why not:
    'grading.todo', or the error with its line in the learner's source). Out of memory propagates (the runner's)."""
    name = name or getattr(fn, '__name__', None) or type(fn).__name__  # a name, in every language
    try:
        return True, fn(*args, **kwargs)
    except NotImplementedError:
        return False, criterion('runs', False, 'grading.todo', name=name)
    except Exception as e:  # noqa: BLE001 (whatever the learner's code raised is the verdict)
        if is_out_of_memory(e):
            raise
        line = _where(e, fn.__code__) if hasattr(fn, '__code__') else None
        key = 'grading.raised' if line is None else 'grading.raised_at'
        key = 'grading.undefined' if isinstance(e, NameError) else key
        return False, criterion('runs', False, key, name=name, error=error_text(e), line=line or 0)


@dataclass
class Submission:
    """The learner's code: its source text and the functions it defines, by name."""
    source: str
    functions: dict[str, Callable]


@dataclass
class Task:
    """A "Build it" task: the functions the learner writes; `grade(submission) -> list[Criterion]` (run in a separate
    process); `budget_s()`, its time bound here; `namespace()`, the names a learner may use without importing."""
    id: str
    section: str
    functions: tuple[str, ...]
    signatures: dict[str, str]
    description_key: str
    grade: Callable[[Submission], list[Criterion]]
    budget_s: Callable[[], float]
    namespace: Callable[[], dict] = dict


def _parameter_names(node: ast.FunctionDef) -> list[str]:
    """A def's parameter names in inspect.signature's order (positional-only, plain, *args, keyword-only, **kwargs)."""
    a = node.args
    names = [p.arg for p in (*a.posonlyargs, *a.args)]
    names += [a.vararg.arg] if a.vararg else []
    names += [p.arg for p in a.kwonlyargs]
    return names + ([a.kwarg.arg] if a.kwarg else [])


def _wanted(signature: str) -> list[str]:
    inside = signature[signature.index('(') + 1:signature.rindex(')')]
    return [p.strip().split('=')[0].split(':')[0].strip().lstrip('*') for p in inside.split(',') if p.strip()]


def parse_submission(signatures: dict[str, str], source: str, filename: str = '<submission>') -> ast.Module:
    """Check a source without running it: it parses and defines each function at top level with the task's parameters
    (BadSubmission otherwise); before a grading process is started, and again inside it."""
    try:
        if '\0' in source:  # Python says 'line 0' or nothing of where
            raise ValueError('NUL')
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        raise BadSubmission('grading.syntax', line=e.lineno or 0, message=e.msg) from None
    except ValueError:  # a NUL byte in the source
        line = source[:source.find('\0')].count('\n') + 1 if '\0' in source else 0
        raise BadSubmission('grading.nul_byte', line=line) from None
    defined = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for name, signature in signatures.items():
        node = defined.get(name)
        if node is None:
            raise BadSubmission('grading.missing', name=name, signature=signature)
        got = _parameter_names(node)
        if got != _wanted(signature):
            raise BadSubmission('grading.signature', name=name, got=', '.join(got), signature=signature)
    return tree


def _is_todo(node: ast.stmt) -> bool:
    """A docstring, `pass`, `...`, or `raise NotImplementedError[(...)]`: what a skeleton's body holds."""
    if isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        return True
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(exc, ast.Name) and exc.id == 'NotImplementedError'
    return False


def untouched(tree: ast.Module, functions) -> list[str]:
    """The required functions still exactly a skeleton, when nothing else runs at the top level: grading could only
    say 'grading.todo', so the runner answers without starting a process."""
    if not all(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Import | ast.ImportFrom)
               or (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)) for n in tree.body):
        return []
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    return [name for name in functions
            if not defs[name].decorator_list and any(isinstance(b, ast.Raise) for b in defs[name].body)
            and all(_is_todo(b) for b in defs[name].body)]


def load_submission(task: Task, source: str, filename: str = '<submission>') -> Submission:
    """Execute the learner's source in a fresh namespace and check each required function's name and parameters;
    BadSubmission (exit 2) for a syntax error, a missing function, other parameters, or an error at the top level."""
    tree = parse_submission(task.signatures, source, filename)
    namespace = dict(task.namespace())
    namespace['__name__'] = '__submission__'
    try:
        exec(compile(tree, filename, 'exec'), namespace)  # noqa: S102 (grading runs the learner's own code)
    except Exception as e:  # noqa: BLE001 (any error in their top level is theirs to fix)
        if is_out_of_memory(e):
            raise  # the runner says 'out_of_memory', not 'bad input'
        raise BadSubmission('grading.top_level', error=error_text(e)) from None
    functions = {}
    for name in task.functions:
        fn = namespace.get(name)
        if not callable(fn):
            raise BadSubmission('grading.missing', name=name, signature=task.signatures[name])
        got = list(inspect.signature(fn).parameters)
        want = _wanted(task.signatures[name])
        if got != want:
            raise BadSubmission('grading.signature', name=name, got=', '.join(got), signature=task.signatures[name])
        functions[name] = fn
    return Submission(source, functions)


def with_lines(fn: Callable, *changes: tuple[str, str]) -> str:
    """`fn`'s source with the one line running each `statement` replaced by `instead` at its indentation ('' drops
    the line; comments do not count): a typical wrong version written as its change to a worked solution."""
    lines = textwrap.dedent(inspect.getsource(fn)).splitlines(keepends=True)
    for statement, instead in changes:
        found = [i for i, line in enumerate(lines) if line.split('#')[0].strip() == statement]
        # a package author's slip, never a learner's: the function, the statement and how often it was found
        assert len(found) == 1, (fn.__name__, statement, len(found))
        line = lines[found[0]]
        lines[found[0]] = line[:len(line) - len(line.lstrip())] + instead + '\n' if instead else ''
    return ''.join(lines)


def _source(fn) -> tuple[str, int]:
    """The function's own source, from the notebook cell or file it was defined in, and its first line there."""
    if not inspect.isfunction(fn):
        raise BadSubmission('grading.not_function', given=type(fn).__name__)
    try:
        found, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise BadSubmission('grading.no_source', name=fn.__name__) from None
    # exec'd code has no file: Python 3.13's linecache may hand back another exec's lines under '<string>'
    if fn.__code__.co_filename == '<string>' or f'def {fn.__name__}' not in ''.join(found):
        raise BadSubmission('grading.no_source', name=fn.__name__)
    return textwrap.dedent(''.join(found)), max(first, 1)


def submitted(task_id: str, wanted, functions) -> str:
    """The source to grade: each function's own source, after checking they are the task's functions (`wanted`).

    One function keeps its lines where they are in its cell, so an error's line number is the cell's.
    A function defined in this package (a worked solution imported instead of written) is refused.
    """
    for fn in functions:
        if (getattr(fn, '__module__', None) or '').startswith('d2l_ext.'):
            raise BadSubmission('grading.worked_solution', name=getattr(fn, '__name__', '?'))
    sources = [_source(fn) for fn in functions]
    given = [fn.__name__ for fn in functions]
    if sorted(given) != sorted(wanted):
        raise BadSubmission('grading.names', task=task_id, given=', '.join(given) or '-', wanted=', '.join(wanted))
    helpers = ''.join('\n\n' + _source(h)[0] for h in _helpers(functions, wanted))
    if len(sources) == 1:
        text, first = sources[0]
        return '\n' * (first - 1) + text + helpers
    return '\n\n'.join(text for text, _ in sources) + helpers


def _helpers(functions, wanted) -> list:
    """The learner's own functions these call (defined in their notebook or file, not this package's), recursively."""
    found, todo = {}, list(functions)
    while todo:
        fn = todo.pop()
        codes, names = [fn.__code__], set()
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes += [c for c in code.co_consts if inspect.iscode(c)]
        for name in sorted(names):
            g = fn.__globals__.get(name)
            if (inspect.isfunction(g) and name not in wanted and name not in found
                    and not (g.__module__ or '').startswith('d2l_ext')):
                found[name] = g
                todo.append(g)
    return list(found.values())
