"""The notebook check runs every notebook once under nbval, then every cell again in the same kernel.

`make notebooks` (nbval with notebooks/conftest.py) is the one execution per notebook that serves
both checks: outputs compared with the committed ones, then Run All a second time in the same
kernel, where each cell is also "this cell re-run after everything ran". These tests run that
mechanism on tiny notebooks in a child pytest, so they fail if the second run is lost, runs in a
fresh kernel, or stops naming the cell that broke.
"""
import pathlib
import shutil
import subprocess
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONFTEST = ROOT / 'notebooks' / 'conftest.py'
pytest.importorskip('nbval', reason='the notebook check needs nbval (the test extra)')


def _tiny(path, *cells):
    """A notebook whose code cells have the given sources, or (source, committed stdout)."""
    nb = nbformat.v4.new_notebook()
    for n, cell in enumerate(cells, 1):
        source, stdout = cell if isinstance(cell, tuple) else (cell, None)
        c = nbformat.v4.new_code_cell(source, execution_count=n)
        if stdout is not None:
            c.outputs = [nbformat.v4.new_output('stream', name='stdout', text=stdout)]
        nb.cells.append(c)
    nbformat.write(nb, path)


@pytest.fixture(scope='module')
def run(tmp_path_factory):
    """nbval over three tiny notebooks with the notebooks' conftest, as `make notebooks` runs (one child pytest)."""
    folder = tmp_path_factory.mktemp('nbval')
    in_its_folder = f'import os\nassert os.getcwd() == {str(folder)!r}'
    counter = "runs = globals().get('runs', 0) + 1\nprint('first' if runs == 1 else 'again')"
    _tiny(folder / 'rerunnable.ipynb', in_its_folder, 'x = 1', (counter, 'first\n'), ('print(x + 1)', '2\n'))
    once = "assert 'done' not in globals(), 'already ran'\ndone = True"
    _tiny(folder / 'once.ipynb', 'x = 1', once, ('print(x)', '1\n'))
    _tiny(folder / 'differs.ipynb', ('print(1)', '2\n'))
    shutil.copy(CONFTEST, folder / 'conftest.py')
    (folder / 'pytest.ini').write_text('[pytest]\n')  # rootdir here, not the repository's settings
    done = subprocess.run([sys.executable, '-m', 'pytest', '--nbval', '--nbval-current-env', '-p', 'no:cacheprovider',
                           '-v', '-rA', str(folder)], cwd=folder, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
def test_each_cell_runs_twice_with_outputs_compared_in_the_first_run_only(run):
    rc, out = run
    assert rc == 1, out  # once.ipynb and differs.ipynb fail
    for cell in range(4):  # the counter cell prints 'again' the second time: not compared
        assert f'PASSED rerunnable.ipynb::Cell {cell}\n' in out, out
        assert f'PASSED rerunnable.ipynb::Cell {cell} (second run)\n' in out, out
    assert 'FAILED rerunnable' not in out, out


def test_a_cell_that_fails_only_the_second_time_is_named(run):
    """It sees the first run's `done`: the second run follows the first, in the same kernel."""
    rc, out = run
    assert 'once.ipynb, second run (every cell again after Run All), code cell 1' in out, out
    assert 'already ran' in out
    assert 'FAILED once.ipynb::Cell 1 (second run)' in out and 'FAILED once.ipynb::Cell 1 -' not in out, out


def test_outputs_are_still_compared_in_the_first_run(run):
    rc, out = run
    assert 'FAILED differs.ipynb::Cell 0 -' in out and 'Cell outputs differ' in out, out
    assert 'PASSED differs.ipynb::Cell 0 (second run)' in out, out
