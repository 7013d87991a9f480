"""Every notebook survives Run All twice in one kernel, and any cell re-run alone after a full run.

One kernel runs all cells in order, then every code cell once more in order: the second pass is
Run All again, and each cell of it is also "this cell re-run after everything ran".
"""
import pathlib

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / 'notebooks' / 'en').glob('*.ipynb')) + sorted((ROOT / 'notebooks' / 'zh').glob('*.ipynb'))
CELL_TIMEOUT = 600  # seconds, as nbval's --nbval-cell-timeout in the Makefile


def run_twice(path: pathlib.Path, timeout: int = CELL_TIMEOUT) -> None:
    """Run all code cells of `path` twice in one fresh kernel; AssertionError names the pass and cell."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name='python3', record_timing=False,
                            resources={'metadata': {'path': str(path.parent)}})
    code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == 'code']
    with client.setup_kernel():
        for attempt in ('first run', 'second run'):
            for number, (index, cell) in enumerate(code, 1):
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as e:
                    first = cell.source.strip().split('\n', 1)[0][:70]
                    pytest.fail(f'{path.parent.name}/{path.name}, {attempt}, code cell {number} ({first!r}):\n{e}',
                                pytrace=False)


@pytest.mark.rerun
@pytest.mark.parametrize('path', NOTEBOOKS, ids=lambda p: f'{p.parent.name}/{p.stem}')
def test_runs_twice_in_one_kernel(path):
    run_twice(path)


def _tiny(tmp_path, *sources):
    path = tmp_path / 'tiny.ipynb'
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nbformat.write(nb, path)
    return path


def test_run_twice_passes_a_rerunnable_notebook(tmp_path):
    in_its_folder = f'import os\nassert os.getcwd() == {str(tmp_path)!r}'
    run_twice(_tiny(tmp_path, in_its_folder, 'x = 1', 'print(x + 1)'), 60)


def test_run_twice_names_the_cell_that_fails_the_second_time(tmp_path):
    once = "assert 'done' not in globals(), 'already ran'\ndone = True"
    with pytest.raises(pytest.fail.Exception, match=r'tiny.ipynb, second run, code cell 2 \("assert'):
        run_twice(_tiny(tmp_path, 'x = 1', once, 'print(x)'), 60)
