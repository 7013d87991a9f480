"""13.3.4's graded tasks '13.3.4-a-after' .. '13.3.4-d-buckets': their descriptions and the verdict's sentences."""
# (c) and (d)'s passing overlap: at or above the model, in flight longer or shorter than the model, and a clause when
# the calls timed alone took over twice the model's time (no cause)
_OVERLAP = ("overlap: backward computed during {measured:.0%} of the all-reduces' time, SIDE the model's "
            "{predicted:.0%} for this grader's network; the model starts each all-reduce when its gradients are "
            'ready and gives it its time alone here: {calls} calls ({per_step:g} per step × {steps} steps × '
            '{processes} processes) × {each:.2f} ms = {alone:.1f} ms; they were in flight {busy:.1f} msLONGER; '
            'needed {threshold:.0%}SLOW')
_SLOW = ('; alone, these calls took {ratio:.1f}x the per-call overhead + bandwidth model ({model_each:.2f} ms a '
         'call); this run does not test why')
_PARTS = {'': ('at or below', ''), '_above': ('above', ', longer than that'),
          '_above_shorter': ('above', ', shorter than that')}
_OFF = 'relative error {error:.2g}, tolerance {tolerance:.0e}'
_HEAD = 'overlap {measured:.0%} (model {predicted:.0%}, needed {threshold:.0%}): '
MESSAGES = {
    'task.allreduce.a.description': 'all-reduce every gradient after backward, averaged over the processes',
    'task.allreduce.b.description': 'all-reduce every gradient in one flat buffer: one call per step',
    'task.allreduce.c.description': "start each gradient's all-reduce in its hook (async_op=True); wait before step()",
    'task.allreduce.d.description': 'all-reduce buckets of bucket_mb MiB, filled in reverse parameter order, when full',
    'task.allreduce.ran': '{name} ran {steps} steps on 2 processes without an error',
    'task.allreduce.correct': ('after each of {steps} steps the parameters match one float64 process on the whole '
                               'minibatch: worst relative error {error:.1e} (tolerance {tolerance:.0e})'),
    'task.allreduce.wrong': 'after step {step}, {parameter} differs from one float64 process on the whole minibatch: '
                            + _OFF,
    'task.allreduce.wrong_buckets': 'with bucket_mb={bucket_mb:g}, after step {step}, {parameter} differs from one '
                                    'float64 process on the whole minibatch: ' + _OFF,
    'task.allreduce.wrong_tied': ('after step {step}, only {parameter} is off (' + _OFF + '): used twice in forward '
                                  'but listed once in model.parameters(), it must be all-reduced once'),
    'task.allreduce.wrong_frozen': ('after step {step}, the frozen parameter {parameter} changed (relative error '
                                    '{error:.2g}): requires_grad=False must keep it as it is'),
    'task.allreduce.wrong_sum': ('every parameter moved {n} times too far: the gradients were summed over the {n} '
                                 'processes, not averaged (' + _OFF + ')'),
    'task.allreduce.wrong_local': ("each process moved by its own half's gradient only: the all-reduced values "
                                   'never reached the gradients (' + _OFF + ')'),
    'task.allreduce.none_grad': '{parameter} has no gradient (frozen: .grad is None), and dist.all_reduce got None',
    'task.allreduce.no_allreduce': "a step made no all-reduce: only communication gives the whole minibatch's gradient",
    'task.allreduce.leftover_hooks': ('in step {step}, {calls} all-reduces started for {params} gradients: hooks of '
                                      'an earlier step are still registered'),
    'task.allreduce.safe': 'every all-reduce had completed when the optimizer step began',
    'task.allreduce.unsafe': ('in step {step}, {unfinished} of {calls} all-reduces had not completed when the '
                              'optimizer step began: wait() for each before optimizer.step()'),
    'task.allreduce.unwaited': ('in step {step}, before the optimizer step: {calls} all-reduces started with '
                                'async_op=True, {waits} waited for; wait() for each before optimizer.step()'),
    'task.allreduce.calls': 'one all-reduce per step, for all the gradients at once',
    'task.allreduce.calls_wrong': '{calls} all-reduce calls per step: put every gradient into one flat buffer and '
                                  'all-reduce it with {expected} call',
    'task.allreduce.buckets': 'one all-reduce per bucket at every bucket size (the last: {expected} buckets)',
    'task.allreduce.buckets_wrong': ('with bucket_mb={bucket_mb:g}: {calls} all-reduce calls per step, but buckets '
                                     'of that size hold the gradients in {expected}'),
    'task.allreduce.buckets_forward': ('buckets filled in forward order (bucket_mb={bucket_mb:g}); fill them in '
                                       "backward's order: reversed(list(model.parameters()))"),
    'task.allreduce.overlap_info': ("overlap (not graded here): backward computed during {measured:.0%} of the "
                                    "all-reduces' time; predicted {predicted:.0%}: they start after backward"),
    'task.allreduce.overlap_after': _HEAD + 'no all-reduce started before backward ended',
    'task.allreduce.overlap_blocking': _HEAD + ('the all-reduces started during backward, but backward waited '
                                                'inside them; pass async_op=True and wait() only before the step'),
    'task.allreduce.overlap_low': _HEAD + 'the all-reduces ran mostly after backward',
    'task.allreduce.hung': 'process {rank} had not finished after {seconds:.0f} s; both processes were stopped',
    'task.allreduce.waited': ('process {rank} waited {seconds:.0f} s for an all-reduce the other never joined: '
                              'every process must make the same all-reduce calls in the same order'),
    'task.allreduce.died': 'process {rank} ended without a word ({code}); both processes were stopped',
    'task.allreduce.stopped': ('process {rank} was stopped (SIGSTOP or a debugger): not a mismatch of calls; both '
                               'processes were ended'),
    'task.allreduce.failed': 'process {rank} failed: {error}',
    'task.allreduce.ran_sizes': ('{name} ran {steps} steps at each of {sizes} bucket sizes ({total} steps) on 2 '
                                 'processes without an error'),
    'task.allreduce.correct_sizes': ('at each of {sizes} bucket sizes, after each of its {steps} steps the '
                                     'parameters match one float64 process on the whole minibatch: worst relative '
                                     'error {error:.1e} (tolerance {tolerance:.0e})'),
    **{f'task.allreduce.overlap{kind}{slow}': _OVERLAP.replace('SIDE', side).replace('LONGER', longer).replace(
        'SLOW', _SLOW if slow else '') for kind, (side, longer) in _PARTS.items() for slow in ('', '_slow')},
}
