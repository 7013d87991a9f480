"""Every table a learner reads, drawn one way (results.render): panels' HTML and the CLI's text (13.3.1-13.3.4)."""
from __future__ import annotations

from ..results import Result, four_digits, frame, render

__all__ = ['Result', 'four_digits', 'frame', 'html', 'runs', 'text']


def _as_frame(table, area: str = 'parallel'):
    """A DataFrame from a result (its to_frame), a list of rows (results.frame) or a DataFrame as it is."""
    if hasattr(table, 'to_frame'):
        return table.to_frame()
    if isinstance(table, list):
        return frame(table, area)
    return table


def html(table, *, classes: str | None = 'd2l-table', na: str = '', float_format=four_digits, index: bool = False,
         area: str = 'parallel') -> str:
    """A panel's table as HTML (class d2l-table for the browser test), numbers to 4 significant digits."""
    return render(_as_frame(table, area), index=index, na=na, float_format=float_format, classes=classes)


def text(table, *, area: str = 'parallel') -> str:
    """A result's table as plain text, for the CLI and logs (numbers to 4 significant digits, no index)."""
    return render(_as_frame(table, area), text=True)


def runs(frames: list, result, lead: dict):
    """Every run so far as one DataFrame: this run's table with `lead` columns ('#', framework) in front, appended."""
    import pandas as pd
    df = _as_frame(result)
    for col, value in reversed(lead.items()):
        df.insert(0, col, value)
    frames.append(df)
    return pd.concat(frames, ignore_index=True)
