"""The first line of every notebook (13.3.0-13.3.4): versions, cores and GPUs of this machine."""
from __future__ import annotations

from ..i18n import t


def machine_line(mxnet: bool = True) -> str:
    """Python, PyTorch and MXNet versions, CPU cores and GPUs, in one line a learner reads first (`mxnet=False`: a
    lesson that never runs MXNet leaves it out)."""
    from ..machine import cpu_cores, gpu_names_torch, versions
    v = versions()
    return t('core.machine' if mxnet else 'core.machine_torch', python=v['python'], torch=v.get('torch'),
             mxnet=v.get('mxnet') or t('core.not_installed'), cores=cpu_cores(),
             gpus=', '.join(gpu_names_torch()) or t('core.no_gpu'))
