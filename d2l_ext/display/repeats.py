"""Every repeat of every variant as a dot, the median marked, the prediction beside; used by 13.3.1-13.3.3.

A median alone hides noise (a separate run's median can beat an "ideal"); the dots show how far
the repeats spread, so a learner can tell a real difference from drift.
"""
from __future__ import annotations

from collections.abc import Mapping

from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..i18n import t, tight
from ..results import Measurement, quartiles
from . import style
from .verdict import sig

TIME_UNITS = {'s': 1.0, 'ms': 1e3, 'µs': 1e6, 'us': 1e6}
ROW_SPREAD = 0.3  # repeats spread over this share of a row, in the order they ran, so drift shows
BAND = '0.82'  # the grey of the middle halves (13.3.2's too)
FAR = 3.0  # a repeat over FAR x the largest median, prediction or guess is drawn at the axis edge, its value written


def _usage(key: str, **fields):
    from ..errors import UsageError
    return UsageError(t(key, **fields))


def _times(results) -> dict[str, list[float]]:
    """{variant: every repeat's value} from a Comparison, {name: Measurement}, {name: [values]} or {name: as_dict()}."""
    results = getattr(results, 'measurements', results)
    if not isinstance(results, Mapping) or not results:
        raise _usage('style.error.repeats_input')
    out = {}
    for name, value in results.items():
        times = getattr(value, 'times', None)
        if times is None:
            times = value.get('times') if isinstance(value, Mapping) else value
        try:
            times = [float(x) for x in times]
        except (TypeError, ValueError):
            raise _usage('style.error.repeats_numbers', name=repr(name), value=repr(value)) from None
        if not times:
            raise _usage('style.error.repeats_empty', name=repr(name))
        out[str(name)] = times
    return out


def _scale(unit: str, largest: float) -> tuple[str, float, str]:
    """(unit shown, factor, axis label): time units scale seconds ('auto' picks one), any other unit is shown as is."""
    if unit == 'auto':
        unit = style.time_unit(largest)[0]
    if unit in TIME_UNITS:
        shown = style.unit_text(unit)
        return shown, TIME_UNITS[unit], style.plot_text('style.time_axis', unit=shown)
    return unit, 1.0, unit


def plot_repeats(comparison_or_dict_of_times, ax=None, predicted: dict[str, float] | None = None, title=None,
                 unit='s', labels=None, guess: dict[str, float] | None = None, halves: bool = False,
                 predicted_label: str | None = None):
    """One row per variant: each repeat a dot (run order), the median a black bar, the prediction hatched beside;
    a repeat far beyond every median (FAR) an arrowhead at the axis edge with its value;
    `halves`: the middle half of each row's repeats a grey band (the comparison rule reads it, display.verdict).

    Values are seconds when `unit` is 's', 'ms', 'µs' or 'auto' (shown in that unit), else shown as given
    (e.g. unit='GB/s'). predicted: {variant: value in the same base unit}; a variant may lack one.
    guess: {variant: the learner's guess, same base unit}, drawn as a diamond on its row (None values skipped).
    predicted_label: the legend's name for the hatched bars, in the plot language (default: the model's).
    labels: {variant id: text in the plot language} for the rows (plot_text, plot_lane); a variant
    without one is shown as its id. title: text in the plot language.
    Returns the Figure. Used by 13.3.1-13.3.3 for every timed comparison.
    """
    times = _times(comparison_or_dict_of_times)
    predicted = dict(predicted or {})
    guess = {k: float(v) for k, v in (guess or {}).items() if v is not None}
    unknown = (set(predicted) | set(guess)) - set(times)
    if unknown:
        raise _usage('style.error.predicted_unknown', names=', '.join(map(repr, sorted(unknown))),
                     variants=', '.join(times))
    # The axis fits the medians, predictions and guesses; a repeat beyond FAR x the largest of them (one stalled run)
    # is drawn as an arrowhead at the edge with its value written, so it cannot squeeze every box to a sliver.
    row_medians = {name: Measurement(name, values).median for name, values in times.items()}  # the one place
    typical = max([*row_medians.values(), *predicted.values(), *guess.values()])
    largest = max(v for values in times.values() for v in values)
    edge = min(largest, FAR * typical) if typical > 0 else largest
    if halves:  # a grey box of 8+ repeats stays on the axis (with fewer, its quartile may be one stalled run)
        edge = max([edge] + [quartiles(Measurement(n, v))[1] for n, v in times.items() if len(v) >= 8])
    unit, scale, xlabel = _scale(unit, max(edge, typical))
    sep = '' if unit == '%' else ' '  # '93.7%', as verdict.num writes a share; '3.10 ms'
    if ax is None:
        _, ax = style.figure(height=max(2.6, 1.4 + 0.65 * len(times)))
    else:
        style.apply()
    measured, median_colour, pred_colour = style.color('measured'), 'black', style.color('predicted')
    medians = []
    for y, (name, values) in enumerate(times.items()):
        n = len(values)
        # Measured in the upper part of the row, the prediction as a hatched bar just below it.
        ys = [y - 0.3 + ROW_SPREAD * i / (n - 1) for i in range(n)] if n > 1 else [y - 0.15]
        near = [(v, yy) for v, yy in zip(values, ys) if v <= edge]
        ax.scatter([v * scale for v, _ in near], [yy for _, yy in near], s=45, color=measured, alpha=0.8,
                   linewidths=0, zorder=3)
        far = [(v, yy) for v, yy in zip(values, ys) if v > edge]
        for _, yy in far:  # an arrowhead each; the largest's value written once (several labels would stack)
            ax.scatter([edge * scale], [yy], s=60, marker='>', color=measured, zorder=3)
        if far:
            v, yy = max(far)
            ax.annotate(tight(f'{sig(v * scale)}{sep}{unit}'), (edge * scale, yy), xytext=(-6, 0),
                        textcoords='offset points', ha='right', va='center', fontsize=style.MIN_FONT_PT)
        med = row_medians[name]
        if halves:
            q1, q3 = (q * scale for q in quartiles(Measurement(name, values)))
            ax.fill_betweenx([y - 0.38, y + 0.08], q1, q3, color=BAND, zorder=1, linewidth=0)
            ax.add_patch(Rectangle((q1, y - 0.38), q3 - q1, 0.46, fill=False, edgecolor='0.45', linewidth=1.2,
                                   zorder=3.5))  # its outline above the dots, so a box under many repeats still shows
        ax.vlines(med * scale, y - 0.38, y + 0.08, colors=median_colour, linewidth=3, zorder=4)
        if name in predicted:
            ax.barh(y + 0.25, predicted[name] * scale, height=0.2, fill=False, hatch='///', edgecolor=pred_colour,
                    linewidth=1.5, zorder=2)
        if name in guess:
            ax.scatter([guess[name] * scale], [y - 0.15], s=140, marker='D', color=style.color('guess'), zorder=5,
                       edgecolors='white')
        # under the row's name, never beside an outlier or under the legend; named 'median' (zh: 中位数3.10毫秒)
        medians.append(tight(f"{style.plot_text('style.median')} {sig(med * scale)}{sep}{unit}"))
    handles = [Line2D([], [], ls='', marker='o', color=measured, label=style.plot_text('style.measured')),
               Line2D([], [], ls='', marker='|', markersize=14, markeredgewidth=3, color=median_colour,
                      label=style.plot_text('style.median'))]
    if halves:
        handles.append(Patch(facecolor=BAND, edgecolor='0.45', linewidth=1.2, label=style.plot_text('style.grey_box')))
    if predicted:
        handles.append(Patch(fill=False, hatch='///', edgecolor=pred_colour, lw=1.5,
                             label=predicted_label or style.plot_text('style.predicted')))
    if largest > edge:
        handles.append(Line2D([], [], ls='', marker='>', markersize=8, color=measured,
                              label=style.plot_text('style.beyond')))
    if guess:
        handles.append(Line2D([], [], ls='', marker='D', markersize=10, color=style.color('guess'),
                              label=style.plot_text('style.guess')))
    ax.set_yticks(range(len(times)), [f'{(labels or {}).get(name, name)}\n{median}'
                                      for name, median in zip(times, medians)])
    ax.set_ylim(len(times) - 0.5, -0.5)  # first variant on top, as given
    clipped = largest > edge  # a far repeat's arrowhead then sits on the axis's right end, not inside it
    ax.set_xlim(0, max(edge, typical) * scale * (1.02 if clipped else 1.15))  # from zero, so ratios read true
    ax.set_xlabel(xlabel)
    ax.grid(axis='x', alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    if title:
        ax.set_title(title, loc='left')
    return ax.figure

