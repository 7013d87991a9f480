"""Chinese text in plots: find a CJK font, or fall back to English labels with one hint (13.3.x, zh notebooks).

Without a font that draws Chinese, matplotlib would draw boxes. Plot text then falls back to
English: `plot_text` picks the language, and `english_labels` turns Chinese catalogue messages
already on a figure (lane labels made with t(), say) back into English before drawing.
"""
from __future__ import annotations

import functools
import re
import string
import sys

from matplotlib import font_manager
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter, FuncFormatter

from ..i18n import catalogue, language, text_in

CJK_FONTS = ('Noto Sans CJK SC', 'Source Han Sans SC', 'Source Han Sans CN', 'Noto Sans SC', 'PingFang SC',
             'Microsoft YaHei', 'SimHei', 'WenQuanYi Zen Hei', 'WenQuanYi Micro Hei', 'Heiti SC',
             'Noto Sans CJK JP', 'Noto Sans CJK TC', 'Source Han Sans', 'Arial Unicode MS')
# File names of CJK fonts, for a font cache built before the font was installed.
_CJK_FILE_HINTS = ('cjk', 'sourcehan', 'wqy', 'pingfang', 'msyh', 'simhei', 'heiti', 'notosanssc')
_PROBE = '执行路设备同步'  # characters every label font must have for the Chinese plots
_CJK = re.compile('[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]')
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


@functools.cache
def _zh_templates() -> list[tuple[re.Pattern, str, list[str]]]:
    """(regex matching a filled-in Chinese message, key, field names), the most literal text first."""
    out = []
    for key, zh in catalogue('zh').items():
        regex, names = '', []
        for literal, field, _, _ in string.Formatter().parse(zh):
            regex += re.escape(literal)
            if field is not None:
                regex += f'(?P<g{len(names)}>.+?)'
                names.append(field)
        literal_chars = len(re.sub(r'\{[^}]*\}', '', zh))
        out.append((literal_chars, re.compile(regex + r'\Z', re.S), key, names))
    return [(pattern, key, names) for _, pattern, key, names in sorted(out, key=lambda x: -x[0])]


def english_for(text: str) -> str:
    """The English of a Chinese catalogue message already filled in (its fields translated too); else `text`."""
    if not _CJK.search(text):
        return text
    for pattern, key, names in _zh_templates():
        match = pattern.match(text)
        if match:
            values = {name: english_for(match.group(f'g{i}')) for i, name in enumerate(names)}
            # The values are already formatted: put them in the English template without its format specs.
            return ''.join(literal + (values[field] if field is not None else '')
                           for literal, field, _, _ in string.Formatter().parse(catalogue('en')[key]))
    return text


def english_labels(fig) -> None:
    """Where plots fall back to English, turn every Chinese catalogue message on `fig` into English."""
    if plot_language() == 'zh' or language() == 'en':
        return
    for artist in fig.findobj(Text):
        artist.set_text(english_for(artist.get_text()))
    for ax in fig.axes:  # tick labels are made again from their formatter at every draw: wrap it once
        for axis in (ax.xaxis, ax.yaxis):
            inner = axis.get_major_formatter()
            # Only label formatters can hold words; numeric ones keep their offset text untouched.
            if isinstance(inner, FuncFormatter | FixedFormatter) and not getattr(inner, '_english', False):
                outer = FuncFormatter(lambda x, pos, inner=inner: english_for(inner(x, pos)))
                outer._english = True
                axis.set_major_formatter(outer)
