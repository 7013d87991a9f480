"""Old home of the PyTorch backend.  # compatibility: remove once callers moved (use d2l_ext.backends)"""
from .backends.torch_backend import (  # noqa: F401
                                     copy_to_cpu,
                                     intra_op_threads,
                                     lane_timeline,
                                     on_lanes,
                                     random_matrix,
                                     reference_product,
                                     run,
                                     run_on_lanes,
                                     tolerance,
)
from .checking import relative_error as max_rel_error  # noqa: F401
