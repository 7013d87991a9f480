"""Errors a learner can act on: each message says what to change (every section); in a notebook, imported with the
package, they show as one line from the first cell on (one_line_errors_in_notebooks)."""
import sys


class UsageError(ValueError):
    """Bad input (size, iterations, device, framework, memory, run time); the message says what to change (the CLI:
    exit code 2 and one line; the widgets: their output area)."""


class RunTooLong(UsageError):
    """A run estimated to take longer than the caller allows; the message gives the estimate and a smaller choice."""


class ResultMismatch(AssertionError):
    """A timed computation returned a wrong answer (checked against a float64 reference)."""


class FrameworkMissing(UsageError):
    """A framework (MXNet) was asked for but is not installed in this environment."""


class WorkerFailed(RuntimeError):
    """A framework's worker process stopped (killed, out of memory, crashed); the next run starts a fresh one."""


class WorkerHung(WorkerFailed):
    """A worker process alive but giving no answer or sign of life within its bound; it was stopped."""


def _one_line(shell, etype, value, tb, tb_offset=None):
    """Bad input, or a worker or process that failed, in a notebook: one line, not 30 lines of traceback."""
    line = f'{etype.__name__}: {value}'
    try:
        shell._showtraceback(etype, value, [line])  # the cell's error, so Run All stops here as for any error
    except Exception:
        print(line, file=sys.stderr)


def one_line_errors_in_notebooks() -> None:
    """In IPython (notebooks, widgets): UsageError and WorkerFailed show as one line; another handler is kept."""
    ipython = sys.modules.get('IPython')
    if ipython is None:  # not in a notebook or IPython shell (importing it costs the CLI time), or not installed
        return
    shell = ipython.get_ipython()
    if shell is not None and not shell.custom_exceptions:
        shell.set_custom_exc((UsageError, WorkerFailed), _one_line)


one_line_errors_in_notebooks()
