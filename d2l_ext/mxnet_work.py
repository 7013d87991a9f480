"""Old home of the MXNet backend.  # compatibility: remove once callers moved (use d2l_ext.backends)"""
from .backends.mxnet_backend import (  # noqa: F401
                                     copy_to_cpu,
                                     engine_environment,
                                     events_from_trace,
                                     lane_timeline,
                                     random_matrix,
                                     reference_product,
                                     run,
                                     run_on_lanes,
                                     setup_mxnet,
                                     tolerance,
)
from .checking import relative_error as max_rel_error  # noqa: F401

TOLERANCE = tolerance()
