"""A lesson's English and Chinese notebooks share one kernel under nbval: the Chinese cells are the second Run All.

`make notebooks` (notebooks/conftest.py) runs notebooks/en/X.ipynb, then notebooks/zh/X.ipynb's cells in the same
kernel with their outputs compared with the committed Chinese ones, and starts no kernel for the Chinese notebook
(issue 22: `make test` in 20 minutes). These tests run that on tiny en/zh pairs in a child pytest, so they fail if
the Chinese cells stop running, run in a fresh kernel, stop being compared, or are compared where tagged not to be.
"""
import pathlib
import shutil
import subprocess
import sys

import pytest

nbformat = pytest.importorskip('nbformat', reason='the notebook check needs nbformat (the test extra)')
pytest.importorskip('nbval', reason='the notebook check needs nbval (the test extra)')

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONFTEST = ROOT / 'notebooks' / 'conftest.py'


def _notebook(path, cells):
    """cells: (source, committed stdout, tags) in order."""
    nb = nbformat.v4.new_notebook()
    for n, (source, stdout, tags) in enumerate(cells, 1):
        cell = nbformat.v4.new_code_cell(source, execution_count=n)
        cell.outputs = [nbformat.v4.new_output('stream', name='stdout', text=stdout)]
        cell.metadata['tags'] = list(tags)
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _lesson(folder, name):
    """en and zh: the same code but the language; the committed outputs are those of a fresh kernel (runs == 1)."""
    for lang in ('en', 'zh'):
        counter_tags = ('nbval-ignore-output',) if lang == 'zh' else ()
        _notebook(folder / lang / f'{name}.ipynb', [
            (f'lang = {lang!r}\nprint(lang)', f'{lang}\n', ()),
            ("runs = globals().get('runs', 0) + 1\nprint(runs)", '1\n', counter_tags),
            ('print(lang, runs)', f'{lang} 1\n', ()),
        ])


def _pytest(folder, *paths):
    shutil.copy(CONFTEST, folder / 'conftest.py')
    (folder / 'pytest.ini').write_text('[pytest]\n')  # rootdir here, not the repository's settings
    done = subprocess.run([sys.executable, '-m', 'pytest', '--nbval', '--nbval-current-env', '-p', 'no:cacheprovider',
                           '-v', '-rA', *paths], cwd=folder, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope='module')
def run(tmp_path_factory):
    """One lesson, en and zh (one child pytest, one kernel)."""
    folder = tmp_path_factory.mktemp('pairs')
    _lesson(folder, 'lesson')
    return _pytest(folder, '.')


@pytest.mark.slow
def test_the_chinese_cells_run_in_the_english_kernel_as_its_second_run(run):
    rc, out = run
    for cell in range(3):
        assert f'PASSED en/lesson.ipynb::Cell {cell}\n' in out, out
    for cell in range(2):  # cell 1 prints 2 (committed: 1) but is tagged nbval-ignore-output in zh
        assert f'PASSED en/lesson.ipynb::Cell {cell} (second run, in Chinese)\n' in out, out
    assert 'zh/lesson' not in out and '3 deselected' in out, out  # no kernel, no items of its own


def test_the_chinese_outputs_are_compared_with_the_committed_chinese_ones(run):
    """Cell 2 prints 'zh 2': the Chinese code ran, in the English kernel, and differs from the fresh kernel's 'zh 1'."""
    rc, out = run
    assert rc == 1, out
    assert 'FAILED en/lesson.ipynb::Cell 2 (second run, in Chinese)' in out, out
    assert 'second run in Chinese' in out and "'zh 1\\n' == 'zh 2\\n'" in out, out
