"""PyTorch in its worker is not disturbed by MXNet having run first."""
import subprocess
import sys

import pytest

from d2l_ext import experiments
from d2l_ext.isolation import _mxnet_worker_report, _torch_thread_report, call_in_worker, shutdown
from tests.conftest import needs_mxnet


def fresh_torch_threads():
    out = subprocess.run([sys.executable, '-c', 'import torch; print(torch.get_num_threads())'],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


@needs_mxnet
def test_torch_threads_are_the_same_whether_or_not_mxnet_ran_first():
    shutdown()
    try:
        before = call_in_worker('torch', _torch_thread_report)
        shutdown('torch')
        mx = call_in_worker('mxnet', _mxnet_worker_report)
        experiments.parallel('mxnet', size=64, iters=2, repeats=1)
        after = call_in_worker('torch', _torch_thread_report)
    finally:
        shutdown()
    assert before['torch_threads'] == after['torch_threads'] == fresh_torch_threads()
    assert not after['mxnet_loaded'] and not mx['torch_loaded']
    assert mx['pid'] != after['pid']
    assert mx['OMP_NUM_THREADS'] == '1' and int(mx['MXNET_CPU_WORKER_NTHREADS']) >= 2


@needs_mxnet
def test_the_interference_we_isolate_against_is_real_here():
    """Control: in one process, importing mxnet after torch changes torch's thread count."""
    code = 'import torch; a = torch.get_num_threads(); import mxnet; print(a, torch.get_num_threads())'
    a, b = map(int, subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                                   check=True).stdout.split())
    if a == 1:
        pytest.skip('one core: nothing to drop')
    assert b != a


def test_a_usage_error_comes_back_from_the_worker_as_itself():
    from d2l_ext import UsageError
    with pytest.raises(UsageError, match='matrix size must be at least 1'):
        experiments.parallel('torch', size=0)
    shutdown()
