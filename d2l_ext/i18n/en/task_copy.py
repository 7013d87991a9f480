"""13.3.2's graded task '13.3.2-copy' (run_and_copy): its description and the verdict's sentences."""
MESSAGES = {
    'task.copy.description': ('run products and copy each one to host memory so that the copies overlap the next '
                              'products, safe to read the moment it returns'),
    'task.copy.ran': 'run_and_copy ran without an error',
    'task.copy.count': 'return the {buffers} buffers you were given, filled; got {got}',
    'task.copy.not_buffer': ('result {index} is not buffers[{index}]: copy each product into the buffer you were '
                             'given (preallocated host memory, pinned on a GPU) and return the buffers'),
    'task.copy.wrong': ('buffers[{index}] differs from x @ w computed in float64: relative error {error:.1e}, '
                        'tolerance {tolerance:.0e}'),
    'task.copy.correct': ('every buffer holds x @ w: worst relative error {error:.1e} against float64 '
                          '(tolerance {tolerance:.0e})'),
    'task.copy.safe': 'all {buffers} buffers were complete the moment run_and_copy returned',
    'task.copy.safe_raised': 'safety not judged: the second call raised an error',
    'task.copy.unsafe_gpu': ('buffers[{index}] (of {buffers}) was not (completely) copied yet when run_and_copy '
                             'returned: the host must wait for the copy stream (copy_stream.synchronize()) before '
                             'returning'),
    'task.copy.unsafe_cpu': ('buffers[{index}] (of {buffers}) was not (completely) copied yet when run_and_copy '
                             'returned: join the copy thread before returning'),
    'task.copy.no_intervals_gpu': ('the profiler saw {products} kernels and {copies} device-to-host copies: copy each '
                                   'product from the GPU into its host buffer'),
    'task.copy.no_intervals_cpu': ('the stopwatch saw {products} products and {copies} copies: compute x.mm(w) and '
                                   'copy it with buf.copy_(y)'),
    'task.copy.overlap': ('the copies ran beside a product for {measured:.0%} of their busy time (predicted '
                          '{predicted:.0%}, needed {threshold:.0%}); busy: products {compute:.4f} s, copies '
                          '{copy:.4f} s, added up {serial:.4f} s; the wall clock of this call, {wall:.4f} s, was '
                          '{diff:.4f} s less than the busy times added up: for at least that long a product and a '
                          'copy were busy at once (busy time that ran at once, not time saved against run then copy, '
                          'which this check does not time; its buffers were allocated, and pinned on a GPU, before '
                          'the call: not counted)'),
    'task.copy.overlap_equal': ('the copies ran beside a product for {measured:.0%} of their busy time (predicted '
                                '{predicted:.0%}, needed {threshold:.0%}); busy: products {compute:.4f} s, copies '
                                '{copy:.4f} s, added up {serial:.4f} s; the wall clock of this call, {wall:.4f} s, '
                                'equals the busy times added up to 4 places (its buffers were allocated, and pinned '
                                'on a GPU, before the call: not counted)'),
    'task.copy.overlap_more': ('the copies ran beside a product for {measured:.0%} of their busy time (predicted '
                               '{predicted:.0%}, needed {threshold:.0%}); busy: products {compute:.4f} s, copies '
                               '{copy:.4f} s, added up {serial:.4f} s; wall clock of this call {wall:.4f} s, '
                               '{diff:.4f} s more than that sum: for at least that long neither a product nor a '
                               'copy was busy (its buffers were allocated, and pinned on a GPU, before the call: '
                               'not counted)'),
}
