"""13.3.0 Overview: the machine, the prediction, the verdict and the summary, built from measured numbers."""
MESSAGES = {
    'overview.lanes_of': '{framework} lanes on this machine:',
    'overview.assume.separate': ('assuming separate hardware (each lane has its own device) and lanes that take '
                                 'about equally long alone'),
    'overview.assume.shared': ('assuming shared cores: {cores} core(s), {threads} thread(s) per lane, so {ways} '
                               'lane(s) can run at once'),
    'overview.prediction': 'prediction: together {speedup:.2f}x as fast as one after the other, {assumption}',
    'overview.verdict.as_predicted': ('Measured {measured:.2f}x against the predicted {predicted:.2f}x: within '
                                      '{tolerance:.0%} of the prediction.'),
    'overview.verdict.no_gain': ('Measured {measured:.2f}x against the predicted {predicted:.2f}x: running together '
                                 'saved nothing here. Look at the dots: if they spread widely, other programs were '
                                 'using the cores; run the cell again.'),
    'overview.verdict.below': ('Measured {measured:.2f}x, below the predicted {predicted:.2f}x: the lanes got in each '
                               "other's way (other programs on the cores, or memory bandwidth both lanes need)."),
    'overview.verdict.above': ('Measured {measured:.2f}x, above the predicted {predicted:.2f}x: the lanes alone were '
                               'slowed by noise in some repeats; look at how far their dots spread.'),
    'overview.checked': 'Every product was checked against a float64 reference: worst relative error {error:.1e}.',
    'overview.recorded.none': 'No GPU recording is available, so this notebook shows no GPU evidence.',
    'overview.recorded.title': '{gpu}: {iters} products on each lane, side by side (one bar per product)',
    'overview.summary.here_gain': ('1. Several devices: here, two lanes together were {speedup:.2f}x as fast as one '
                                   'after the other.'),
    'overview.summary.here_no_gain': ('1. Several devices: here, two lanes together were {speedup:.2f}x as fast as '
                                      'one after the other, so this run shows no gain (see the dots above).'),
    'overview.summary.gpu': ('   Recorded on {gpu}: a GPU lane and a CPU lane together were {speedup:.2f}x as fast '
                             'as one after the other (expected {expected:.2f}x).'),
    'overview.summary.comm': ('2. Computation and communication, recorded on {gpu}: {iters} products alone took '
                              '{run:.3f} s; with each result copied to the host on the same stream {one:.3f} s; '
                              'with a copy stream and events {two:.3f} s.'),
    'overview.summary.no_comm': '2. Computation and communication: no GPU recording of copies is available here.',
    'overview.summary.graph': ('3. The dependency graph: 13.3.3 measures a training step split over two lanes '
                               'against one lane with the whole minibatch.'),
}
