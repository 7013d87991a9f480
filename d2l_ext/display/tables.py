"""A result's table as plain text (13.3.1, 13.3.2): the CLI's text output; the table itself is results.frame."""
from __future__ import annotations

from ..results import Result


def text(result: Result) -> str:
    """A result's table as plain text, for the CLI and logs (floats to 4 decimals, no index)."""
    return result.to_frame().to_string(index=False, float_format=lambda x: f'{x:.4g}', na_rep='')
