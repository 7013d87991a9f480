"""13.3.4's one rule for every printed difference and sum: each number is rounded to the places it is shown with
first, then subtracted or added, so a reader's arithmetic on the printed numbers gives the printed result.

display.apart takes the difference between two medians the same way ("96.2 ms and 88.5 ms differ by 7.7 ms"), so
the "(a) minus it" line, its terms, the model's gaps and the panel's column agree with the clause above them.
Values come in seconds and go out in ms (floats already rounded, or strings formatted with their places).
"""
from __future__ import annotations

from ..i18n import t
from ..results import NOISE
from .apart import places as _places

MS = 1e3


def places(*seconds: float) -> int:
    """Decimal places in ms for numbers set beside these medians: the ones display.apart's clause shows them with."""
    return _places(max(abs(s) for s in seconds), 'ms')


def shown(seconds: float, d: int = 1) -> float:
    """`seconds` in ms as printed with `d` places (never -0.0)."""
    return round(seconds * MS, d) + 0.0


def minus(a: float, b: float, d: int = 1) -> float:
    """a - b in ms, from a and b as printed with `d` places (so 96.2 - 88.5 = 7.7, whatever the digits after)."""
    return round(shown(a, d) - shown(b, d), d) + 0.0


def total(parts_ms, d: int = 1) -> float:
    """The sum of numbers already rounded to `d` places, as printed."""
    return round(sum(parts_ms), d) + 0.0


def rest(whole_ms: float, parts_ms, d: int = 1) -> float:
    """What the printed parts leave of the printed whole: whole - sum(parts), so the line adds up as printed."""
    return round(whole_ms - sum(parts_ms), d) + 0.0


def ratio(a_ms: float, b_ms: float) -> float:
    """a / b from the two numbers as printed (nan when b is 0)."""
    return a_ms / b_ms if b_ms else float('nan')


def fmt(ms: float, d: int = 1, sign: bool = False) -> str:
    """A number of ms with its places ('+7.7', '35.8')."""
    return f'{ms + 0.0:{"+" if sign else ""}.{d}f}'


def ratio_text(result, half) -> str:
    """13.3.4, exercise 3: all-reduce alone / the step without all-reduce at the batch and at half of it, then how
    many times the ratio grew beside 2x, all from the ratios as printed (2 places).

    About 2x when neither of the rise and 2 is more than 1 + NOISE times the other (the bounds are printed); 2x is
    what halving gives only if all of the step's time halves with the batch, and the line says so."""
    ratios = [round(r.version('allreduce').median / r.version('backward').median, 2) for r in (result, half)]
    lines = [t('allreduce.ratio', batch=r.batch_per_process, ratio=x) for r, x in zip((result, half), ratios)]
    halved = half.batch_per_process * 2 == result.batch_per_process
    if halved and ratios[0] > 0:
        rise = round(ratios[1] / ratios[0], 2)  # as printed, and the verdict from that printed number
        low, high = round(2 / (1 + NOISE), 2), round(2 * (1 + NOISE), 2)
        key = 'about' if low <= rise <= high else ('more' if rise > high else 'less')
        lines.append(t(f'allreduce.ratio_rise.{key}', rise=rise, new=ratios[1], old=ratios[0], low=low, high=high) +
                     t('allreduce.ratio_rise.why'))
    return '\n'.join(lines)
