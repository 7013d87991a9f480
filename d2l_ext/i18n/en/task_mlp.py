"""13.3.3's graded task '13.3.3-mlp' (mlp_step): its description and the verdict's sentences."""
MESSAGES = {
    'task.mlp.description': ("the MLP's training step on two lanes, half the rows each at once, gradients summed on "
                             'the CPU'),
    'task.mlp.ran': 'mlp_step ran {steps} steps without an error',
    'task.mlp.not_weights': "got {got}, not a dict with keys 'W1', 'b1', 'W2', 'b2'",
    'task.mlp.shape': 'the new {name} has shape {got}, not {want}',
    'task.mlp.correct': 'all {steps} updates match float64: worst relative error {error:.1e} (allowed {tolerance:.0e})',
    'task.mlp.wrong': ('step {step}: relative error {error:.1e} against one float64 device (tolerance '
                       '{tolerance:.0e}); yours is {scale:.2f} times the right update'),
    'task.mlp.calls': 'one step called lane_step {calls} times',
    'task.mlp.rows': 'the halves had {rows} rows; the minibatch has {batch}',
    'task.mlp.device': "lane {lane}'s half ran on {got}, not {want}",
    'task.mlp.threads': "lane {lane}'s half ran on threads: {got}, not its share: {want}",
    'task.mlp.same_thread': 'both halves ran on one thread ({thread})',
    'task.mlp.result_device': 'the new weights are on {got}, not the CPU',
    'task.mlp.server_device': 'the gradients were summed or applied on {got}, not the CPU',
    'task.mlp.placed': 'each half ran on its own lane ({lanes}); the gradients were summed on the CPU',
    'task.mlp.no_halves': 'no step ran two halves through lane_step',
    'task.mlp.overlap': ('best of {steps} steps: the shorter half ran {measured:.0%} beside the other (median '
                         '{median:.0%}, predicted {predicted:.0%}); a step of {batch} rows {wall:.2f} ms'),
    'task.mlp.overlap_waited': ('best of {steps} steps: the shorter half ran {measured:.0%} beside the other (each GPU '
                                'half first waits {waited:.0f} ms)'),
}
