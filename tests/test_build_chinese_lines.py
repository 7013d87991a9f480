"""The zh build joins wrapped lines that would render as a stray space (tools/build_notebooks.py, every lesson)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / 'tools'))
from build_notebooks import join_chinese_lines  # noqa: E402  (a script in tools/, not a package)


def test_two_chinese_characters_join():
    assert join_chinese_lines('这是一个\n计算资源。') == '这是一个计算资源。'


def test_emphasis_does_not_stop_the_join():
    assert join_chinese_lines('两个**计算资源**\n（可以同时工作）') == '两个**计算资源**（可以同时工作）'
    assert join_chinese_lines('两个\n**计算资源**') == '两个**计算资源**'


def test_latin_beside_chinese_joins_without_a_space_as_in_d2l_zh():
    assert join_chinese_lines('一个\nCPU 服务器') == '一个CPU服务器'
    assert join_chinese_lines('每秒 12 GB 的 GPU 和\nCPU') == '每秒12 GB的GPU和CPU'
    assert join_chinese_lines('TFLOP/s\n的 GPU') == 'TFLOP/s的GPU'
    assert join_chinese_lines('在\n（GPU）上') == '在（GPU）上'
    assert join_chinese_lines('与(a)\n相比') == '与(a)相比' and join_chinese_lines('对于\n(c)和(d)') == '对于(c)和(d)'


def test_code_math_tags_and_link_targets_keep_their_spaces():
    assert join_chinese_lines('调用 `run(x, 2)` 两次') == '调用`run(x, 2)`两次'
    assert join_chinese_lines('会引发\n`IndexError`。') == '会引发`IndexError`。'
    assert join_chinese_lines('共 $2 n$ 次，见[第 12 节](a b.md)') == '共 $2 n$ 次，见[第12节](a b.md)'
    assert join_chinese_lines('<summary>答案 A</summary>') == '<summary>答案A</summary>'
    assert join_chinese_lines('[图12.3.1](a.md) 画出') == '[图12.3.1](a.md)画出'  # after a link, as after code


def test_code_spans_english_lines_and_blocks_keep_their_breaks():
    assert join_chinese_lines('two English\nwords') == 'two English\nwords'
    assert join_chinese_lines('结果。\n2. 第二项') == '结果。\n2. 第二项'
    assert join_chinese_lines('结果。\n</details>') == '结果。\n</details>'
    assert join_chinese_lines('## 标题\n正文') == '## 标题\n正文'
    assert join_chinese_lines('```\n代码\n注释\n```') == '```\n代码\n注释\n```'
    assert join_chinese_lines('段落。\n\n下一段') == '段落。\n\n下一段'


def test_inline_math_joins_its_chinese_neighbours_but_display_math_stays_a_block():
    assert join_chinese_lines('大约\n$\\max(t_1, t_2)$\n秒') == '大约$\\max(t_1, t_2)$秒'
    assert join_chinese_lines('如下：\n$$\nx\n$$') == '如下：\n$$\nx\n$$'
