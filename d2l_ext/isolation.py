"""Old name of workers.py.  # compatibility: remove once callers moved"""
from .workers import call_in_worker, report_progress, shutdown, worker_environment  # noqa: F401
