"""13.3.1 Parallel computation on devices: variants, expectations, sentences built from measurements."""
MESSAGES = {
    'parallel.what': 'this run',
    'parallel.variant.serial_sum': 'one after the other (sum of the lanes alone)',
    'parallel.variant.together': 'all lanes together',
    'parallel.variant.expected.separate': 'expected: max(lane times), separate hardware',
    'parallel.variant.expected.shared': "expected: lanes on one CPU's cores",
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
    'parallel.expect.separate': ('together by the rule, from each lane alone: {seconds:.3f} s = max(lane times): '
                                 'the lanes run on separate hardware'),
    'parallel.expect.engine': ('together by the rule, from each lane alone: {seconds:.3f} s = one after the other, '
                               "assuming one MXNet lane's engine already keeps all {cores} cores busy with its "
                               'products (a second lane would then find none idle)'),
    'parallel.summary': ('{framework}: one after the other {serial:.3f} s, together {together:.3f} s, so together was '
                         "{speedup:.2f}x as fast; predicted from each lane's time alone: {expected_speedup:.2f}x."),
    'parallel.sync.no_gpu': ('no GPU lane here: PyTorch runs CPU work before returning, so every way of waiting '
                             'measures the same thing'),
    'parallel.launch.needs_gpu_cpu': 'needs one GPU lane and one CPU lane (a machine with exactly one GPU)',
    'parallel.independence.summary': ('{framework} ({engine}, {lane}, {threads} thread(s)): {iters} products of '
                                      '{size}x{size}: one at a time {single:.4f} s, issued together {together:.4f} s; '
                                      'one at a time / issued together = {ratio:.2f}'),
    'parallel.small_ops.gpu': ('Issuing one small product from Python took about {launch_us:.1f} us here, and one '
                               'lane {per_us:.1f} us per product: about as long. '
                               'The batched product took {batched_us:.2f} us per product: the GPU computes one faster '
                               'than the next launch arrives, so a second stream has nothing to overlap.'),
    'parallel.small_ops.once': 'Launching once for all the products: {ways}.',
    'parallel.small_ops.once_faster': '{variant} {us:.2f} us per product, {ratio:.1f}x as fast as one lane',
    'parallel.small_ops.once_not': '{variant} {us:.2f} us per product, not faster than one lane ({ratio:.2f}x)',
    'parallel.small_ops.gpu_open': ('Issuing one small product from Python took about {launch_us:.1f} us here, one '
                                    'lane {per_us:.1f} us per product, the batched product {batched_us:.2f} us per '
                                    'product. These numbers do not show the launches to be the limit.'),
    'parallel.small_ops.cpu': ('On {cores} core(s), per product of {size}x{size}: {per_us:.1f} us as one call each '
                               '(one lane), {batched_us:.1f} us inside one batched product; at the rate of one '
                               '{large}x{large} product on one lane with all {cores} core(s) ({gflops:.0f} '
                               "GFLOP/s) its 2n³ FLOP take {rated_us:.1f} us. The rows give each way's time, to "
                               'set against one lane with all the cores.'),
    'parallel.per_product.line': ('{framework}, {lane} alone: {ms:.3g} ms per product at n={large} '
                                  '({gflops:.0f} GFLOP/s); at that rate {sizes}.'),
    'parallel.per_product.size': 'n={size} would take {rated:.3g} ms, measured {ms:.3g} ms ({ratio:.1f}x)',
    'parallel.timeline_title': '{framework}: when each product ran on each lane',
    'parallel.scaling_measured': '{framework} measured',
    'parallel.scaling_expected': "{framework} predicted from each lane's time alone",
    'parallel.scaling_title': 'Speedup of two lanes over one after the other, at each matrix size',
    'parallel.mxnet_missing': ("MXNet is not installed here, so this part is skipped. To add it: "
                               "pip install mxnet==1.9.1 'numpy<1.24' (it needs Python 3.11 or older)."),
    'parallel.book.both': 'both lanes',
    'parallel.book.cell.book': 'The book\'s "both" cell',
    'parallel.book.cell.runner': 'The cell with run_on_lanes (a thread per CPU lane)',
    'parallel.book.above_sum': ('{cell} took {both:.3f} s: more than the sum of the lanes alone ({total:.3f} s), '
                                'and so more than the slower lane alone ({slower:.3f} s).'),
    'parallel.book.below_slower': ('{cell} took {both:.3f} s: less than the slower lane alone ({slower:.3f} s; sum '
                                   'of the lanes alone {total:.3f} s). Each is one timing, not a median: the repeats '
                                   'below give the spread.'),
    'parallel.book.single': ('Each of these is one timing, not a median; this run does not test why it took longer '
                             'than the sum of the lanes alone. The repeats below give medians.'),
    'parallel.runner.like_book': ('The book\'s "both" cell took {book:.3f} s, run_on_lanes {runner:.3f} s: '
                                  '{within} (one timing each).'),
    'parallel.runner.slower': ('The book\'s "both" cell took {book:.3f} s, run_on_lanes {runner:.3f} s: run_on_lanes '
                               'took {ratio:.2f}x as long, more than {noise:.0%}, so here it did not beat the '
                               "book's cell (one timing each; this run does not test why)."),
    'parallel.runner.faster': ('The book\'s "both" cell took {book:.3f} s, run_on_lanes {runner:.3f} s: the book\'s '
                               'cell took {ratio:.2f}x as long as run_on_lanes, more than {noise:.0%} (one timing '
                               'each).'),
    'parallel.book.check_serial': ('The book\'s "both" cell, timed once above: {both:.3f} s, {to_serial:.2f}x the '
                                   'median of one after the other here ({serial:.3f} s): {within}.'),
    'parallel.book.check_together': ('The book\'s "both" cell, timed once above: {both:.3f} s, {to_together:.2f}x '
                                     'the median of together here ({together:.3f} s): {within}.'),
    'parallel.book.check_neither': ('The book\'s "both" cell, timed once above: {both:.3f} s, {to_serial:.2f}x the '
                                    'median of one after the other ({serial:.3f} s) and {to_together:.2f}x that of '
                                    'together ({together:.3f} s) here: one timing, near neither median; this run '
                                    'does not test why.'),
    'parallel.balance.lane': '{lane} {seconds:.3f} s',
    'parallel.balance.even': 'Each lane alone (median): {lanes}: {within}.',
    'parallel.balance.uneven': ('Each lane alone (median): {lanes}: {ratio:.2f}x apart, more than {noise:.0%}: the '
                                'product counts, chosen to aim at equal times, did not give equal times.'),
    'parallel.no_wait.book_row': '{Book_name}: {book:.4f} s, against {waited:.4f} s: {within}.',
    'parallel.no_wait.same': ('{No_wait}: {no_wait:.4f} s; {waited_name}: {waited:.4f} s. About the same: the work '
                              'was done when the calls returned (PyTorch computes CPU work before returning), so '
                              'there was nothing left to wait for.'),
    'parallel.no_wait.queued': ('{No_wait}: {no_wait:.4f} s; {waited_name}: {waited:.4f} s. Without a wait the '
                                'clock stopped when the work was queued, not when it was done.'),
    'parallel.no_wait.book_short': ('{Book_name}: {book:.4f} s, less than the {waited:.4f} s of "{waited_name}", '
                                    'by more than {noise:.0%}.'),
    'parallel.rate': ('{lane}: one {size}x{size} product took {ms:.2f} ms (median of {repeats} repeats of '
                      '{products} products; {low:.2f}-{high:.2f} ms per product), {gflops:.0f} GFLOP/s'),
    'parallel.predict.line': '{variant}, {source}: {seconds:.3f} s',
    'parallel.variant.one_after_other': 'one after the other',
    'parallel.variant.both_jobs': '{lane}, both jobs',
    'parallel.workload': ('this run: {size}x{size} matrices, products per lane {iters} (the book: {book_iters} '
                          'products of {book_size}x{book_size} on each GPU)'),
    'parallel.variant.threads': 'both lanes, one thread each',
    'parallel.verdict.serial': ('Together: {together:.3f} s, against {serial:.3f} s one after the other '
                                '({speedup:.2f}x) and {slower:.3f} s for the slower lane alone.'),
    'parallel.scaling.points': ("{framework}, speedup at each size: measured (predicted from each lane's time alone): "
                                '{points}'),
    'parallel.scaling.point': 'n={size} {measured:.2f}x ({expected:.2f}x)',
    'parallel.scaling.above_two': 'n={size}: {note}',
    'parallel.scaling.flat': ('{framework}, speedup (one after the other / together): '
                              '{small_speedup:.2f}x at n={small}, {large_speedup:.2f}x at n={large}: '
                              'about the same at every size in this run.'),
    'parallel.above_two.serial': ('{speedup:.2f}x is above 2x, the most two lanes give over one after the other at '
                                  'their speeds alone: together ({together:.4g} s) took less than the slower lane '
                                  'alone ({slower:.4g} s).'),
    'parallel.above_two.baseline': ('{ratio:.2f}x is above 2x: it sets together against one device doing both jobs '
                                    '({baseline:.3f} s), not against one after the other ({serial:.3f} s, '
                                    '{speedup:.2f}x), the comparison that two lanes keep within 2x.'),
    'parallel.above_two.independence': ('The ratio {ratio:.2f} is above 2, yet no second lane ran: both rows ran the '
                                        'same {iters} products on {lane}, one at a time (a wait after each) against '
                                        'issued together (one wait).'),
    'parallel.above_two.small_ops': ('{ratio:.2f}x is above 2, yet no second lane ran: it sets {variant}, one call '
                                     'for all {products} products, against one lane making a call per product, '
                                     'on the same device.'),
    'parallel.recorded.sync_one_gpu': ('The recording\'s sync run used one GPU: there "every device" and "the '
                                       'current device" are the same GPU, so the book\'s synchronize() and the wait '
                                       'for every device wait for the same work and should agree ({book:.4f} s and '
                                       '{waited:.4f} s); telling them apart needs two GPUs.'),
    'parallel.recorded.sync_gpus': "The recording's sync run used {gpus} GPUs.",
    'parallel.small_ops.suspect': ('{ratio:.2f}x is more than {cores} core(s) allow for lanes side by side, so '
                                   'the "{base}" row (every repeat {low:.1f}-{high:.1f} ms) was disturbed in this '
                                   'run: run the cell again before comparing the rows.'),
    'parallel.recorded_sync_dated': ('{gpu}, recorded {date}: {work} of {size}x{size}; without a wait the clock '
                                     'stops after queuing'),
    'parallel.eager': 'eager',
    'parallel.independence.title': '{framework} ({engine}): issued together {ratio:.2f}x as fast as one at a time',
    'parallel.small_ops.title': '{device}: fastest here was {variant}',
    'parallel.guess.none': 'Write your prediction (a number) in {name} first, then run this cell.',
    'parallel.guess.yours': 'your guess',
    'parallel.guess.closed_form': 'closed form',
    'parallel.guess.measured': 'measured',
    'parallel.guess.seconds': '{what}: {value:.3f} s',
    'parallel.guess.fraction': '{what}: {value:.2f} ({value:.0%})',
    'parallel.guess.ratio': '{what}: {value:.2f}x',
    'parallel.overlap.fraction': ('Overlap from the timeline: the shorter lane was busy {measured:.0%} of its time '
                                  'while the other lane was busy too (predicted {predicted:.0%}: both start at once); '
                                  'lanes busy {busy} s, run {span:.3f} s from first start to last end.'),
    'parallel.overlap.wall': ('Wall clock, medians of the repeats: together {together:.3f} s against {serial:.3f} s '
                              'one after the other ({saved:.3f} s less).'),
    'parallel.overlap.wall_more': ('Wall clock, medians of the repeats: together {together:.3f} s against '
                                   '{serial:.3f} s one after the other: together took {more:.3f} s longer.'),
    'parallel.recorded.sep': ', ',
    'parallel.recorded.products': '{lane} {iters} products',
    'parallel.recorded.timeline': 'Another run from the same recording, {size}x{size}: {rows}',
    'parallel.recorded.timeline_repeat': ('Repeat {index} of {repeats} of "together" (the median), {size}x{size}: '
                                          '{rows}'),
    'parallel.recorded.row_merged': '{lane} {iters} products, drawn as busy stretches (products merged)',
    'parallel.recorded.row_each': '{lane} {iters} products, one bar each',
    'parallel.recorded.row_touching': '{lane} {iters} products back to back, one bar each (the bars touch)',
    'parallel.recorded.sync_work': 'Timed in the recording: {work} of {size}x{size}, {repeats} repeats of each wait.',
    'parallel.independence.summary_gpu': ('{framework} ({engine}, {lane}): {iters} products of {size}x{size}: one '
                                          'at a time {single:.4f} s, issued together {together:.4f} s; one at a '
                                          'time / issued together = {ratio:.2f}'),
    'parallel.variant.all_cores': 'one lane, all {cores} cores, both jobs',
    'parallel.no_wait.not_early': ('{No_wait}: {no_wait:.4f} s; {waited_name}: {waited:.4f} s. The no-wait clock '
                                   'did not stop early (not below half of the waited time): the work was done when '
                                   'the calls returned.'),
    'parallel.overlap.wall_predicted': ('Predicted: one after the other {serial:.3f} s, together {expected:.3f} s, '
                                        '{predicted:.3f} s less ({whence}).'),
    'parallel.overlap.wall_predicted_more': ('Predicted: one after the other {serial:.3f} s, together '
                                             '{expected:.3f} s, {predicted:.3f} s longer ({whence}).'),
    'parallel.speed.head': ("Median time per product while every lane was busy (timeline) against the lane alone (its "
                            "timed repeats' median): {lanes}."),
    'parallel.speed.other_run': ('The timeline is another run: from first start to last end it took {span:.3f} s, '
                                 "against {together:.3f} s for together's median repeat, so the times per product "
                                 'above describe that run, not the repeats.'),
    'parallel.speed.head_rates': ('Median time per product while every lane was busy (timeline) against the lane alone '
                                  '(from the rate measured alone above): {lanes}.'),
    'parallel.speed.lane': '{lane} {together:.3g} ms against {alone:.3g} ms per product ({ratio:.2f}x as long)',
    'parallel.gap.agrees': '{what}, {source}: {predicted:.3f} s; measured {measured:.3f} s (median): {within}.',
    'parallel.gap.shared': ('{what}, {source}: {predicted:.3f} s; measured {measured:.3f} s (median), {ratio:.2f}x '
                            'the prediction. {Shared_source}: {shared:.3f} s; it and the measurement are '
                            '{within_shared}: the speeds the lanes ran at side by side account for the measured '
                            'time.'),
    'parallel.gap.open': ('{what}, {source}: {predicted:.3f} s; measured {measured:.3f} s (median), {ratio:.2f}x '
                          'the prediction; the repeats ranged from {low:.3f} to {high:.3f} s. Nothing measured here '
                          'tests a cause for this gap.'),
    'parallel.gap.shared_speedup': ('{Shared_source}, the speedup is {shared:.2f}x; the measurement is {within}: '
                                    'the speeds the lanes ran at side by side account for the measured speedup.'),
    'parallel.recorded.runs': ('The repeats and the timeline are different runs; time per product in each: '
                               '{lanes}.'),
    'parallel.recorded.run_lane': ('{lane} {repeats_k} products in {repeats_s:.3f} s ({repeats_ms:.3g} ms each) '
                                   'in the repeats, {timeline_k} in {timeline_s:.3f} s ({timeline_ms:.3g} ms each) '
                                   'in the timeline'),
    'parallel.rate_both': ('{lane}, while the other lane ran too: one {size}x{size} product took {ms:.2f} ms, '
                           '{gflops:.0f} GFLOP/s'),
    'parallel.rate_sum': ('Both lanes at once: {both:.0f} GFLOP/s in all; one lane with all {cores} cores: '
                          '{whole:.0f} GFLOP/s.'),
    'parallel.predict.shared': ('together predicted from the rates measured while both lanes ran: {seconds:.3f} s '
                                '(from the rates alone and the rule above: {rule:.3f} s)'),
    'parallel.speed.sep': '; ',
    'parallel.gap.together': 'Together',
    'parallel.check.exercise': 'exercise {number}, {variant}',
    'parallel.versus.faster_small': ('together was faster than one device doing both, {within}, so the second lane '
                                     'gained almost nothing here; {apart}.'),
    'parallel.versus.slower_small': ('together was slower than one device doing both, {within}, so the second lane '
                                     'gained nothing here; {apart}.'),
    'parallel.versus.beaten': ('together was {ratio:.2f}x as fast as one device doing both, more than {noise:.0%}; '
                               '{apart}: here the second lane beat one device doing both jobs.'),
    'parallel.versus.lost': ('one device doing both was {ratio:.2f}x as fast as the lanes together, more than '
                             '{noise:.0%}; {apart}: here the second lane did not beat one device doing both jobs.'),
    'parallel.versus.untold_faster': ('together was {ratio:.2f}x as fast as one device doing both, more than '
                                      '{noise:.0%}, but {apart}, so this run does not show the second lane beating '
                                      'it.'),
    'parallel.versus.untold_slower': ('one device doing both was {ratio:.2f}x as fast as the lanes together, more '
                                      'than {noise:.0%}, but {apart}.'),
    'parallel.verdict.base': ('The baseline, one lane with its whole device doing both jobs, took {baseline:.3f} s, '
                              'together {together:.3f} s: {verdict}'),
    'parallel.versus_prediction.apart': ("The repeats' speedups against the prediction ({expected:.2f}x): the "
                                         'median is {diff} from it, more than their interquartile range ({gap}), '
                                         'and their middle half ({halves}) does not include it.'),
    'parallel.versus_prediction.close': ("The repeats' speedups against the prediction ({expected:.2f}x): the "
                                         'median is {diff} from it, no more than their interquartile range ({gap}; '
                                         'middle half {halves}): not told apart.'),
    'parallel.versus_prediction.within': ("The repeats' speedups against the prediction ({expected:.2f}x): the "
                                          'median is {diff} from it, more than their interquartile range ({gap}), '
                                          'but their middle half ({halves}) includes it: not told apart.'),
    'parallel.speed.median_repeat': ('The timeline is repeat {index} of {repeats} of "together", the one timed as '
                                     'the median ({wall:.3f} s): the overlap, the times per product side by side '
                                     'and the prediction made again at them (below) all come from that run.'),
    'parallel.speed.median_repeat_plain': ('The timeline is repeat {index} of {repeats} of "together", the one '
                                           'timed as the median ({wall:.3f} s): the overlap comes from that run.'),
    'parallel.speed.redone': ('{Source}: max(products x median time per product) = max({terms}) = {seconds:.3f} s.'),
    'parallel.speed.term': '{lane} {iters} x {ms:.3g} ms = {seconds:.3f} s',
    'parallel.timeline_caption': 'What the bars below are: {rows}.',
    'parallel.guess.by_rule': 'by the hardware rule',
    'parallel.plot_title': ('{framework}: together {speedup:.2f}x as fast as one after the other\n(predicted from '
                            "each lane's time alone in this run: {expected:.2f}x)"),
    'parallel.recorded.panel': ('{gpu}, {date}: {products} of {size}x{size}; medians: together {speedup:.2f}x as '
                                "fast as one after the other (predicted from each lane's time alone in that run: "
                                '{expected:.2f}x)'),
    'parallel.independence.slower': ('Ratio {ratio:.2f}: issued together took longer; {apart}. Run it again and '
                                     'compare.'),
    'parallel.independence.not_apart': 'Ratio {ratio:.2f}: {apart} here.',
    'parallel.independence.gpu_waits': ('Issued together ran {ratio:.2f}x as fast as one at a time; {apart}. On a '
                                        'GPU lane "one at a time" also waits for the GPU after every product, so '
                                        'the gain measured here is those skipped waits; it does not test whether '
                                        'products ran at the same time.'),
    'parallel.independence.overlapped': ('Issued together ran {ratio:.2f}x as fast as one at a time ({apart}), and '
                                         "also beat the in-order control's one at a time ({control_apart}): the "
                                         'framework ran independent products at the same time by itself.'),
    'parallel.independence.control_not_beaten': ('Issued together ran {ratio:.2f}x as fast as one at a time here '
                                                 '({apart}), but against the in-order control ({control_engine}) '
                                                 'one at a time, {control:.4f} s, and issued together here, '
                                                 '{together:.4f} s, {control_apart}: this does not show products '
                                                 'running at the same time.'),
    'parallel.small_ops.fastest': ('{products} products of {size}x{size}: lowest median "{variant}", {ratio:.2f}x '
                                   'as fast as one lane.'),
    'parallel.small_ops.winner': ('{products} products of {size}x{size}: fastest was "{variant}" ({ms:.3g} ms, '
                                  '{ratio:.2f}x as fast as one lane), told apart from every other way: {pairs}.'),
    'parallel.small_ops.fastest_base': ('{products} products of {size}x{size}: fastest was "{variant}" ({ms:.3g} '
                                        'ms), told apart from every other way: {pairs}.'),
    'parallel.small_ops.tied': ('{products} products of {size}x{size}: "{variant}" had the lowest median ({ms:.3g} '
                                'ms, {ratio:.2f}x as fast as one lane); {pairs}.'),
    'parallel.small_ops.pair': 'against "{variant}", {apart}',
    'parallel.small_ops.title_tied': '{device}: lowest medians not told apart: {ways}',
    'parallel.small_ops.issue_close': ('Issuing one product from Python (the {products} calls timed once, from the '
                                       'first call until the last returned, without waiting for the GPU, per '
                                       "product): {launch_us:.1f} us; one lane's whole time per product (timed "
                                       'until the GPU finished, median): {per_us:.1f} us: {within}.'),
    'parallel.small_ops.issue_longer': ('Issuing one product from Python (the {products} calls timed once, from the '
                                        'first call until the last returned, without waiting for the GPU, per '
                                        "product): {launch_us:.1f} us; one lane's whole time per product (timed "
                                        'until the GPU finished, median): {per_us:.1f} us: issuing took '
                                        "{ratio:.2f}x the lane's whole time per product."),
    'parallel.small_ops.issue_shorter': ('Issuing one product from Python (the {products} calls timed once, from '
                                         'the first call until the last returned, without waiting for the GPU, per '
                                         "product): {launch_us:.1f} us; one lane's whole time per product (timed "
                                         "until the GPU finished, median): {per_us:.1f} us: the lane's whole time "
                                         'per product was {ratio:.2f}x the issue time.'),
    'parallel.small_ops.batched_per': 'The batched product took {batched_us:.2f} us per product.',
    'parallel.scaling.rises': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x at '
                               'n={small}, {large_speedup:.2f}x at n={large}: from each size to the next larger one '
                               'the median speedup did not fall; from n={small} to n={large}, {apart}.'),
    'parallel.scaling.rises_dips': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x at '
                                    'n={small}, {large_speedup:.2f}x at n={large}: the speedup rose overall (from '
                                    'n={small} to n={large}, {apart}), with dips not told apart ({steps}).'),
    'parallel.scaling.falls': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x at '
                               'n={small}, {large_speedup:.2f}x at n={large}: the speedup shrank at every larger '
                               'size in this run; from n={small} to n={large}, {apart}.'),
    'parallel.scaling.falls_bumps': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x '
                                     'at n={small}, {large_speedup:.2f}x at n={large}: the speedup fell overall in '
                                     'this run (from n={small} to n={large}, {apart}), with rises not told apart '
                                     '({steps}).'),
    'parallel.scaling.no_trend': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x at '
                                  'n={small}, {large_speedup:.2f}x at n={large}: from n={small} to n={large}, '
                                  '{apart}, so no clear trend in this run.'),
    'parallel.scaling.uneven': ('{framework}, speedup (one after the other / together): {small_speedup:.2f}x at '
                                'n={small}, {large_speedup:.2f}x at n={large}, highest {best_speedup:.2f}x at '
                                'n={best}: no steady trend in this run; it went the other way ({steps}).'),
    'parallel.scaling.step': 'n={before} {before_speedup:.2f}x, then n={after} {after_speedup:.2f}x: {apart}',
    'parallel.scaling.below_one': ('n={size}: together took longer than one after the other ({together:.4g} s '
                                   'against {serial:.4g} s; speedup {measured:.2f}x, below 1).'),
    'parallel.scaling.far': ('n={size}: measured {measured:.2f}x against the predicted {expected:.2f}x: '
                             '{ratio:.2f}x apart, more than {far:.1f}x.'),
    'parallel.book.like_max': ('{cell} took {both:.3f} s against the slower lane alone ({slower:.3f} s): {within}; '
                               'not near the sum of the lanes alone ({total:.3f} s).'),
    'parallel.book.like_sum': ('{cell} took {both:.3f} s against the sum of the lanes alone ({total:.3f} s): '
                               '{within}; not near the slower lane alone ({slower:.3f} s).'),
    'parallel.book.between': ('{cell} took {both:.3f} s: between the slower lane alone ({slower:.3f} s) and the '
                              'sum of the lanes alone ({total:.3f} s): {to_slower:.1%} more than the slower lane '
                              'alone (a share of its time) and {to_total:.1%} less than the sum (a share of the '
                              'sum), more than {noise:.0%} from each.'),
    'parallel.recorded.not_this_run': ('The recording is {provenance} ({gpu}, {date}: {products} of {size}x{size}), '
                                       "not this session's, which is above."),
    'parallel.expect.shared': ('together by the rule, from each lane alone: {seconds:.3f} s: the lanes are on '
                               '{cores} core(s), {threads} thread(s) each, so at most {ways} can run at once (as '
                               'many as the cores can be split among)'),
    'parallel.independence.untested': ('Issued together ran {ratio:.2f}x as fast as one at a time; {apart}; nothing '
                                       'measured here tests a cause. Run it again and compare.'),
    'parallel.gap.spread': ('{what}, {source}: {predicted:.3f} s; measured {measured:.3f} s (median), {ratio:.2f}x '
                            'the prediction; the repeats ranged from {low:.3f} to {high:.3f} s, a range that '
                            'includes the prediction.'),
    'parallel.source.alone': "predicted from each lane's time alone",
    'parallel.source.rates': 'predicted from the rates measured alone above',
    'parallel.source.rates_both': 'predicted from the rates measured above while both lanes ran',
    'parallel.source.side_by_side': ('predicted again at the times per product measured while both lanes ran, in '
                                     'the timeline'),
    'parallel.overlap.whence_same': 'both {source}',
    'parallel.overlap.whence_mixed': 'one after the other {serial_source}, together {source}',
    'parallel.guess.start_together': 'predicted, both lanes starting at once',
    'parallel.plot_title_rates': ('{framework}: together {speedup:.2f}x as fast as one after the other\n(predicted '
                                  'from the rates measured above: {expected:.2f}x)'),
    'parallel.above_two.serial_timed': ('{speedup:.2f}x is above 2x because one after the other, timed as its own '
                                        'row ({serial:.4g} s), took longer than the sum of the lanes alone '
                                        '({total:.4g} s); against that sum together was {vs_total:.2f}x as fast, and '
                                        'together ({together:.4g} s) took no less than the slower lane alone '
                                        '({slower:.4g} s).'),
    'parallel.name.baseline': 'one device doing both',
    'parallel.name.together': 'together',
    'parallel.name.slower': 'the slower lane alone',
    'parallel.verdict.max_close': ('Together took {ratio:.2f}x the slower lane alone ({slower:.3f} s): {within}, '
                                   'so here together took about max(t1, t2).'),
    'parallel.verdict.max_above': ('Together took {ratio:.2f}x the slower lane alone ({slower:.3f} s), more than '
                                   '{noise:.0%}; {apart}: here together took longer than max(t1, t2).'),
    'parallel.verdict.max_below': ('Together took {ratio:.2f}x the slower lane alone ({slower:.3f} s), more than '
                                   '{noise:.0%}; {apart}: here together took less than max(t1, t2).'),
    'parallel.verdict.max_untold': ('Together took {ratio:.2f}x the slower lane alone ({slower:.3f} s), more than '
                                    '{noise:.0%}, but {apart}, so this run does not tell together from max(t1, t2).'),
    'parallel.speed.span': ("Products x median time per product is not a lane's span in the timeline (its first "
                            'start to its last end); here the span was more than {noise:.0%} longer: {lanes}; this '
                            'run does not test why.'),
    'parallel.speed.span_lane': '{lane} spanned {span:.3f} s against {iters} x {ms:.3g} ms = {product:.3f} s',
    'parallel.speed.span_longer': 'its products took {busy:.3f} s in all ({longer:.3f} s more than that)',
    'parallel.speed.span_gaps': "{gaps:.3f} s of the lane's span is between products",
    'parallel.engine.caption': ("{framework}'s timeline below is {which}. Each row is one engine worker thread of a "
                                'context; the numbers in the bars count all {products} products across every row, '
                                'in the order they started. {rows}.'),
    'parallel.engine.own_run': 'a separate run of both lanes together, not one of the timed repeats above',
    'parallel.engine.median_repeat': 'repeat {index} of "together", the one timed as the median',
    'parallel.engine.lane': ('{lane}: {iters} products on {workers} worker row(s), first start at {first:.1f} ms, '
                             'last end at {last:.1f} ms'),
    'parallel.within.larger': '{pct} apart (a share of the larger), within {noise:.0%}',
    'parallel.within.of': '{pct} apart (a share of {base}), within {noise:.0%}',
    'parallel.within.base.prediction': 'the prediction',
    'parallel.within.base.slower': 'the slower lane alone',
    'parallel.within.base.book': "the book's cell",
    'parallel.within.base.lane_per': "the lane's time per product",
    'parallel.balance.uneven_unaimed': ('Each lane alone (median): {lanes}: {ratio:.2f}x apart, more than '
                                        '{noise:.0%}; the product counts here were not chosen to give equal times.'),
    'parallel.no_wait.book_long': ('{Book_name}: {book:.4f} s, {ratio:.2f}x the {waited:.4f} s of "{waited_name}", '
                                   'more than {noise:.0%}; this run does not test why.'),
    'parallel.recorded.sync_one': 'one GPU, {iters} products',
    'parallel.within.base.sum': 'the sum',
}
