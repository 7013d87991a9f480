import os

os.environ.setdefault('MPLBACKEND', 'Agg')

import pytest  # noqa: E402

from d2l_ext.machine import has_framework  # noqa: E402

needs_mxnet = pytest.mark.skipif(not has_framework('mxnet'), reason='MXNet is not installed (optional extra)')
