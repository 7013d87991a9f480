"""13.3.3's graded task '13.3.3-mlp' (mlp_step): its description and the verdict's sentences."""
MESSAGES = {
    'task.mlp.description': ("place the MLP's training step on two lanes as its dependency graph shows: half the rows "
                             'on each lane at once, the gradients summed on the CPU; the same update as one device'),
    'task.mlp.ran': 'mlp_step ran {steps} steps without an error',
    'task.mlp.not_weights': "return the new weights as a dict with keys 'W1', 'b1', 'W2', 'b2'; got {got}",
    'task.mlp.shape': 'the new {name} has shape {got}; {name} has shape {want}',
    'task.mlp.correct': ('every update matches one device on the whole minibatch in float64: worst relative error '
                         '{error:.1e} over {steps} SGD steps (tolerance {tolerance:.0e})'),
    'task.mlp.wrong': ('SGD step {step}: the update differs from one device on the whole minibatch in float64 '
                       '(relative error {error:.1e}, tolerance {tolerance:.0e}); yours is {scale:.2f} times '
                       'the right one'),
    'task.mlp.calls': 'call lane_step once per half in every step; one step called it {calls} time(s)',
    'task.mlp.rows': 'the halves had {rows} rows; together they must be the whole minibatch of {batch} rows',
    'task.mlp.device': "lane {lane}'s half ran on {got}; lane {lane} is {want}: move its rows and weights there",
    'task.mlp.threads': ("lane {lane}'s half ran with {got} thread(s); that lane is a share of {want} thread(s): "
                         'run it on its lane (run_on_lanes)'),
    'task.mlp.same_thread': 'both halves ran on one thread ({thread}): give each CPU lane its own thread',
    'task.mlp.result_device': 'the new weights are on {got}: return them on the CPU, where the server keeps them',
    'task.mlp.server_device': 'the gradients were summed or applied on {got}: do that on the CPU, the server',
    'task.mlp.placed': 'each half ran on its own lane ({lanes}); the gradients were summed on the CPU',
    'task.mlp.no_halves': 'no step ran two halves through lane_step, so no overlap could be measured',
    'task.mlp.overlap': ('in the best of {steps} graded steps the shorter half was busy {measured:.0%} of its time '
                         'while the other half was busy too (median {median:.0%}; predicted {predicted:.0%} for halves '
                         'started together; needed {threshold:.0%}); the check uses {batch} rows per step, and a step '
                         'took {wall:.2f} ms on the wall clock, the halves {serial:.2f} ms in all, the longer '
                         '{longest:.2f} ms (medians of those {steps} steps, after {warmup} not counted)'),
}
