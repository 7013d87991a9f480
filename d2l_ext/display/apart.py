"""The one sentence for results.told_apart (every lesson): both parts of the test in order, with the numbers.

The test lives in d2l_ext.results (medians further apart than the larger interquartile range AND the middle halves
of the repeats not overlapping); this module is its one wording, so 13.3.0-13.3.4 say it the same way and a reader
can check it against the dots. A lesson adds its own head ("overlapped beat run then copy") by the outcome.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..i18n import t
from ..results import chance_gap, quartiles, told_apart

UNITS = ('s', 'ms', 'x')  # the keys apart.unit.<unit>
OUTCOMES = ('yes', 'close', 'overlap', 'single')  # the keys apart.<outcome>


def sig(value: float, digits: int) -> str:
    """`value` to `digits` significant digits, never in exponent form ('0.00024', not '2.4e-04')."""
    shown = f'{value:.{digits}g}'
    if 'e' in shown and value:
        shown = f'{value:.{max(0, digits - 1 - math.floor(math.log10(abs(value))))}f}'
    return shown


def number(value: float, unit: str, digits: int | None = None) -> str:
    """A number shown in `unit`: seconds to 4 significant digits, ms to 3, a ratio to 2 places; or to `digits`."""
    if unit == 'x':
        return f'{value:.2f}'
    return sig(value * (1e3 if unit == 'ms' else 1), digits or (4 if unit == 's' else 3))


def in_unit(value: float, unit: str, digits: int | None = None) -> str:
    """A number with its unit in the current language ('0.504 s', '1.84x'; '0.504 秒', '1.84 倍').

    `digits`: significant digits instead of number's (a difference or an IQR needs fewer than a quartile).
    """
    return t(f'apart.unit.{unit}', value=number(value, unit, digits))


def halves(m, unit: str, name: str | None = None) -> str:
    """The middle half of a way's repeats, 'q1–q3' with its unit, after its name if given (results.quartiles)."""
    q1, q3 = quartiles(m)
    shown = t(f'apart.unit.{unit}', value=f'{number(q1, unit)}–{number(q3, unit)}')
    return shown if name is None else t('apart.named', name=name, range=shown)


@dataclass(frozen=True)
class Apart:
    """results.told_apart's verdict on two ways and its clause; `faster` is 'a' or 'b' when told apart, else None."""
    told: bool
    outcome: str  # one of OUTCOMES
    faster: str | None
    clause: str


def apart(a, b, unit: str = 'auto', names: tuple[str | None, str | None] = (None, None),
          medians: bool = True) -> Apart:
    """Two ways' repeats (Measurements) by results.told_apart, and the clause that says both parts in order.

    `unit`: 's', 'ms' or 'x'; 'auto' gives ms where both medians are below 0.1 s, else seconds. `names` label each
    way's middle half (13.3.4 names its versions); `medians=False` leaves the medians' values out where the sentence
    before the clause already gives them. Ways with one median each (no repeats kept) are said to have no
    spread to compare (told_apart treats them as points).
    """
    if unit == 'auto':
        unit = 'ms' if max(a.median, b.median) < 0.1 else 's'
    digits = None if unit == 'x' else 2
    values = dict(ma=in_unit(a.median, unit), mb=in_unit(b.median, unit))
    fields = dict(medians=t('apart.medians' if medians else 'apart.medians_plain', **values), **values,
                  diff=in_unit(abs(a.median - b.median), unit, digits), gap=in_unit(chance_gap(a, b), unit, digits),
                  a=halves(a, unit, names[0]), b=halves(b, unit, names[1]))
    told = told_apart(a, b)
    if len(a.times) < 2 and len(b.times) < 2:
        outcome = 'single'
    elif told:
        outcome = 'yes'
    elif abs(a.median - b.median) <= chance_gap(a, b):
        outcome = 'close'
    else:
        outcome = 'overlap'
    faster = ('a' if a.median < b.median else 'b') if told else None
    return Apart(told, outcome, faster, t(f'apart.{outcome}', **fields))
