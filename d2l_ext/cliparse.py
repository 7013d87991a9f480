"""What both command lines share (`python -m d2l_ext`, `python -m d2l_ext.allreduce`): one-line errors, Ctrl-C.

Ctrl-C in a terminal goes to the whole process group, so a worker still importing PyTorch would print its own
traceback. A program therefore blocks SIGINT before anything starts (children inherit the block); a thread waits
for it and raises KeyboardInterrupt in the main thread, again every RETRY_S seconds until run_program has taken
over (PyTorch's C++ code swallows it while importing numpy); then Ctrl-C is ignored and the run ends in one line.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time

from .errors import ResultMismatch, UsageError, WorkerFailed

INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C
RETRY_S = 2.0  # long enough for a `finally` to end processes, short enough for a person waiting
_state = {'interrupted': False, 'handling': False, 'leaving': False}


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad option in one line with exit code 2 (argparse prints the whole usage first)."""

    def error(self, message):
        from .i18n import t
        self.exit(2, t('cli.error', prog=self.prog, message=t('core.see_help', message=message)) + '\n')


def parser_with_subcommands(prog: str, description: str | None = None):
    """A one-line parser and its subcommands (every subcommand reports errors in one line too)."""
    p = OneLineParser(prog=prog, description=description)
    return p, p.add_subparsers(dest='command', required=True, parser_class=OneLineParser)


def _on_interrupt(signum, frame):
    if _state['handling'] or _state['leaving']:
        return  # run_program is ending the run, or everything is done: nothing more to say
    _state['interrupted'] = True
    raise KeyboardInterrupt


def _forward_interrupts():
    import _thread
    while True:
        signal.sigwait({signal.SIGINT})
        while not (_state['handling'] or _state['leaving']):
            _thread.interrupt_main(signal.SIGINT)  # runs _on_interrupt in the main thread
            time.sleep(RETRY_S)


def guard_interrupts() -> None:
    """Called first by a program's main thread: Ctrl-C raises KeyboardInterrupt once; children never see it."""
    _state.update(interrupted=False, handling=False, leaving=False)
    signal.signal(signal.SIGINT, _on_interrupt)
    if hasattr(signal, 'pthread_sigmask') and hasattr(signal, 'sigwait'):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        threading.Thread(target=_forward_interrupts, name='d2l_ext-ctrl-c', daemon=True).start()


def interrupted() -> bool:
    """True once Ctrl-C arrived in a guarded program."""
    return _state['interrupted']


def run_program(prog: str, work, cleanup=None) -> int:
    """Run `work()` (parse and dispatch, returning the exit code): every error one line, Ctrl-C exit 130. After a
    Ctrl-C all that follows is the interrupt (an import cut in half raises odd errors later)."""
    from .i18n import t
    try:
        return work()
    except BaseException as e:
        _state['handling'] = True  # first, before any call: no KeyboardInterrupt from here on
        if isinstance(e, KeyboardInterrupt) or (interrupted() and not isinstance(e, SystemExit)):
            print(t('cli.interrupted', prog=prog), file=sys.stderr, flush=True)
            return INTERRUPTED
        if isinstance(e, BrokenPipeError):  # `... | head`: the reader left; say nothing more
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        if isinstance(e, (UsageError, ResultMismatch, WorkerFailed)):
            print(t('cli.error', prog=prog, message=' '.join(str(e).split('\n'))), file=sys.stderr, flush=True)
            return 2 if isinstance(e, UsageError) else 1
        raise
    finally:
        if cleanup is not None:
            try:
                cleanup()
            except BaseException:  # a Ctrl-C during cleanup: the one line is printed already
                if not interrupted():
                    raise


def leave(code: int):
    """End the program with `code`; after a Ctrl-C nothing more is printed (interpreter teardown included)."""
    _state['leaving'] = True
    sys.stdout.flush()
    sys.stderr.flush()
    if code == INTERRUPTED:  # a half-finished import may complain while Python tears down: say nothing more
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
    sys.exit(code)
