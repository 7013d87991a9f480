"""The one wording layer for comparisons and numbers: every lesson's verdict line, its numbers, details on demand.

One rule, defined once (13.3.0) and named the same everywhere: a way is **faster** (or **slower**) than another
only when the middle halves of their repeats (the figure's grey boxes) do not overlap and their medians differ by
at least 5% (results.told_apart); otherwise there is **no clear difference**. A cell prints at most one line
built here, e.g. `together 0.105 s vs one device 0.113 s: faster`. The statistics behind it (medians, quartiles,
every repeat) stay in the result objects; `details(...)` shows them collapsed. Numbers: seconds and milliseconds
to 3 significant digits, ratios to 2 places ('1.84x'), shares as whole percents of a base the sentence names once.
"""
from __future__ import annotations

import math

from ..i18n import t
from ..results import MIN_SHARE, Details, told_apart, within_share  # noqa: F401 (MIN_SHARE: verdict.MIN_SHARE)

WORDS = ('faster', 'slower', 'same')  # the keys verdict.<word>
WAYS = ('faster', 'slower')  # the keys verdict.<way>_by and verdict.<way>_x
UNITS = ('s', 'ms', 'x', '%')  # the keys verdict.unit.<unit>


def sig(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant digits, trailing zeros kept ('0.200'), never in exponent form."""
    if not value or not math.isfinite(value):
        return f'{value:g}'
    value = float(f'{value:.{digits - 1}e}')  # rounded first: 0.09996 is '0.100', not '0.1000'
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f'{value:.{decimals}f}'


def printed_gap(a: float, b: float) -> str:
    """a - b as the difference of the two as printed (sig), no more decimals than they have: 8.81 - 8.80 -> '0.01'."""
    printed = [sig(v) for v in (a, b)]
    return f'{float(printed[0]) - float(printed[1]):.{max(len(p.partition(".")[2]) for p in printed)}f}'


def signed(text: str, negative: bool | None = None) -> str:
    """A printed difference with its sign, '+12.0' or '−3.0' (U+2212): from `negative`, else from the text's '-'."""
    return ('−' if (text.startswith('-') if negative is None else negative) else '+') + text.lstrip('-')


def unit_for(*seconds: float) -> str:
    """'ms' when every value is below 0.1 s, else 's' (one unit per line)."""
    return 'ms' if max(abs(s) for s in seconds) < 0.1 else 's'


def num(value: float, unit: str = 's', digits: int = 3) -> str:
    """A number with its unit in the reader's language: '0.105 s', '12.3 ms', '1.84x', '74%' (0.74 with '%')."""
    if unit in ('x', '%'):
        shown = f'{value:.2f}' if unit == 'x' else f'{value * 100:.0f}'
    else:
        shown = sig(value * 1e3 if unit == 'ms' else value, digits)
    return t(f'verdict.unit.{unit}', value=shown)


def compare(a, b) -> str:
    """'faster', 'slower' or 'same': `a` against `b` (Measurements, or anything with .times and .median)."""
    return 'same' if not told_apart(a, b) else 'faster' if a.median < b.median else 'slower'


def word(a, b) -> str:  # the rule's word alone: 'faster', 'slower' or 'no clear difference' (a against b)
    return t({'faster': 'verdict.faster', 'slower': 'verdict.slower', 'same': 'verdict.same'}[compare(a, b)])


def by(a, b) -> str:
    """'7% faster', '0.8% slower' or 'no clear difference (grey boxes overlap)': the word, and how much, as a share of
    `b`'s median; from 3 times on, as a ratio ('105x as fast', '3.3x as long'). "No clear difference" names which half
    of the rule held it back (boxes that overlap, or medians within 5%): why 26% apart can be no verdict."""
    way = compare(a, b)
    if way == 'same' or not b.median:
        why = 'verdict.why_close' if within_share(a.median, b.median) else 'verdict.why_overlap'
        return t('verdict.same_why', why=t(why))
    ratio = max(a.median, b.median) / max(min(a.median, b.median), 1e-12)
    if ratio >= 3:  # '105x as fast', '3.3x as long': a share would read '99% faster' or '226% slower'
        return t(f'verdict.{way}_x', ratio=sig(ratio, 2))
    share = abs(a.median - b.median) / b.median * 100
    return t(f'verdict.{way}_by', pct=f'{sig(share, 2) if share < 10 else round(share)}%')


def line(name_a: str, a, name_b: str, b, unit: str | None = None) -> str:
    """The one verdict line: 'together 0.105 s vs one device 0.113 s: 7% faster' (medians; `a` judged against `b`,
    the share of `b`'s median)."""
    unit = unit or unit_for(a.median, b.median)
    d = _digits(a.median, b.median)
    return t('verdict.line', a=name_a, ma=num(a.median, unit, d), b=name_b, mb=num(b.median, unit, d), word=by(a, b))


def _digits(a: float, b: float) -> int:
    """3 significant digits, or more where rounding would put the printed medians on the other side of the rule's 5%
    (111.6 vs 106.2 ms is within 5%; '112 vs 106' reads as 5.4%)."""
    for d in (3, 4, 5):
        if within_share(float(sig(a, d)), float(sig(b, d))) == within_share(a, b):
            return d
    return 5


def vs_model(name: str, measured: float, model_name: str, model: float, unit: str | None = None) -> str:
    """A measurement against a model's value, the one wording for it: 'together 0.135 s, 3.5% below the model
    max(t1, t2) 0.140 s', or 'within 5% of' (the rule's 5%; a model value has no repeats, so no boxes). The share
    and its 5% both have the model's value as base, so the printed share never contradicts 'within'."""
    unit = unit or unit_for(measured, model)
    share = abs(measured - model) / model if model else 0.0
    d = next((d for d in (3, 4) if (round(abs(float(sig(measured, d)) / float(sig(model, d) or 1) - 1), 9) < MIN_SHARE)
              == (share < MIN_SHARE)), 5)  # printed values on the same side of 5% as the exact ones
    key = 'near' if share < MIN_SHARE else 'above' if measured > model else 'below'
    pct = f'{sig(share * 100, 2) if share < 0.1 else round(share * 100)}%'
    return t(f'verdict.model_{key}', a=name, ma=num(measured, unit, d), b=model_name, mb=num(model, unit, d), pct=pct)


def guess(value, predicted: float, measured: float, unit: str = 's') -> str:
    """'your guess 1.50x · predicted 2.00x · measured 1.93x'; '' without a guess (the figure shows the prediction,
    and nothing printed nags the learner or gives the answer away in words)."""
    if value is None:
        return ''
    return t('verdict.guess', guess=num(float(value), unit), predicted=num(predicted, unit),
             measured=num(measured, unit))


def lines(*parts: str) -> str:
    """The non-empty parts, one a line (a missing guess leaves no blank line)."""
    return '\n'.join(p for p in parts if p)


def answer(*sentences: str) -> str:
    """A worked answer's printed conclusion: 'Worked answer: ' and its sentences, read from this run's numbers (the
    collapsed cell that prints it is the answer; no markdown beside it)."""
    return t('verdict.answer', text=t('verdict.answer_join').join(s.strip() for s in sentences if s.strip()))


def details(result_or_frame, title: str | None = None) -> Details:
    """Every statistic of a result (its `to_frame()`), or a DataFrame, collapsed until the reader opens it."""
    table = result_or_frame.to_frame() if hasattr(result_or_frame, 'to_frame') else result_or_frame
    return Details(table, title)  # results.Details: the ground's, so every Result has .details() too
