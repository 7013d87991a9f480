"""13.3.3's step recorded on a GPU machine: where and when, what ran, the times, the halves' overlap, the figure."""
MESSAGES = {
    'graph.recorded.what_batch': 'batch size',
    'graph.recorded.none': ('No recording of this step from a GPU machine ships with this version yet: '
                            'every number above was measured here.'),
    'graph.recorded.where': ('Recorded on {gpus} with {cores} CPU cores (driver {driver}, CUDA {cuda}, '
                             'PyTorch {torch}, Python {python}) on {date}'),
    'graph.recorded.where_cpu': ('CPU recording (no GPU): {cores} CPU cores, PyTorch {torch}, Python {python}, '
                                 'on {date}'),
    'graph.recorded.lanes': 'lanes: {lanes}; one device: {one}',
    'graph.recorded.lane_item': '{lane} = {device}',
    'graph.recorded.run': ('batch {batch} ({d_in}-{hidden}-{d_out} MLP), {warmup} warm-up steps not counted, then '
                           '{repeats} repeats of each way, interleaved (median, then the range of every repeat):'),
    'graph.recorded.row': '  {variant}: {ms:.3f} ms ({lo:.3f} to {hi:.3f} ms; every repeat in order: {every})',
    'graph.recorded.one_by_batch': ('one device, whole minibatch, by batch size (median, then the middle half of the '
                                    'repeats): {items}; {steps} (rose or fell: the medians differ by more than the '
                                    'larger interquartile range and the middle halves of the repeats do not overlap)'),
    'graph.recorded.one_item': '{batch}: {ms:.3f} ms ({q1:.3f}–{q3:.3f} ms)',
    'graph.recorded.one_step.rose': 'from {a} to {b} it rose',
    'graph.recorded.one_step.fell': 'from {a} to {b} it fell',
    'graph.recorded.one_step.same': 'from {a} to {b} not told apart',
    'graph.recorded.split_slower': ('  the split step took {ratio:.2f} times as long as one device with the whole '
                                    'minibatch'),
    'graph.recorded.split_faster': ('  one device with the whole minibatch took {ratio:.2f} times as long as the split '
                                    'step'),
    'graph.recorded.halves': ('batch {batch}, the drawn repeat (the split step of median time): {lane0} was busy '
                              '{t0:.3f} ms, {lane1} {t1:.3f} ms'),
    'graph.recorded.overlap': ("overlap of the halves: during {fraction:.0%} of the shorter half's busy time "
                               '({lane}) the other half was busy too (this repeat; {low:.0%} to {high:.0%} over '
                               '{repeats} repeats); predicted {predicted:.0%} for halves started together; '
                               'halves in turn: {in_turn:.0%}'),
    'graph.recorded.starts': ('in this repeat {first} started its half {offset:.3f} ms before the other; the '
                              'prediction assumes both start together'),
    'graph.recorded.saved_more': ('the measured saving is {ratio:.1f}x this prediction: {excess:.3f} ms more than '
                                  "the shorter half's busy time, and this recording does not say what that "
                                  '{excess:.3f} ms was'),
    'graph.recorded.gap': 'with the halves in turn, the second started {gap:.3f} ms after the first ended (median)',
    'graph.recorded.saved': ('wall clock: halves in turn minus together = {saved:.3f} ms (medians); predicted '
                             "{predicted:.3f} ms, the shorter half's busy time when the halves ran in turn"),
    'graph.recorded.slowdown': ("each half's busy time together / in turn (medians): {lane0}: {r0:.2f}, "
                                '{lane1}: {r1:.2f}'),
    'graph.recorded.checked': ('every update of every repeat matched one device in float64 (worst relative error '
                               '{error:.1e}, tolerance {tolerance:.0e})'),
    'graph.recorded.title': ('The step of Fig. 13.3.1 recorded on {gpu}, {date}\nbatch {batch}, {repeats} repeats '
                             'after {warmup} warm-up steps; overlap of the halves: {fraction:.0%} of the shorter '
                             "half's busy time ({lane}), predicted {predicted:.0%}"),
    'graph.recorded.title_cpu': ('The step of Fig. 13.3.1, CPU recording (no GPU), {date}\nbatch {batch}, '
                                 '{repeats} repeats after {warmup} warm-up steps; overlap of the halves: '
                                 "{fraction:.0%} of the shorter half's busy time ({lane}), predicted {predicted:.0%}"),
    'graph.recorded.title_timeline': 'the repeats ringed below, each way from its own start',
    'graph.recorded.title_repeats': ('every repeat after the warm-up; in each row the first on top, each later one '
                                     'lower'),
    'graph.recorded.row_lane': '{lane}\n{device}',
    'graph.recorded.row_one': 'one device: {device}',
    'graph.recorded.stage.copy_in': 'weights + rows in',
    'graph.recorded.stage.lane_step': 'forward + backward',
    'graph.recorded.stage.grad_copy': 'gradients out',
    'graph.recorded.stage.sum': 'sum',
    'graph.recorded.stage.update': 'update',
    'graph.recorded.stage.whole_step': 'whole step',
    'graph.recorded.legend_copy': 'copies: weights + rows in, gradients out',
    'graph.recorded.legend_server': 'sum and update (server)',
    'graph.recorded.sep': ', ',
    'graph.recorded.clock_note': ('GPU intervals from CUDA events, CPU intervals from timestamps in the thread that '
                                  'ran them, on one clock'),
    'graph.recorded.drawn_median': ('drawn: {variant}, repeat {repeat} of {repeats}, {ms:.3f} ms on the wall clock '
                                    '(the median); its bars span {span:.3f} ms'),
    'graph.recorded.drawn_other': ('drawn: {variant}, repeat {repeat} of {repeats}, {ms:.3f} ms on the wall clock '
                                   '(the median of its repeats: {median:.3f} ms); its bars span {span:.3f} ms'),
    'graph.recorded.drawn_gap': ('{variant}: that repeat took {ms:.3f} ms on the wall clock and its bars span '
                                 '{span:.3f} ms ({share:.0%} of it): the wall clock times the whole call, the bars '
                                 'only the intervals recorded inside it (CUDA events, thread timestamps), and this '
                                 'recording does not say what the other {gap:.3f} ms were'),
    'graph.recorded.short.copy_in': 'copy in',
    'graph.recorded.short.grad_copy': 'grads',
    'graph.recorded.short.lane_step': 'fwd + bwd',
    'graph.recorded.short.whole_step': 'step',
    'graph.recorded.legend_drawn': 'the repeat drawn above',
    'graph.recorded.saved_more_gap': ('the measured saving is {ratio:.1f}x this prediction: {excess:.3f} ms more '
                                      "than the shorter half's busy time; with the halves in turn the second "
                                      'started {gap:.3f} ms after the first ended (median), which leaves {rest:.3f} '
                                      'ms of the saving that this recording does not account for'),
    'graph.recorded.saved_more_covered': ('the measured saving is {ratio:.1f}x this prediction: {excess:.3f} ms more '
                                          "than the shorter half's busy time, no more than the {gap:.3f} ms by "
                                          'which, with the halves in turn, the second started after the first ended '
                                          '(median)'),
    'graph.recorded.alone': ('each lane alone (the halves in turn), {rows} rows each: {lane0} was busy {t0:.3f} ms, '
                             '{lane1} {t1:.3f} ms (medians of {repeats} repeats)'),
}
