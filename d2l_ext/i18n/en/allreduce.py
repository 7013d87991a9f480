"""Messages of 13.3.4: gradients all-reduced while backward still runs."""
MESSAGES = {
    'allreduce.version.backward': 'backward alone (nothing sent)',
    'allreduce.version.allreduce': 'all-reduce alone',
    'allreduce.version.serial': '(a) backward, then all-reduce',
    'allreduce.version.hooks': '(b) all-reduce from gradient hooks',
    'allreduce.version.ddp': '(c) DDP, {mb:g} MB buckets',
    'allreduce.col.version': 'version',
    'allreduce.col.median': 'median step (s)',
    'allreduce.col.iqr': 'IQR (s)',
    'allreduce.col.min': 'min (s)',
    'allreduce.col.max': 'max (s)',
    'allreduce.col.predicted': 'predicted (s)',
    'allreduce.col.error': 'relative error',
    'allreduce.col.times': 'every repeat (s)',
    'allreduce.lane': 'process {rank} · {what}',
    'allreduce.lane.compute': 'compute',
    'allreduce.lane.allreduce': 'all-reduce',
    'allreduce.mismatch': '{version} on process {rank} gave wrong parameters: relative error {error:.2e} > {tol:.0e}',
    'allreduce.fail.died': 'process {rank} ended unexpectedly (exit code {code}); every other process was stopped',
    'allreduce.fail.hung': ('process {rank} stopped responding ({seconds:.0f} s without progress); '
                            'every process was stopped'),
    'allreduce.fail.silent': 'no progress from process {rank} for {seconds:.0f} s; every process was stopped',
    'allreduce.fail.error': 'process {rank} failed: {kind}: {message}; every process was stopped',
    'allreduce.usage.backend': "backend {backend!r} is not available: choose 'gloo' (CPU) or 'nccl' (2+ GPUs)",
    'allreduce.usage.nccl': "NCCL needs at least 2 GPUs and this machine has {gpus}: use --backend gloo",
    'allreduce.usage.world_hint': 'pass a world size of 2 or more',
    'allreduce.usage.world_small': 'a world size of {n} has nothing to all-reduce with: use 2 or more processes',
    'allreduce.usage.cores': ('{n} processes need {n} cores and this machine has {cores}: '
                              'use a world size of at most {cores}'),
    'allreduce.usage.gpus': '{n} NCCL processes need {n} GPUs and this machine has {gpus}: use at most {gpus}',
    'allreduce.usage.bucket': 'bucket size {value!r} must be a number of MB above 0, e.g. 1 or 0.25,1,4,25',
    'allreduce.usage.port_hint': 'pass a free port between 1024 and 65535, or none to pick one',
    'allreduce.usage.port_range': 'port {port} is not a port: pass one between 1024 and 65535, or none',
    'allreduce.usage.port_busy': 'port {port} on 127.0.0.1 is in use: pass another port, or none to pick a free one',
    'allreduce.usage.no_trace': 'no timeline of {version!r}: run with a trace folder (traced: {traced})',
    'allreduce.usage.size_hint': 'pass a positive {name}',
    'allreduce.summary.head': ('{processes} processes ({backend}), MLP {layers} x {width}, {batch} examples each; '
                               'gradients {mb:.1f} MB'),
    'allreduce.summary.version': '{label:<38} median {median:.4f} s  (relative error {error:.1e}, {repeats} repeats)',
    'allreduce.summary.bandwidth': ('all-reduce of {buffer_mb:.0f} MB: {seconds:.4f} s, bus bandwidth {gbps:.2f} GB/s; '
                                    'a ring moves {ring:.2f} x the bytes'),
    'allreduce.summary.predicted': ('predicted: all-reduce {allreduce:.4f} s, backward then all-reduce {serial:.4f} s, '
                                    'best overlap {overlapped:.4f} s'),
    'allreduce.summary.hidden': '{label}: {fraction:.0%} of the all-reduce hidden behind backward',
    'allreduce.summary.trace': 'trace of {label}, process {rank}: {path} (open it in Perfetto)',
    'allreduce.plot.title': 'one training step, every repeat',
    'allreduce.plot.xlabel': 'step time (s, slowest process)',
    'allreduce.plot.predicted': 'predicted',
    'allreduce.version.nosync': 'DDP inside no_sync (nothing sent)',
    'allreduce.processes.gloo': ('this lesson starts {n} processes on this machine, one CPU core each, talking thro'
                                 'ugh gloo'),
    'allreduce.processes.nccl': 'this lesson starts {n} processes, one GPU each, talking through NCCL',
    'allreduce.ingredient.backward': ('backward alone (forward, backward and update, nothing sent): {seconds:.4f} s'
                                      ' (median); it produces {tensors} gradient tensors'),
    'allreduce.predict.allreduce': 'predicted all-reduce of the gradients:           {seconds:.4f} s',
    'allreduce.predict.serial': 'predicted (a), backward then all-reduce:          {seconds:.4f} s',
    'allreduce.predict.overlapped': 'predicted best overlap, max(backward, all-reduce): {seconds:.4f} s',
    'allreduce.hidden.most': '{label}: {fraction:.0%} of the all-reduce hidden behind backward, more than half',
    'allreduce.hidden.part': '{label}: {fraction:.0%} of the all-reduce hidden behind backward, less than half',
    'allreduce.hidden.noise': ('{label}: {fraction:.0%} hidden, within the spread of the repeats: no clear differen'
                               'ce from (a) in this run'),
    'allreduce.hidden.slower': ('{label}: slower than (a) (hidden fraction {fraction:.0%}): starting the all-reduce'
                                's early cost more than it hid in this run'),
    'allreduce.hidden.rule': 'hidden fraction = ((a) - version) / all-reduce alone, medians of the slowest process',
    'allreduce.per_call.costly': ('{calls} separate all-reduces took {measured:.4f} s; the same bytes as one buffer'
                                  ' would take {predicted:.4f} s at the measured bandwidth: each call adds about {p'
                                  'er_call:.2f} ms, one reason DDP packs gradients into buckets'),
    'allreduce.per_call.cheap': ('{calls} separate all-reduces took {measured:.4f} s, close to the same bytes as on'
                                 'e buffer ({predicted:.4f} s): at these sizes the bytes decide, not the number of '
                                 'calls; hundreds of small tensors would add up, which is why DDP packs gradients i'
                                 'nto buckets'),
    'allreduce.checked': ('correct: after one step, each of the {versions} versions that send holds the parameters '
                          'of one process trained on the whole minibatch (float64 reference); worst relative error '
                          'of the gradients {error:.1e}'),
    'allreduce.perfetto': ('open a trace at ui.perfetto.dev ("Open trace file"): backward\'s operations and the all'
                           '-reduce threads of one process, on one time axis'),
    'allreduce.plot.title_best': '{label} hid {fraction:.0%} of the all-reduce',
    'allreduce.plot.title_none': 'no version hid any of the all-reduce in this run',
    'allreduce.panel.bucket': 'DDP bucket size',
    'allreduce.panel.bucket_choice': 'bucket size {mb} MB is not on the slider: choose one of {sizes}',
    'allreduce.panel.running': 'starting the processes, {mb:g} MB buckets...',
    'allreduce.panel.interrupted': 'Interrupted: every process was stopped; press Run to start again.',
    'allreduce.panel.col_bucket': 'bucket (MB)',
    'allreduce.panel.col_ddp': '(c) DDP (s)',
    'allreduce.panel.col_hidden': 'hidden',
    'allreduce.ratio': 'batch of {batch} per process: all-reduce alone / backward alone = {ratio:.2f}',
    'allreduce.hidden.beyond': ("{label}: {fraction:.0%} 'hidden', more than the whole all-reduce: other work on th"
                                'e machine moved the medians; run it again'),
    'allreduce.plot.title_beyond': "{label}: {fraction:.0%} 'hidden', more than all of it (noise)",
    'allreduce.plot.timeline_after': '{label}: every all-reduce starts after backward ends',
    'allreduce.plot.timeline_during': '{label}: all-reduces start {ms:.0f} ms before backward ends',
    'allreduce.mismatch_grad': ('{version} on process {rank} applied a wrong gradient: relative error {error:.2e} >'
                                ' {tol:.0e}'),
    'allreduce.plot.title_noise': '{label}: {fraction:.0%} hidden, within the noise of the repeats',
    'allreduce.panel.col_seconds': '{label} (s)',
}
