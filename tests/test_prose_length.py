"""Each lesson's English prose stays at most 1,200 words (issue 21: the lesson contract's reading budget)."""
import pathlib
import re

import jupytext
import pytest

SOURCES = sorted((pathlib.Path(__file__).resolve().parents[1] / 'notebooks' / 'src').glob('*.py'))
LIMIT = 1200


def prose_words(path: pathlib.Path) -> int:
    """Words of the English markdown cells: code blocks and HTML tags are not prose."""
    count = 0
    for cell in jupytext.read(path).cells:
        if cell.cell_type != 'markdown' or cell.metadata.get('lang') == 'zh':
            continue
        text = re.sub(r'```.*?```', ' ', cell.source, flags=re.S)
        text = re.sub(r'<[^>]+>', ' ', text)
        count += len(re.findall(r"[A-Za-z0-9][\w'’.,-]*", text))
    return count


def test_the_counter_counts_words_not_code_or_markup(tmp_path):
    src = tmp_path / 'x.py'
    src.write_text('# %% [markdown]\n# Two <b>words</b>\n#\n# ```python\n# not = prose\n# ```\n'
                   '# %% [markdown] lang="zh"\n# 中文twin words\n', encoding='utf-8')
    assert prose_words(src) == 2


@pytest.mark.parametrize('path', SOURCES, ids=[p.stem for p in SOURCES])
def test_prose_is_at_most_1200_words(path):
    assert prose_words(path) <= LIMIT, f'{path.name}: {prose_words(path)} words of English prose (at most {LIMIT})'
