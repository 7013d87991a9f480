"""The language switch: both catalogues hold the same keys with the same {fields}, every key the code uses exists."""
import ast
import importlib
import pkgutil
import string
from pathlib import Path

import pytest

from d2l_ext import i18n
from d2l_ext.errors import UsageError

PACKAGE = Path(i18n.__file__).resolve().parents[1]
# Calls whose first literal argument is a message key (text_in takes the language first).
KEY_CALLS = {'t': 0, 'plot_text': 0, 'text_in': 1}


def _modules(lang):
    """{area module name: MESSAGES} of one language."""
    pkg = importlib.import_module(f'd2l_ext.i18n.{lang}')
    return {info.name: importlib.import_module(f'{pkg.__name__}.{info.name}').MESSAGES
            for info in pkgutil.iter_modules(pkg.__path__)}


def _fields(text):
    return {name.split('.')[0].split('[')[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys():
    en, zh = set(i18n.catalogue('en')), set(i18n.catalogue('zh'))
    assert not en - zh, f'missing in zh: {sorted(en - zh)}'
    assert not zh - en, f'missing in en: {sorted(zh - en)}'


def test_both_languages_have_the_same_area_modules():
    assert set(_modules('en')) == set(_modules('zh'))


@pytest.mark.parametrize('lang', i18n.LANGUAGES)
def test_keys_are_prefixed_with_their_area_and_defined_once(lang):
    seen = {}
    for area, messages in _modules(lang).items():
        for key in messages:
            prefix = area.replace('_', '.')  # task_lanes.py holds 'task.lanes.*' (the graded tasks' areas)
            assert key.startswith(f'{prefix}.'), f'{lang}/{area}.py: key {key!r} lacks the prefix {prefix!r}.'
            assert key not in seen, f'{lang}: {key!r} is in both {seen.get(key)}.py and {area}.py'
            seen[key] = area


def test_translations_have_the_english_fields():
    en, zh = i18n.catalogue('en'), i18n.catalogue('zh')
    wrong = {k: (sorted(_fields(en[k])), sorted(_fields(zh[k]))) for k in en.keys() & zh.keys()
             if _fields(en[k]) != _fields(zh[k])}
    assert not wrong, f'{{fields}} differ (en, zh): {wrong}'


def test_chinese_never_says_tongdao_for_lane():
    # d2l-zh uses通道for a convolution's channels; our lane is计算资源 (docs/glossary.md).
    bad = {k: v for k, v in i18n.catalogue('zh').items() if '通道' in v}
    assert not bad, f'use计算资源, not通道: {bad}'


def _literal_keys():
    """(file, line, key) for every literal key in the package: passed to t(), plot_text(), text_in(), message(),
    BadSubmission(), criterion() or Criterion(), or given as key=/description_key= or a dict's 'key' entry."""
    calls = {**KEY_CALLS, 'message': 0, 'BadSubmission': 0, 'criterion': 2, 'Criterion': 2}
    for path in PACKAGE.rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            found = []
            if isinstance(node, ast.Call):
                name = getattr(node.func, 'id', None) or getattr(node.func, 'attr', None)
                pos = calls.get(name)
                if pos is not None and len(node.args) > pos:
                    found.append(node.args[pos])
                found += [k.value for k in node.keywords if k.arg in ('key', 'description_key')]
            elif isinstance(node, ast.Dict):
                found += [v for k, v in zip(node.keys, node.values)
                          if isinstance(k, ast.Constant) and k.value in ('key', 'description_key')]
            for arg in found:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield path.relative_to(PACKAGE.parent), arg.lineno, arg.value


def test_every_literal_key_in_the_code_is_in_the_catalogue():
    keys = list(_literal_keys())
    assert keys, 'the scan found no t() calls at all: the scanner is broken'
    known = i18n.catalogue('en').keys() & i18n.catalogue('zh').keys()
    missing = [f'{path}:{line}: {key}' for path, line, key in keys if key not in known]
    assert not missing, 'keys used in the code but in no catalogue:\n' + '\n'.join(missing)


def test_set_language_rejects_unknown_languages():
    with pytest.raises(UsageError, match='en, zh'):
        i18n.set_language('fr')
    with pytest.raises(UsageError):
        i18n.catalogue('de')
    assert i18n.language() == 'en'


def test_using_language_switches_and_restores():
    assert i18n.language() == 'en'
    with i18n.using_language('zh'):
        assert i18n.language() == 'zh'
        assert i18n.t('common.seconds', value=1.5) == '1.500秒'
        assert i18n.text_in('en', 'common.seconds', value=1.5) == '1.500 s'
    assert i18n.language() == 'en'
    with pytest.raises(RuntimeError), i18n.using_language('zh'):
        raise RuntimeError
    assert i18n.language() == 'en'



def test_chinese_text_follows_d2l_zh_spacing():
    """No space beside a 汉字 next to a Latin word, a number, a bracket, Chinese punctuation or another 汉字."""
    from d2l_ext.i18n import tight
    assert tight('在 GPU 上用时 0.105 秒，快 7%') == '在GPU上用时0.105秒，快7%'
    assert tight('按 9.49 毫秒 计算') == '按9.49毫秒计算' and tight('（锁页内存） 0.058 秒') == '（锁页内存）0.058秒'
    assert tight('复制流 + 事件') == '复制流 + 事件' and tight('(c) 钩子') == '(c)钩子'
    assert tight('开销 α 和带宽 β') == '开销α和带宽β'
    assert tight('max(t1, t2) 倍，即 (a)') == 'max(t1, t2)倍，即(a)' and tight('次数 [10, 10]') == '次数[10, 10]'
    assert tight('two English words') == 'two English words'
