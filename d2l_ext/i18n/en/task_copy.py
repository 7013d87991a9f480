"""13.3.2's graded task '13.3.2-copy' (run_and_copy): its description and the verdict's sentences."""
MESSAGES = {
    'task.copy.description': 'copy each product to host memory while the next one computes; safe to read on return',
    'task.copy.ran': 'run_and_copy ran without an error',
    'task.copy.count': 'got {got}, not the {buffers} buffers you were given',
    'task.copy.not_buffer': 'result {index} is not buffers[{index}], the host buffer you were given',
    'task.copy.wrong': 'buffers[{index}]: relative error {error:.1e} against float64 x @ w (tolerance {tolerance:.0e})',
    'task.copy.correct': 'every buffer holds x @ w: worst relative error {error:.1e} (tolerance {tolerance:.0e})',
    'task.copy.safe': 'all {buffers} buffers were complete the moment run_and_copy returned',
    'task.copy.safe_raised': 'safety not judged: the second call raised an error',
    'task.copy.unsafe': 'buffers[{index}] (of {buffers}) was not completely copied when run_and_copy returned',
    'task.copy.no_intervals': 'saw {products} products and {copies} copies to host memory',
    'task.copy.overlap': 'share of the copy time spent while a product computed: {measured:.0%} '
                         '(needed {threshold:.0%})',
    'task.copy.sim_ok': 'simulated GPU: copies after their products, done on return, {measured:.0%} beside products',
    'task.copy.sim_early': 'simulated GPU: copy {index} can start before its product is done',
    'task.copy.sim_unsafe': 'simulated GPU: returns before buffers[{index}] is written',
    'task.copy.sim_serial': 'simulated GPU: copies beside products {measured:.0%} of their time (needed {needed:.0%})',
    'task.copy.sim_none': 'simulated GPU: no product and copy on its streams',
    'task.copy.sim_buffers': 'simulated GPU: the given buffers were not filled and returned',
    'task.copy.sim_raised': 'simulated GPU: raised {error}',
    'task.copy.sim_unmodelled': 'simulated GPU: torch.cuda.{name} is not modelled',
}
