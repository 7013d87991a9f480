"""One language switch for everything a learner reads: text, tables, plots, widgets, messages.

English is the default; the Chinese notebooks call `set_language('zh')` in their first cell.
Messages live in one catalogue per language (`en/`, `zh/`), split into one module per area
(`en/parallel.py`, `zh/parallel.py`, ...) so each section keeps its own words; every module
defines `MESSAGES = {'area.key': 'text with {fields}'}`. A key missing in either language, or a
translation whose {fields} differ, fails `tests/test_i18n.py`; a key built at run time
(t(f'area.{kind}')) is checked for every value it can take (`tests/test_i18n_keys.py`); English
shown to a learner but written outside `en/` fails `tests/test_i18n_literals.py`. Terms follow docs/glossary.md.
"""
from __future__ import annotations

import contextlib
import importlib
import pkgutil
import re

LANGUAGES = ('en', 'zh')
_state = {'language': 'en'}
_catalogues: dict[str, dict[str, str]] = {}
# d2l-zh's typography: no space between a 汉字 and a Latin word or a number ("两个GPU", "0.105秒", "12.3节"), nor
# beside Chinese punctuation or between two 汉字 (where filled-in fields meet); brackets count as Latin ("max(a, b)倍")
_HANZI = '[\u3400-\u4dbf\u4e00-\u9fff]'
_WIDE = '[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]'
_OPEN, _CLOSE = r'[A-Za-z0-9\u0391-\u03c9(\[]', r'[A-Za-z0-9\u0391-\u03c9%)\]\']'  # a Latin/Greek word, a number
# or a bracket: its first character, its last
_LOOSE = re.compile(rf'(?<={_HANZI}) +(?={_OPEN})|(?<={_CLOSE}) +(?={_HANZI})|(?<={_WIDE}) +(?={_WIDE})'
                    rf'|(?<=[\u3000-\u303f\uff00-\uffef]) +(?={_OPEN})|(?<={_CLOSE}) +(?=[\uff08\u3010])')


def tight(text: str) -> str:
    """Chinese text with the spaces between a 汉字 and a Latin word or a number removed (d2l-zh's rule)."""
    return _LOOSE.sub('', text)


def catalogue(lang: str) -> dict[str, str]:
    """Every message of one language, merged from its area modules (loaded once)."""
    _check(lang)
    if lang not in _catalogues:
        pkg = importlib.import_module(f'{__name__}.{lang}')
        merged: dict[str, str] = {}
        for info in pkgutil.iter_modules(pkg.__path__):
            merged.update(importlib.import_module(f'{pkg.__name__}.{info.name}').MESSAGES)
        _catalogues[lang] = merged
    return _catalogues[lang]


def _check(lang: str) -> None:
    """Raise a UsageError naming the languages on offer when `lang` is not one of them."""
    if lang not in LANGUAGES:
        from ..errors import UsageError
        raise UsageError(t('core.no_language', language=repr(lang), choices=', '.join(LANGUAGES)))


def set_language(lang: str) -> str:
    """Switch what the package prints and draws to 'en' or 'zh' (used by every notebook's first cell)."""
    _check(lang)
    _state['language'] = lang
    return lang


def language() -> str:
    """The language in use now ('en' by default)."""
    return _state['language']


@contextlib.contextmanager
def using_language(lang: str):
    """Use `lang` inside a with-block and restore the previous language after (tests, one-off English text)."""
    before = language()
    set_language(lang)
    try:
        yield lang
    finally:
        _state['language'] = before


def text_in(lang: str, key: str, **fields) -> str:
    """The message `key` in `lang` whatever the current language (plots fall back to English without a CJK font)."""
    text = catalogue(lang).get(key)
    if text is None:  # tests make this impossible for keys in the catalogue; stay readable anyway
        text = catalogue('en').get(key, key)
    text = text.format(**fields) if fields else text
    return tight(text) if lang == 'zh' else text


def t(key: str, **fields) -> str:
    """The message `key` in the current language, with its {fields} filled in."""
    return text_in(language(), key, **fields)
