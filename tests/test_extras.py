"""Any install (issue 35): without the optional extras the package imports, the CLI runs, panels say one line why
they cannot show, and the unit tests skip what needs a missing extra instead of failing to collect.

"Without the extras" is made by blocking their imports in a fresh interpreter (sys.modules[name] = None makes
`import name` raise ModuleNotFoundError, as on a machine where it was never installed).
"""
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[1]
BLOCKED = ('mxnet', 'd2l', 'torchvision', 'jupyterlab', 'ipywidgets', 'voila', 'jupytext', 'nbval', 'nbformat',
           'nbclient', 'playwright', 'IPython', 'ipykernel', 'matplotlib_inline')
PRELUDE = f'import sys\nfor _name in {BLOCKED!r}:\n    sys.modules[_name] = None\n'


def run_without_extras(code: str, *args, cwd=ROOT, timeout=300, **env) -> subprocess.CompletedProcess:
    env = {'MPLBACKEND': 'Agg', 'PATH': '/usr/bin:/bin', 'PYTHONPATH': str(ROOT), 'HOME': str(ROOT), **env}
    return subprocess.run([sys.executable, '-c', PRELUDE + code, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env=env)


CLI = "import runpy\nsys.argv = ['d2l_ext', *sys.argv[1:]]\nrunpy.run_module('d2l_ext', run_name='__main__')\n"


@pytest.mark.slow
def test_the_package_imports_and_the_cli_runs_without_any_extra():
    for args in (['--help'], ['devices'], ['check', '--list']):
        p = run_without_extras(CLI, *args)
        assert p.returncode == 0, (args, p.stdout[-2000:], p.stderr[-2000:])
        assert 'Traceback' not in p.stdout + p.stderr, args
    p = run_without_extras('import d2l_ext, d2l_ext.display.panels as panels\nprint(panels.MISSING)')
    assert p.returncode == 0 and p.stdout.strip() == 'ipywidgets', p.stderr[-2000:]


def test_a_panel_without_ipywidgets_shows_its_one_line_reason():
    code = ('from d2l_ext.i18n import t\n'
            'from d2l_ext.display.panels import ParallelPanel, PipelinePanel\n'
            'panel = ParallelPanel(size=64, iters=2).show()\n'
            'PipelinePanel().show()\n'
            'try:\n    panel.run_button\nexcept ModuleNotFoundError as e:\n    print("raised", e.name)\n')
    p = run_without_extras(code)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert lines[:2] == [
        'ParallelPanel: this interactive panel needs ipywidgets, which is not installed here; pip install ipywidgets, '
        'then restart the kernel',
        'PipelinePanel: this interactive panel needs ipywidgets, which is not installed here; pip install ipywidgets, '
        'then restart the kernel']
    assert lines[2] == 'raised ipywidgets'


def test_tests_needing_a_missing_extra_are_skipped_not_errors(tmp_path):
    tests = tmp_path / 'tests'
    tests.mkdir()
    (tests / 'conftest.py').write_text((ROOT / 'tests' / 'conftest.py').read_text())
    (tests / 'test_top.py').write_text('import jupytext\n\n\ndef test_uses_it():\n    assert jupytext\n')
    (tests / 'test_inside.py').write_text(
        'def test_panel_widgets():\n    import ipywidgets\n    assert ipywidgets\n\n\n'
        'def test_plain():\n    assert True\n\n\n'
        'def test_a_real_failure():\n    import no_such_module_at_all  # noqa: F401\n')
    p = run_without_extras('import pytest\nsys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-rfs", "tests"]))',
                           cwd=tmp_path, PYTEST_DISABLE_PLUGIN_AUTOLOAD='1')  # nbval, playwright: plugins
    out = p.stdout
    assert '1 failed, 1 passed, 2 skipped' in out, out[-3000:]
    assert 'needs jupytext, an optional extra' in out and 'needs ipywidgets, an optional extra' in out
    assert 'FAILED tests/test_inside.py::test_a_real_failure' in out and ' error' not in out  # not hidden, no errors
