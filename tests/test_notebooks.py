"""The English and Chinese notebooks run the same code, and are committed after a clean run."""
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
EN = sorted((ROOT / 'notebooks' / 'en').glob('*.ipynb'))


def code_cells(path):
    nb = json.loads(path.read_text(encoding='utf-8'))
    return [c for c in nb['cells'] if c['cell_type'] == 'code']


@pytest.mark.parametrize('en', EN, ids=[p.stem for p in EN])
def test_zh_runs_the_same_code_cells(en):
    zh = ROOT / 'notebooks' / 'zh' / en.name
    assert zh.exists(), f'{zh} is missing'
    src = lambda p: [''.join(c['source']) for c in code_cells(p)]
    assert src(en) == src(zh)
    # and the prose really is Chinese
    md = ''.join(''.join(c['source']) for c in json.loads(zh.read_text(encoding='utf-8'))['cells']
                 if c['cell_type'] == 'markdown')
    assert sum('\u4e00' <= ch <= '\u9fff' for ch in md) > 100


@pytest.mark.parametrize('path', EN + [ROOT / 'notebooks' / 'zh' / p.name for p in EN],
                         ids=lambda p: f'{p.parent.name}/{p.stem}')
def test_committed_after_a_clean_run(path):
    cells = code_cells(path)
    assert [c['execution_count'] for c in cells] == list(range(1, len(cells) + 1))
    assert not any(o['output_type'] == 'error' for c in cells for o in c['outputs'])


def test_every_notebook_has_a_source():
    names = {p.stem for p in EN}
    assert names == {'13.3.0-Overview', '13.3.1-Parallel-Computation-on-Devices',
                     '13.3.2-Parallel-Computation-and-Communication', '13.3.3-The-Dependency-Graph'}
