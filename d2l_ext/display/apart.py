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


def places(value: float, unit: str) -> int:
    """Decimal places that show `value` in `unit` as a clause shows every number: ms to three significant digits
    but at least 0.1 ms (140.5, 90.0, 2.21), seconds to four significant digits, ratios to 0.01. Trailing zeros
    are kept, so the numbers of one clause line up."""
    if unit == 'x':
        return 2
    shown = abs(value) * (1e3 if unit == 'ms' else 1)
    if not shown > 0:
        return 1
    if unit == 'ms':
        return max(1, 2 - math.floor(math.log10(shown)))
    return max(0, 3 - math.floor(math.log10(shown)))


def _fixed(value: float, unit: str, decimals: int) -> str:
    return f'{value * (1e3 if unit == "ms" else 1):.{decimals}f}'


def halves(m, unit: str, name: str | None = None, decimals: int | None = None) -> str:
    """The middle half of a way's repeats, 'q1–q3' with its unit, after its name if given (results.quartiles).

    `decimals`: the clause's places (the same for every number in it); by default those of the median.
    """
    q1, q3 = quartiles(m)
    d = places(m.median, unit) if decimals is None else decimals
    shown = t(f'apart.unit.{unit}', value=f'{_fixed(q1, unit, d)}–{_fixed(q3, unit, d)}')
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
    # One number of places for the whole clause, and the difference taken between the medians as shown, so the
    # numbers a reader sees add up (110.5 - 90.0 = 20.5, not "111 and 90 differ by 20"). The places start from the
    # larger median, plus up to two where the smaller needs them (17.40 and 1.25 ms, not 17.4 and 1.2), then grow
    # where rounding would print the opposite of the test ("differ by 0.0159 s, more than the larger interquartile
    # range (0.0159 s)", ranges that touch when told apart, or a spanning range printed 'x–x').
    top = places(max(abs(a.median), abs(b.median)), unit)
    d = min(max(places(a.median, unit), places(b.median, unit)), top + 2)
    scale = 1e3 if unit == 'ms' else 1
    for extra in range(4):
        diff = round(abs(round(a.median * scale, d) - round(b.median * scale, d)), d)  # as printed, no float residue
        gap = round(chance_gap(a, b) * scale, d)
        (a1, a3), (b1, b3) = ((round(q * scale, d) for q in quartiles(m)) for m in (a, b))
        ok = {'yes': diff > gap and (a3 < b1 or b3 < a1), 'overlap': diff > gap, 'close': diff <= gap}
        # a middle half that spans something must not print as 'x–x', nor two different medians as one number
        spans = all(lo < hi or not q_lo < q_hi for (lo, hi), (q_lo, q_hi) in zip(((a1, a3), (b1, b3)),
                                                                              (quartiles(a), quartiles(b))))
        distinct = diff > 0 or a.median == b.median
        if (ok.get(outcome, True) and spans and distinct) or extra == 3:
            break
        d += 1
    diff /= scale

    def shown(value: float) -> str:
        return t(f'apart.unit.{unit}', value=_fixed(value, unit, d))
    values = dict(ma=shown(a.median), mb=shown(b.median))
    # A difference of two ratios (or their IQR) is not a ratio: shown as a plain number ('differ by 0.96', not 0.96x).
    between = (lambda value: _fixed(value, unit, d)) if unit == 'x' else shown
    fields = dict(medians=t('apart.medians' if medians else 'apart.medians_plain', **values), **values,
                  diff=between(diff), gap=between(chance_gap(a, b)),
                  a=halves(a, unit, names[0], d), b=halves(b, unit, names[1], d))
    return Apart(told, outcome, faster, t(f'apart.{outcome}', **fields))
