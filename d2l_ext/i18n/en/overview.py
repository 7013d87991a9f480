"""13.3.0 Overview: the machine, the prediction, the verdict and the summary, built from measured numbers."""
MESSAGES = {
    'overview.lanes_of': '{framework} lanes on this machine:',
    'overview.assume.separate': ('assuming separate hardware (each lane has its own device) and lanes that take '
                                 'about equally long alone'),
    'overview.verdict.as_expected': ("Measured {measured:.2f}x; the lanes' own times alone give {expected:.2f}x: "
                                     '{within}.'),
    'overview.verdict.below': ("Measured {measured:.2f}x, below the {expected:.2f}x that the lanes' own times alone "
                               'give; the repeats of "together" give {low:.2f}x to {high:.2f}x.'),
    'overview.verdict.above': ("Measured {measured:.2f}x, above the {expected:.2f}x that the lanes' own times alone "
                               'give; the repeats of "together" give {low:.2f}x to {high:.2f}x.'),
    'overview.checked': 'Every product was checked against a float64 reference: worst relative error {error:.1e}.',
    'overview.recorded.none': 'No GPU recording is available, so this notebook shows no GPU evidence.',
    'overview.summary.separate': ('1. Several devices: here, the two lanes together were {speedup:.2f}x as fast as '
                                  "one after the other (predicted from each lane's time alone: {expected:.2f}x)."),
    'overview.summary.gpu': ('   Recorded on {gpu}, {date}: {products} of {size}x{size}; together {speedup:.2f}x as '
                             "fast as one after the other (predicted from each lane's time alone: "
                             '{expected:.2f}x).'),
    'overview.summary.comm': ('2. Computation and communication, recorded on {gpu}, {date}: {iters} products of '
                              '{size}x{size} alone took {run:.3f} s; computing them and copying each result to the '
                              'host into {buffers} took {one:.3f} s on the same stream and {two:.3f} s with a copy '
                              'stream and events.'),
    'overview.summary.no_comm': '2. Computation and communication: no GPU recording of copies is available here.',
    'overview.summary.graph': ('3. The dependency graph: the extra notebook on it measures a training step split '
                               'over two lanes against one lane with the whole minibatch.'),
    'overview.summary.no_base': ("The recording has no run of one device doing both lanes' work, so that "
                                 'comparison is not in it.'),
    'overview.prediction': 'by the hardware rule: together {speedup:.2f}x as fast as one after the other, {assumption}',
    'overview.assume.shared': ('assuming CPU lanes on {cores} core(s), {threads} thread(s) per lane: as many as the '
                               'cores can be split among, {ways}, run at once'),
    'overview.summary.split': ('1. Several devices: this machine has no second device; its two lanes split the '
                               "CPU's {cores} cores (each lane its own). Together they were {speedup:.2f}x as fast "
                               'as one after the other; one lane using all {cores} cores took {baseline:.3f} s, '
                               'together {together:.3f} s: {verdict}'),
    'overview.summary.shared': ('1. Several devices: this machine has no second device; its two lanes share the '
                                "CPU's {cores} cores (more threads than cores). Together they were {speedup:.2f}x "
                                'as fast as one after the other; one lane using all {cores} cores took '
                                '{baseline:.3f} s, together {together:.3f} s: {verdict}'),
    'overview.summary.base': ("{lane} alone doing both lanes' work took {baseline:.3f} s, together {together:.3f} "
                              's: {verdict}'),
    'overview.verdict.not_apart': ("Measured {measured:.2f}x; the lanes' own times alone give {expected:.2f}x."),
    'overview.verdict.unequal': ('The lanes alone took {times} s, not equal: from their times the prediction is '
                                 '{expected:.2f}x, while the hardware rule ({closed:.2f}x) assumed equal lanes.'),
    'overview.buffers.pinned.prealloc': 'reused pinned buffers',
    'overview.buffers.pinned.fresh': 'new pinned tensors',
    'overview.buffers.pageable.prealloc': 'reused pageable buffers',
    'overview.buffers.pageable.fresh': 'new pageable tensors',
}
