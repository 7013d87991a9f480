"""Messages of 13.3.4: gradients all-reduced while backward still runs."""
MESSAGES = {
    'allreduce.version.backward': 'step without all-reduce (forward, backward, update; nothing sent)',
    'allreduce.version.allreduce': 'all-reduce alone',
    'allreduce.version.serial': '(a) backward, then all-reduce',
    'allreduce.version.hooks': '(c) all-reduce from gradient hooks',
    'allreduce.version.ddp': '(d) DDP, {mb:g} MiB buckets',
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
    'allreduce.fail.hung': ('process {rank} stopped responding ({seconds:.0f} s without progress); every process'
                            ' was stopped'),
    'allreduce.fail.silent': 'no progress from process {rank} for {seconds:.0f} s; every process was stopped',
    'allreduce.fail.error': 'process {rank} failed: {kind}: {message}; every process was stopped',
    'allreduce.usage.backend': "backend {backend!r} is not available: choose 'gloo' (CPU) or 'nccl' (2+ GPUs)",
    'allreduce.usage.nccl': 'NCCL needs at least 2 GPUs and this machine has {gpus}: use --backend gloo',
    'allreduce.usage.world_hint': 'pass a world size of 2 or more',
    'allreduce.usage.world_small': 'a world size of {n} has nothing to all-reduce with: use 2 or more processes',
    'allreduce.usage.cores': ('{n} processes need {n} cores (one each) and this machine gives this program {core'
                              's}: use a world size from 2 to {most}'),
    'allreduce.usage.gpus': '{n} NCCL processes need {n} GPUs and this machine has {gpus}: use at most {gpus}',
    'allreduce.usage.bucket': 'bucket size {value!r} must be a number of MiB above 0, e.g. 1 or 0.25,1,4,25',
    'allreduce.usage.port_hint': 'pass a free port between 1024 and 65535, or none to pick one',
    'allreduce.usage.port_range': 'port {port} is not a port: pass one between 1024 and 65535, or none',
    'allreduce.usage.port_busy': 'port {port} on 127.0.0.1 is in use: pass another port, or none to pick a free one',
    'allreduce.usage.no_trace': 'no timeline of {version!r}: run with a trace folder (traced: {traced})',
    'allreduce.usage.size_hint': 'pass a positive {name}',
    'allreduce.summary.head': ('{processes} processes ({backend}), MLP: {layers} layers of width {width}, '
                               '{batch} examples each; gradients {mb:.1f} MiB'),
    'allreduce.summary.version': '{label:<38} median {median:.4f} s  (relative error {error:.1e}, {repeats} repeats)',
    'allreduce.summary.trace': 'trace of {label}, process {rank}: {path} (open it in Perfetto)',
    'allreduce.plot.title': 'one training step, every repeat',
    'allreduce.plot.xlabel': 'step time (s, slowest process)',
    'allreduce.plot.predicted': 'predicted',
    'allreduce.version.nosync': 'DDP inside no_sync (nothing sent)',
    'allreduce.processes.gloo': ('this lesson starts {n} processes on this machine, one CPU core each, talking t'
                                 'hrough gloo'),
    'allreduce.processes.one_gpu': ('this machine has one GPU: NCCL runs one process per GPU, so the all-reduce '
                                    'between processes is shown with gloo on the CPU; the GPU is not used here'),
    'allreduce.processes.nccl': 'this lesson starts {n} processes, one GPU each, talking through NCCL',
    'allreduce.predict.allreduce': 'predicted all-reduce of the gradients:           {seconds:.4f} s',
    'allreduce.predict.serial': 'predicted (a), backward then all-reduce:          {seconds:.4f} s',
    'allreduce.checked': ('correct: after one step, each of the {versions} versions that send holds the paramete'
                          'rs of one process trained on the whole minibatch (float64 reference); worst relative '
                          'error of the gradients {error:.1e}, allowed {tol:.1e} (float32 rounding over {n} proc'
                          'esses)'),
    'allreduce.perfetto': ('open a trace at ui.perfetto.dev ("Open trace file" in the menu on the left): backward'
                           "'s operations and the all-reduce threads of one process, on one time axis"),
    'allreduce.panel.bucket': 'DDP bucket size',
    'allreduce.panel.bucket_choice': 'bucket size {mb} MiB is not on the slider: choose one of {sizes}',
    'allreduce.panel.running': 'starting the processes, {mb:g} MiB buckets...',
    'allreduce.panel.interrupted': 'Interrupted: every process was stopped; press Run to start again.',
    'allreduce.panel.col_bucket': 'bucket (MiB)',
    'allreduce.panel.col_ddp': '(d) DDP (s)',
    'allreduce.ratio': ('batch of {batch} per process: all-reduce alone / step without all-reduce = {ratio:.2f} ('
                        'the ratio of their median times)'),
    'allreduce.plot.timeline_after': '{label}: every all-reduce starts after backward ends',
    'allreduce.plot.timeline_during': ('{label}: all-reduces start {ms:.0f} ms before backward ends\n'
                                       '(mean over processes; each process timed from its own start)'),
    'allreduce.mismatch_grad': ('{version} on process {rank} applied a wrong gradient: relative error {error:.2e'
                                '} > {tol:.0e}'),
    'allreduce.panel.col_seconds': '{label} (s)',
    'allreduce.version.buckets': '(d) buckets, 1 MiB',
    'allreduce.version.flat': '(b) flat: backward, then one buffer',
    'allreduce.version.one_bucket': '{label} (one bucket: the whole gradient)',
    'allreduce.col.overlap': 'overlap (intervals)',
    'allreduce.processes.shared': ('this lesson starts {n} processes on this machine, talking through gloo, and '
                                   'this machine gives this program {cores} core(s) for them: they take turns, s'
                                   'o backward and the all-reduce cannot run at the same moment; the lesson stil'
                                   'l checks every result and draws every timeline, and the overlaps below are o'
                                   'f intervals in which both were under way, taking turns'),
    'allreduce.summary.model': ('model of one all-reduce call: {alpha:.3f} ms per call + bytes at {gbps:.2f} GB/'
                                's bus bandwidth (ring factor {ring:.2f})'),
    'allreduce.ingredient.points': ('all-reduce of one float: {small:.3f} ms (median of {n}; what a call costs '
                                    'whatever its size); of {buffer_mb:.0f} MiB: {large:.4f} s (median of {m})'),
    'allreduce.ingredient.fit': ('per-call overhead α = {alpha:.3f} ms, bus bandwidth = {gbps:.2f} GB/s (a r'
                                 'ing moves {ring:.2f} x the bytes)'),
    'allreduce.overlap.line': ('{label}: {measured:.0%} of its {comm:.1f} ms of all-reduce ran while backward co'
                               'mputed (model: {predicted:.0%}); {wall}'),
    'allreduce.overlap.none_sent': '{label}: sent nothing in its profiled step',
    'allreduce.wall.faster': '(a) and this step: {verdict}; this step is faster',
    'allreduce.wall.slower': '(a) and this step: {verdict}; this step is slower',
    'allreduce.wall.same': '(a) and this step: {verdict}',
    'allreduce.why.head': '    (a) minus it, {gain} ms =',
    'allreduce.why.calls': '{ms} ms saved, by the model, for {k} fewer calls ({k} × α {alpha:.3f} ms)',
    'allreduce.why.overlap': ('{ms} ms of all-reduce hidden behind backward (in flight while backward computed,'
                              ' its wait for the other processes included), hidden and not by itself saved'),
    'allreduce.why.rest': '{ms} ms none of these accounts for (larger interquartile range {spread} ms)',
    'allreduce.why.join': '; ',
    'allreduce.sep_list': ', ',
    'allreduce.overlap.rule': ("overlap = of the all-reduce's busy time, the share during which backward computed"
                               ', from the profiled intervals (always 0-100%); model = the same share if each cal'
                               'l started as soon as its gradients were ready and had hardware of its own; two st'
                               'eps are told apart when their medians differ by more than the larger interquartil'
                               'e range and the middle halves of their repeats do not overlap'),
    'allreduce.model_serial': ('(a) backward, then all-reduce: measured {measured} ms (median), the model '
                               '{predicted} ms ({ratio:.2f}x the model)'),
    'allreduce.model_under': ('all-reduce alone: measured {measured} ms, the model {predicted} ms: the model '
                              'under-predicts it by {gap} ms ({ratio:.2f}x)'),
    'allreduce.model_over': ('all-reduce alone: measured {measured} ms, the model {predicted} ms: the model '
                             'over-predicts it by {gap} ms ({ratio:.2f}x)'),
    'allreduce.per_call.line': ('(a) made {calls} all-reduce calls and the flat control 1, with the same bytes; (a) an'
                                'd flat: {verdict}; flat is faster, by {per:.3f} ms per call it avoids; the one-float '
                                'all-reduce measured α = {alpha:.3f} ms per call'),
    'allreduce.per_call.noise': ('(a) made {calls} all-reduce calls and the flat control 1, with the same bytes; (a) a'
                                 'nd flat: {verdict}; the one-float all-reduce measured α = {alpha:.3f} ms per call'),
    'allreduce.plot.title_overlap': ('{label}: {overlap:.0%} of its all-reduce ran during backward (model {predi'
                                     'cted:.0%})'),
    'allreduce.plot.title_nothing': 'one training step, every repeat: no version sent during backward',
    'allreduce.buckets.xlabel': 'DDP bucket size (MiB, log scale)',
    'allreduce.buckets.ylabel': 'step time (ms, slowest process)',
    'allreduce.buckets.model': 'model: {alpha:.2f} ms per call + bytes at {gbps:.2f} GB/s',
    'allreduce.buckets.measured': 'measured DDP (every repeat)',
    'allreduce.buckets.serial': '(a) measured',
    'allreduce.buckets.flat': '(b) flat measured',
    'allreduce.buckets.one': 'one bucket: the whole gradient',
    'allreduce.buckets.title': ("model's fastest: {model} MiB ({buckets} buckets)\nmeasured fastest: {fastest} MiB "
                                '(median {ms} ms)'),
    'allreduce.buckets.title_model': "model's fastest: {model} MiB ({buckets} buckets)",
    'allreduce.buckets.title_same': ("model's fastest: {model} MiB ({buckets} buckets)\nmeasured: no size told apar"
                                     't from the fastest, {fastest} MiB (median {ms} ms)'),
    'allreduce.buckets.text': ('bucket sizes the model predicts fastest: {model} MiB; measured fastest: {fastest} M'
                               'iB, median {ms} ms ({where})'),
    'allreduce.buckets.text_tied': ('bucket sizes the model predicts fastest: {model} MiB; measured fastest: {faste'
                                    'st} MiB, median {ms} ms; not told apart from it (by the test in the lines belo'
                                    'w): {others} MiB ({where})'),
    'allreduce.buckets.shared': '{mb} MiB is in both',
    'allreduce.buckets.neighbours': ('measured {measured} MiB and model {model} MiB are neighbouring sizes in the '
                                     'sweep of {sweep} MiB'),
    'allreduce.buckets.apart': ('measured {measured} MiB and model {model} MiB are {steps} positions apart in the '
                                'sweep of {sweep} MiB'),
    'allreduce.buckets.text_same': ('bucket sizes the model predicts fastest: {model} MiB; measured: no size told a'
                                    'part from the fastest, {fastest} MiB, median {ms} ms (for each, the medians di'
                                    'ffer by no more than the larger interquartile range, or the middle halves of t'
                                    'he repeats overlap)'),
    'allreduce.panel.col_buckets': 'calls',
    'allreduce.panel.col_overlap': 'overlap (measured)',
    'allreduce.panel.col_model': 'overlap (model)',
    'allreduce.panel.col_gain': '(a) - DDP (ms)',
    'allreduce.per_call.slower': ('(a) made {calls} all-reduce calls and the flat control 1, with the same bytes; ('
                                  'a) and flat: {verdict}; flat is slower, so no saving from fewer calls shows here'
                                  '; by the one-float all-reduce (α = {alpha:.3f} ms) the calls flat avoids are wor'
                                  'th {saved:.1f} ms; flat also copies every gradient into one buffer and back: tho'
                                  'se copies are inside its timed step, not timed separately'),
    'allreduce.recorded.where': ('Recorded on a machine with {gpus} and {cores} CPU cores: the gloo processes ran on'
                                 ' its CPU cores, one core each, not on the GPU (PyTorch {torch}, Python {python}, '
                                 'NumPy {numpy}), on {date}; world sizes {sizes}'),
    'allreduce.recorded.where_cpu': ('Recorded on a machine without a GPU, {cores} CPU cores (PyTorch {torch}, Python'
                                     ' {python}, NumPy {numpy}), on {date}; world sizes {sizes}'),
    'allreduce.recorded.run_own': ('{n} processes, one core each of {cores}: {layers} layers of width {width}, {batc'
                                   'h} examples per process, {mb:.1f} MiB of gradients; medians of {repeats} repeats'
                                   ' (slowest process):'),
    'allreduce.recorded.run_shared': ('{n} processes taking turns on {cores} core(s), so nothing could overlap: {lay'
                                      'ers} layers of width {width}, {batch} examples per process, {mb:.1f} MiB of gr'
                                      'adients; medians of {repeats} repeats (slowest process):'),
    'allreduce.recorded.median': '{label} {ms:.1f} ms',
    'allreduce.recorded.best_ddp_same': '(d) DDP, {mb} MiB buckets (lowest median of the {n} sizes recorded)',
    'allreduce.recorded.best_ddp_each': '(d) DDP, lowest median of the {n} sizes recorded ({mb} MiB)',
    'allreduce.recorded.sweep_same': ('DDP was recorded at {n} bucket sizes ({sweep} MiB); (d) below is the size with'
                                      ' the lowest median step, {mb} MiB, at every world size'),
    'allreduce.recorded.sweep_each': ('DDP was recorded at {n} bucket sizes ({sweep} MiB); (d) below is, at each '
                                      'world size, the size with the lowest median step: {each}'),
    'allreduce.recorded.sweep_at': '{mb} MiB at {n} processes',
    'allreduce.recorded.xlabel': 'gloo processes',
    'allreduce.recorded.ylabel_ms': 'step time (ms, slowest process)',
    'allreduce.recorded.ylabel_overlap': 'share of all-reduce time during backward',
    'allreduce.recorded.measured': '{label}: measured',
    'allreduce.recorded.model': '{label}: model',
    'allreduce.recorded.title': 'Recorded {date} on a machine with {machine}\neach gloo process on one CPU core',
    'allreduce.recorded.timeline': 'Recorded {date} ({machine}), {n} gloo processes',
    'allreduce.recorded.no_size': 'this recording has no run with {n} processes; it has {sizes}',
    'allreduce.overlap.shared': ('here {n} processes take turns on {cores} core(s), so backward and the all-reduce'
                                 ' never run at the same moment: an overlap below counts intervals in which both w'
                                 'ere under way, one waiting while the other ran; read the wall clock instead, and'
                                 ' for overlap the recording below, made with a core per process'),
    'allreduce.usage.what_world': 'world size',
    'allreduce.recorded.bad_format': ('{where}: not an all-reduce recording of format {format} (format {got}): record '
                                      'it again'),
    'allreduce.recorded.missing': '{where}: missing {missing}: record it again',
    'allreduce.ingredient.backward': ('step without all-reduce (forward, backward and update, nothing sent): {sec'
                                      "onds:.4f} s (median); inside it, backward's operators, profiled from first"
                                      ' to last: {span:.1f} ms (median of {steps} profiled steps); it produces {t'
                                      'ensors} gradient tensors'),
    'allreduce.predict.overlapped': ('predicted best overlap, max(step without all-reduce, all-reduce): {seconds:'
                                     '.4f} s'),
    'allreduce.why.slower': ('{ms} ms lost to the slower backward: its operators (profiled) took {mine} ms instead '
                             'of {alone} ms in the step without all-reduce ({ratio:.2f}x as long)'),
    'allreduce.why.faster': ('{ms} ms gained from the faster backward: its operators (profiled) took {mine} ms inst'
                             'ead of {alone} ms in the step without all-reduce ({ratio:.2f}x as long)'),
    'allreduce.why.rest_larger': ('{ms} ms none of these accounts for (larger interquartile range {spread} ms): '
                                  'larger than every term above, so these terms do not explain the difference'),
    'allreduce.summary.overlap': ('{label}: overlap {measured:.0%} (model {predicted:.0%}); (a) minus it {gain:+.'
                                  "1f} ms; backward's operators took {slowdown:.2f}x as long as in the step witho"
                                  'ut all-reduce (profiled)'),
    'allreduce.panel.col_slowdown': "backward's operators: times as long as alone (profiled)",
    'allreduce.guess.none': ('Write your prediction (a number) in my_guess first, then run this cell. Model: '
                             '{predicted:.0%}, measured: {measured:.0%} (in {label}, the share of the all-reduce '
                             'that ran during backward); {wall}'),
    'allreduce.guess.line': ('your guess {guess:.0%}; model {predicted:.0%}; measured {measured:.0%} (in {label}, '
                             'the share of the all-reduce that ran during backward); {wall}'),
    'allreduce.recorded.machine_gpu': '{gpus} and {cores} CPU cores',
    'allreduce.recorded.machine_cpu': 'no GPU and {cores} CPU cores',
    'allreduce.recorded.same_machine': ("This machine has what the recording's had ({machine}): the recording is "
                                        'an earlier run of the same kind of machine, not of this session'),
    'allreduce.recorded.other_machine': "This machine differs from the recording's: here {here}, there {there}",
    'allreduce.recorded.none': 'no recording from a machine with a GPU is installed with this package',
    'allreduce.plot.title_overlap_faster': ('{label}: {overlap:.0%} of its all-reduce ran during backward\n(model {'
                                            'predicted:.0%}); {ms} ms faster than (a), told apart'),
    'allreduce.plot.title_overlap_slower': ('{label}: {overlap:.0%} of its all-reduce ran during backward\n(model {'
                                            'predicted:.0%}); {ms} ms slower than (a), told apart'),
    'allreduce.plot.title_overlap_untold': ('{label}: {overlap:.0%} of its all-reduce ran during backward\n(model {'
                                            'predicted:.0%}); step time not told apart from (a)'),
    'allreduce.guess.slowdown': ("while its all-reduce ran, backward's operators took {mine} ms, {ratio:.2f}x as "
                                 'long as the {alone} ms in the step without all-reduce (profiled, median of the '
                                 'profiled steps); the model gives them {alone} ms, their time without all-reduce'),
    'allreduce.recorded.below': ('{label} ({ms:.1f} ms) is below the step without all-reduce ({alone:.1f} ms), both me'
                                 "dians of each repeat's slowest process: {verdict}; each process's own median: step w"
                                 'ithout all-reduce {mine_alone} ms, {label} {mine} ms'),
    'allreduce.recorded.below_within': '{verdict}',
    'allreduce.recorded.below_beyond': '{verdict}; nothing measured here explains it',
    'allreduce.recorded.processes': ("{label}, per process and profiled step: backward's operators took {lo:.1f}–"
                                     '{hi:.1f} ms (in the step without all-reduce: {alo:.1f}–{ahi:.1f} ms); its a'
                                     'll-reduce was busy {clo:.1f}–{chi:.1f} ms (in all-reduce alone: {xlo:.1f}–{'
                                     'xhi:.1f} ms)'),
    'allreduce.recorded.cap': ("; backward's operators' time over the all-reduce's busy time, summed over processes"
                               ' and steps, caps the overlap at {cap:.0%}'),
    'allreduce.recorded.steps': ("{label}, backward's operators on processes 0 to {last} (ms), {steps}; the timeline "
                                 'below draws the last step'),
    'allreduce.recorded.step': 'profiled step {step}: {spans}',
    'allreduce.recorded.unexplained': ("Why one process's backward or all-reduce took longer than another's, or o"
                                       'ne repeat longer than another, is not explained by anything measured here'
                                       '; the model gives every process the time of the step without all-reduce a'
                                       'nd every call the time α and β give it'),
    'allreduce.overlap.line_above': ('{label}: {measured:.0%} of its {comm:.1f} ms of all-reduce ran while backward'
                                     " computed, above the model's {predicted:.0%}, whose all-reduce takes {model:.1f}"
                                     ' ms; {wall}'),
    'allreduce.calls_control.line': ("the fewer-calls terms above are the model's (calls × α); the measured flat contr"
                                     'ol makes 1 call instead of {calls}; (a) and flat: {verdict}; flat is faster; the'
                                     ' model gives {fewer} fewer calls {saved:.1f} ms'),
    'allreduce.calls_control.noise': ("the fewer-calls terms above are the model's (calls × α); the measured flat cont"
                                      'rol makes 1 call instead of {calls}; (a) and flat: {verdict}, so it does not sh'
                                      'ow that saving; the model gives {saved:.1f} ms'),
    'allreduce.calls_control.slower': ("the fewer-calls terms above are the model's (calls × α); the measured flat con"
                                       'trol makes 1 call instead of {calls}; (a) and flat: {verdict}; flat is slower,'
                                       ' so it does not show that saving; the model gives {saved:.1f} ms'),
    'allreduce.one_call.same': ('{label} and the flat control (b) each make one all-reduce of the whole gradient after'
                                ' backward; {verdict}'),
    'allreduce.one_call.apart': ('{label} and the flat control (b) each make one all-reduce of the whole gradient afte'
                                 'r backward; {verdict}; nothing measured here splits that difference into parts'),
    'allreduce.ratio_rise.more': ('halving the batch made the ratio {rise:.2f}x as large ({new:.2f} / {old:.2f}): m'
                                  'ore than 2x (above {high:.2f}x)'),
    'allreduce.ratio_rise.less': ('halving the batch made the ratio {rise:.2f}x as large ({new:.2f} / {old:.2f}): l'
                                  'ess than 2x (below {low:.2f}x)'),
    'allreduce.ratio_rise.about': ('halving the batch made the ratio {rise:.2f}x as large ({new:.2f} / {old:.2f}): '
                                   'about 2x (from {low:.2f}x to {high:.2f}x)'),
    'allreduce.trace.file': "this run's trace of {label}, process {rank}: {path}",
    'allreduce.trace.kept': ("these files last while this notebook's kernel runs: the folder is removed when "
                             'the variable traces is replaced or the kernel ends'),
    'allreduce.short.backward': 'step without all-reduce',
    'allreduce.why.head_untold': ('    (a) minus it, {gain} ms (not told apart above: these terms split a di'
                                  'fference the repeats do not establish) ='),
    'allreduce.ingredient.allreduce': ("all-reduce alone (the {tensors} gradients' all-reduce, one call per tenso"
                                       'r, no step): {seconds:.4f} s (median)'),
    'allreduce.model_step': '{label} {seconds:.4f} s',
    'allreduce.model_steps': "predicted step times (the model's), drawn hatched below: {steps}",
    'allreduce.why.calls_lost': '{ms} ms lost, by the model, for {k} more calls ({k} × α {alpha:.3f} ms)',
    'allreduce.why.overlap_lost': '{ms} ms lost: less all-reduce hidden behind backward than in (a)',
    'allreduce.buckets.title_tied': ("model's fastest: {model} MiB ({buckets} buckets)\nmeasured fastest: {fastest}"
                                     ' MiB (median {ms} ms); not told apart from it: {others} MiB'),
    'allreduce.buckets.shared_tied': "{mb} MiB among them is the model's fastest",
    'allreduce.ratio_rise.why': ("; 2x only if all of the step's time were work that halves with the batch (forward"
                                 " and backward's arithmetic): the update does the same work for any batch, and thi"
                                 's run does not time the parts separately'),
    'allreduce.row.backward': 'step without\nall-reduce',
    'allreduce.row.nosync': 'DDP in no_sync',
    'allreduce.row.allreduce': 'all-reduce alone',
    'allreduce.row.serial': '(a) backward,\nthen all-reduce',
    'allreduce.row.flat': '(b) flat',
    'allreduce.row.hooks': '(c) hooks',
    'allreduce.row.ddp': '(d) DDP, {mb:g} MiB',
    'allreduce.row.one_bucket': '{label}\n(one bucket)',
}
