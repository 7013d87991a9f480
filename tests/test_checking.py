"""One checker for every timed result: float64 reference, torch, NumPy and MXNet alike."""
import numpy as np
import pytest
import torch

from d2l_ext import ResultMismatch, check_close, relative_error
from tests.conftest import needs_mxnet


def test_relative_error_is_the_worst_over_a_list():
    ref = torch.ones(4, 4, dtype=torch.float64)
    ys = [torch.ones(4, 4), torch.ones(4, 4) * 1.01]
    assert relative_error(ys, ref) == pytest.approx(0.01)
    assert relative_error(ys[0], ref) == 0.0


def test_numpy_and_mixed_inputs_are_compared_on_the_host():
    ref = np.full((3, 3), 2.0)
    assert relative_error([np.full((3, 3), 2.0, dtype=np.float32)], ref) == 0.0
    assert relative_error(torch.full((3, 3), 2.2), ref) == pytest.approx(0.1, rel=1e-5)


def test_check_close_raises_one_line_with_what_failed():
    ref = torch.eye(3, dtype=torch.float64)
    assert check_close([torch.eye(3)], ref, 'lane 1') == 0.0
    with pytest.raises(ResultMismatch, match='lane 1: relative error') as e:
        check_close([torch.eye(3) * 2], ref, 'lane 1')
    assert '\n' not in str(e.value)
    with pytest.raises(ResultMismatch):
        check_close([torch.full((3, 3), float('nan'))], ref, 'nan')  # NaN is never close
    assert check_close([torch.eye(3) * 1.01], ref, 'loose', tol=0.1) == pytest.approx(0.01)


@pytest.mark.slow
@needs_mxnet
def test_mxnet_arrays_are_checked_too():
    code = ('from d2l_ext.backends.mxnet_backend import setup_mxnet; mx, np, npx = setup_mxnet(); '
            'import numpy; from d2l_ext import relative_error, check_close; '
            'x = np.ones((2, 2)); print(relative_error([x.dot(x)], numpy.full((2, 2), 2.0)), '
            'check_close(x, numpy.ones((2, 2)), "mx"))')
    import subprocess
    import sys
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.split()
    assert [float(v) for v in out] == [0.0, 0.0]
