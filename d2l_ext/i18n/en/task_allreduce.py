"""13.3.4's graded tasks '13.3.4-a-after' .. '13.3.4-d-buckets': their descriptions and one line per criterion."""
_OFF = 'relative error {error:.2g}, tolerance {tolerance:.0e}'
_VS = 'differs from one float64 process on the whole minibatch: ' + _OFF
_HEAD = 'overlap {measured:.0%} (needed {threshold:.0%})'
_WAIT = ': wait() for each before optimizer.step()'
MESSAGES = {
    'task.allreduce.a.description': 'all-reduce every gradient after backward, averaged over the processes',
    'task.allreduce.b.description': 'all-reduce every gradient in one flat buffer: one call per step',
    'task.allreduce.c.description': "start each gradient's all-reduce in its hook (async_op=True); wait before step()",
    'task.allreduce.d.description': 'all-reduce buckets of bucket_mb MiB, filled in reverse parameter order, when full',
    'task.allreduce.ran': '{name} ran {steps} steps on 2 processes without an error',
    'task.allreduce.ran_sizes': '{name} ran {steps} steps at each of {sizes} bucket sizes on 2 processes, no error',
    'task.allreduce.correct': 'parameters match one float64 process on the whole minibatch: worst ' + _OFF,
    'task.allreduce.correct_sizes': 'at all {sizes} bucket sizes, parameters match one float64 process: worst ' + _OFF,
    'task.allreduce.wrong': 'after step {step}, {parameter} ' + _VS,
    'task.allreduce.wrong_buckets': 'with bucket_mb={bucket_mb:g}, after step {step}, {parameter} ' + _VS,
    'task.allreduce.wrong_tied': ('after step {step}, only {parameter} is off (' + _OFF + '): listed once in '
                                  'model.parameters(), it must be all-reduced once'),
    'task.allreduce.wrong_frozen': 'after step {step}, the frozen parameter {parameter} changed: requires_grad=False',
    'task.allreduce.wrong_sum': 'each parameter moved {n} times too far: gradients summed, not averaged (' + _OFF + ')',
    'task.allreduce.wrong_local': "each process moved by its own half's gradient: the all-reduced values were lost",
    'task.allreduce.none_grad': '{parameter} is frozen (.grad is None), and dist.all_reduce got None',
    'task.allreduce.no_allreduce': "a step made no all-reduce: only communication gives the whole minibatch's gradient",
    'task.allreduce.leftover_hooks': 'step {step} started {calls} all-reduces for {params} gradients: old hooks remain',
    'task.allreduce.safe': 'every all-reduce had completed when the optimizer step began',
    'task.allreduce.unsafe': 'in step {step}, {unfinished} of {calls} all-reduces were unfinished at the step' + _WAIT,
    'task.allreduce.unwaited': 'in step {step}, {waits} of {calls} async all-reduces waited for' + _WAIT,
    'task.allreduce.calls': 'one all-reduce per step, for all the gradients at once',
    'task.allreduce.calls_wrong': '{calls} all-reduce calls per step: put every gradient into one flat buffer',
    'task.allreduce.buckets': 'one all-reduce per bucket at every bucket size (the last: {expected} buckets)',
    'task.allreduce.buckets_wrong': 'bucket_mb={bucket_mb:g}: {calls} all-reduce calls per step, {expected} buckets',
    'task.allreduce.buckets_forward': 'buckets filled in forward order: use reversed(list(model.parameters()))',
    'task.allreduce.overlap_info': 'overlap {measured:.0%} (not graded: this task sends after backward)',
    'task.allreduce.overlap_after': _HEAD + ': no all-reduce started before backward ended',
    'task.allreduce.overlap_blocking': _HEAD + ': backward waited inside them; pass async_op=True',
    'task.allreduce.overlap_low': _HEAD + ': the all-reduces ran mostly after backward',
    'task.allreduce.hung': 'process {rank} made no progress for {seconds:.0f} s; every process was stopped',
    'task.allreduce.waited': ('process {rank} waited {seconds:.0f} s for an all-reduce another never joined: '
                              'make the same calls in the same order'),
    'task.allreduce.died': 'process {rank} ended unexpectedly ({code}); every process was stopped',
    'task.allreduce.stopped': 'process {rank} was stopped (SIGSTOP or a debugger), not a mismatch; all were ended',
    'task.allreduce.failed': 'process {rank} failed: {error}',
    'task.allreduce.overlap': _HEAD,
}
