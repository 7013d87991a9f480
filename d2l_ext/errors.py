"""Errors a learner can act on: each message says what to change."""


class UsageError(ValueError):
    """Bad input (size, iterations, device, framework, memory, run time); the message says what to change.

    The CLI turns it into exit code 2 and one line; the widgets show it in their output area.
    """


class RunTooLong(UsageError):
    """A run estimated to take longer than the caller allows; the message gives the estimate and a smaller choice."""


class ResultMismatch(AssertionError):
    """A timed computation returned a wrong answer (checked against a float64 reference)."""


class FrameworkMissing(UsageError):
    """A framework (MXNet) was asked for but is not installed in this environment."""


class WorkerFailed(RuntimeError):
    """A framework's worker process stopped (killed, out of memory, crashed); the next run starts a fresh one."""
