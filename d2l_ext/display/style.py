"""One visual language for every plot and widget of 13.3.0-13.3.3: colours, sizes, fonts.

Colours come from the Okabe-Ito palette (safe for the common colour-vision deficiencies), one
per role: a lane keeps its colour in the plan and in the measured timeline, the GPU and the CPU
keep theirs in every notebook, and so do the compute and copy streams. Text is at least 11 pt
at the default figure size so a projector shows it. In Chinese, plots use an installed CJK font;
without one they fall back to English (never boxes in place of characters): every text a figure
draws comes from catalogue keys and ids through plot_text and plot_lane, in the plot language.
"""
from __future__ import annotations

import matplotlib as mpl
from matplotlib.figure import Figure

from ..i18n import t
from .fonts import cjk_available, cjk_font, plot_lane, plot_language, plot_text  # noqa: F401 (API)

OKABE_ITO = {'blue': '#0072B2', 'orange': '#E69F00', 'green': '#009E73', 'purple': '#CC79A7',
             'sky': '#56B4E9', 'vermillion': '#D55E00', 'yellow': '#F0E442', 'black': '#000000'}
_P = OKABE_ITO
# Roles drawn together differ: lanes 0-3; GPU vs CPU; compute vs copy stream; backward, all-reduce
# and optimizer. Communication (copy stream, link transfer, all-reduce) is vermillion wherever it appears.
ROLES = {
    'lane 0': _P['blue'], 'lane 1': _P['orange'], 'lane 2': _P['purple'], 'lane 3': _P['sky'],
    'gpu': _P['green'], 'cpu': _P['sky'], 'server': _P['green'],  # 13.3.3's parameter server: no GPU drawn beside it
    'compute': _P['blue'], 'copy': _P['vermillion'], 'link': _P['vermillion'],
    'backward': _P['blue'], 'allreduce': _P['vermillion'], 'optimizer': _P['purple'],
    'idle': '#D9D9D9', 'measured': _P['blue'], 'predicted': _P['vermillion'], 'guess': _P['purple'],
}
LANE_ROLES = ('lane 0', 'lane 1', 'lane 2', 'lane 3')
WIDTH_IN = 10.0       # inches: at 100 dpi a 1000 px image, legible on a projector with 12 pt text
ROW_HEIGHT_IN = 3.6
MIN_FONT_PT = 11


def color(role: str) -> str:
    """The hex colour of a role ('lane 0'..'lane 3', 'gpu', 'cpu', 'compute', 'copy', ...); used by every plot."""
    try:
        return ROLES[role]
    except KeyError:
        from ..errors import UsageError
        raise UsageError(t('style.error.no_colour', role=repr(role), roles=', '.join(ROLES))) from None


def lane_role(index: int) -> str:
    """The role of the index-th lane of a plot ('lane 0', ...), cycling past four lanes."""
    return LANE_ROLES[index % len(LANE_ROLES)]


def rc_params() -> dict:
    """The rcParams of the common visual language in the current plot language."""
    # Latin letters, digits and µ look alike in both languages; matplotlib falls back glyph by glyph
    # along an explicit list of families (a generic 'sans-serif' would stop at its first font).
    families = ['DejaVu Sans'] + ([cjk_font()] if plot_language() == 'zh' else [])
    return {
        'font.family': families,
        'font.size': 12, 'axes.titlesize': 13, 'axes.labelsize': 12, 'xtick.labelsize': MIN_FONT_PT,
        'ytick.labelsize': MIN_FONT_PT, 'legend.fontsize': MIN_FONT_PT, 'legend.title_fontsize': MIN_FONT_PT,
        'figure.titlesize': 14, 'figure.figsize': (WIDTH_IN, ROW_HEIGHT_IN), 'figure.dpi': 100,
        'figure.constrained_layout.use': True, 'savefig.dpi': 100,
        'axes.prop_cycle': mpl.cycler(color=[ROLES[r] for r in LANE_ROLES] + [_P['green'], _P['vermillion']]),
        'axes.spines.top': False, 'axes.spines.right': False, 'axes.grid': False,
        'axes.unicode_minus': False,  # CJK fonts and DejaVu both have '-', not all have U+2212
    }


def apply() -> None:
    """Set matplotlib's rcParams to the common visual language (every notebook's first plot calls it)."""
    mpl.rcParams.update(rc_params())


def figure(ncols: int = 1, nrows: int = 1, height: float | None = None, width: float | None = None):
    """A pyplot-free Figure with constrained layout and its axes, sized for a projector; used by every plot.

    Returns (fig, ax) for one panel, else (fig, array of axes). A pyplot-free Figure is shown exactly
    once in Jupyter (as the cell's value or via display(fig)), so no plt.show or plt.close is needed.
    """
    from ..errors import UsageError
    if ncols < 1 or nrows < 1:
        raise UsageError(t('style.error.figure_shape', rows=nrows, cols=ncols))
    apply()
    fig = Figure(figsize=(width or WIDTH_IN, height or ROW_HEIGHT_IN * nrows), layout='constrained')
    axes = fig.subplots(nrows, ncols, squeeze=True)
    return fig, axes


def time_unit(seconds: float) -> tuple[str, float]:
    """Pick s, ms or µs (and the factor to scale seconds by) so tick labels stay short."""
    if seconds >= 1:
        return 's', 1.0
    if seconds >= 1e-3:
        return 'ms', 1e3
    return 'µs', 1e6


UNIT_KEYS = {'s': 'style.unit.s', 'ms': 'style.unit.ms', 'µs': 'style.unit.us', 'us': 'style.unit.us'}


def unit_text(unit: str, plot: bool = True) -> str:
    """A time unit's symbol in the plot language (plot=False: the learner's), e.g. 'ms' or 毫秒; others as given."""
    key = UNIT_KEYS.get(unit)
    if key is None:
        return unit
    return plot_text(key) if plot else t(key)
