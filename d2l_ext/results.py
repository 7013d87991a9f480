"""Typed results of every section's experiments, and their one table (13.3.1, 13.3.2, 13.3.3, 13.3.4).

Below the sections and above the ground: a section builds its result from these types, the CLI
prints it (`to_json()` is `dataclasses.asdict`), and a notebook, widget or CLI shows it as one
table (`to_frame()`: rows keyed by column ids, translated only when the table is drawn).
"""
from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass, field

from .i18n import t


def spread(times: list[float]) -> tuple[float, float]:
    """(median, IQR) of repeated times: the one place both are computed (IQR by inclusive quartiles)."""
    iqr = 0.0
    if len(times) >= 2:
        q = statistics.quantiles(times, n=4, method='inclusive')
        iqr = q[2] - q[0]
    return statistics.median(times), iqr


@dataclass
class Times:
    """Every repeat of one timed variant, with its median and spread (seconds)."""
    label: str
    median: float
    iqr: float = 0.0
    min: float | None = None
    max: float | None = None
    times: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, measurement, label: str | None = None) -> Times:
        """From a timing.Measurement (or any object with .label and .times)."""
        ts = list(measurement.times)
        return cls.from_times(ts, label if label is not None else measurement.label)

    @classmethod
    def from_times(cls, ts: list[float], label: str) -> Times:
        """From raw repeats."""
        median, iqr = spread(ts)
        return cls(label, median, iqr, min(ts), max(ts), ts)

    @classmethod
    def from_json(cls, value, label: str = '') -> Times:
        """From saved JSON: a dict of these fields, or a bare median (recordings made before repeats were kept)."""
        if isinstance(value, (int, float)):
            return cls(label, float(value))
        fields = {f.name for f in dataclasses.fields(cls)}
        d = {k: v for k, v in value.items() if k in fields}
        d.setdefault('label', label)
        return cls(**d)


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
        return self.to_frame().to_html(index=False, na_rep='')


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


def timing_row(times: Times, **before) -> dict:
    """The timing columns every table shares: median, IQR, min, max and every repeat (seconds)."""
    return dict(before, median=times.median, iqr=times.iqr, min=times.min, max=times.max,
                repeats=', '.join(f'{x:.4g}' for x in times.times))
