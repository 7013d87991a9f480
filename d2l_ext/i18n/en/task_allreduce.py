"""13.3.4's graded tasks '13.3.4-a-after' .. '13.3.4-d-buckets': their descriptions and the verdict's sentences."""
# (c) and (d)'s passing overlap: one sentence, at or above the model, the time in flight longer or shorter than the
# model's, and when the calls timed alone took over twice the model's time, a clause saying so (no cause)
_OVERLAP = ("overlap: backward computed during {measured:.0%} of the all-reduces' time, SIDE the model's "
            "{predicted:.0%} for this grader's network (one tied and one frozen weight: not the lesson's MLP); the "
            'model starts each all-reduce the moment its gradients are ready and gives it its time alone, as timed '
            'here: {calls} calls ({per_step:g} per step × {steps} steps × {processes} processes) × {each:.2f} ms on '
            'average = {alone:.1f} ms; measured from each call to its completion, they were in flight {busy:.1f} ms '
            'in allLONGER; needed {threshold:.0%}SLOW')
_SLOW = ('; timed alone these calls took {ratio:.1f}x the time of the per-call overhead + bandwidth model '
         '({model_each:.2f} ms a call on average: α from a one-float all-reduce, bandwidth from the largest call, both '
         'timed alone here); this run does not test why')
_PARTS = {'': ('at or below', ''), '_above': ('above', ', longer than that'),
          '_above_shorter': ('above', ', shorter than that')}
MESSAGES = {
    'task.allreduce.a.description': 'all-reduce every gradient after backward, averaged over the processes',
    'task.allreduce.b.description': 'all-reduce every gradient in one flat buffer: one call per step',
    'task.allreduce.c.description': ("start each gradient's all-reduce from its hook during backward "
                                     '(async_op=True), wait before the optimizer step'),
    'task.allreduce.d.description': ('all-reduce buckets of bucket_mb MiB, filled in reverse parameter order, '
                                     'each as soon as it is full'),
    'task.allreduce.ran': '{name} ran {steps} steps on 2 processes without an error',
    'task.allreduce.correct': ('after each of {steps} steps the parameters match one float64 process on the whole '
                               'minibatch: worst relative error {error:.1e} (tolerance {tolerance:.0e})'),
    'task.allreduce.wrong': ('after step {step}, {parameter} moved differently from one float64 process on the '
                             'whole minibatch: relative error {error:.2g} (tolerance {tolerance:.0e})'),
    'task.allreduce.wrong_buckets': ('with bucket_mb={bucket_mb:g}, after step {step}, {parameter} moved '
                                     'differently from one float64 process on the whole minibatch: relative '
                                     'error {error:.2g} (tolerance {tolerance:.0e})'),
    'task.allreduce.wrong_tied': ('after step {step}, only {parameter} is off (relative error {error:.2g}, '
                                  'tolerance {tolerance:.0e}): it is used twice in forward but listed once in '
                                  'model.parameters(), so its gradient must be all-reduced once'),
    'task.allreduce.wrong_frozen': ('after step {step}, the frozen parameter {parameter} changed (relative '
                                    'error {error:.2g}): a parameter with requires_grad=False must stay as it is'),
    'task.allreduce.wrong_sum': ('every parameter moved {n} times as far as the average gradient takes it: the '
                                 'gradients were summed over the {n} processes, not averaged (relative error '
                                 '{error:.2g}, tolerance {tolerance:.0e})'),
    'task.allreduce.wrong_local': ("every process moved by its own half of the minibatch's gradient only: the "
                                   'all-reduced values never reached the gradients (relative error {error:.2g}, '
                                   'tolerance {tolerance:.0e})'),
    'task.allreduce.none_grad': ('{parameter} has no gradient (.grad is None, a frozen parameter), and '
                                 'dist.all_reduce was given None'),
    'task.allreduce.no_allreduce': ("a step made no all-reduce: a process can know the whole minibatch's gradient "
                                    'only by communicating'),
    'task.allreduce.leftover_hooks': ('in step {step}, {calls} all-reduces started for {params} gradients: hooks of '
                                      'an earlier step are still registered'),
    'task.allreduce.safe': 'every all-reduce had completed when the optimizer step began',
    'task.allreduce.unsafe': ('in step {step}, {unfinished} of {calls} all-reduces had not completed when the '
                              'optimizer step began: wait() for each before optimizer.step()'),
    'task.allreduce.unwaited': ('in step {step}, before the optimizer step began: all-reduces started with '
                                'async_op=True {calls}, waited for (wait() on the handle or its future taken) {waits}; '
                                'wait() for each before optimizer.step()'),
    'task.allreduce.calls': 'one all-reduce per step, for all the gradients at once',
    'task.allreduce.calls_wrong': ('{calls} all-reduce calls per step: put every gradient into one flat buffer '
                                   'and all-reduce it with {expected} call'),
    'task.allreduce.buckets': 'one all-reduce per bucket at every bucket size (the last: {expected} buckets)',
    'task.allreduce.buckets_wrong': ('with bucket_mb={bucket_mb:g}: {calls} all-reduce calls per step, but '
                                     'buckets of that size hold the gradients in {expected}'),
    'task.allreduce.buckets_forward': ('buckets filled in forward order (bucket_mb={bucket_mb:g}); fill them in '
                                       "backward's order: reversed(list(model.parameters()))"),
    'task.allreduce.overlap_info': ('overlap (not graded here): backward computed during {measured:.0%} of the '
                                    "all-reduces' time; predicted {predicted:.0%}, since they start after backward"),
    'task.allreduce.overlap_after': ('overlap {measured:.0%} (model {predicted:.0%}, needed '
                                     '{threshold:.0%}): no all-reduce started before backward ended'),
    'task.allreduce.overlap_blocking': ('overlap {measured:.0%} (model {predicted:.0%}, needed '
                                        '{threshold:.0%}): the all-reduces started during backward, but backward '
                                        'waited inside them; pass async_op=True and wait() only before the step'),
    'task.allreduce.overlap_low': ('overlap {measured:.0%} (model {predicted:.0%}, needed '
                                   '{threshold:.0%}): the all-reduces ran mostly after backward'),
    'task.allreduce.hung': ('process {rank} had not finished after {seconds:.0f} s; both processes were '
                            'stopped'),
    'task.allreduce.waited': ('process {rank} waited {seconds:.0f} s for an all-reduce the other process never '
                              'joined: every process must make the same all-reduce calls in the same order'),
    'task.allreduce.died': 'process {rank} ended without a word ({code}); both processes were stopped',
    'task.allreduce.stopped': ('process {rank} was stopped (SIGSTOP or a debugger) and could not go on: not a '
                               'mismatch of calls; both processes were ended'),
    'task.allreduce.failed': 'process {rank} failed: {error}',
    'task.allreduce.ran_sizes': ('{name} ran {steps} steps at each of {sizes} bucket sizes ({total} steps) on 2 '
                                 'processes without an error'),
    'task.allreduce.correct_sizes': ('at each of the {sizes} bucket sizes, after each of its {steps} steps the '
                                     'parameters match one float64 process on the whole minibatch: worst relative '
                                     'error {error:.1e} (tolerance {tolerance:.0e})'),
    **{f'task.allreduce.overlap{kind}{slow}': _OVERLAP.replace('SIDE', side).replace('LONGER', longer).replace(
        'SLOW', _SLOW if slow else '') for kind, (side, longer) in _PARTS.items() for slow in ('', '_slow')},
}
