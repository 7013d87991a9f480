"""13.3.1 多设备上的并行计算：变体、预测，以及根据测量结果生成的句子。"""
MESSAGES = {
    'parallel.what': '这次运行',
    'parallel.variant.serial_sum': '先后运行（各执行路单独用时之和）',
    'parallel.variant.together': '所有执行路同时运行',
    'parallel.variant.expected.separate': '预测：max(各执行路用时)，硬件相互独立',
    'parallel.variant.expected.shared': '预测：各执行路在同一个 CPU 的核心上',
    'parallel.variant.expected.engine': '预测：没有收益，MXNet 的引擎已用上所有核心',
    'parallel.variant.one_at_a_time': '逐个执行（每个之后等待）',
    'parallel.variant.issued_together': '一起发出（只等待一次）',
    'parallel.variant.one_lane': '一条执行路，占用整个设备',
    'parallel.variant.two_streams': '同一 GPU 上的两个 CUDA 流',
    'parallel.variant.two_threads': '两个线程，各用一半的核心',
    'parallel.variant.batched': '一次批量乘积（torch.bmm）',
    'parallel.variant.cuda_graph': '重放 CUDA Graph（只启动一次）',
    'parallel.variant.no_wait': '完全不等待',
    'parallel.variant.book_synchronize': 'torch.cuda.synchronize()（书中写法：只同步当前设备）',
    'parallel.variant.every_device': '同步用到的每个设备',
    'parallel.variant.cpu_first': '先启动 CPU 执行路',
    'parallel.variant.gpu_first': '先把 GPU 的工作排入队列',
    'parallel.expect.separate': ('按规则由各执行路单独运行的用时预测同时运行 {seconds:.3f} 秒 = max(各执行路用时)：'
                                 '各执行路在相互独立的硬件上运行'),
    'parallel.expect.engine': (
        '按规则由各执行路单独运行的用时预测同时运行 {seconds:.3f} 秒 = 先后运行的用时，'
        '假定一条 MXNet 执行路的引擎已让全部 {cores} 个核心忙于它的乘积（那样第二条执行路就找不到空闲的核心）'
    ),
    'parallel.summary': (
        '{framework}：先后运行 {serial:.3f} 秒，'
        '同时运行 {together:.3f} 秒，即同时运行的速度是先后运行的 {speedup:.2f} 倍；'
        '由各执行路单独运行的用时预测为 {expected_speedup:.2f} 倍。'
    ),
    'parallel.sync.no_gpu': (
        '这里没有 GPU 执行路：PyTorch 在返回前就完成了 CPU 上的计算，所以各种等待方式测到的都一样'
    ),
    'parallel.launch.needs_gpu_cpu': '需要一个 GPU 执行路和一个 CPU 执行路（恰好有一个 GPU 的机器）',
    'parallel.independence.summary': (
        '{framework}（{engine}，{lane}，{threads} 个线程）：'
        '{iters} 个 {size}x{size} 的乘积：逐个执行 {single:.4f} 秒，'
        '一起发出 {together:.4f} 秒；逐个执行用时 ÷ 一起发出用时 = {ratio:.2f}'
    ),
    'parallel.small_ops.gpu': (
        '在这里从 Python 发出一个小乘积大约需要 {launch_us:.1f} 微秒，单条执行路每个乘积用 {per_us:.1f} 微秒：'
        '两者差不多。批量乘积每个乘积只用 {batched_us:.2f} 微秒：GPU 算完一个乘积比下一次'
        '启动到达还快，所以第二个流没有可以重叠的东西。'
    ),
    'parallel.small_ops.once': '为全部乘积只启动一次：{ways}。',
    'parallel.small_ops.once_faster': '{variant}每个乘积 {us:.2f} 微秒，速度是单条执行路的 {ratio:.1f} 倍',
    'parallel.small_ops.once_not': '{variant}每个乘积 {us:.2f} 微秒，并不比单条执行路快（{ratio:.2f} 倍）',
    'parallel.small_ops.gpu_open': (
        '在这里从 Python 发出一个小乘积大约需要 {launch_us:.1f} 微秒，单条执行路每个乘积用 {per_us:.1f} 微秒，'
        '批量乘积每个乘积用 {batched_us:.2f} 微秒。这些数字并不表明启动开销是瓶颈。'
    ),
    'parallel.small_ops.cpu': ('在 {cores} 个核心上，每个 {size}x{size} 的乘积：逐个调用（单条执行路）{per_us:.1f} '
                               '微秒，在一次批量乘积中 {batched_us:.1f} 微秒；按一条用上全部 {cores} 个核心的执行路'
                               '做一次 {large}x{large} 乘法的速度（{gflops:.0f} GFLOP/s），它的 2n³ 次浮点运算需要 '
                               '{rated_us:.1f} 微秒。各行给出每种方式的用时，请与一条用上全部核心的执行路比较。'),
    'parallel.per_product.line': ('{framework}，单独运行的 {lane}：n={large} 时每个乘积 {ms:.3g} 毫秒'
                                  '（{gflops:.0f} GFLOP/s）；按这个速度，{sizes}。'),
    'parallel.per_product.size': 'n={size} 应需 {rated:.3g} 毫秒，实测 {ms:.3g} 毫秒（{ratio:.1f} 倍）',
    'parallel.timeline_title': '{framework}：每个乘积在各执行路上的运行时间',
    'parallel.scaling_measured': '{framework} 实测',
    'parallel.scaling_expected': '{framework} 由各执行路单独运行的用时预测',
    'parallel.scaling_title': '各个矩阵大小下，两条执行路同时运行相对先后运行的加速比',
    'parallel.mxnet_missing': ("这里没有安装MXNet，因此跳过这一部分。安装方法："
                               "pip install mxnet==1.9.1 'numpy<1.24'（需要Python 3.11或更早的版本）。"),
    'parallel.book.both': '两条执行路',
    'parallel.book.cell.book': '书中的代码单元（“两条执行路”）',
    'parallel.book.cell.runner': 'run_on_lanes 所在的代码单元（每条 CPU 执行路一个线程）',
    'parallel.runner.like_book': ('书中的代码单元用时 {book:.3f} 秒，run_on_lanes 用时 {runner:.3f} 秒：{within}（'
                                  '各只计时一次）。'),
    'parallel.runner.slower': ('书中的代码单元用时 {book:.3f} 秒，run_on_lanes 用时 {runner:.3f} 秒：'
                               'run_on_lanes 的用时是前者的 {ratio:.2f} 倍，相差超过 {noise:.0%}，'
                               '所以在这里它没有胜过书中的代码单元（各只计时一次；这次运行没有检验原因）。'),
    'parallel.runner.faster': ('书中的代码单元用时 {book:.3f} 秒，run_on_lanes 用时 {runner:.3f} 秒：书中代码单元的用时'
                               '是 run_on_lanes 的 {ratio:.2f} 倍，相差超过 {noise:.0%}（各只计时一次）。'),
    'parallel.book.above_sum': ('{cell}用时 {both:.3f} 秒：超过各执行路单独用时之和（{total:.3f} 秒），'
                                '当然也超过更慢的那条执行路的单独用时（{slower:.3f} 秒）。'),
    'parallel.book.below_slower': ('{cell}用时 {both:.3f} 秒：少于更慢的那条执行路的单独用时（{slower:.3f} 秒；'
                                   '各执行路单独用时之和为 {total:.3f} 秒）。这些都只计时一次，不是中位数：'
                                   '下文的多次重复给出波动范围。'),
    'parallel.book.single': ('这些都只计时一次，不是中位数；这次运行没有检验它为什么比各执行路单独用时之和还慢。'
                             '下文的多次重复给出中位数。'),
    'parallel.book.check_serial': ('书中“两条执行路”那个单元只计时一次：{both:.3f} 秒，是这里先后运行中位数（'
                                   '{serial:.3f} 秒）的 {to_serial:.2f} 倍：{within}。'),
    'parallel.book.check_together': ('书中“两条执行路”那个单元只计时一次：{both:.3f} 秒，是这里同时运行中位数（'
                                     '{together:.3f} 秒）的 {to_together:.2f} 倍：{within}。'),
    'parallel.book.check_neither': ('书中“两条执行路”那个单元只计时一次：{both:.3f} 秒，是这里先后运行中位数'
                                    '（{serial:.3f} 秒）的 {to_serial:.2f} 倍、同时运行中位数（{together:.3f} 秒）的 '
                                    '{to_together:.2f} 倍：只是一次计时，与两个中位数都不接近；这次运行没有检验原因。'),
    'parallel.balance.lane': '{lane} {seconds:.3f} 秒',
    'parallel.balance.even': '各执行路单独运行（中位数）：{lanes}：彼此{within}。',
    'parallel.balance.uneven': ('各执行路单独运行（中位数）：{lanes}：较大者是较小者的 {ratio:.2f} 倍，'
                                '相差超过 {noise:.0%}：按相同用时选定的乘积个数并没有得到相同的用时。'),
    'parallel.no_wait.book_row': '{Book_name}：{book:.4f} 秒，对比 {waited:.4f} 秒：{within}。',
    'parallel.no_wait.same': ('{No_wait}：{no_wait:.4f} 秒；{waited_name}：{waited:.4f} 秒。两者差不多：调用返回时'
                              '工作已经完成（PyTorch在返回之前就算完CPU上的工作），没有什么可等的。'),
    'parallel.no_wait.queued': ('{No_wait}：{no_wait:.4f} 秒；{waited_name}：{waited:.4f} 秒。不等待时，计时在工作'
                                '排入队列时就停止了，而不是在工作完成时。'),
    'parallel.no_wait.book_short': ('{Book_name}：{book:.4f} 秒，比“{waited_name}”的 {waited:.4f} 秒少，相差超过 '
                                    '{noise:.0%}。'),
    'parallel.rate': ('{lane}：一次 {size}x{size} 的乘法用时 {ms:.2f} 毫秒（{repeats} 次重复的中位数，每次 '
                      '{products} 个乘积；每个乘积 {low:.2f}–{high:.2f} 毫秒），{gflops:.0f} GFLOP/s'),
    'parallel.predict.line': '{variant}，{source}：{seconds:.3f} 秒',
    'parallel.variant.one_after_other': '先后运行',
    'parallel.variant.both_jobs': '{lane}，做两份工作',
    'parallel.workload': ('这次运行：{size}x{size} 的矩阵，每条执行路的乘积个数 {iters}'
                          '（书中：每个GPU上 {book_iters} 个 {book_size}x{book_size} 的乘积）'),
    'parallel.variant.threads': '两条执行路，各用一个线程',
    'parallel.verdict.serial': ('同时运行用时 {together:.3f} 秒，先后运行用时 {serial:.3f} 秒，'
                                '前者的速度是后者的 {speedup:.2f} 倍；更慢的那条执行路单独运行用时 {slower:.3f} 秒。'),
    'parallel.scaling.points': '{framework}，各个大小的加速比：实测（由各执行路单独运行的用时预测）：{points}',
    'parallel.scaling.point': 'n={size} {measured:.2f} 倍（{expected:.2f} 倍）',
    'parallel.scaling.above_two': 'n={size}：{note}',
    'parallel.scaling.flat': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：'
                              'n={small} 时 {small_speedup:.2f} 倍，n={large} 时 '
                              '{large_speedup:.2f} 倍：这次运行中各个规模的加速比差不多。'),
    'parallel.above_two.serial': ('{speedup:.2f} 倍超过了 2 倍，而两条执行路若都保持单独运行时的速度，'
                                  '速度最多是先后运行的 2 倍：同时运行（{together:.4g} 秒）比更慢的那条执行路单独运行'
                                  '（{slower:.4g} 秒）还要快。'),
    'parallel.above_two.baseline': ('{ratio:.2f} 倍超过了 2 倍：它比较的是同时运行与一个设备做两份工作'
                                    '（{baseline:.3f} 秒），而不是与先后运行（{serial:.3f} 秒，{speedup:.2f} 倍）比较；'
                                    '两条执行路不超过 2 倍的，是后一种比较。'),
    'parallel.above_two.independence': ('比值 {ratio:.2f} 大于 2，但这里并没有第二条执行路：两行在同一条执行路'
                                        '（{lane}）上运行同样的 {iters} 个乘积，比较的是逐个执行（每个之后等待）'
                                        '与一起发出（只等待一次）。'),
    'parallel.above_two.small_ops': ('{ratio:.2f} 倍大于 2，但这里并没有第二条执行路：比较的是同一个设备上的'
                                     '“{variant}”（全部 {products} 个乘积只调用一次）与每个乘积调用一次的单条执行路。'),
    'parallel.recorded.sync_one_gpu': ('这份录制的同步实验只用了一块 GPU：在那里“每个设备”和“当前设备”是同一块 GPU，'
                                       '所以书中的 synchronize() 与等待每个设备等的是同样的工作，两者应当一致'
                                       '（{book:.4f} 秒和 {waited:.4f} 秒）；要看出两者的差别，需要两块 GPU。'),
    'parallel.recorded.sync_gpus': '这份录制的同步实验用了 {gpus} 块 GPU。',
    'parallel.small_ops.suspect': ('{ratio:.2f} 倍超出了 {cores} 个核心上并排运行的执行路所能达到的上限，'
                                   '因此这次运行中“{base}”这一行（各次重复 {low:.1f}–{high:.1f} 毫秒）受到了干扰：'
                                   '请先重新运行这个单元，再比较各行。'),
    'parallel.recorded_sync_dated': '{gpu}，录制于 {date}：{work}（{size}x{size}）；不等待时，计时在排入队列后就停止了',
    'parallel.eager': '即时执行',
    'parallel.independence.title': '{framework}（{engine}）：一起发出的速度是逐个执行的 {ratio:.2f} 倍',
    'parallel.small_ops.title': '{device}：这里最快的是{variant}',
    'parallel.guess.none': '先在 {name} 里写下你的预测（一个数），再运行这个单元。',
    'parallel.guess.yours': '你的猜测',
    'parallel.guess.closed_form': '按公式预测',
    'parallel.guess.measured': '实测',
    'parallel.guess.seconds': '{what}：{value:.3f} 秒',
    'parallel.guess.fraction': '{what}：{value:.2f}（{value:.0%}）',
    'parallel.guess.ratio': '{what}：{value:.2f} 倍',
    'parallel.overlap.fraction': ('时间线上的重叠：较短的执行路在其忙碌时间的 {measured:.0%} 里，另一条执行路也在忙碌'
                                  '（预测 {predicted:.0%}：两条同时开始）；各执行路忙碌 {busy} 秒，'
                                  '从最早开始到最晚结束共 {span:.3f} 秒。'),
    'parallel.overlap.wall': ('挂钟时间（各次重复的中位数）：同时运行 {together:.3f} 秒，先后运行 {serial:.3f} 秒'
                              '（少用 {saved:.3f} 秒）。'),
    'parallel.overlap.wall_more': ('挂钟时间（各次重复的中位数）：同时运行 {together:.3f} 秒，'
                                   '先后运行 {serial:.3f} 秒：同时运行反而多用 {more:.3f} 秒。'),
    'parallel.recorded.sep': '，',
    'parallel.recorded.products': '{lane} {iters} 个乘积',
    'parallel.recorded.timeline': '同一份录制中的另一次运行（{size}x{size}）：{rows}',
    'parallel.recorded.timeline_repeat': '“同时运行”{repeats} 次重复中的第 {index} 次（中位数，{size}x{size}）：{rows}',
    'parallel.recorded.row_merged': '{lane} {iters} 个乘积，画成忙碌区间（乘积已合并）',
    'parallel.recorded.row_each': '{lane} {iters} 个乘积，每个一个条形',
    'parallel.recorded.row_touching': '{lane} {iters} 个乘积首尾相接，每个一个条形（条形相互紧挨）',
    'parallel.recorded.sync_work': '录制中计时的工作：{work}（{size}x{size}），每种等待方式重复 {repeats} 次。',
    'parallel.independence.summary_gpu': ('{framework}（{engine}，{lane}）：{iters} 个 {size}x{size} 的乘积：'
                                          '逐个执行 {single:.4f} 秒，一起发出 {together:.4f} 秒；'
                                          '逐个执行用时 ÷ 一起发出用时 = {ratio:.2f}'),
    'parallel.variant.all_cores': '一条执行路，全部 {cores} 个核心，做两份工作',
    'parallel.no_wait.not_early': ('{No_wait}：{no_wait:.4f} 秒；{waited_name}：{waited:.4f} 秒。不等待的计时并没有'
                                   '提前停止（不低于等待时用时的一半）：调用返回时工作已经完成。'),
    'parallel.overlap.wall_predicted': ('预测：先后运行 {serial:.3f} 秒，同时运行 '
                                        '{expected:.3f} 秒，少用 {predicted:.3f} 秒（{whence}）。'),
    'parallel.overlap.wall_predicted_more': ('预测：先后运行 {serial:.3f} 秒，同时运行 '
                                             '{expected:.3f} 秒，反而多用 {predicted:.3f} 秒（{whence}）。'),
    'parallel.speed.head': ('所有执行路都在忙碌时（时间线）每个乘积用时的中位数，与该执行路单独运行时'
                            '（各次重复的中位数）相比——{lanes}。'),
    'parallel.speed.other_run': ('时间线是另一次运行：从最早开始到最晚结束用了 {span:.3f} 秒，而同时运行各次重复的'
                                 '中位数是 {together:.3f} 秒，所以上面每个乘积的用时描述的是那一次运行，'
                                 '而不是各次重复。'),
    'parallel.speed.head_rates': ('所有执行路都在忙碌时（时间线）每个乘积用时的中位数，与该执行路单独运行时'
                                  '（由上面单独测得的速度算出）相比——{lanes}。'),
    'parallel.speed.lane': ('{lane}：{together:.3g} 毫秒，单独运行时 {alone:.3g} 毫秒'
                            '（每个乘积的用时是单独运行时的 {ratio:.2f} 倍）'),
    'parallel.gap.agrees': '{what}，{source}：{predicted:.3f} 秒；实测 {measured:.3f} 秒（中位数）：{within}。',
    'parallel.gap.shared': ('{what}，{source}：{predicted:.3f} 秒；实测 {measured:.3f} 秒（中位数），是预测的 '
                            '{ratio:.2f} 倍。{Shared_source}：{shared:.3f} 秒，与实测{within_shared}：并排运行时各'
                            '执行路的速度就足以说明实测用时。'),
    'parallel.gap.open': ('{what}，{source}：{predicted:.3f} 秒；实测 {measured:.3f} 秒（中位数），'
                          '是预测的 {ratio:.2f} 倍；各次重复从 {low:.3f} 秒到 {high:.3f} 秒。'
                          '这里没有任何测量检验过这个差距的原因。'),
    'parallel.gap.shared_speedup': ('{Shared_source}，加速比为 {shared:.2f} 倍，实测与它{within}：并排运行时各执行'
                                    '路的速度就足以说明实测的加速比。'),
    'parallel.recorded.runs': '各次重复与时间线是不同的两次运行；两者中每个乘积的用时——{lanes}。',
    'parallel.recorded.run_lane': ('{lane}：在各次重复中 {repeats_s:.3f} 秒做 {repeats_k} 个乘积'
                                   '（每个 {repeats_ms:.3g} 毫秒），在时间线中 {timeline_s:.3f} 秒做 '
                                   '{timeline_k} 个（每个 {timeline_ms:.3g} 毫秒）'),
    'parallel.rate_both': ('{lane}，另一条执行路同时运行时：一次 {size}x{size} 的乘法用时 {ms:.2f} 毫秒，'
                           '{gflops:.0f} GFLOP/s'),
    'parallel.rate_sum': ('两条执行路同时运行：合计 {both:.0f} GFLOP/s；'
                          '一条用上全部 {cores} 个核心的执行路：{whole:.0f} GFLOP/s。'),
    'parallel.predict.shared': ('由两条执行路同时运行时测得的速度预测同时运行：{seconds:.3f} 秒'
                                '（由单独运行的速度和上面的规则得出：{rule:.3f} 秒）'),
    'parallel.speed.sep': '；',
    'parallel.gap.together': '同时运行',
    'parallel.check.exercise': '练习 {number}：{variant}',
    'parallel.versus.faster_small': ('同时运行比一个设备做两份工作快，{within}，所以在这里第二条执行路几乎没有带来'
                                     '收益；{apart}。'),
    'parallel.versus.slower_small': ('同时运行比一个设备做两份工作慢，{within}，所以在这里第二条执行路没有带来收益'
                                     '；{apart}。'),
    'parallel.versus.beaten': ('同时运行的速度是一个设备做两份工作的 {ratio:.2f} 倍，相差超过 {noise:.0%}；{apart}：'
                               '在这里，第二条执行路胜过了一个设备做两份工作。'),
    'parallel.versus.lost': ('一个设备做两份工作的速度是两条执行路同时运行的 {ratio:.2f} 倍，相差超过 {noise:.0%}；{'
                             'apart}：在这里，第二条执行路没有胜过一个设备做两份工作。'),
    'parallel.versus.untold_faster': ('同时运行的速度是一个设备做两份工作的 {ratio:.2f} 倍，相差超过 {noise:.0%}，但'
                                      '{apart}，所以这次运行不能说明第二条执行路胜过了它。'),
    'parallel.versus.untold_slower': ('一个设备做两份工作的速度是两条执行路同时运行的 {ratio:.2f} 倍，相差超过 '
                                      '{noise:.0%}，但{apart}。'),
    'parallel.verdict.base': ('基线（一条执行路用它的整个设备做两份工作）用时 {baseline:.3f} 秒，同时运行 '
                              '{together:.3f} 秒：{verdict}'),
    'parallel.versus_prediction.apart': ('各次重复的加速比与预测（{expected:.2f} 倍）相比：中位数与预测相差 '
                                         '{diff}，超过它们的四分位距（{gap}），且它们的中间一半（{halves}）不包含预'
                                         '测。'),
    'parallel.versus_prediction.close': ('各次重复的加速比与预测（{expected:.2f} 倍）相比：中位数与预测相差 '
                                         '{diff}，不超过它们的四分位距（{gap}；中间一半 {halves}）：区分不出。'),
    'parallel.versus_prediction.within': ('各次重复的加速比与预测（{expected:.2f} 倍）相比：中位数与预测相差 '
                                          '{diff}，超过它们的四分位距（{gap}），但它们的中间一半（{halves}）包含预测'
                                          '：区分不出。'),
    'parallel.speed.median_repeat': ('时间线是“同时运行”{repeats} 次重复中的第 {index} 次，即用时为中位数的那一次（{'
                                     'wall:.3f} 秒）：重叠、并排运行时每个乘积的用时，以及按这些用时重新算出的预测（'
                                     '见下文），都来自这一次运行。'),
    'parallel.speed.median_repeat_plain': ('时间线是“同时运行”{repeats} 次重复中的第 {index} 次，即用时为中位数的那'
                                           '一次（{wall:.3f} 秒）：重叠来自这一次运行。'),
    'parallel.speed.redone': ('{Source}：max(乘积个数 × 每个乘积用时的中位数) = max({terms}) = {seconds:.3f} 秒。'),
    'parallel.speed.term': '{lane} {iters} × {ms:.3g} 毫秒 = {seconds:.3f} 秒',
    'parallel.timeline_caption': '下图中的条形：{rows}。',
    'parallel.guess.by_rule': '按硬件规则预测',
    'parallel.plot_title': ('{framework}：同时运行的速度是先后运行的 {speedup:.2f} 倍\n（由本次运行中各执行路单独运行的'
                            '用时预测 {expected:.2f} 倍）'),
    'parallel.recorded.panel': ('{gpu}，{date}：{products}（{size}x{size}）；按中位数：同时运行的速度是先后运行的 '
                                '{speedup:.2f} 倍（由那次运行中各执行路单独运行的用时预测 {expected:.2f} 倍）'),
    'parallel.independence.slower': '比值 {ratio:.2f}：一起发出用时更长；{apart}。再运行一次比较看看。',
    'parallel.independence.not_apart': '比值 {ratio:.2f}：{apart}。',
    'parallel.independence.gpu_waits': ('一起发出的速度是逐个执行的 {ratio:.2f} 倍；{apart}。在GPU执行路上，“逐个执'
                                        '行”在每次乘法之后还要等待GPU，所以这里测到的收益是省掉的这些等待；它并没有'
                                        '检验各次乘法是否同时运行。'),
    'parallel.independence.overlapped': ('一起发出的速度是逐个执行的 {ratio:.2f} 倍（{apart}），而且也快于对照（按'
                                         '顺序执行）里的逐个执行（{control_apart}）：框架自己让相互独立的乘积同时运'
                                         '行了。'),
    'parallel.independence.control_not_beaten': ('在这里一起发出的速度是逐个执行的 {ratio:.2f} 倍（{apart}），但与按'
                                                 '顺序执行的对照（{control_engine}）相比，对照逐个执行 {control:.4f}'
                                                 ' 秒，这里一起发出 {together:.4f} 秒，{control_apart}：这并不能说明'
                                                 '乘积同时运行了。'),
    'parallel.small_ops.fastest': ('{products} 个 {size}x{size} 的乘积：中位数最低的是“{variant}”，速度是单条执行路'
                                   '的 {ratio:.2f} 倍。'),
    'parallel.small_ops.winner': ('{products} 个 {size}x{size} 的乘积：最快的是“{variant}”（{ms:.3g} '
                                  '毫秒，速度是单条执行路的 {ratio:.2f} 倍），与其他每种方式都区分得开：{pairs}。'),
    'parallel.small_ops.fastest_base': ('{products} 个 {size}x{size} 的乘积：最快的是“{variant}”（{ms:.3g} '
                                        '毫秒），与其他每种方式都区分得开：{pairs}。'),
    'parallel.small_ops.tied': ('{products} 个 {size}x{size} 的乘积：“{variant}”的中位数最低（{ms:.3g} '
                                '毫秒，速度是单条执行路的 {ratio:.2f} 倍）；{pairs}。'),
    'parallel.small_ops.pair': '与“{variant}”相比，{apart}',
    'parallel.small_ops.title_tied': '{device}：最低的几个中位数区分不出：{ways}',
    'parallel.small_ops.issue_close': ('从 Python 发出一个乘积（{products} 次调用只计时一次，从第一次调用到最后一次'
                                       '返回，不等待 GPU，按乘积平均）：{launch_us:.1f} 微秒；单条执行路每个乘积的'
                                       '全部用时（计时到 GPU 完成，取中位数）：{per_us:.1f} 微秒：两者{within}。'),
    'parallel.small_ops.issue_longer': ('从 Python 发出一个乘积（{products} 次调用只计时一次，从第一次调用到最后一次'
                                        '返回，不等待 GPU，按乘积平均）：{launch_us:.1f} 微秒；单条执行路每个乘积的'
                                        '全部用时（计时到 GPU 完成，取中位数）：{per_us:.1f} 微秒：发出用时是单条执'
                                        '行路每个乘积全部用时的 {ratio:.2f} 倍。'),
    'parallel.small_ops.issue_shorter': ('从 Python 发出一个乘积（{products} 次调用只计时一次，从第一次调用到最后一'
                                         '次返回，不等待 GPU，按乘积平均）：{launch_us:.1f} 微秒；单条执行路每个乘积'
                                         '的全部用时（计时到 GPU 完成，取中位数）：{per_us:.1f} 微秒：单条执行路每个'
                                         '乘积的全部用时是发出用时的 {ratio:.2f} 倍。'),
    'parallel.small_ops.batched_per': '批量乘积每个乘积用时 {batched_us:.2f} 微秒。',
    'parallel.scaling.rises': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                               '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} '
                               '倍：从每个尺寸到下一个更大的尺寸，加速比的中位数都没有下降；'
                               '从 n={small} 到 n={large}，{apart}。'),
    'parallel.scaling.rises_dips': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                                    '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} '
                                    '倍：加速比总体上提高了（从 n={small} 到 n={large}，{apart}），中间有区分不出的'
                                    '回落（{steps}）。'),
    'parallel.scaling.falls': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                               '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} '
                               '倍：这次运行中加速比在每个更大的尺寸上都减小了；从 n={small} 到 n={large}，{apart}。'),
    'parallel.scaling.falls_bumps': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                                     '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} '
                                     '倍：这次运行中加速比总体上减小了（从 n={small} 到 n={large}，{apart}），中间有'
                                     '区分不出的回升（{steps}）。'),
    'parallel.scaling.no_trend': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                                  '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} 倍：从 n={small} 到 '
                                  'n={large}，{apart}，所以这次运行看不出明确的趋势。'),
    'parallel.scaling.uneven': ('{framework}，加速比（先后运行用时 ÷ 同时运行用时）：n={small} 时 '
                                '{small_speedup:.2f} 倍，n={large} 时 {large_speedup:.2f} 倍，最高为 n={best} 时的 '
                                '{best_speedup:.2f} 倍：这次运行没有稳定的趋势；中间有反向变化（{steps}）。'),
    'parallel.scaling.step': 'n={before} 时 {before_speedup:.2f} 倍，n={after} 时 {after_speedup:.2f} 倍：{apart}',
    'parallel.scaling.below_one': ('n={size}：同时运行比先后运行用时更长（{together:.4g} 秒，先后运行 {serial:.4g} '
                                   '秒；加速比 {measured:.2f} 倍，低于 1）。'),
    'parallel.scaling.far': ('n={size}：实测 {measured:.2f} 倍，预测 {expected:.2f} 倍：'
                             '较大者是较小者的 {ratio:.2f} 倍，超过 {far:.1f} 倍。'),
    'parallel.book.like_max': ('{cell}用时 {both:.3f} 秒，与更慢的那条执行路的单独用时（{slower:.3f} 秒）{within}，'
                               '而远离各执行路单独用时之和（{total:.3f} 秒）。'),
    'parallel.book.like_sum': ('{cell}用时 {both:.3f} 秒，与各执行路单独用时之和（{total:.3f} 秒）{within}，而远离'
                               '更慢的那条执行路的单独用时（{slower:.3f} 秒）。'),
    'parallel.book.between': ('{cell}用时 {both:.3f} 秒：介于更慢的那条执行路的单独用时（{slower:.3f} 秒）与各执行'
                              '路单独用时之和（{total:.3f} 秒）之间：比前者多 {to_slower:.1%}（以前者为基准），比后者'
                              '少 {to_total:.1%}（以后者为基准），都超过 {noise:.0%}。'),
    'parallel.recorded.not_this_run': ('这份录制是{provenance}（{gpu}，{date}：{products}，{size}x{size}），不是本次'
                                       '会话的运行（本次运行见上文）。'),
    'parallel.expect.shared': ('按规则由各执行路单独运行的用时预测同时运行 {seconds:.3f} 秒：各执行路在 {cores} '
                               '个核心上，每条用 {threads} 个线程，因此最多 {ways} 条能同时运行（核心能分给几条就是'
                               '几条）'),
    'parallel.independence.untested': ('一起发出的速度是逐个执行的 {ratio:.2f} 倍；{apart}；这里没有任何测量检验其原'
                                       '因。再运行一次比较看看。'),
    'parallel.gap.spread': ('{what}，{source}：{predicted:.3f} 秒；实测 {measured:.3f} 秒（中位数），是预测的 '
                            '{ratio:.2f} 倍；各次重复从 {low:.3f} 秒到 {high:.3f} 秒，这个范围包含预测值。'),
    'parallel.source.alone': '由各执行路单独运行的用时预测',
    'parallel.source.rates': '由上面单独测得的速度预测',
    'parallel.source.rates_both': '由上面两条执行路同时运行时测得的速度预测',
    'parallel.source.side_by_side': '按时间线中两条执行路同时运行时测得的每个乘积用时再次预测',
    'parallel.overlap.whence_same': '两者都{source}',
    'parallel.overlap.whence_mixed': '先后运行{serial_source}，同时运行{source}',
    'parallel.guess.start_together': '预测（两条执行路同时开始）',
    'parallel.plot_title_rates': ('{framework}：同时运行的速度是先后运行的 {speedup:.2f} 倍\n（由上面测得的速度预测 '
                                  '{expected:.2f} 倍）'),
    'parallel.above_two.serial_timed': ('{speedup:.2f} 倍超过了 2 倍，是因为单独计时的先后运行（{serial:.4g} 秒）比'
                                        '各执行路单独用时之和（{total:.4g} 秒）更长；与这个和相比，同时运行的速度是'
                                        ' {vs_total:.2f} 倍，而同时运行（{together:.4g} 秒）并不比更慢的那条执行路单独'
                                        '运行（{slower:.4g} 秒）快。'),
    'parallel.name.baseline': '一个设备做两份工作',
    'parallel.name.together': '同时运行',
    'parallel.name.slower': '更慢的那条执行路单独运行',
    'parallel.verdict.max_close': ('同时运行用时是更慢的那条执行路单独用时（{slower:.3f} 秒）的 {ratio:.2f} 倍：'
                                   '{within}，所以在这里同时运行用时约为 max(t1, t2)。'),
    'parallel.verdict.max_above': ('同时运行用时是更慢的那条执行路单独用时（{slower:.3f} 秒）的 {ratio:.2f} 倍，'
                                   '相差超过 {noise:.0%}；{apart}：在这里同时运行用时超过了 max(t1, t2)。'),
    'parallel.verdict.max_below': ('同时运行用时是更慢的那条执行路单独用时（{slower:.3f} 秒）的 {ratio:.2f} 倍，'
                                   '相差超过 {noise:.0%}；{apart}：在这里同时运行用时少于 max(t1, t2)。'),
    'parallel.verdict.max_untold': ('同时运行用时是更慢的那条执行路单独用时（{slower:.3f} 秒）的 {ratio:.2f} 倍，'
                                    '相差超过 {noise:.0%}，但{apart}，所以这次运行区分不出同时运行与 max(t1, t2)。'),
    'parallel.speed.span': ('乘积个数 × 每个乘积用时的中位数，并不是一条执行路在时间线上的跨度（从它最早开始到最晚'
                            '结束）；这里跨度比它长了超过 {noise:.0%}——{lanes}；这次运行没有检验原因。'),
    'parallel.speed.span_lane': '{lane}：跨度 {span:.3f} 秒，而 {iters} × {ms:.3g} 毫秒 = {product:.3f} 秒',
    'parallel.speed.span_longer': '它的乘积本身共用时 {busy:.3f} 秒（比这多 {longer:.3f} 秒）',
    'parallel.speed.span_gaps': '跨度中有 {gaps:.3f} 秒位于乘积之间',
    'parallel.engine.caption': ('下面 {framework} 的时间线是{which}。每一行是一个上下文的一个引擎工作线程；条形中的编号'
                                '对所有行的全部 {products} 个乘积按开始的先后统一编号。{rows}。'),
    'parallel.engine.own_run': '两条执行路同时运行的另一次单独运行，不是上面计时的各次重复之一',
    'parallel.engine.median_repeat': '“同时运行”的第 {index} 次重复，即用时为中位数的那一次',
    'parallel.engine.lane': ('{lane}：{iters} 个乘积，分布在 {workers} 行工作线程上，最早在 {first:.1f} 毫秒开始，'
                             '最晚在 {last:.1f} 毫秒结束'),
    'parallel.within.larger': '相差 {pct}（以较大者为基准），不超过 {noise:.0%}',
    'parallel.within.of': '相差 {pct}（以{base}为基准），不超过 {noise:.0%}',
    'parallel.within.base.prediction': '预测',
    'parallel.within.base.slower': '更慢的那条执行路单独运行的用时',
    'parallel.within.base.book': '书中代码单元的用时',
    'parallel.within.base.lane_per': '该执行路每个乘积的用时',
    'parallel.balance.uneven_unaimed': ('各执行路单独运行（中位数）：{lanes}：较大者是较小者的 {ratio:.2f} 倍，相差'
                                        '超过 {noise:.0%}；这里的乘积个数并不是为了得到相同的用时而选定的。'),
    'parallel.no_wait.book_long': ('{Book_name}：{book:.4f} 秒，是“{waited_name}”的 {waited:.4f} 秒的 {ratio:.2f} '
                                   '倍，相差超过 {noise:.0%}；这次运行没有检验原因。'),
    'parallel.recorded.sync_one': '一块 GPU，{iters} 个乘积',
    'parallel.within.base.sum': '两者之和',
}
