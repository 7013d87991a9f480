"""13.3.1's book cell and run_on_lanes cell: each one timing, set against the lanes alone and against each other.

Each `*_text` returns a sentence chosen by the numbers (NOISE as a ratio, the percentage printed with its base);
never a cause. Re-exported by display.parallel.
"""
from __future__ import annotations

from ..i18n import t
from ..results import NOISE
from ..results import close as _close
from .gaps import _sentences, within


def _within(value: float, reference: float) -> bool:
    """`value` within NOISE of `reference`, as a ratio to it (the test 13.3.0's verdict uses: |value/ref - 1|)."""
    return abs(value / reference - 1) <= NOISE


CELLS = ('book', 'runner')  # book_text's subjects: the keys parallel.book.cell.<cell>


def book_text(alone: list[float], both: float, cell: str = 'book') -> str:
    """One timing of both lanes' work against the sum and the slower lane alone (13.3.1).

    `cell` (CELLS) names what was timed: 'book', the book's "both" cell (each `run` in turn from one thread),
    or 'runner', the cell that runs the lanes with a thread per CPU lane: never "together" for the book's cell.
    Each number is one timing. "Close to" is within NOISE as a ratio to that reference (the percentage is printed,
    each with the time it is a share of). Where the timing lies outside what the lanes alone allow (above their
    sum, below the slower lane), a sentence says so and that this run does not test why (book_check_text sets the
    same timing beside the medians measured later).
    """
    total, slower = sum(alone), max(alone)
    key = ('parallel.book.like_max' if _within(both, slower) else 'parallel.book.like_sum' if _within(both, total)
           else 'parallel.book.above_sum' if both > total else 'parallel.book.below_slower' if both < slower
           else 'parallel.book.between')
    text = t(key, both=both, total=total, slower=slower, noise=NOISE, to_slower=abs(both / slower - 1),
             to_total=abs(both / total - 1), cell=t(f'parallel.book.cell.{cell}'),
             within=within(both, total, 'sum') if key == 'parallel.book.like_sum' else within(both, slower, 'slower'))
    if key == 'parallel.book.above_sum':
        text = _sentences(text, t('parallel.book.single'))
    return text


RUNNER = ('like_book', 'slower', 'faster')  # runner_text's outcomes: the keys parallel.runner.<outcome>


def runner_text(alone: list[float], book: float, runner: float) -> str:
    """The runner's one timing (a thread per CPU lane) against the lanes alone (book_text), then against the book's
    "both" cell (one timing too): within NOISE of it, or which took longer and by how much. Numbers only."""
    key = 'like_book' if _within(runner, book) else 'slower' if runner > book else 'faster'
    return _sentences(book_text(alone, runner, cell='runner'),
                      t(f'parallel.runner.{key}', book=book, runner=runner, noise=NOISE,
                        ratio=max(book, runner) / min(book, runner), within=within(runner, book, 'book')))


def book_check_text(both: float, serial: float, together: float) -> str:
    """The book's 'both' cell (one timing) beside the medians of one after the other and together (13.3.1).

    Numbers only: which median it lies within NOISE of, or that it lies near neither; never why.
    """
    fields = dict(both=both, serial=serial, together=together, to_serial=both / serial,
                  to_together=both / together, noise=NOISE)
    fields['within'] = within(both, serial) if _close(both, serial) else within(both, together)
    key = ('parallel.book.check_serial' if _close(both, serial) else
           'parallel.book.check_together' if _close(both, together) else 'parallel.book.check_neither')
    return t(key, **fields)
