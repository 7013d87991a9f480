"""Chinese text in plots: find a CJK font, or fall back to English labels with one hint (13.3.x, zh notebooks).

Without a font that draws Chinese, matplotlib would draw boxes. Plot text then falls back to
English: every text a figure draws is made from a catalogue key (`plot_text`) or a lane id
(`plot_lane`) in `plot_language()`, never translated first and turned back.
"""
from __future__ import annotations

import functools
import sys

from matplotlib import font_manager

from ..i18n import language, text_in

CJK_FONTS = ('Noto Sans CJK SC', 'Source Han Sans SC', 'Source Han Sans CN', 'Noto Sans SC', 'PingFang SC',
             'Microsoft YaHei', 'SimHei', 'WenQuanYi Zen Hei', 'WenQuanYi Micro Hei', 'Heiti SC',
             'Noto Sans CJK JP', 'Noto Sans CJK TC', 'Source Han Sans', 'Arial Unicode MS')
# File names of CJK fonts, for a font cache built before the font was installed.
_CJK_FILE_HINTS = ('cjk', 'sourcehan', 'wqy', 'pingfang', 'msyh', 'simhei', 'heiti', 'notosanssc')
_PROBE = '计算资源设备同步'  # characters every label font must have for the Chinese plots
_hint_shown = {'done': False}


def _has_glyphs(path: str) -> bool:
    """Whether the font file maps every probe character (a font named CJK may still lack them)."""
    try:
        charmap = font_manager.get_font(path).get_charmap()
    except (OSError, RuntimeError):
        return False
    return all(ord(ch) in charmap for ch in _PROBE)


@functools.cache
def cjk_font() -> str | None:
    """The family name of an installed font that draws simplified Chinese, or None."""
    fm = font_manager.fontManager
    known = {f.fname for f in fm.ttflist}
    # Matplotlib caches its font list; a font installed after that is added here by file name.
    for path in font_manager.findSystemFonts():
        if path not in known and any(h in path.lower().replace('-', '').replace('_', '') for h in _CJK_FILE_HINTS):
            try:
                fm.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
    by_name: dict[str, str] = {}
    for f in fm.ttflist:
        by_name.setdefault(f.name, f.fname)
    for name in CJK_FONTS:
        if name in by_name and _has_glyphs(by_name[name]):
            return name
    return None


def cjk_available() -> bool:
    """Whether plots can show Chinese text on this machine."""
    return cjk_font() is not None


def plot_language() -> str:
    """The language plot text uses: the learner's, but English when Chinese is asked for and no CJK font exists.

    The first fallback prints one line (to stderr, in Chinese) saying how to install a font.
    """
    lang = language()
    if lang == 'zh' and not cjk_available():
        if not _hint_shown['done']:
            _hint_shown['done'] = True
            print(text_in(lang, 'style.no_cjk_font'), file=sys.stderr)
        return 'en'
    return lang


def plot_text(key: str, **fields) -> str:
    """The catalogue message `key` in the plot language; use it for titles, labels and legends of every plot."""
    return text_in(plot_language(), key, **fields)


def plot_lane(lane_or_name, framework: str = 'torch') -> str:
    """A lane's label (a Lane, or a lane id such as 'cpu0', 'cuda:0', 'cpu(1)') in the plot language."""
    from ..lanes import label_of
    return label_of(lane_or_name, plot_language(), framework)
