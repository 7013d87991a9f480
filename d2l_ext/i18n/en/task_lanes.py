"""13.3.1's graded task '13.3.1-lanes' (run_together): its description and the verdict's sentences."""
MESSAGES = {
    'task.lanes.description': 'run one piece of work per lane so that the lanes run at the same time',
    'task.lanes.ran': 'run_together ran {runs} times without an error',
    'task.lanes.calls': 'the works were called {calls} time(s); each must be called once per call',
    'task.lanes.count': 'got {got} results for {lanes} lanes',
    'task.lanes.not_results': 'result {lane} is {got}, not the {products} tensors works[{lane}]() returned',
    'task.lanes.order': 'result {lane} holds the products of lane {other}',
    'task.lanes.wrong': 'result {lane}: relative error {error:.1e} against float64 (tolerance {tolerance:.0e})',
    'task.lanes.correct': 'every result matches float64: worst relative error {error:.1e} (tolerance {tolerance:.0e})',
    'task.lanes.threads': 'CPU lane {lane} ran with {got} thread(s); its share is {want}',
    'task.lanes.threads_ok': 'every CPU lane ran with its share of the threads',
    'task.lanes.safe': 'every lane had finished when run_together returned',
    'task.lanes.safe_unknown': 'safety not judged: the results were wrong',
    'task.lanes.unsafe_cpu': 'lane {lane} (a CPU thread) was still running when run_together returned',
    'task.lanes.unsafe_gpu': "lane {lane}'s GPU was still computing when run_together returned",
    'task.lanes.unsafe_value': 'the results were filled in after run_together returned',
    'task.lanes.unfinished': 'some work had not finished {seconds:.0f} s after run_together returned',
    'task.lanes.overlap': ('the shorter lane ran {measured:.0%} of its busy time beside the other '
                           '(needed {threshold:.0%})'),
    'task.lanes.sim_ok': 'simulated GPU: its products done on return',
    'task.lanes.sim_unsafe': 'simulated GPU: returned before its products were done',
    'task.lanes.sim_calls': 'simulated GPU: {calls} calls of works[i](), not 2',
}
