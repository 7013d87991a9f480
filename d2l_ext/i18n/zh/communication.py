"""13.3.2 并行计算与通信：复制方式、预测、证据与练习。"""
MESSAGES = {
    'communication.what': '这次运行',
    'communication.variant.run': '计算（只算乘积）',
    'communication.variant.copy': '复制（只做复制）',
    'communication.variant.book': '书中：计算，copy_to_cpu(y, True)',
    'communication.variant.run_then_copy': '先计算，后复制',
    'communication.variant.overlapped': '同时发出计算与复制',
    'communication.variant.overlapped.separate': '计算与复制：复制流 + 事件',
    'communication.variant.overlapped.one_stream': '计算与复制：一个流，同时发出',
    'communication.variant.overlapped.shared': '计算与复制：由第二个线程复制',
    'communication.variant.overlapped.engine': '计算与复制：同时发出，由 MXNet 的引擎安排顺序',
    'communication.variant.warm': '之后的调用，重复使用的内存',
    'communication.variant.cold': '第一次调用，新内存：一次计时',
    'communication.variant.lane1_compute_and_copy': '执行路 0 计算并复制，单独运行',
    'communication.variant.lane2_compute': '执行路 1 计算，单独运行',
    'communication.variant.together': '两条执行路同时运行',
    'communication.variant.serial_sum': '先后运行（用时之和）',
    'communication.variant.expected.separate': 'max(各执行路用时)：硬件相互独立',
    'communication.variant.expected.shared': ('CPU 执行路共用核心：max(各执行路用时, 用时之和 / 核心能同时运行的'
                                              '执行路数)'),
    'communication.variant.expected.engine': '没有收益：MXNet 的引擎已用上所有核心',
    'communication.mode.cpu_analogue': 'CPU 上的类比：由第二个线程复制',
    'communication.mode.book: copy_to_cpu(y)': '书中的复制：新建可分页张量',
    'communication.mode.book: copy_to_cpu(y, non_blocking=True)': '书中的 non_blocking 复制，一个流',
    'communication.mode.pinned, preallocated, same stream': '预先分配的锁页缓冲区，一个流',
    'communication.mode.pinned, preallocated, copy stream + events': '锁页缓冲区，复制流 + 事件',
    'communication.row.compute_stream': '计算流',
    'communication.row.copy_stream': '复制流',
    'communication.row.compute_thread': '计算线程',
    'communication.row.copy_thread': '复制线程',
    'communication.plan.copy_thread': '预先分配的主机缓冲区，由第二个线程复制',
    'communication.plan.engine_new_array': '每个结果一个新的主机数组，由引擎安排顺序',
    'communication.rule.separate': 'max(计算, 复制) + 一个乘积与一次复制中较短者：复制引擎与计算单元并行工作',
    'communication.rule.one_stream': '计算 + 复制：排在乘积所在流上的复制要等乘积完成',
    'communication.rule.own_core': 'max(计算, 复制) + 一个乘积与一次复制中较短者：复制线程在计算线程之外有自己的核心',
    'communication.rule.shared': ('(计算线程数 x 计算 + 复制) / 核心数，至少为 max(计算, 复制)：复制线程要占用计算线程'
                                  '已占满的核心'),
    'communication.rule.engine': '计算 + 复制：MXNet 的引擎已让所有核心忙于乘积',
    'communication.no_link': '这里没有 GPU，也就没有设备到主机的链路：下面各行是标明了的 CPU 类比。',
    'communication.link': '普通的设备到主机复制：可分页内存 {pageable:.1f} GB/s，锁页内存 {pinned:.1f} GB/s',
    'communication.book.run': '在执行路 0 上计算',
    'communication.book.copy': '复制到 CPU（复制到新建的可分页张量）',
    'communication.book.not_copied': "什么也没有复制：结果本来就在主机内存中，y.to('cpu') 返回的就是原来的张量。",
    'communication.book.copied': '已复制：每个结果在主机内存中都有了一个新张量。',
    'communication.rates.gpu': ('在这里测得：一个 {n} x {n} 矩阵乘积 {tflops:.1f} TFLOP/s；设备到主机的复制，'
                                '到锁页内存 {gbps:.1f} GB/s，到重复使用的可分页缓冲区 {pageable:.1f} GB/s\n'
                                '{k} 个乘积 = {tflop:.2f} TFLOP -> {run:.4f} 秒；其结果 = {gb:.2f} GB -> '
                                '经链路（锁页内存）{copy:.4f} 秒'),
    'communication.rates.cpu': ('在这里测得：此执行路上一个 {n} x {inner} 与 {inner} x {n} 矩阵的乘积 '
                                '{tflops:.3f} TFLOP/s；复制到预先分配的主机缓冲区 {gbps:.1f} GB/s\n{k} 个乘积 = '
                                '{gflop} GFLOP -> {run:.4f} 秒；其结果 = {gb:.3f} GB -> 复制 {copy:.4f} 秒'),
    'communication.predicted_line': '  预测 {name}：{seconds:.4f} 秒',
    'communication.rates.rule': '这里对 run_and_copy 按公式的预测：{rule}',
    'communication.measured_title': '每次重复与按本机速率的预测',
    'communication.recorded.none': '这里没有可以展示的 GPU 录制结果。',
    'communication.recorded.pageable': ('{gb:.1f} GB 的结果：书中复制到新建的可分页张量用了 {book:.2f} 秒'
                                        '（{book_gbps:.2f} GB/s），'
                                        '复制到预先分配的锁页缓冲区用了 {pinned:.3f} 秒（{pinned_gbps:.1f} GB/s）。'
                                        '前者用时是后者的 {ratio:.0f} 倍。'
                                        '这个比值比较的是新建的可分页内存与重复使用的锁页内存。'),
    'communication.recorded.nb_like_pinned': ('书中的 non_blocking 复制（{nb:.4f} 秒）和预先分配的锁页缓冲区'
                                              '（{pinned:.4f} 秒）一样快：从第二次调用起，它复制到 PyTorch '
                                              '从第一次调用保留下来的锁页内存块中。'),
    'communication.recorded.nb_unlike_pinned': ('书中的 non_blocking 复制用了 {nb:.4f} 秒，'
                                                '预先分配的锁页缓冲区 {pinned:.4f} 秒。'),
    'communication.recorded.streams': ('锁页缓冲区、单个流：同时发出计算与复制用了 {same:.4f} 秒，'
                                       '与该面板中的先计算后复制（{serial:.4f} 秒）相当；'
                                       '使用复制流和事件后为 {side:.4f} 秒，'
                                       '而公式 max(计算, 复制) + 一个乘积与一次复制中较短者 = '
                                       '{expected:.4f} 秒。'),
    'communication.recorded.streams_unlike': ('锁页缓冲区、单个流：同时发出计算与复制用了 {same:.4f} 秒，'
                                              '该面板中的先计算后复制用了 {serial:.4f} 秒；'
                                              '使用复制流和事件后为 {side:.4f} 秒，'
                                              '而公式 max(计算, 复制) + 一个乘积与一次复制中较短者 = '
                                              '{expected:.4f} 秒。'),
    'communication.recorded.wall_panel': '复制流的面板（它自己的各次重复）：',
    'communication.recorded.no_timelines': ('这份录制早于流时间线的录制：它只有上面的中位数，'
                                            '没有可以画出的各个流上的事件。'),
    'communication.recorded.no_first_copy': '这份录制早于第一次调用的测量：没有冷启动复制和性能分析器的时间可以展示。',
    'communication.first_copy.no_gpu': '这里没有 GPU：没有设备到主机的复制，因此没有第一次复制可以计时',
    'communication.first_copy.summary': ('书中的 copy_to_cpu(y, non_blocking=True)：第一次调用复制到新的主机内存，'
                                         '用时 {cold:.3f} 秒（一次计时：每个进程只有一次第一次调用）；'
                                         '之后的调用复制到 PyTorch 从第一次调用保留下来的内存块，'
                                         '用时 {warm:.3f} 秒（{repeats} 次重复的中位数；第一次用时是之后的 '
                                         '{ratio:.0f} 倍）。'),
    'communication.first_copy.profile': ('torch.profiler，第一次调用：aten::to 占用 CPU 时间 {cpu:.3f} 秒，GPU 复制的 '
                                         'CUDA 时间为 {cuda:.3f} 秒；{cpu:.3f} 秒 - {cuda:.3f} 秒 = {rest:.3f} 秒：'
                                         '这次调用中至少有这么多时间不是花在GPU复制上。这次运行没有检验这些时间花在了'
                                         '哪里。'),
    'communication.first_copy.profile_plain': ('torch.profiler，第一次调用：aten::to 占用 CPU 时间 {cpu:.3f} 秒，'
                                               'GPU 复制的 CUDA 时间为 {cuda:.3f} 秒。'),
    'communication.timeline.cpu_analogue': 'CPU 上的类比：计算线程与复制线程',
    'communication.first_copy.title': '书中的 non_blocking 复制：第一次调用写入新内存，与之后的调用对比',
    'communication.profile_title': 'torch.profiler：复制操作符的 CPU 与 CUDA 时间',
    'communication.first_copy.recorded': '录制于 {gpu}，{date}（{iters} 个 {n} x {n} 结果）',
    'communication.first_copy.one_timing': '{value} {unit}（一次计时）',
    'communication.first_copy.median_of': '{value} {unit}（{n} 次的中位数）',
    'communication.first_copy.one_timing_legend': '唯一的一次计时',
    'communication.hazard.caught': ('同步之前读取：相对误差 {early:.2f}（缓冲区里还是旧的值）；'
                                    'torch.cuda.synchronize() 之后：{late:.1e}。'),
    'communication.hazard.lucky': ('同步之前读取：相对误差 {early:.1e}；同步之后：{late:.1e}。'
                                   '这一次复制碰巧先完成了，但没有任何保证。'),
    'communication.hazard.cpu': ('这里没有 GPU，因此不会有复制被过早读取；在 GPU 上，同步之前读取 '
                                 'non_blocking 复制的结果，得到的是缓冲区里原有的内容。'),
    'communication.ex3.alone': ('执行路：{lanes}\n单独运行：执行路 0 计算并复制 {a:.4f} 秒，执行路 1 计算 {b:.4f} 秒；'
                                '先后运行 {serial:.4f} 秒。先预测“同时运行”的用时，再运行参考答案。'),
    'communication.ex3.like_expected': ('同时运行 {together:.4f} 秒，接近预测的 {expected:.4f} 秒（{rule}）；'
                                        '先后运行 {serial:.4f} 秒。'),
    'communication.ex3.like_serial': ('同时运行 {together:.4f} 秒，与先后运行（{serial:.4f} 秒）相当：这里没有收益；'
                                      '预测 {expected:.4f} 秒（{rule}）。'),
    'communication.ex3.between': ('同时运行 {together:.4f} 秒：预测 {expected:.4f} 秒（{rule}），'
                                  '先后运行 {serial:.4f} 秒。'),
    'communication.ex3.title': '练习3：计算、复制与第二条执行路同时运行',
    'communication.profile.trace': ('这次性能分析已保存到 {path}：把这个文件拖到 ui.perfetto.dev 页面上，'
                                    '就能看到每个操作符在何时运行。'),
    'communication.profile.split_gpu': ('GPU 时间：乘积（aten::mm）{mm:.4f} 秒，设备到主机的复制 {copy:.4f} 秒'
                                        '（复制用时是乘积用时的 {share:.0%}）；跟踪文件显示它们各在哪个流上运行。'),
    'communication.profile.split_cpu': ('CPU 时间：乘积（aten::mm）{mm:.4f} 秒，复制（aten::copy_）{copy:.4f} 秒：'
                                        '复制用时是乘积用时的 {share:.0%}。'),
    'communication.profile.guess_none': ("先把你预计用时最多的操作符写进 my_guess（例如 'aten::mm' 或 "
                                         "'aten::copy_'），再运行这个单元格；下面隐藏的单元格打印性能分析的结果。"),
    'communication.profile.guess_right': ('你的猜测 {guess}；自身 {kind} 时间最多的 aten:: 操作符：{top}'
                                          '（{seconds:.4f} 秒），与你的预测一致'),
    'communication.profile.guess_other': ('你的猜测 {guess}；自身 {kind} 时间最多的 aten:: 操作符：{top}'
                                          '（{seconds:.4f} 秒），不是你预测的那个'),
    'communication.profile.guess_no_ops': '你的猜测 {guess}；性能分析中没有可以比较的 aten:: 操作符',
    'communication.recorded.rates': ('录制值：{tflop:.1f} TFLOP 用时 {run:.4f} 秒（{tflops:.1f} TFLOP/s）；'
                                  '{gb:.1f} GB 复制到锁页缓冲区用时 {copy:.4f} 秒（{gbps:.1f} GB/s）\n'
                                  '预测：一个流，计算 + 复制 = {one:.4f} 秒；'
                                  '复制流 + 事件，max(计算, 复制) = {two:.4f} 秒，'
                                  '再加上一个乘积与一次复制中较短者 = {fill:.4f} 秒'),
    'communication.recorded.book_rate': ('书中复制到新建的可分页张量：{book:.2f} 秒（{gbps:.2f} GB/s）'),
    'communication.mode.run_and_copy': 'run_and_copy，参考答案',
    'communication.guess.none': ('先在 my_guess 里写下你的预测（一个数），再运行这个单元。'
                                 '\n按公式预测 {closed:.4f} 秒；实测 {measured:.4f} 秒（中位数）'),
    'communication.guess.closed_above': ('按单独测得的速率预测的用时是实测的 {ratio:.1f} 倍'
                                         '（各次重复用时 {low:.4f} 到 {high:.4f} 秒）'),
    'communication.guess.agrees': '实测与按公式的预测相差不到 {noise:.0%}',
    'communication.guess.spread': ('较大者是较小者的 {ratio:.2f} 倍，但各次重复用时 {low:.4f} 到 {high:.4f} 秒，'
                                   '这个范围包含按公式的预测：差距在各次运行之间的波动之内'),
    'communication.guess.closed_below': ('实测用时是按单独测得的速率预测的 {ratio:.1f} 倍'
                                         '（各次重复用时 {low:.4f} 到 {high:.4f} 秒）'),
    'communication.guess.line': '你的猜测 {guess:.4f} 秒；按公式预测 {closed:.4f} 秒；实测 {measured:.4f} 秒（中位数）',
    'communication.overlap.interval': ('根据时间线上的区间：复制在其忙碌时间的 {measured:.0%} 里与某个乘积同时运行'
                                       '（按公式预测 {predicted:.0%}：除最后一次外的每次复制，'
                                       '各重叠 min(乘积, 复制)）。'),
    'communication.overlap.no_intervals': '时间线上没有乘积或没有复制：没有可以测量的重叠。',
    'communication.overlap.wall_less': ('挂钟时间（中位数）：“先计算，后复制” {serial:.4f} 秒，“重叠版本”'
                                        ' {over:.4f} 秒，少用 {saved:.4f} 秒（后者按公式预测为 {closed:.4f} 秒）。'),
    'communication.overlap.wall_more': ('挂钟时间（中位数）：“先计算，后复制” {serial:.4f} 秒，“重叠版本”'
                                        ' {over:.4f} 秒，多用 {more:.4f} 秒（后者按公式预测为 {closed:.4f} 秒）。'),
    'communication.overlap.share': ('“先计算，后复制”比“只算乘积”多用的时间（中位数）：{serial:.4f} 秒 - {run:.4f} 秒'
                                    ' = {copy:.4f} 秒，占“先计算，后复制”的 {share:.0%}。这是两个中位数之差，'
                                    '不是复制本身的用时（每次复制见时间线）。'),
    'communication.overlap.head_faster': '“重叠版本”比“先计算，后复制”快：{clause}。',
    'communication.overlap.head_slower': '“重叠版本”比“先计算，后复制”慢：{clause}。',
    'communication.overlap.head_not_apart': '“重叠版本”与“先计算，后复制”：{clause}。',
    'communication.overlap.span_all': '时间线上的条覆盖 {span:.2f} 毫秒，约为它的全部挂钟时间 {wall:.2f} 毫秒。',
    'communication.overlap.span_part': ('时间线上的条覆盖它的挂钟时间 {wall:.2f} 毫秒中的 {span:.2f} 毫秒；'
                                        '其余 {rest:.2f} 毫秒里没有被跟踪到的乘积或复制。'),
    'communication.overlap.span_more': '时间线上的条覆盖 {span:.2f} 毫秒，比它的挂钟时间 {wall:.2f} 毫秒还长。',
    'communication.overlap.cores': ('重叠运行期间，这个进程平均让 {total} 个核心中的 {cores:.1f} 个保持忙碌'
                                    '（它的CPU时间 / 挂钟时间）。'),
    'communication.overlap.on_core_all': ('上面的 {measured:.0%} 统计的是复制的区间落在某个乘积的区间之内的'
                                          '时间；CPU时间统计的是线程真正在核心上运行的时间。'
                                          '这里进程的CPU时间为 {cpu:.4f} 秒，'
                                          '与乘积和复制的区间加起来的 {busy:.4f} 秒相当或更长：线程在它们的区间里'
                                          '差不多一直在核心上运行。'),
    'communication.overlap.on_core_part': ('上面的 {measured:.0%} 统计的是复制的区间落在某个乘积的区间之内的'
                                           '时间；CPU时间统计的是线程真正在核心上运行的时间。'
                                           '这里进程的CPU时间为 {cpu:.4f} 秒，'
                                           '只是乘积和复制的区间加起来的 {busy:.4f} 秒的 {share:.0%}：其余时间里，'
                                           '线程处在自己的区间之内，却没有在核心上运行，所以区间重叠并不说明两个线程'
                                           '在那一刻同时运行。'),
    'communication.overlap.below_run': ('“重叠版本”（{over:.4f} 秒）比“只算乘积”（{run:.4f} 秒）还快，'
                                        '这是重叠本身做不到的：在跟踪的那次重叠运行中（挂钟时间 {wall:.4f} 秒），'
                                        '乘积忙碌了 {busy:.4f} 秒，低于未跟踪的“只算乘积”的每一次重复'
                                        '（{lo:.4f}–{hi:.4f} 秒）：乘积本身在那里用时更短；这次运行没有检验原因。'),
    'communication.overlap.below_run_within': ('“重叠版本”（{over:.4f} 秒）比“只算乘积”（{run:.4f} 秒）还快，'
                                               '这是重叠本身做不到的：在跟踪的那次重叠运行中'
                                               '（挂钟时间 {wall:.4f} 秒），乘积忙碌了 {busy:.4f} 秒，'
                                               '落在未跟踪的“只算乘积”各次重复的范围之内'
                                               '（{lo:.4f}–{hi:.4f} 秒）；这次运行没有检验原因。'),
    'communication.overlap.slowed': ('在跟踪的那次重叠运行中，乘积在复制旁忙碌了 {busy:.4f} 秒，是未跟踪的'
                                     '“只算乘积”中位数 {run:.4f} 秒的 {ratio:.2f} 倍，并且高于未跟踪的“只算乘积”'
                                     '每一次重复（{lo:.4f}–{hi:.4f} 秒）。跟踪的那次运行同时多了性能分析器和复制，'
                                     '所以这不能说明是两者中的哪一个让乘积变慢。'),
    'communication.overlap.slowed_within': ('在跟踪的那次重叠运行中，乘积在复制旁忙碌了 {busy:.4f} 秒，是未跟踪的'
                                            '“只算乘积”中位数 {run:.4f} 秒的 {ratio:.2f} 倍，但仍在未跟踪的“只算乘积”'
                                            '各次重复的范围之内（{lo:.4f}–{hi:.4f} 秒）：落在这个范围内的'
                                            '一次跟踪运行，不能说明复制拖慢了乘积。'),
    'communication.overlap.traced_within': ('下面的时间线是一次跟踪运行，不是中位数：它的挂钟时间 {wall:.4f} 秒落在'
                                            '未跟踪的“重叠版本”各次重复的范围之内（{lo:.4f}–{hi:.4f} 秒）；'
                                            '未跟踪的“只算乘积”用时 {run_lo:.4f}–{run_hi:.4f} 秒；'
                                            '虚线是按公式的预测，{closed:.4f} 秒。'),
    'communication.overlap.traced_below': ('下面的时间线是一次跟踪运行，不是中位数：它的挂钟时间 {wall:.4f} 秒低于'
                                           '未跟踪的“重叠版本”的每一次重复（{lo:.4f}–{hi:.4f} 秒）；'
                                           '未跟踪的“只算乘积”用时 {run_lo:.4f}–{run_hi:.4f} 秒；'
                                           '虚线是按公式的预测，{closed:.4f} 秒。'),
    'communication.overlap.traced_above': ('下面的时间线是一次跟踪运行，不是中位数：它的挂钟时间 {wall:.4f} 秒高于'
                                           '未跟踪的“重叠版本”的每一次重复（{lo:.4f}–{hi:.4f} 秒）；'
                                           '未跟踪的“只算乘积”用时 {run_lo:.4f}–{run_hi:.4f} 秒；'
                                           '虚线是按公式的预测，{closed:.4f} 秒。'),
    'communication.timeline.caption': '{plan}：{products} 个乘积、{copies} 次复制（{n} x {n}）',
    'communication.timeline.caption_thin': ('{plan}：{products} 个乘积（{n} x {inner} 乘以 {inner} x {n}）、'
                                            '{copies} 次 {n} x {n} 的复制'),
    'communication.timeline.merged_copy': '（{count} 次，间隔不到 {gap} 毫秒的\n已合并：画成{stretches}）',
    'communication.timeline.merged_compute': '（{count} 个，间隔不到 {gap} 毫秒的\n已合并：画成{stretches}）',
    'communication.timeline.stretches_one': '一整段',
    'communication.timeline.stretches_many': '{n} 段',
    'communication.recorded.caption': '录制于 {gpu}，{date}：{iters} 个 {n} x {n} 乘积（每个点是一次重复）',
    'communication.recorded.interval': ('根据录制的时间线上的区间：使用复制流和事件时，{copies} 次复制在其忙碌时间的'
                                        ' {measured:.0%} 里与某个乘积同时运行（根据录制的计算与复制用时，按公式预测为 '
                                        '{predicted:.0%}）。'),
    'communication.axis_ms': '毫秒',
    'communication.recorded.source': '录制于 {gpu}，{date}（{iters} 个 {n} x {n} 乘积）',
    'communication.legend.compute': '乘积（mm）',
    'communication.legend.copy': '复制到主机内存',
    'communication.book.both': '在执行路 0 上计算并复制到 CPU（第一次 non_blocking 调用，复制到新的主机内存）',
    'communication.book.setting': '{n} x {n} 矩阵，run 每次调用计算 {k} 个乘积',
    'communication.book.single_gpu': ('上面每一行都是一次计时，不是中位数。下文在一个新进程中再做一次第一次 '
                                      'non_blocking 调用（只计时一次：它是写入那块内存的第一次调用），'
                                      '之后的调用则重复计时。'),
    'communication.book.single_close': ('上面每一行都是一次计时，不是中位数。CPU 执行路上不发生复制，'
                                        '两行带 .to 的用时与只计算（{run:.4f} 秒）相差不到 {noise:.0%}。'),
    'communication.book.single_apart': ('上面每一行都是一次计时，不是中位数。CPU 执行路上不发生复制；'
                                        '两行带 .to 的用时分别是只计算（{run:.4f} 秒）的 {first:.2f} 倍和 '
                                        '{second:.2f} 倍，至少有一行相差超过 {noise:.0%}：这次运行没有检验其原因。'),
    'communication.book.both_again': '在执行路 0 上计算并复制到 CPU（第二次 non_blocking 调用）',
    'communication.book.copy_cpu': ".to('cpu')（CPU 执行路：不发生复制）",
    'communication.book.both_cpu': ("在执行路 0 上计算，再调用 .to('cpu', non_blocking=True)，"
                                    '第一次（CPU 执行路：不发生复制）'),
    'communication.book.both_again_cpu': ("在执行路 0 上计算，再调用 .to('cpu', non_blocking=True)，"
                                          '第二次（CPU 执行路：不发生复制）'),
    'communication.check.first_copy': '第一次 non_blocking 复制',
    'communication.check.warm_copy': '之后的 non_blocking 复制',
    'communication.check.ex3': '练习 3（{variant}）',
    'communication.what_inner': '内维大小',
    'communication.profile.when_cold': '第一次调用（新内存）',
    'communication.profile.when_warm': '之后的调用（重复使用的内存）',
    'communication.profile.tick': '{when}：{op}',
    'communication.mode.widget': '上面选择的复制方式',
    'communication.variant.expected.oversubscribed': '线程多于核心：从 max(各执行路用时) 到它们的和',
    'communication.mode.pageable, preallocated, same stream': '预先分配（重复使用）的可分页缓冲区，一个流',
    'communication.recorded.reused': ('复制到预先分配、每次重复都重复使用的可分页缓冲区：{seconds:.3f} 秒'
                                       '（{gbps:.1f} GB/s），是锁页缓冲区用时的 {ratio:.1f} 倍；'
                                       '新建的可分页张量用时是这些重复使用的缓冲区的 {new_ratio:.1f} 倍。'),
    'communication.recorded.reused_link': ('这份录制没有重复使用的可分页缓冲区这一行；它的链路测量把一个 {n} x {n} '
                                            '的结果反复复制到同一个重复使用的缓冲区：可分页内存 {gbps:.1f} GB/s，'
                                            '锁页内存 {pinned:.1f} GB/s（速率是可分页内存的 {ratio:.1f} 倍）。'),
    'communication.ex3.oversubscribed': ('同时运行 {together:.4f} 秒：{where}。有 {threads} 个线程需要核心（{parts}），'
                                         '而本机有 {cores} 个核心，因此按公式的预测是一个范围：从 max(各执行路用时) = '
                                         '{expected:.4f} 秒（假如每个线程都有自己的核心），'
                                         '到先后运行的 {serial:.4f} 秒。'),
    'communication.ex3.where_near_max': '接近 max(各执行路用时)',
    'communication.ex3.where_near_serial': '与先后运行相当，这里没有收益',
    'communication.ex3.where_inside': '在范围的两端之间',
    'communication.ex3.where_below': '低于 max(各执行路用时)',
    'communication.ex3.where_above': '高于先后运行的用时',
    'communication.ex3.threads_cpu': '执行路 {lane}：{n} 个计算线程',
    'communication.ex3.threads_copy': '执行路 {lane}：{n} 个计算线程，1 个复制线程',
    'communication.ex3.threads_gpu': '执行路 {lane}：1 个发出 GPU 工作的线程',
    'communication.ex3.threads_sep': '；',
    'communication.ex3.range_legend': '最多到先后运行的用时',
}
