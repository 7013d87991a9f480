"""tools/build_notebooks.py: one source gives two notebooks, a missing translation stops the build."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import build_notebooks as bn  # noqa: E402  (a script in tools/, not a package)

# d2l_ext is replaced by a stub that prints the language, so that this test does not depend on the package.
FIRST_CELL = """# %%
import os
import types

d2l_ext = types.SimpleNamespace(set_language=print)
d2l_ext.set_language('en')
print(os.getcwd())
"""
EN_ZH = """# %% [markdown]
# # Title
#
# Some *prose*.

# %% [markdown] lang="zh"
# # 标题
#
# 一些文字。
"""
TAGGED = """# %% tags=["nbval-ignore-output"]
x = 6 * 7
x
"""


def source(tmp_path, *parts, name='9.9.9-Tiny'):
    path = tmp_path / 'src' / f'{name}.py'
    path.parent.mkdir(exist_ok=True)
    path.write_text('\n'.join(parts), encoding='utf-8')
    return path


def test_one_source_gives_both_languages_with_one_copy_of_the_code(tmp_path):
    path = source(tmp_path, EN_ZH, FIRST_CELL, TAGGED)
    en, zh = bn.notebook(path, 'en'), bn.notebook(path, 'zh')
    assert [c.cell_type for c in en.cells] == [c.cell_type for c in zh.cells] == ['markdown', 'code', 'code']
    assert en.cells[0].source == '# Title\n\nSome *prose*.'
    assert zh.cells[0].source == '# 标题\n\n一些文字。'
    assert "d2l_ext.set_language('en')" in en.cells[1].source
    assert zh.cells[1].source == en.cells[1].source.replace("'en'", "'zh'")
    assert zh.cells[2].source == en.cells[2].source == 'x = 6 * 7\nx'
    assert en.cells[2].metadata == {'tags': ['nbval-ignore-output']}  # jupytext's lang etc. are left out
    assert zh.cells[0].metadata == {} and 'jupytext' not in en.metadata
    assert [c.id for c in en.cells] == ['en-000', 'en-001', 'en-002']  # stable ids: no diff noise on rebuilds


@pytest.mark.parametrize('parts, message', [
    ((EN_ZH, '# %% [markdown]\n# Untranslated\n', FIRST_CELL), r"cell 3 \(markdown: 'Untranslated'\): no Chinese"),
    ((EN_ZH, FIRST_CELL, '# %% [markdown]\n# At the end\n'), r"'At the end'\): no Chinese translation"),
    ((EN_ZH, FIRST_CELL, '# %% [markdown] lang="zh"\n# 多余\n'), r"'多余'\): Chinese cell without an English"),
    ((EN_ZH, '# %% [markdown] lang="fr"\n# Bonjour\n', FIRST_CELL), r"unknown lang='fr'"),
    ((EN_ZH, '# %%\nprint(1)\n'), r'first code cell must contain the line'),
])
def test_a_source_that_cannot_be_built_names_the_cell(tmp_path, parts, message):
    path = source(tmp_path, *parts)
    with pytest.raises(bn.SourceError, match=rf'9\.9\.9-Tiny\.py.*{message}'):
        bn.notebook(path, 'zh')


def test_every_lesson_source_builds_in_both_languages():
    for path in bn.sources():
        for lang in bn.LANGS:
            assert bn.notebook(path, lang).cells


def test_sources_picks_sections_by_prefix():
    assert [p.stem for p in bn.sources(['13.3.1'])] == ['13.3.1-Parallel-Computation-on-Devices']
    with pytest.raises(bn.SourceError, match='no source'):
        bn.sources(['99.1'])
    assert bn.main(['99.1', '--no-run']) == 2


def test_build_executes_each_language_in_the_notebooks_folder(tmp_path):
    path = source(tmp_path, EN_ZH, FIRST_CELL, TAGGED)
    written = bn.build([path], out_root=tmp_path / 'out')
    assert written == [tmp_path / 'out' / lang / '9.9.9-Tiny.ipynb' for lang in ('en', 'zh')]
    for lang, out in zip(('en', 'zh'), written, strict=True):
        nb = bn.nbformat.read(out, as_version=4)
        code = [c for c in nb.cells if c.cell_type == 'code']
        assert [c.execution_count for c in code] == [1, 2]
        assert code[0].outputs[0].text == f'{lang}\n{out.parent}\n'
        assert code[1].outputs[0].data['text/plain'] == '42'
        assert not any('execution' in c.metadata for c in code)  # no timing metadata to diff


def test_a_failing_cell_writes_nothing(tmp_path):
    path = source(tmp_path, EN_ZH, FIRST_CELL, '# %%\n1 / 0\n')
    with pytest.raises(bn.SourceError, match=r'9\.9\.9-Tiny\.py \(en\) failed while running(.|\n)*ZeroDivisionError'):
        bn.build([path], langs=('en',), out_root=tmp_path / 'out')
    assert not (tmp_path / 'out' / 'en' / '9.9.9-Tiny.ipynb').exists()


def test_comments_are_written_in_the_notebook_language():
    code = 'my_guess = None  # seconds: how long?  #zh: 秒：要多久？\n# keep me\nx = 1  #  whole  #zh: 整行'
    assert bn.swap_comments(code, 'en') == 'my_guess = None  # seconds: how long?\n# keep me\nx = 1  #  whole'
    assert bn.swap_comments(code, 'zh') == 'my_guess = None  # 秒：要多久？\n# keep me\nx = 1  # 整行'


def test_strings_marked_zh_str_are_written_in_chinese_only_in_the_zh_notebook():
    code = ("#zh-str: {'{lane}, one run': '{lane}，运行一次', 'both': '两者'}\n"
            "with Benchmark(f'{lane}, one run'):  # time it  #zh: 计时\n    print(\"both\", 'both ways')")
    assert bn.swap_strings(code, 'en') == code.split('\n', 1)[1]
    assert bn.swap_strings(code, 'zh') == ("with Benchmark(f'{lane}，运行一次'):  # time it  #zh: 计时\n"
                                           "    print(\"两者\", 'both ways')")
    spaced = "#zh-str: {'to float64': '与 float64 结果'}\nx = 'to float64'"
    assert bn.swap_strings(spaced, 'zh') == "x = '与float64结果'"
    with pytest.raises(bn.SourceError, match="no string 'missing'"):
        bn.swap_strings("#zh-str: {'missing': '无'}\nx = 'here'", 'en')
    with pytest.raises(bn.SourceError, match='dict of strings'):
        bn.swap_strings("#zh-str: {'a': }\nx = 'a'", 'zh')


def test_a_source_cell_is_the_package_function_itself():
    import inspect

    from d2l_ext.display import verdict
    shown = bn.harvest('#@source d2l_ext.display.verdict.sig\n#@source d2l_ext.display.verdict.num\n')
    assert shown == inspect.getsource(verdict.sig).rstrip() + '\n\n\n' + inspect.getsource(verdict.num).rstrip()
    assert bn.harvest('x = 1\n#@source d2l_ext.display.verdict.sig').startswith('x = 1')  # mixed: as is
    with pytest.raises(bn.SourceError, match='no_such'):
        bn.harvest('#@source d2l_ext.display.verdict.no_such')


def test_a_docstring_with_a_chinese_line_is_one_docstring_in_each_language():
    code = ('def step():\n    """(a): backward first."""\n    #zh: （a）：先反向传播。\n'
            '    x = 1  # one  #zh: 一\n    """kept"""\n    return x')
    assert bn.swap_comments(code, 'en') == ('def step():\n    """(a): backward first."""\n    x = 1  # one\n'
                                            '    """kept"""\n    return x')
    assert bn.swap_comments(code, 'zh') == ('def step():\n    """（a）：先反向传播。"""\n    x = 1  # 一\n'
                                            '    """kept"""\n    return x')
