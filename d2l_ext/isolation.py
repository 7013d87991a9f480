"""Old name of workers.py.  # compatibility: remove once callers moved"""
from .workers import (call_in_worker, report_progress, shutdown, worker_environment,  # noqa: F401
                      mxnet_worker_report as _mxnet_worker_report, torch_thread_report as _torch_thread_report)
