import os

os.environ.setdefault('MPLBACKEND', 'Agg')

import pytest  # noqa: E402

from d2l_ext.machine import has_framework  # noqa: E402

needs_mxnet = pytest.mark.skipif(not has_framework('mxnet'), reason='MXNet is not installed (optional extra)')


# Test modules that import the Jupyter packages at the top: without them, a skip, not a collection error
# (the package itself and its other tests need none of them).
NEEDS_JUPYTER = {'test_rerun.py': ('nbformat', 'nbclient'),
                 'test_notebooks.py': ('jupytext', 'nbformat', 'nbclient'),
                 'test_build.py': ('jupytext', 'nbformat', 'nbclient')}


class _NeedsJupyter(pytest.Module):
    def _getobj(self):
        missing = [m for m in NEEDS_JUPYTER[self.path.name] if not has_framework(m)]
        if missing:
            pytest.skip(f"needs {', '.join(missing)} (pip install 'd2l_ext[test]')",
                        allow_module_level=True)
        return super()._getobj()


def pytest_pycollect_makemodule(module_path, parent):
    if module_path.name in NEEDS_JUPYTER and module_path.parent.name == 'tests':
        return _NeedsJupyter.from_parent(parent, path=module_path)
    return None
