"""13.3.1's graded task '13.3.1-lanes' (run_together): its description and the verdict's sentences."""
MESSAGES = {
    'task.lanes.description': 'run one piece of work per lane so that the lanes run at the same time',
    'task.lanes.raised': 'run_together raised {error}',
    'task.lanes.ran': 'run_together ran {runs} times without an error',
    'task.lanes.calls': ('each work must be called exactly once per call of run_together; the works were called '
                         '{calls} time(s)'),
    'task.lanes.count': 'return one result per lane: got {got} for {lanes} lanes',
    'task.lanes.not_results': ('result {lane} should be what works[{lane}]() returned (a list of {products} '
                               'tensors); got {got}'),
    'task.lanes.order': 'result {lane} holds the products of lane {other}: return the results in the order of lanes',
    'task.lanes.wrong': ('result {lane} differs from the float64 reference: relative error {error:.1e}, '
                         'tolerance {tolerance:.0e}'),
    'task.lanes.correct': ('every result matches the float64 reference: worst relative error {error:.1e} '
                           '(tolerance {tolerance:.0e})'),
    'task.lanes.threads': ('lane {lane} (a CPU lane) ran with {got} thread(s); its share is {want}: call '
                           "torch.set_num_threads(lane.threads) in the lane's own thread"),
    'task.lanes.threads_ok': 'every CPU lane ran with its share of the threads',
    'task.lanes.safe': 'every lane had finished when run_together returned',
    'task.lanes.safe_unknown': 'safety not judged: the results were wrong',
    'task.lanes.unsafe_cpu': ('lane {lane} (a CPU thread) was still running when run_together returned: wait for '
                              'every thread before returning'),
    'task.lanes.unsafe_gpu': ("lane {lane}'s GPU had not finished its queued products when run_together returned: "
                              'synchronize every GPU used (torch.cuda.synchronize(lane.index))'),
    'task.lanes.unsafe_value': ('the results were filled in after run_together returned: a caller reading them at '
                                'once sees missing values'),
    'task.lanes.unfinished': 'some work had not finished {seconds:.0f} s after run_together returned',
    'task.lanes.overlap': ('the shorter lane was busy {measured:.0%} of its time while the other lane was busy too '
                           '(predicted {predicted:.0%} for lanes started together; needed {threshold:.0%}); '
                           'wall clock {wall:.3f} s, the lanes busy {serial:.3f} s in all, the longer {longest:.3f} s'),
}
