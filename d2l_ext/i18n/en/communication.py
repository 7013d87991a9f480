"""13.3.2 Parallel computation and communication: copy modes, predictions, evidence, exercises."""
MESSAGES = {
    'communication.what': 'this run',
    'communication.variant.run': 'run (products only)',
    'communication.variant.copy': 'copy (copies only)',
    'communication.variant.book': 'book: run, copy_to_cpu(y, True)',
    'communication.variant.run_then_copy': 'run, then copy',
    'communication.variant.overlapped': 'run and copy issued together',
    'communication.variant.overlapped.separate': 'run and copy: copy stream + events',
    'communication.variant.overlapped.one_stream': 'run and copy: one stream, issued together',
    'communication.variant.overlapped.shared': 'run and copy: a second thread copies',
    'communication.variant.overlapped.engine': "run and copy: issued together, MXNet's engine orders them",
    'communication.variant.warm': 'later calls, reused memory',
    'communication.variant.cold': 'first call, new memory: one timing',
    'communication.variant.lane1_compute_and_copy': 'lane 0 computes and copies, alone',
    'communication.variant.lane2_compute': 'lane 1 computes, alone',
    'communication.variant.together': 'both lanes together',
    'communication.variant.serial_sum': 'one after the other (sum)',
    'communication.variant.expected.separate': 'max(lane times): separate hardware',
    'communication.variant.expected.shared': ('CPU lanes on shared cores: max(lane times, their sum / the lanes the '
                                              'cores run at once)'),
    'communication.variant.expected.engine': "no gain: MXNet's engine already uses every core",
    'communication.mode.cpu_analogue': 'CPU analogue: a second thread copies',
    'communication.mode.book: copy_to_cpu(y)': 'book: copy_to_cpu(y), new pageable tensors',
    'communication.mode.book: copy_to_cpu(y, non_blocking=True)': 'book: copy_to_cpu(y, non_blocking=True), one stream',
    'communication.mode.pinned, preallocated, same stream': 'pinned buffers, preallocated, one stream',
    'communication.mode.pinned, preallocated, copy stream + events': 'pinned buffers, copy stream + events',
    'communication.row.compute_stream': 'compute stream',
    'communication.row.copy_stream': 'copy stream',
    'communication.row.compute_thread': 'compute thread',
    'communication.row.copy_thread': 'copy thread',
    'communication.plan.copy_thread': 'preallocated host buffers, copied by a second thread',
    'communication.plan.engine_new_array': 'a new host array per result, ordered by the engine',
    'communication.rule.separate': ('max(run, copy) + the shorter of one product and one copy: the copy engine works '
                                    'beside the compute units'),
    'communication.rule.one_stream': "run + copy: copies on the products' stream wait for them",
    'communication.rule.own_core': ('max(run, copy) + the shorter of one product and one copy: the copy thread has a '
                                    'core of its own beside the computing threads'),
    'communication.rule.shared': ('(computing threads x run + copy) / cores, at least max(run, copy): the copy '
                                  'thread needs a core the computing threads fill'),
    'communication.rule.engine': "run + copy: MXNet's engine already keeps every core busy with products",
    'communication.no_link': 'No GPU here, so no device-to-host link: the rows are a labelled CPU analogue.',
    'communication.link': 'plain device-to-host copy: pageable {pageable:.1f} GB/s, pinned {pinned:.1f} GB/s',
    'communication.book.run': 'Run on lane 0',
    'communication.book.copy': 'Copy to CPU (into new pageable tensors)',
    'communication.book.not_copied': ("Nothing was copied: the results already live in host memory, so y.to('cpu') "
                                      'returned the same tensors.'),
    'communication.book.copied': 'Copied: each result now has a new tensor in host memory.',
    'communication.rates.gpu': ('measured here: one {n} x {n} product at {tflops:.1f} TFLOP/s; device-to-host '
                                'copy {gbps:.1f} GB/s into pinned memory, {pageable:.1f} GB/s into a reused pageable '
                                'buffer\n{k} products = {tflop:.2f} TFLOP -> {run:.4f} s; their results = {gb:.2f} GB '
                                '-> {copy:.4f} s over the link (pinned)'),
    'communication.rates.cpu': ('measured here: one {n} x {inner} by {inner} x {n} product at {tflops:.3f} TFLOP/s '
                                'on this lane; copies into preallocated host buffers {gbps:.1f} GB/s\n{k} products '
                                '= {gflop} GFLOP -> {run:.4f} s; their results = {gb:.3f} GB -> {copy:.4f} s of '
                                'copying'),
    'communication.predicted_line': '  predicted {name}: {seconds:.4f} s',
    'communication.rates.rule': 'closed form for run_and_copy here: {rule}',
    'communication.measured_title': "Each repeat beside the prediction from this machine's rates",
    'communication.recorded.none': 'No GPU recording is available to show here.',
    'communication.recorded.pageable': ("{gb:.1f} GB of results: the book's copy into new pageable tensors took "
                                        '{book:.2f} s ({book_gbps:.2f} GB/s), into preallocated pinned buffers '
                                        '{pinned:.3f} s ({pinned_gbps:.1f} GB/s): the new tensors took {ratio:.0f} '
                                        'times as long. That ratio compares new pageable memory with reused pinned '
                                        'memory.'),
    'communication.recorded.nb_like_pinned': ("The book's non_blocking copy ({nb:.4f} s) is as fast as preallocated "
                                              'pinned buffers ({pinned:.4f} s): from the second call on, it copies '
                                              'into the pinned blocks PyTorch kept from the first call.'),
    'communication.recorded.nb_unlike_pinned': ("The book's non_blocking copy took {nb:.4f} s, preallocated pinned "
                                                'buffers {pinned:.4f} s.'),
    'communication.recorded.streams': ('Pinned buffers, one stream: run and copy issued together took '
                                       '{same:.4f} s, like run '
                                       'then copy in that panel ({serial:.4f} s); with a copy stream and events '
                                       '{side:.4f} s, against the closed form max(run, copy) + the shorter '
                                       'of one product and one copy = {expected:.4f} s.'),
    'communication.recorded.streams_unlike': ('Pinned buffers, one stream: run and copy issued together took '
                                              '{same:.4f} s, '
                                              'run then copy in that panel {serial:.4f} s; with a copy stream and '
                                              'events {side:.4f} s, against the closed form max(run, copy) + '
                                              'the shorter of one product and one copy = {expected:.4f} s.'),
    'communication.recorded.wall_panel': 'Copy-stream panel (its own repeats):',
    'communication.recorded.no_timelines': ('This recording predates stream timelines: it holds only the medians '
                                            'above, no per-stream events to draw.'),
    'communication.recorded.no_first_copy': ('This recording predates the first-call measurement: no cold copy or '
                                             'profiler times to show.'),
    'communication.first_copy.no_gpu': 'no GPU here: no device-to-host copy, so no first copy to time',
    'communication.first_copy.summary': ("The book's copy_to_cpu(y, non_blocking=True): first call, into new host "
                                         'memory, {cold:.3f} s (one timing: there is one first call per process); '
                                         'later calls, into the blocks PyTorch kept from it, {warm:.3f} s (median '
                                         'of {repeats} repeats; the first took {ratio:.0f} times as long).'),
    'communication.first_copy.profile': ('torch.profiler, first call: aten::to took {cpu:.3f} s of CPU time, the GPU '
                                         'copy {cuda:.3f} s of CUDA time; {cpu:.3f} s - {cuda:.3f} s = {rest:.3f} s: '
                                         'at least that much of the call was not spent in the GPU copy. This run does '
                                         'not test what it was spent on.'),
    'communication.first_copy.profile_plain': ('torch.profiler, first call: aten::to took {cpu:.3f} s of CPU time, '
                                               'the GPU copy {cuda:.3f} s of CUDA time.'),
    'communication.timeline.cpu_analogue': 'CPU analogue: computing thread and copying thread',
    'communication.first_copy.title': "Book's non_blocking copy: first call into new memory against later calls",
    'communication.profile_title': 'torch.profiler: CPU time and CUDA time of the copy operators',
    'communication.first_copy.recorded': 'recorded on {gpu}, {date} ({iters} results of {n} x {n})',
    'communication.first_copy.one_timing': '{value} {unit} (one timing)',
    'communication.first_copy.median_of': '{value} {unit} (median of {n})',
    'communication.first_copy.one_timing_legend': 'the one timing',
    'communication.hazard.caught': ('Read before synchronizing: relative error {early:.2f} (the buffer still held '
                                    'old values); after torch.cuda.synchronize(): {late:.1e}.'),
    'communication.hazard.lucky': ('Read before synchronizing: relative error {early:.1e}; after synchronizing: '
                                   '{late:.1e}. The copy happened to finish first this time; nothing guarantees it.'),
    'communication.hazard.cpu': ('No GPU here, so no copy can be read too early; on a GPU, a non_blocking copy read '
                                 'before synchronizing returns whatever the buffer held before.'),
    'communication.ex3.alone': ('lanes: {lanes}\nalone: lane 0 computing and copying {a:.4f} s, lane 1 computing '
                                '{b:.4f} s; one after the other {serial:.4f} s. Predict "together", then run the '
                                'worked answer.'),
    'communication.ex3.like_expected': ('Together {together:.4f} s, close to the expectation {expected:.4f} s '
                                        '({rule}); one after the other {serial:.4f} s.'),
    'communication.ex3.like_serial': ('Together {together:.4f} s, about one after the other ({serial:.4f} s): no '
                                      'gain here; expected {expected:.4f} s ({rule}).'),
    'communication.ex3.between': ('Together {together:.4f} s: expected {expected:.4f} s ({rule}), one after the '
                                  'other {serial:.4f} s.'),
    'communication.ex3.title': 'Exercise 3: compute, copy and a second lane at once',
    'communication.profile.trace': ('Your profile was saved to {path}: drag that file onto ui.perfetto.dev to see '
                                    'when each operator ran.'),
    'communication.profile.split_gpu': ('GPU time: products (aten::mm) {mm:.4f} s, device-to-host copies {copy:.4f} '
                                        's (the copies took {share:.0%} as long as the products); the trace shows on '
                                        'which streams they ran.'),
    'communication.profile.split_cpu': ('CPU time: products (aten::mm) {mm:.4f} s, copies (aten::copy_) {copy:.4f} '
                                        's: the copies took {share:.0%} as long as the products.'),
    'communication.profile.guess_none': ("Write the operator you expect to take the most time in my_guess (for "
                                         "example 'aten::mm' or 'aten::copy_'), then run this cell; the hidden cell "
                                         'below prints the profile.'),
    'communication.profile.guess_right': ('your guess {guess}; the aten:: operator with the most self {kind} time: '
                                          '{top} ({seconds:.4f} s), as you predicted'),
    'communication.profile.guess_other': ('your guess {guess}; the aten:: operator with the most self {kind} time: '
                                          '{top} ({seconds:.4f} s), not the one you predicted'),
    'communication.profile.guess_no_ops': 'your guess {guess}; the profile holds no aten:: operator to compare',
    'communication.recorded.rates': ('recorded: {tflop:.1f} TFLOP in {run:.4f} s ({tflops:.1f} TFLOP/s); '
                                  '{gb:.1f} GB into pinned buffers in {copy:.4f} s ({gbps:.1f} GB/s)\n'
                                  'predicted: one stream run + copy = {one:.4f} s; '
                                  'copy stream + events max(run, copy) = {two:.4f} s, plus the shorter of one '
                                  'product and one copy = {fill:.4f} s'),
    'communication.recorded.book_rate': ("the book's copy into new pageable tensors: {book:.2f} s ({gbps:.2f} GB/s)"),
    'communication.mode.run_and_copy': 'run_and_copy, worked solution',
    'communication.guess.none': ('Write your prediction (a number) in my_guess first, then run this cell.'
                                 '\nclosed form {closed:.4f} s; measured {measured:.4f} s (median)'),
    'communication.guess.closed_above': ('the rates measured alone predicted {ratio:.1f}x the measured time (every '
                                         'repeat took {low:.4f} to {high:.4f} s)'),
    'communication.guess.agrees': 'measured and closed form within {noise:.0%} of each other',
    'communication.guess.spread': ('the larger {ratio:.2f}x the smaller, but every repeat took {low:.4f} to '
                                   '{high:.4f} s, a range that includes the closed form: a gap within the run-to-run '
                                   'spread'),
    'communication.guess.closed_below': ('the measured time was {ratio:.1f}x what the rates measured alone predicted '
                                         '(every repeat took {low:.4f} to {high:.4f} s)'),
    'communication.guess.line': ('your guess {guess:.4f} s; closed form {closed:.4f} s; measured {measured:.4f} s '
                                 '(median)'),
    'communication.overlap.interval': ("From the timeline's intervals: the copies ran beside a product for "
                                       '{measured:.0%} of their busy time (closed form {predicted:.0%}: every copy but '
                                       'the last, each for min(product, copy)).'),
    'communication.overlap.no_intervals': 'The timeline holds no product or no copy: no overlap to measure.',
    'communication.overlap.wall_less': ('Wall clock (medians): run then copy {serial:.4f} s, overlapped {over:.4f} s, '
                                        '{saved:.4f} s less (closed form for overlapped {closed:.4f} s).'),
    'communication.overlap.wall_more': ('Wall clock (medians): run then copy {serial:.4f} s, overlapped {over:.4f} s, '
                                        '{more:.4f} s more (closed form for overlapped {closed:.4f} s).'),
    'communication.overlap.share': ('What run then copy adds over the products alone (medians): {serial:.4f} s '
                                    '- {run:.4f} s = {copy:.4f} s, {share:.0%} of run then copy. This is a '
                                    "difference of two medians, not the copies' own time (the timeline shows "
                                    'each copy).'),
    'communication.overlap.head_faster': 'Overlapped beat run then copy: {clause}.',
    'communication.overlap.head_slower': 'Overlapped was slower than run then copy: {clause}.',
    'communication.overlap.head_not_apart': 'Overlapped and run then copy: {clause}.',
    'communication.overlap.span_all': ('Its bars span {span:.2f} ms, about all of its {wall:.2f} ms wall clock.'),
    'communication.overlap.span_part': ('Its bars span {span:.2f} ms of its {wall:.2f} ms wall clock; the other '
                                        '{rest:.2f} ms holds no traced product or copy.'),
    'communication.overlap.span_more': 'Its bars span {span:.2f} ms, longer than its {wall:.2f} ms wall clock.',
    'communication.overlap.cores': ('While overlapping, this process kept {cores:.1f} of the {total} cores busy on '
                                    'average (its CPU time / wall clock).'),
    'communication.overlap.on_core_all': ("The {measured:.0%} above counts the time a copy's interval lay within a "
                                          "product's; CPU time counts the time a thread actually ran on a core. Here "
                                          "the process's CPU time, {cpu:.4f} s, is about as long as the {busy:.4f} s "
                                          "its products' and copies' intervals add up to, or longer: the threads ran "
                                          'on a core for about all of their intervals.'),
    'communication.overlap.on_core_part': ("The {measured:.0%} above counts the time a copy's interval lay within a "
                                           "product's; CPU time counts the time a thread actually ran on a core. Here "
                                           "the process's CPU time, {cpu:.4f} s, is {share:.0%} of the {busy:.4f} s "
                                           "its products' and copies' intervals add up to: for the rest a thread was "
                                           'inside its interval without running on a core, so an overlap of intervals '
                                           'does not show both threads running at that moment.'),
    'communication.overlap.below_run': ('Overlapped ({over:.4f} s) took less than the products alone ({run:.4f} s), '
                                        'which overlap alone cannot do: in the traced overlapped run (wall clock '
                                        '{wall:.4f} s) the products were busy {busy:.4f} s, below every untraced '
                                        'products-alone repeat ({lo:.4f}-{hi:.4f} s): the products themselves took '
                                        'less time there; this run does not test why.'),
    'communication.overlap.below_run_within': ('Overlapped ({over:.4f} s) took less than the products alone '
                                               '({run:.4f} s), which overlap alone cannot do: in the traced '
                                               'overlapped run (wall clock {wall:.4f} s) the products were busy '
                                               '{busy:.4f} s, within the untraced products-alone repeats '
                                               '({lo:.4f}-{hi:.4f} s); this run does not test why.'),
    'communication.overlap.slowed': ('In the traced overlapped run the products were busy {busy:.4f} s beside the '
                                     'copies, {ratio:.2f} times the untraced products-alone median of {run:.4f} s '
                                     'and above every untraced products-alone repeat ({lo:.4f}-{hi:.4f} s). The traced '
                                     'run adds the profiler and the copies at once, so this does not show which of '
                                     'the two slowed the products.'),
    'communication.overlap.slowed_within': ('In the traced overlapped run the products were busy {busy:.4f} s beside '
                                            'the copies, {ratio:.2f} times the untraced products-alone median of '
                                            '{run:.4f} s, but within the range of the untraced products-alone repeats '
                                            '({lo:.4f}-{hi:.4f} s): one traced run inside that range does not '
                                            'show the copies slowing the products.'),
    'communication.overlap.traced_within': ('The timeline below is one traced run, not a median: its wall clock '
                                            '{wall:.4f} s lies within the untraced overlapped repeats ({lo:.4f}-'
                                            '{hi:.4f} s); untraced products alone took {run_lo:.4f}-{run_hi:.4f} s; '
                                            'the dashed line is the closed form, {closed:.4f} s.'),
    'communication.overlap.traced_below': ('The timeline below is one traced run, not a median: its wall clock '
                                           '{wall:.4f} s is below every untraced overlapped repeat ({lo:.4f}-'
                                           '{hi:.4f} s); untraced products alone took {run_lo:.4f}-{run_hi:.4f} s; '
                                           'the dashed line is the closed form, {closed:.4f} s.'),
    'communication.overlap.traced_above': ('The timeline below is one traced run, not a median: its wall clock '
                                           '{wall:.4f} s is above every untraced overlapped repeat ({lo:.4f}-'
                                           '{hi:.4f} s); untraced products alone took {run_lo:.4f}-{run_hi:.4f} s; '
                                           'the dashed line is the closed form, {closed:.4f} s.'),
    'communication.timeline.caption': '{plan}: {products} products, {copies} copies ({n} x {n})',
    'communication.timeline.caption_thin': ('{plan}: {products} products ({n} x {inner} times {inner} x {n}), '
                                            '{copies} copies of {n} x {n}'),
    'communication.timeline.merged_copy': '({count}, gaps under {gap} ms\nmerged: drawn as {stretches})',
    'communication.timeline.merged_compute': '({count}, gaps under {gap} ms\nmerged: drawn as {stretches})',
    'communication.timeline.stretches_one': 'one stretch',
    'communication.timeline.stretches_many': '{n} stretches',
    'communication.recorded.caption': ('recorded on {gpu}, {date}: {iters} products of {n} x {n} (each dot is one '
                                       'repeat)'),
    'communication.recorded.interval': ("From the recorded timeline's intervals: with a copy stream and events the "
                                        '{copies} copies ran beside a product for {measured:.0%} of their busy time '
                                        '(closed form from the recorded run and copy times: {predicted:.0%}).'),
    'communication.axis_ms': 'ms',
    'communication.recorded.source': 'recorded on {gpu}, {date} ({iters} products of {n} x {n})',
    'communication.legend.compute': 'products (mm)',
    'communication.legend.copy': 'copies to host memory',
    'communication.book.both': 'Run on lane 0 and copy to CPU (first non_blocking call, into new host memory)',
    'communication.book.both_again': 'Run on lane 0 and copy to CPU (second non_blocking call)',
    'communication.book.setting': '{n} x {n} matrices, {k} products per call of run',
    'communication.book.single_gpu': ('Each line above is one timing, not a median. Below, a fresh process makes '
                                      'the first non_blocking call once more (timed once: it is the first call '
                                      'into that memory) and later calls with repeats.'),
    'communication.book.single_close': ('Each line above is one timing, not a median. Nothing is copied on a CPU lane, '
                                        'and the two lines with .to are within {noise:.0%} of compute alone '
                                        '({run:.4f} s).'),
    'communication.book.single_apart': ('Each line above is one timing, not a median. Nothing is copied on a CPU lane; '
                                        'the two lines with .to took {first:.2f} and {second:.2f} times as long as '
                                        'compute alone ({run:.4f} s), at least one more than {noise:.0%} away: this '
                                        'run does not test why.'),
    'communication.book.copy_cpu': ".to('cpu') (a CPU lane: nothing is copied)",
    'communication.book.both_cpu': ("Run on lane 0, then .to('cpu', non_blocking=True), 1st call (a CPU lane: "
                                    'nothing is copied)'),
    'communication.book.both_again_cpu': ("Run on lane 0, then .to('cpu', non_blocking=True), 2nd call (a CPU lane: "
                                          'nothing is copied)'),
    'communication.check.first_copy': 'first non_blocking copy',
    'communication.check.warm_copy': 'warm non_blocking copy',
    'communication.check.ex3': 'exercise 3 ({variant})',
    'communication.what_inner': 'inner size',
    'communication.profile.when_cold': 'first call (new memory)',
    'communication.profile.when_warm': 'later call (reused memory)',
    'communication.profile.tick': '{when}: {op}',
    'communication.mode.widget': 'the copy plan chosen above',
    'communication.variant.expected.oversubscribed': 'more threads than cores: from max(lane times) up to their sum',
    'communication.mode.pageable, preallocated, same stream': 'pageable buffers, preallocated (reused), one stream',
    'communication.recorded.reused': ('Into preallocated pageable buffers, reused on every repeat: {seconds:.3f} s '
                                       '({gbps:.1f} GB/s), {ratio:.1f} times as long as the pinned buffers; the new '
                                       'pageable tensors took {new_ratio:.1f} times as long as these reused ones.'),
    'communication.recorded.reused_link': ('This recording has no row for reused pageable buffers; its link '
                                            'measurement copied one {n} x {n} result again and again into one '
                                            'reused buffer: pageable {gbps:.1f} GB/s, pinned {pinned:.1f} GB/s '
                                            '({ratio:.1f} times as fast).'),
    'communication.ex3.oversubscribed': ('Together {together:.4f} s: {where}. {threads} threads want a core ({parts}) '
                                         'and this machine has {cores}, so the closed form is a range: from '
                                         'max(lane times) = {expected:.4f} s, if every thread had a core, up to one '
                                         'after the other {serial:.4f} s.'),
    'communication.ex3.where_near_max': 'close to max(lane times)',
    'communication.ex3.where_near_serial': 'about one after the other, no gain here',
    'communication.ex3.where_inside': 'between the two ends of the range',
    'communication.ex3.where_below': 'below max(lane times)',
    'communication.ex3.where_above': 'above one after the other',
    'communication.ex3.threads_cpu': 'lane {lane}: {n} computing',
    'communication.ex3.threads_copy': 'lane {lane}: {n} computing, 1 copying',
    'communication.ex3.threads_gpu': 'lane {lane}: 1 issuing GPU work',
    'communication.ex3.threads_sep': '; ',
    'communication.ex3.range_legend': 'up to one after the other',
}
