"""The committed notebooks are built from notebooks/src, run one copy of the code in both languages, and ran clean."""
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import build_notebooks  # noqa: E402  (a script in tools/, not a package)

SOURCES = sorted((ROOT / 'notebooks' / 'src').glob('*.py'))
NAMES = [p.stem for p in SOURCES]
COMMITTED = [ROOT / 'notebooks' / lang / f'{name}.ipynb' for lang in ('en', 'zh') for name in NAMES]
LANGUAGE_ARG = re.compile(r"(d2l_ext\.set_language\()'(en|zh)'(\))")
CJK = re.compile('[\u4e00-\u9fff]')
REBUILD = 'rebuild with: .venv/bin/python tools/build_notebooks.py {}'


def cells(path, kind=None):
    nb = json.loads(path.read_text(encoding='utf-8'))
    return [c for c in nb['cells'] if kind is None or c['cell_type'] == kind]


def text(cell):
    return ''.join(cell['source'])


def test_every_notebook_has_a_source_and_both_languages():
    assert NAMES, 'no lesson sources in notebooks/src'
    for lang in ('en', 'zh'):
        built = {p.stem for p in (ROOT / 'notebooks' / lang).glob('*.ipynb')}
        assert built == set(NAMES), f'notebooks/{lang} and notebooks/src differ: {sorted(built ^ set(NAMES))}'


# A string's text: the build writes some in Chinese (#zh-str, as d2l-zh's code does); FSTRING_MIDDLE from Python 3.12
TEXT_TOKENS = ('STRING', 'FSTRING')


def _code(source: str) -> list[tuple[str, str]]:
    """The code's tokens without its comments and docstrings (the zh build writes them in Chinese) and without the
    language argument."""
    import io
    import tokenize
    source = LANGUAGE_ARG.sub(r'\1LANG\3', source)
    out, before, texts = [], tokenize.NEWLINE, []  # texts: the literal parts of each open f-string (3.12+)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = tokenize.tok_name[tok.type]
        if kind in ('FSTRING_START', 'FSTRING_MIDDLE', 'FSTRING_END'):
            # an f-string's literal parts are one text, compared as a whole like a 3.11 STRING token
            if kind == 'FSTRING_START':
                texts.append([tok.string])
            elif kind == 'FSTRING_MIDDLE':
                texts[-1].append(tok.string)
            else:
                out.append(('FSTRING', ''.join(texts.pop()) + tok.string))
            before = tok.type
            continue
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.DEDENT, tokenize.INDENT, tokenize.NEWLINE):
            if tok.type != tokenize.NL:
                before = tok.type
            continue
        doc = tok.type == tokenize.STRING and tok.string.startswith('"""') and before in (tokenize.NEWLINE,
                                                                                        tokenize.INDENT)
        if tok.type == tokenize.STRING and 'f' in tok.string.split(tok.string[-1])[0].lower():
            out.extend(_fstring(tok.string))  # Python 3.11: an f-string is one token
        else:
            out.append((tokenize.tok_name[tok.type], '"""doc"""' if doc else tok.string))
        before = tok.type
    return out


def _fstring(token: str) -> list[tuple[str, str]]:
    """A 3.11 f-string token as 3.12's tokens compare: each expression, then the literal text as one FSTRING."""
    import ast
    node = ast.parse(token, mode='eval').body
    parts = [ast.unparse(v) for v in node.values if isinstance(v, ast.FormattedValue)]
    text = ''.join(v.value for v in node.values if isinstance(v, ast.Constant))
    return [('EXPR', p) for p in parts] + [('FSTRING', text)]


def _same_code(en: str, zh: str) -> bool:
    """The same tokens, but a string's text may be Chinese in zh (the build's #zh-str) where en's is not."""
    a, b = _code(en), _code(zh)
    def same(x, y):
        return x == y or (x[0] == y[0] in TEXT_TOKENS and bool(CJK.search(y[1])) and not CJK.search(x[1]))
    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


def test_the_code_check_allows_only_a_string_written_in_chinese():
    assert _same_code("b('one run', x)  # a", "b('运行一次', x)  # 一")
    assert _same_code("b(f'{x}, one run')", "b(f'{x}，运行一次')")
    assert _same_code("b(f'run: {n} × {n} (per GPU)')", "b(f'运行：{n}×{n}（每个GPU）')")  # a part without 汉字
    assert not _same_code("b(f'{x} one run')", "b(f'{y}运行一次')")
    assert not _same_code("b('one run', x)", "b('运行一次', y)")
    assert not _same_code("b('one run', x)", "b('two runs', x)")
    assert not _same_code("b('one run')", "b('运行一次', x)")


@pytest.mark.parametrize('name', NAMES)
def test_zh_runs_the_same_code_as_en(name):
    en, zh = (ROOT / 'notebooks' / lang / f'{name}.ipynb' for lang in ('en', 'zh'))
    pairs = list(zip(*[[text(c) for c in cells(p, 'code')] for p in (en, zh)], strict=True))
    differ = [n for n, (a, b) in enumerate(pairs, 1) if not _same_code(a, b)]
    assert not differ, f'code cells {differ} differ beyond comments and Chinese strings'
    assert "d2l_ext.set_language('zh')" in text(cells(zh, 'code')[0])


@pytest.mark.parametrize('name', NAMES)
def test_zh_prose_is_chinese(name):
    en, zh = (cells(ROOT / 'notebooks' / lang / f'{name}.ipynb', 'markdown') for lang in ('en', 'zh'))
    assert len(en) == len(zh)
    for number, (e, z) in enumerate(zip(en, zh, strict=True), 1):
        assert len(CJK.findall(text(z))) >= 2, f'zh markdown cell {number} is not Chinese: {text(z)[:60]!r}'
        assert not CJK.search(text(e)), f'en markdown cell {number} contains Chinese: {text(e)[:60]!r}'


@pytest.mark.parametrize('path', COMMITTED, ids=lambda p: f'{p.parent.name}/{p.stem}')
def test_committed_notebook_is_built_from_the_current_source(path):
    fresh = build_notebooks.notebook(ROOT / 'notebooks' / 'src' / f'{path.stem}.py', path.parent.name)
    want = [(c.cell_type, c.source, c.metadata.get('tags', [])) for c in fresh.cells]
    have = [(c['cell_type'], text(c), c['metadata'].get('tags', [])) for c in cells(path)]
    assert have == want, f'{path.parent.name}/{path.name} is out of date: ' + REBUILD.format(path.stem)


@pytest.mark.parametrize('path', COMMITTED, ids=lambda p: f'{p.parent.name}/{p.stem}')
def test_committed_after_a_clean_run(path):
    code = cells(path, 'code')
    assert [c['execution_count'] for c in code] == list(range(1, len(code) + 1)), REBUILD.format(path.stem)
    errors = [n for n, c in enumerate(code, 1) if any(o['output_type'] == 'error' for o in c['outputs'])]
    assert not errors, f'code cells {errors} of {path.parent.name}/{path.name} stored an error'


ANSWER = {'en': 'Worked answer: ', 'zh': '参考答案：'}  # verdict.answer's label (i18n verdict.answer)


def _printed(cell):
    return ''.join(''.join(o.get('text', '')) for o in cell.get('outputs', []) if o['output_type'] == 'stream')


@pytest.mark.parametrize('path', COMMITTED, ids=lambda p: f'{p.parent.name}/{p.stem}')
def test_worked_answers_are_collapsed_cells_that_print_this_runs_conclusion(path):
    """A worked answer is one code cell, source and output collapsed, whose last printed line is the answer: a
    learner sees it only after opening it, and its numbers are this run's."""
    label = ANSWER[path.parent.name]
    answers = [c for c in cells(path, 'code') if label in _printed(c)]
    assert answers, f'{path.parent.name}/{path.name} prints no worked answer ({label!r})'
    for c in answers:
        shown = c['metadata'].get('jupyter', {})
        assert shown.get('source_hidden') and shown.get('outputs_hidden'), f'an answer is in view: {text(c)[:80]}'
        assert _printed(c).strip().splitlines()[-1].startswith(label), "the answer is the cell's last printed line"
