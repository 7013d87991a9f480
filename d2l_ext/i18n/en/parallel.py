"""13.3.1 Parallel computation on devices: variants, expectations, sentences built from measurements."""
MESSAGES = {
    'parallel.what': 'this run',
    'parallel.variant.serial_sum': 'one after the other (sum of the lanes alone)',
    'parallel.variant.together': 'all lanes together',
    'parallel.variant.expected.separate': 'expected: max(lane times), separate hardware',
    'parallel.variant.expected.shared': 'expected: lanes share the cores',
    'parallel.variant.expected.engine': "expected: no gain, MXNet's engine already uses every core",
    'parallel.variant.one_at_a_time': 'one at a time (wait after each)',
    'parallel.variant.issued_together': 'issued together (one wait)',
    'parallel.variant.one_lane': 'one lane, the whole device',
    'parallel.variant.two_streams': 'two CUDA streams on the same GPU',
    'parallel.variant.two_threads': 'two threads, half the cores each',
    'parallel.variant.batched': 'one batched product (torch.bmm)',
    'parallel.variant.cuda_graph': 'CUDA Graph replay (one launch)',
    'parallel.variant.no_wait': 'no wait at all',
    'parallel.variant.book_synchronize': 'torch.cuda.synchronize() (the book: current device only)',
    'parallel.variant.every_device': 'synchronize every device used',
    'parallel.variant.cpu_first': 'CPU lane started first',
    'parallel.variant.gpu_first': 'GPU work queued first',
    'parallel.expect.separate': 'expected {seconds:.3f} s = max(lane times): the lanes run on separate hardware',
    'parallel.expect.shared': ('expected {seconds:.3f} s: the lanes share {cores} core(s), {threads} thread(s) each, '
                               'so at most {ways} can run at once'),
    'parallel.expect.engine': ("expected {seconds:.3f} s = one after the other: one MXNet lane's engine already "
                               'spreads its products over all {cores} cores, so a second lane finds none idle'),
    'parallel.summary': ('{framework}: one after the other {serial:.3f} s, together {together:.3f} s, so together was '
                         '{speedup:.2f}x as fast; expected {expected_speedup:.2f}x.'),
    'parallel.sync.no_gpu': ('no GPU lane here: PyTorch runs CPU work before returning, so every way of waiting '
                             'measures the same thing'),
    'parallel.launch.needs_gpu_cpu': 'needs one GPU lane and one CPU lane (a machine with exactly one GPU)',
    'parallel.independence.summary': ('{framework} ({engine}, {lane}, {threads} thread(s)): {iters} products of '
                                      '{size}x{size}: one at a time {single:.4f} s, issued together {together:.4f} s, '
                                      'ratio {ratio:.2f}'),
    'parallel.small_ops.gpu': ('Issuing one small product from Python took about {launch_us:.1f} us here: the GPU '
                               'computes it faster than the next launch arrives, so the work is launch-bound and a '
                               'second stream has nothing to overlap. One batched product or a CUDA Graph replay '
                               'launches once for all of them.'),
    'parallel.small_ops.cpu': ('On {cores} core(s), one product of {size}x{size} took about {launch_us:.1f} us '
                               'including the Python call. Compare the rows: a second thread helps only when one '
                               'thread leaves cores idle; one batched product saves the per-call cost.'),
    'parallel.plot_title': '{framework}: together {speedup:.2f}x as fast as one after the other '
                           '(expected {expected:.2f}x)',
    'parallel.timeline_title': '{framework}: when each product ran on each lane',
    'parallel.scaling_measured': '{framework} measured',
    'parallel.scaling_expected': '{framework} expected',
    'parallel.scaling_title': 'Smaller products, less to gain from a second lane?',
}
