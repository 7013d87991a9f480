"""Typed results of every section's experiments, their one measurement type and their one table (13.3.1-13.3.4).

A timed variant is a `Measurement` (every repeat; median, IQR, min and max computed once, as torch.utils.benchmark
keeps them), with the one comparison rule (`told_apart`); a section's result is made of these, printed as JSON
(`to_json()`) or as one table (`to_frame()`: rows keyed by column ids, translated when drawn; `render()` writes it).
"""
from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass, field

from .i18n import t

# On a shared 2-core machine medians within 10% of each other are "about the same"; an IQR above 10% of
# the median is what torch.utils.benchmark flags as high variance too. Every noise judgement uses it.
NOISE = 0.1
# The one comparison rule also needs a difference worth a sentence: medians apart by less than 5% of the slower
# are "no clear difference" however tight the repeats (a reader took "0.15% faster" for a finding).
MIN_SHARE = 0.05


def _quartiles(times) -> tuple[float, float]:
    q = statistics.quantiles(times, n=4, method='inclusive')
    return q[0], q[2]


def spread(times: list[float]) -> tuple[float, float]:
    """(median, IQR) of repeated times: the one place both are computed (IQR by inclusive quartiles)."""
    first, third = _quartiles(times) if len(times) >= 2 else (0.0, 0.0)
    return statistics.median(times), third - first


def close(a: float, b: float, of: float | None = None) -> bool:
    """Two medians about the same: apart by at most NOISE of the larger (or of `of`) (13.3.1, 13.3.2)."""
    return abs(a - b) <= NOISE * (max(a, b) if of is None else of)


def chance_gap(*measurements: Measurement) -> float:
    """How far apart these medians may be by chance: the largest IQR among them (13.3.4)."""
    return max((m.iqr for m in measurements), default=0.0)


def quartiles(m) -> tuple[float, float]:
    """(first, third) quartile of a Measurement's repeats, as spread() computes its IQR; the median twice for fewer
    than two repeats (a recording that kept the median alone)."""
    return _quartiles(m.times) if len(m.times) >= 2 else (m.median, m.median)


def within_share(x: float, y: float) -> bool:
    """Two medians within MIN_SHARE (5%) of the larger: the rule's first half (told_apart, verdict)."""
    return abs(x - y) < MIN_SHARE * max(x, y)


def told_apart(a, b) -> bool:
    """The package's one test of two ways' repeats (every section), the one a figure's grey boxes show: the
    interquartile ranges (the middle half of each way's repeats) do not overlap, and the medians differ by at least
    MIN_SHARE of the slower.

    Sentences that use it say "the middle halves of the repeats do not overlap", not that every repeat differs:
    one outlying repeat neither makes nor undoes a difference.
    """
    if within_share(a.median, b.median):
        return False
    (a0, a1), (b0, b1) = quartiles(a), quartiles(b)
    return not (a0 <= b1 and b0 <= a1)


@dataclass(init=False)
class Measurement:
    """Every repeat of one timed variant (seconds), its median, IQR, min and max computed once (every section).

    `Measurement(label, times)`, read-only; the statistics are fields, so JSON keeps them. A recording made before
    repeats were kept has a median alone (no times)."""
    label: str
    median: float
    iqr: float = 0.0
    min: float | None = None
    max: float | None = None
    times: list[float] = field(default_factory=list)

    def __init__(self, label: str = '', times=(), *, median: float | None = None, iqr: float = 0.0,
                 min: float | None = None, max: float | None = None):  # min and max: the JSON field names
        self.label, self.times = label, [float(x) for x in times]
        if self.times:  # the one place the statistics are computed
            self.median, self.iqr = spread(self.times)
            self.min, self.max = _min(self.times), _max(self.times)
        else:
            self.median, self.iqr, self.min, self.max = median, iqr, min, max

    @classmethod
    def of(cls, measurement, label: str | None = None) -> Measurement:
        """A copy of a Measurement (or of any object with .label and .times), relabelled when `label` is given."""
        return cls(label if label is not None else measurement.label, measurement.times)

    @classmethod
    def from_times(cls, ts: list[float], label: str) -> Measurement:
        """From raw repeats."""
        return cls(label, ts)

    @property
    def repeats(self) -> int:
        """How many repeats were timed."""
        return len(self.times)

    def repeated(self) -> list[float]:
        """Every repeat to draw, or the median alone for a recording made before repeats were kept."""
        return list(self.times) or [self.median]

    def as_dict(self) -> dict:
        """JSON-ready summary: label, median, iqr, min, max, repeats, every time (the CLI's JSON fields)."""
        return {'label': self.label, 'median': self.median, 'iqr': self.iqr, 'min': self.min, 'max': self.max,
                'repeats': self.repeats, 'times': list(self.times)}

    def __str__(self) -> str:
        return (f'{self.label}: median {self.median:.4f} s '
                f'(IQR {self.iqr:.4f} s, {self.repeats} runs)')


_min, _max = min, max  # the builtins, shadowed by Measurement.__init__'s field-named arguments
Times = Measurement  # the name the sections use (one type: issue 22 item 5)


class Result:
    """Mixin for the experiments' dataclasses: JSON via asdict, one table via `table_rows()`."""
    area = 'parallel'  # the catalogue area whose '<area>.variant.<name>' keys name the rows (not a field)

    def to_json(self) -> dict:
        """JSON-ready (the CLI's --json and `record`)."""
        return dataclasses.asdict(self)

    def table_rows(self) -> list[dict]:
        """One dict per table row, keys are catalogue keys of column names (panels.col.*)."""
        raise NotImplementedError

    def to_frame(self):
        """The result as a pandas DataFrame, columns in the current language."""
        return frame(self.table_rows(), self.area)

    def _repr_html_(self):  # a result as a cell's value shows its table
        return render(self.to_frame())

    def details(self, title: str | None = None) -> Details:
        """Every statistic (medians, quartiles, every repeat), collapsed until opened: for an instructor or a curious
        student; the lessons' cells print one verdict line instead."""
        return Details(self.to_frame(), title)


class Details:
    """A table shown on demand: a collapsed <details> element in a notebook, plain text elsewhere (every section)."""

    def __init__(self, table, title: str | None = None):
        self.table, self.title = table, title or t('verdict.details')

    def _repr_html_(self) -> str:
        import html
        body = render(self.table) if hasattr(self.table, 'to_html') else f'<pre>{html.escape(str(self.table))}</pre>'
        return f'<details><summary>{html.escape(self.title)}</summary>{body}</details>'

    def __repr__(self) -> str:
        return render(self.table, text=True) if hasattr(self.table, 'to_string') else str(self.table)


# The timing columns are named alike in every table (timing.Comparison's too).
_SHARED = {'median': 'core.col_median', 'iqr': 'core.col_iqr', 'min': 'core.col_min', 'max': 'core.col_max',
           'repeats': 'core.col_times'}


def frame(rows: list[dict], area: str = 'parallel'):
    """DataFrame from rows keyed by column keys ('median', ...); headers and known row names translated.

    A 'variant', 'mode' or 'expectation' value with a catalogue key '<area>.variant.<value>' (or
    '<area>.mode.<value>', '<area>.rule.<value>') is shown in the current language; others (lane labels) as they are.
    """
    import pandas as pd

    from .i18n import catalogue
    known = catalogue('en')
    kinds = {'variant': 'variant', 'mode': 'mode', 'expectation': 'rule', 'plan': 'plan'}
    rows = [{k: (t(f'{area}.{kinds[k]}.{v}') if k in kinds and f'{area}.{kinds[k]}.{v}' in known else v)
             for k, v in row.items()} for row in rows]
    df = pd.DataFrame(rows)
    return df.rename(columns={c: t(_SHARED.get(c, f'panels.col_{c}')) for c in df.columns})


def timing_row(times: Measurement, **before) -> dict:
    """The timing columns every table shares: median, IQR, min, max and every repeat (seconds)."""
    return dict(before, median=times.median, iqr=times.iqr, min=times.min, max=times.max,
                repeats=', '.join(f'{x:.4g}' for x in times.times))


def four_digits(value: float) -> str:
    """A table's number: 4 significant digits (seconds, ratios and rates alike)."""
    return f'{value:.4g}'


def render(table, *, text: bool = False, index: bool = False, na: str = '', float_format=four_digits,
           classes: str | None = None) -> str:
    """The one table renderer: a DataFrame as HTML (or plain text with `text=True`), every table of 13.3.1-13.3.4.

    Here, below the sections, so a result shows itself as a cell's value; display.tables is the display's door to it.
    """
    if text:
        return table.to_string(index=index, float_format=float_format, na_rep=na)
    return table.to_html(index=index, na_rep=na, float_format=float_format, classes=classes)
