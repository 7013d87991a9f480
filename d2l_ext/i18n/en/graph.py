"""13.3.3: the dependency graph, its schedule, the timed step, exercise 5 and the panel."""
MESSAGES = {
    'graph.lane': 'lane {i}',
    'graph.stage.copy_in': 'data in',  # a copy in that moved neither or both (runs.name_copies_in)
    'graph.stage.weights_in': 'weights in',
    'graph.stage.rows_in': 'rows in',
    'graph.stage.fc1_fwd': 'fc1 fwd',
    'graph.stage.relu': 'relu',
    'graph.stage.fc2_fwd': 'fc2 fwd',
    'graph.stage.loss': 'loss',
    'graph.stage.fc2_bwd': 'fc2 bwd',
    'graph.stage.relu_bwd': 'relu bwd',
    'graph.stage.fc1_bwd': 'fc1 bwd',
    'graph.stage.grad_copy': 'grad copy',
    'graph.stage.sum': 'sum',
    'graph.stage.update': 'update',
    'graph.server': 'server (CPU)',
    'graph.link': '{src} → {dst}',
    'graph.link_row': '{link}: {what}',  # a copy's row in the schedule: its ends, what it moved
    'graph.edge.copy': 'copy',
    'graph.edge.data': 'data',
    'graph.sep_list': ', ',
    'graph.sep_clause': ', ',
    'graph.sep_semicolon': '; ',
    'graph.edge_count': '{count} {kind}',
    'graph.summary': ('{title}: {nodes} nodes, {edges} edges ({kinds})\n'
                      '  lanes: {lanes}; devices: {devices}\n'
                      '  copies: {copies} copy nodes moving {bytes} bytes ({size}); arithmetic: {flops} FLOP'),
    'graph.serial_total': 'serial total (one box at a time)',
    'graph.scheduled_total': 'scheduled total (earliest start)',
    'graph.critical_path_bound': 'critical-path bound',
    'graph.col_seconds': 'seconds',
    'graph.col_speedup': 'serial total / this',
    'graph.col_predicted': 'predicted (s)',
    'graph.col_error': 'relative error vs float64',
    'graph.schedule_speedup': ('the schedule runs {speedup:.2f}x as fast as one box at a time; with these box times '
                               'no schedule runs more than {bound:.2f}x as fast: none is shorter than the critical '
                               'path, '
                               "{crit:.3f} ms, or than the schedule's busiest row ({row}) running its boxes in turn, "
                               '{lane:.3f} ms; the floor is the larger, {floor:.3f} ms'),
    'graph.critical_path_is': 'critical path: {path}',
    'graph.variant.one_device': 'one device, whole minibatch, no copies',
    'graph.variant.in_turn': 'two lanes, one after the other',
    'graph.variant.split': 'two lanes together',
    'graph.step_title': 'one training step, batch {batch}, lanes: {lanes}; {repeats} repeats of each, interleaved',
    # the told-apart heads and conclusions: display.apart's clause fills {clause} (both parts of the test, in order)
    'graph.step_faster': ('two lanes together ran {ratio:.2f}x as fast as one after the other ({clause}): running the '
                          'lanes at once saved time'),
    'graph.step_slower': ('two lanes together took {inv:.2f}x as long as one after the other ({clause}): running the '
                          'lanes at once lost time'),
    'graph.step_tied': 'two lanes together and one after the other: {clause}',
    'graph.split_faster': ('two lanes together ran {ratio:.2f}x as fast as one device with the whole minibatch '
                           '({clause}): splitting the batch paid off'),
    'graph.split_slower': ('two lanes together took {inv:.2f}x as long as one device with the whole minibatch '
                           '({clause}): one device was faster'),
    'graph.split_tied': ('two lanes together and one device with the whole minibatch: {clause}, so this run does not '
                         'show that splitting the batch paid off'),
    'graph.dag_variant.0': 'one lane, in order',
    'graph.dag_variant.1': 'two lanes, planned',
    'graph.dag_variant.2': 'one device, all cores, in order',
    'graph.dag_tasks': '{tasks} tasks, each one {n} x {n} product; lanes: {lanes}',
    'graph.dag_model': ('model, in units of one product on two equal lanes: serial {serial:.0f}, planned '
                        '{planned:.0f}, critical path {path:.0f}; no plan takes fewer than {floor:.0f} (a join '
                        'waits for every task before it, so the parts between joins run in turn: each at least its '
                        'longest chain or its products shared by the {lanes} lanes, rounded up, whichever is '
                        'longer, plus 1 for each join), so none runs more than {bound:.2f}x as fast as serial'),
    'graph.dag_count': '{count} on {lane}',
    'graph.dag_split': 'the plan puts {counts}',
    'graph.dag_split_speeds': 'the lanes differ in speed (one product timed on each); the plan puts {counts}',
    'graph.dag_faster': ('two lanes planned ran {ratio:.2f}x as fast as one lane in order ({clause}): the plan saved '
                         'time'),
    'graph.dag_slower': 'two lanes planned took {inv:.2f}x as long as one lane in order ({clause}): the plan lost time',
    'graph.dag_tied': 'two lanes planned and one lane in order: {clause}',
    'graph.dag_all_cores_faster': ("this exercise's {tasks} products ran {ratio:.2f}x as fast on one device with all "
                                   'cores as on {lane} in order ({clause})'),
    'graph.dag_all_cores_slower': ("this exercise's {tasks} products took {inv:.2f}x as long on one device with all "
                                   'cores as on {lane} in order ({clause})'),
    'graph.dag_all_cores_tied': ("this exercise's {tasks} products on one device with all cores and on {lane} in "
                                 'order: {clause}'),
    'graph.broken_not_caught': 'the results matched: this plan happens to need no waiting',
    'graph.n_tensors': '{n} tensors',
    'graph.legend_copy': 'copy (dashed arrows: bytes moved)',
    'graph.panel.batch': 'batch size (both lanes)',
    'graph.panel.hidden': 'hidden units',
    'graph.panel.lane_speed': 'lane {i} GFLOP/s',
    'graph.panel.server_speed': 'server (CPU) GFLOP/s',
    'graph.panel.link': 'link GB/s (each direction)',
    'graph.panel.measure': 'Measure here',
    'graph.panel.measure_tip': "time each box on this machine's lanes at this batch and hidden size",
    'graph.panel.lane_is': 'lane {i} = {label}',
    'graph.panel.measures_on': 'measures on {lanes}',
    'graph.panel.measuring': 'measuring each box, then the real step...',
    'graph.panel.interrupted': 'Interrupted. Press the button to measure again.',
    'graph.panel.row_model': 'model',
    'graph.panel.row_measured': 'measured here',
    'graph.panel.col_costs': 'costs',
    'graph.panel.col_real': 'real step, lanes together (s)',
    'graph.panel.col_serial': 'serial total (s)',
    'graph.panel.col_scheduled': 'scheduled total (s)',
    'graph.panel.col_bound': 'critical-path bound (s)',
    'graph.panel.col_speedup': 'serial total ÷ scheduled total',
    'graph.panel.not_measured': '—: not measured (model rows are computed from the sliders, not timed)',
    'graph.panel.title_model': 'Model: the schedule of one step',
    'graph.panel.title_measured': 'Boxes measured on {lanes}: the schedule',
    'graph.schedule_numbers': ('serial total {serial:.3f} ms; scheduled total {total:.3f} ms; '
                               'critical path {path:.3f} ms'),
    'graph.step_checked': ('the two-lane step changed the weights as autograd does in float64 '
                           '(relative error of the update {err:.1e})'),
    'graph.check_caught': 'the check caught the changed step ({message})',
    'graph.check_missed': 'the check passed: the change did not alter the update',
    'graph.step_row': '{variant}: median {ms:.2f} ms over {repeats} repeats{predicted}',
    'graph.step_row_predicted': ' (predicted {ms:.2f} ms)',
    'graph.title_graph': 'One training step on two lanes, recorded from the worked mlp_step',
    'graph.title_plan': 'The schedule the graph allows, from boxes timed one at a time here (critical path outlined)',
    'graph.title_step_tied': 'Every repeat of one step: "{variant}" and "{other}" not told apart',
    'graph.title_step': 'Every repeat of one step: fastest here, "{variant}"',
    'graph.dag_unnamed': "bars too narrow for a task's name are left unnamed; the plan above names every task",
    'graph.title_dag_plan': ("The book's exercise 5: the plan (which lane runs each task; columns follow the "
                             'dependencies)'),
    'graph.title_dag_run': ('The plan run here: {ratio:.2f}x as fast as one lane in order (timed medians {mine} and '
                            '{other} ms)'),
    'graph.title_dag_run_slower': ('The plan run here: {inv:.2f}x as long as one lane in order (timed medians {mine} '
                                   'and {other} ms)'),
    # what draw_dag's bars are: one run traced after the timing, not a timed repeat (its time beside the median)
    'graph.title_dag_bars': 'bars: one more run after the timing, {span:.2f} ms (the timed median: {median} ms)',
    'graph.title_dag_bars_only': 'bars: one more run after the timing, {span:.2f} ms',
    'graph.broken_caught': 'an engine that skips the waits: the check against float64 caught it ({message})',
    'graph.lane_line': '{lane} = {name}: {explanation}',
    'graph.what_step': 'the two-lane step',
    'graph.what_dag_task': 'DAG task {name}',
    'graph.title_hasty': "A server that does not wait: lane 1's gradients arrive, but sum never reads them",
    'graph.rates': ("lane 0's boxes alone {t0:.2f} ms, lane 1's alone {t1:.2f} ms, both lanes' at once {both:.2f} ms: "
                    'at once they ran {rate:.2f}x as fast as one after the other ({ideal:.2f}x if neither slowed the '
                    'other: one after the other over the longer lane alone), the pair {slowdown:.2f}x as long as the '
                    'longer lane alone; {whole}'),
    'graph.rates_above': ("lane 0's boxes alone {t0:.2f} ms, lane 1's alone {t1:.2f} ms, both lanes' at once "
                          '{both:.2f} ms: at once they ran {rate:.2f}x as fast as one after the other, above the '
                          '{ideal:.2f}x of lanes that do not slow each other (one after the other over the longer '
                          'lane alone); such lanes take as long as the longer lane alone, not less, but the pair '
                          'took {slowdown:.3f}x as long as that lane ({gap:.2f} ms less than {longer:.2f} ms, more '
                          'than {noise:.0%} of it, {limit:.2f} ms), and this run does not test why; {whole}'),
    'graph.rates_at_bound': ("lane 0's boxes alone {t0:.2f} ms, lane 1's alone {t1:.2f} ms, both lanes' at once "
                             '{both:.2f} ms: at once they ran {rate:.2f}x as fast as one after the other '
                             '({ideal:.2f}x for lanes that do not slow each other: one after the other over the '
                             'longer lane alone); such lanes take as long as the longer lane alone, not less: the '
                             'pair took {slowdown:.3f}x as long as that lane ({gap:.2f} ms less than {longer:.2f} ms, '
                             'no more than {noise:.0%} of it, {limit:.2f} ms), so not told apart from them, and this '
                             'run does not test why it was shorter; {whole}'),
    'graph.rates.whole_cpu': "lane 0's boxes with all {cores} cores in one thread: {all:.2f} ms",
    'graph.rates.whole_gpu': ('lane 0 is a whole GPU already: its boxes timed again as the one-device baseline: '
                              '{all:.2f} ms'),
    'graph.guess_missing': 'Write your prediction (a number) in my_guess first, then run this cell.',
    'graph.guess_none': ('{variant}: your guess (none yet) | closed form {predicted:.2f} ms | '
                         'measured {measured:.2f} ms (median)'),
    'graph.guess_line': ('{variant}: your guess {guess:.2f} ms | closed form {predicted:.2f} ms | '
                         'measured {measured:.2f} ms (median)'),
    'graph.ratio_item': '{variant} {ratio:.2f}',
    'graph.measured_over_predicted': 'measured / predicted: {ratios}',
    'graph.overlap_line': ('overlap of the two halves in one step together: the shorter half was busy {fraction:.0%} '
                           'of its time while the other ran too (of {runs} steps recorded after the timing, the one '
                           'whose overlap was the median: its halves were busy {t0:.2f} ms and {t1:.2f} ms; '
                           'predicted {predicted:.0%} for halves started together); wall clock, one after the other '
                           'minus together: {saved:.2f} ms (predicted {saved_pred:.2f} ms)'),
    'graph.overlap_unexplained': ('in that step one half was busy from {a0:.2f} to {b0:.2f} ms and the other from '
                                  '{a1:.2f} to {b1:.2f} ms (from the first start): they overlapped {fraction:.0%}. '
                                  'Yet the median of two lanes together ({mine:.2f} ms) was below {others}: the '
                                  'overlap measured in this run does not explain that difference'),
    'graph.overlap_below_item': 'that of "{variant}" ({ms:.2f} ms)',
    'graph.sep_and': ' and ',
    'graph.schedule_numbers_measured': ('from each box timed alone, one at a time ({repeats} repeats each, medians; '
                                        'the lanes as if neither slowed the other): serial total {serial:.3f} ms; '
                                        'scheduled total {total:.3f} ms; critical path {path:.3f} ms'),
    'graph.vs.title': 'one step with the two lanes together, three numbers:',
    'graph.vs.schedule': '  the schedule above (boxes timed one at a time, each lane as if alone): {ms:.2f} ms',
    'graph.vs.closed': ("  closed form (that schedule, each lane's boxes scaled to both lanes' time at once, "
                        "measured above): {ms:.2f} ms"),
    'graph.vs.measured': ('  measured (the whole step as mlp_step runs it, median of {repeats} repeats, {lo:.2f} '
                          'to {hi:.2f} ms): {ms:.2f} ms'),
    'graph.vs.others': ("other programs kept {boxes} of the cores busy while the boxes were timed, {rates} while "
                        "both lanes' rates were timed, {step} while the step was timed"),
    'graph.vs.unknown': 'an unknown share',
    'graph.vs.not_additive': ('the schedule made from boxes timed one at a time ({ms:.2f} ms) is {ratio:.2f}x the '
                              'measured step: here boxes timed apart do not predict the step, so read the schedule '
                              'for its order (which box waits for which), not for its length'),
    'graph.vs.apart': ('the schedule made from boxes timed one at a time ({ms:.2f} ms) is {ratio:.2f}x the measured '
                       'step ({step:.2f} ms): the same boxes, timed apart and within the step, differ by {diff:.2f} '
                       'ms, and this run does not break that difference down'),
    'graph.vs.at_once_twice': ("both lanes' boxes at once, timed twice: {rates:.2f} ms in the rates above (the "
                               "closed form scales the lanes' boxes to it), {span:.2f} ms from the first half's "
                               "start to the last half's end in the step recorded for the overlap (the rates' time "
                               "is {ratio:.2f}x the step's); this run does not test why the two differ"),
    'graph.vs.uneven': ('those shares differ by {gap:.0%} of the machine: the numbers were measured on a machine '
                        'busy to different degrees; run the cells again when it is quieter before reading a gap '
                        'between them as a property of the step'),
    'graph.vs.quiet_none': ('other programs used {top:.0%} of the cores in all three: they do not explain a gap '
                            'between these numbers'),
    'graph.vs.quiet': ('other programs used at most {top:.0%} of the cores in all three: they do not explain a gap '
                       'between these numbers'),
    'graph.role.copy_lanes': 'copy between lanes of one device',
    'graph.role.copy_mixed': 'copy (between devices, or lanes of one device)',
    'graph.dag_forced': ('the planner alone gave {lane} nothing; the exercise gives every lane a task, so {lane} '
                         'got the one that lengthens the modelled plan least'),
    'graph.dag_predicted': ('predicted from one product timed on each lane: lane 0 alone in order {one:.2f} ms, '
                            'two lanes planned {planned:.2f} ms: the plan {ratio:.2f}x as fast'),
    'graph.dag_predicted_slower': ('predicted from one product timed on each lane: lane 0 alone in order '
                                   '{one:.2f} ms, two lanes planned {planned:.2f} ms: the plan {inv:.2f}x as long'),
    'graph.dag_predicted_loss': ('the model itself predicts the plan to be slower than lane 0 alone: with lanes '
                                 'this unequal, give every task to the faster one'),
    'graph.rec_dag.title': ("the book's exercise 5 recorded there: {tasks} tasks, each one {n} x {n} product; "
                            '{repeats} repeats of each way, interleaved (median, then the range of every repeat):'),
    'graph.rec_dag.row': '  {variant}: {ms:.3f} ms ({lo:.3f} to {hi:.3f} ms; every repeat in order: {every})',
    'graph.rec_dag.checked': "every way's results matched float64 (worst relative error {error:.1e})",
    'graph.vs.threads_slow': ('a test: timed again right after with one thread, the boxes outside the lanes '
                              '(copies, sum, update) took {one:.2f} ms instead of {all:.2f} ms with all {threads} '
                              'cores: while they were timed, splitting each operation over the cores slowed it, '
                              'and the schedule above counts the slow times'),
    'graph.vs.threads_slow_busy': ('a test: timed again right after with one thread, the boxes outside the lanes '
                                   '(copies, sum, update) took {one:.2f} ms against {all:.2f} ms with all {threads} '
                                   'cores; other programs did not leave the cores quiet throughout (their shares '
                                   'below), so this run does not say whether splitting over the cores slowed them'),
    'graph.vs.threads_faster': ('a test: timed again right after with one thread, the boxes outside the lanes '
                                '(copies, sum, update) took {one:.2f} ms against {all:.2f} ms with all {threads} '
                                'cores, the times the schedule counts: one thread was faster, but all cores took less '
                                'than twice as long, so this test does not show the split over the cores as what '
                                'lengthened the schedule'),
    'graph.vs.threads_fine': ('a test: timed again right after with one thread, the boxes outside the lanes '
                              '(copies, sum, update) took {one:.2f} ms against {all:.2f} ms with all {threads} '
                              'cores, the times the schedule counts: all cores took no longer than one thread, so '
                              'this test does not show the split over the cores as what lengthened the schedule'),
    'graph.err.no_speed': ('device_speed has no entry for lane {lane} or device {device}; add one (FLOP/s) '
                           "or a 'default'"),
    'graph.err.no_bandwidth': 'link_bandwidth (bytes/s) must be > 0 to cost the copies',
    'graph.err.dag_shape': 'need stages >= 1 and 1 to {most} arms of length >= 1; got {stages}, {arms}',
    'graph.err.no_lane': 'the plan gives no lane to {tasks}',
    'graph.err.batch_split': 'batch must be a whole number >= 2 (two lanes get a part each), got {batch}',
    'graph.err.two_lanes': 'the split step needs two lanes, got {n}',
    'graph.err.rec_format': ('{where}: format {got}, expected {expected}: record it again with '
                             'tools/record_depgraph.py'),
    'graph.err.rec_missing': '{where}: missing {missing}: record it again',
    'graph.err.no_batch': 'no run at batch {batch} in this recording; it has {has}',
    'graph.err.whole_number': '{name} must be a whole number >= 1, got {value}',
    'graph.err.batch_two': 'batch must be at least 2 to split over two lanes, got {batch}',
    'graph.err.variants': 'unknown variants {unknown}; choose from {known}',
    'graph.err.negative_cost': 'task {task} has a negative cost {cost}; costs are seconds >= 0',
    'graph.err.repeated': 'task names must be unique; repeated: {names}',
    'graph.err.unknown_deps': 'task {task} depends on unknown task(s) {missing}',
    'graph.err.cycle': 'the dependencies form a cycle; tasks never ready: {stuck}',
    'graph.err.iters': 'iters must be a whole number >= 1, got {iters}',
    'graph.err.durations': 'compute_s and copy_s are durations in seconds and must be >= 0',
    'graph.err.no_resource': 'list_schedule needs at least one resource',
    'graph.err.speed': 'speed needs a factor > 0 for every resource; check {check}',
    'graph.err.pinned': 'pinned tasks name resources that are not listed: {stray}',
    'graph.lane_device': '{lane} ({device})',
    'graph.dag_per_product': ("predicted from the one-lane run's median ({one:.2f} ms for {serial:.0f} products, "
                              '{per:.3f} ms each): two lanes planned, a plan {planned:.0f} products long, '
                              '{ms:.2f} ms; measured {measured:.2f} ms (median)'),
    'graph.dag_vs': 'predicted beside measured: {rows}',
    'graph.dag_vs_row': '{variant}: predicted {predicted:.2f} ms, measured {measured:.2f} ms (median)',
    'graph.dag_breakdown': ('the plan run once more after the timing: {span:.2f} ms from the first lane starting to '
                            'the last task ending; {lanes}'),
    'graph.dag_breakdown_gpu': ('the plan run once more after the timing, the GPU lane waiting for each of its tasks: '
                                '{span:.2f} ms from the first lane starting to the last task ending; {lanes}'),
    'graph.dag_breakdown_lane': ('{lane} ({tasks} of the tasks): running them {products:.2f} ms, fetching inputs '
                                 '(a copy where made on the other device) {copies:.2f} ms, waiting for inputs '
                                 '{waiting:.2f} ms'),
    'graph.title_dag_run_tied': ('The plan run here: not told apart from one lane in order (timed medians {mine} '
                                 'and {other} ms)'),
    'graph.vs.shorter': ('the schedule made from boxes timed one at a time ({ms:.2f} ms) is shorter than the '
                         'measured step ({step:.2f} ms) by {diff:.2f} ms (the schedule is {ratio:.2f}x the step), '
                         'and this run does not break that difference down'),
    'graph.vs.shorter_far': ('the schedule made from boxes timed one at a time ({ms:.2f} ms) is shorter than the '
                             'measured step ({step:.2f} ms) by {diff:.2f} ms (the schedule is {ratio:.2f}x the '
                             'step), and this run does not break that difference down: read the schedule for its '
                             'order (which box waits for which), not for its length'),
    'graph.rates.twice_gpu': ("lane 0's boxes of the training step (forward and backward of its half of the "
                              'minibatch) on the same GPU, timed twice: {alone:.2f} ms alone above, {all:.2f} ms as '
                              'the one-device baseline (the baseline is {ratio:.2f}x the first); the one-device '
                              'prediction below is built on the {all:.2f} ms, and this run does not test why the '
                              'two differ'),
    'graph.rates.all_cores_slower': ("lane 0's boxes of the training step (forward and backward of its half of the "
                                     'minibatch) took {all:.2f} ms with all {cores} cores in one thread against '
                                     "{alone:.2f} ms on lane 0's own share of them ({ratio:.2f}x as long with all "
                                     'cores); the one-device prediction below is built on the {all:.2f} ms, and '
                                     'this run does not test why more cores took longer'),
    'graph.predicted_apart': ("measured and predicted further apart than {noise:.0%} and than that way's "
                              'interquartile range: {items}; this run does not test why'),
    'graph.predicted_apart_tested': ("measured and predicted further apart than {noise:.0%} and than that way's "
                                     'interquartile range: {items}; for a prediction above its measurement, one '
                                     'possible cause is tested below the schedule: the boxes outside the lanes '
                                     '(copies, sum, update) timed again on one thread'),
    'graph.predicted_apart_item': ('{variant}, measured {ms:.2f} ms against {predicted:.2f} ms predicted '
                                   '({ratio:.2f}x; interquartile range {iqr:.2f} ms)'),
}
