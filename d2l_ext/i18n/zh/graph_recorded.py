"""12.3节图12.3.1的训练步在GPU上的录制：何时何地、运行了什么、耗时、两半的重叠、图。"""
MESSAGES = {
    'graph.recorded.what_batch': '批量大小',
    'graph.recorded.none': '这个版本还没有附带在GPU上录制的这个训练步：上面的每个数字都是在这台机器上测得的。',
    'graph.recorded.where': ('录制于 {gpus}，{cores} 个 CPU 核心（驱动 {driver}，CUDA {cuda}，PyTorch {torch}，'
                             'Python {python}），日期 {date}'),
    'graph.recorded.where_cpu': ('CPU 录制（没有 GPU）：{cores} 个 CPU 核心，PyTorch {torch}，Python {python}，'
                                 '日期 {date}'),
    'graph.recorded.lanes': '执行路：{lanes}；一个设备：{one}',
    'graph.recorded.lane_item': '{lane} = {device}',
    'graph.recorded.run': ('批量大小 {batch}（{d_in}-{hidden}-{d_out} 的多层感知机），先预热 {warmup} 步（不计入），'
                           '再把每种方式交替重复 {repeats} 次（中位数，以及所有重复的范围）：'),
    'graph.recorded.row': '  {variant}：{ms:.3f} 毫秒（{lo:.3f} 到 {hi:.3f} 毫秒；按顺序的每次重复：{every}）',
    'graph.recorded.one_by_batch': ('一个设备处理整个小批量，按批量大小（中位数，以及各次重复的中间一半）：{items}；'
                                    '{steps}（增加或减少的判断：中位数相差超过较大的四分位距，且各次重复的中间一半互'
                                    '不重叠）'),
    'graph.recorded.one_item': '{batch}：{ms:.3f} 毫秒（{q1:.3f}–{q3:.3f} 毫秒）',
    'graph.recorded.one_step.rose': '从 {a} 到 {b} 用时增加',
    'graph.recorded.one_step.fell': '从 {a} 到 {b} 用时减少',
    'graph.recorded.one_step.same': '从 {a} 到 {b} 区分不出增减',
    'graph.recorded.split_slower': '  拆分的训练步用时是一个设备处理整个小批量的 {ratio:.2f} 倍',
    'graph.recorded.split_faster': '  一个设备处理整个小批量的用时是拆分的训练步的 {ratio:.2f} 倍',
    'graph.recorded.halves': ('批量大小 {batch}，图中画出的那次重复（拆分训练步用时为中位数的一次）：{lane0} 忙碌 '
                              '{t0:.3f} 毫秒，{lane1} 忙碌 {t1:.3f} 毫秒'),
    'graph.recorded.overlap': ('两半的重叠：较短一半（{lane}）忙碌的时间里，有 {fraction:.0%} 的时间另一半也在忙碌'
                               '（这次重复；{repeats} 次重复中为 {low:.0%} 到 {high:.0%}）；两半同时开始时预测为 '
                               '{predicted:.0%}；两半先后运行时为 {in_turn:.0%}'),
    'graph.recorded.starts': '这次重复中，{first} 比另一条早 {offset:.3f} 毫秒开始它的一半；预测假定两半同时开始',
    'graph.recorded.saved_more': ('实测节省的时间是这个预测的 {ratio:.1f} 倍，比较短的那一半的忙碌时间多 {excess:.3f} '
                                  '毫秒，这份录制没有说明这 {excess:.3f} 毫秒是什么'),
    'graph.recorded.gap': '两半先后运行时，第二半在第一半结束 {gap:.3f} 毫秒后才开始（中位数）',
    'graph.recorded.saved': ('挂钟时间：先后运行减去同时运行 = {saved:.3f} 毫秒（中位数）；预测 {predicted:.3f} 毫秒，'
                             '即两半先后运行时较短一半的忙碌时间'),
    'graph.recorded.slowdown': ('每一半同时运行时的忙碌时间除以先后运行时的（中位数）：'
                                '{lane0} 为 {r0:.2f}，{lane1} 为 {r1:.2f}'),
    'graph.recorded.checked': ('每次重复的每次更新都与一个设备的float64结果一致（最大相对误差 {error:.1e}，'
                               '容差 {tolerance:.0e}）'),
    'graph.recorded.title': ('图12.3.1的训练步，录制于 {gpu}，{date}\n批量大小 {batch}，预热 {warmup} 步后重复 '
                             '{repeats} 次；两半的重叠：较短一半（{lane}）忙碌时间的 {fraction:.0%}，'
                             '预测 {predicted:.0%}'),
    'graph.recorded.title_cpu': ('图12.3.1的训练步，CPU 录制（没有 GPU），{date}\n批量大小 {batch}，预热 {warmup} 步后'
                                 '重复 {repeats} 次；两半的重叠：较短一半（{lane}）忙碌时间的 {fraction:.0%}，'
                                 '预测 {predicted:.0%}'),
    'graph.recorded.title_timeline': '下方圈出的那几次重复，每种方式从各自的开始计时',
    'graph.recorded.title_repeats': '预热之后的每次重复；每一行中第一次在最上面，之后每次依次往下',
    'graph.recorded.row_lane': '{lane}\n{device}',
    'graph.recorded.row_one': '一个设备：{device}',
    'graph.recorded.stage.copy_in': '传入权重和样本',
    'graph.recorded.stage.lane_step': '前向 + 反向传播',
    'graph.recorded.stage.grad_copy': '传出梯度',
    'graph.recorded.stage.sum': '求和',
    'graph.recorded.stage.update': '更新',
    'graph.recorded.stage.whole_step': '整个训练步',
    'graph.recorded.legend_copy': '复制：传入权重和样本，传出梯度',
    'graph.recorded.legend_server': '求和与更新（服务器）',
    'graph.recorded.sep': '，',
    'graph.recorded.clock_note': 'GPU 的区间来自 CUDA 事件，CPU 的区间来自运行它的线程中的时间戳，统一到一个时钟上',
    'graph.recorded.drawn_median': ('图中画出：{variant}，{repeats} 次重复中的第 {repeat} 次，挂钟时间 {ms:.3f} 毫秒'
                                    '（即中位数）；它的各段从头到尾共 {span:.3f} 毫秒'),
    'graph.recorded.drawn_other': ('图中画出：{variant}，{repeats} 次重复中的第 {repeat} 次，挂钟时间 {ms:.3f} 毫秒'
                                   '（各次重复的中位数为 {median:.3f} 毫秒）；它的各段从头到尾共 {span:.3f} 毫秒'),
    'graph.recorded.drawn_gap': ('{variant}：那次重复的挂钟时间为 {ms:.3f} 毫秒，它的各段从头到尾共 {span:.3f} 毫秒'
                                 '（占 {share:.0%}）：挂钟时间计的是整个调用，各段只计其中记录下的区间'
                                 '（CUDA 事件、线程中的时间戳），这份录制没有说明其余的 {gap:.3f} 毫秒是什么'),
    'graph.recorded.short.copy_in': '传入',
    'graph.recorded.short.grad_copy': '梯度',
    'graph.recorded.short.lane_step': '前向+反向',
    'graph.recorded.short.whole_step': '训练步',
    'graph.recorded.legend_drawn': '上图画出的那次重复',
    'graph.recorded.saved_more_gap': ('实测节省的时间是这个预测的 {ratio:.1f} 倍，比较短的那一半的忙碌时间多 '
                                      '{excess:.3f} 毫秒；两半先后运行时，第二半在第一半结束 {gap:.3f} 毫秒后才开始'
                                      '（中位数），除去这段间隔，还有 {rest:.3f} 毫秒的节省是这份录制没有说明的'),
    'graph.recorded.saved_more_covered': ('实测节省的时间是这个预测的 {ratio:.1f} 倍，比较短的那一半的忙碌时间多 '
                                          '{excess:.3f} 毫秒，不超过两半先后运行时第二半在第一半结束后才开始的间隔 '
                                          '{gap:.3f} 毫秒（中位数）'),
    'graph.recorded.alone': ('每条执行路单独运行（两半先后运行），各 {rows} 个样本：{lane0} 忙碌 {t0:.3f} '
                             '毫秒，{lane1} 忙碌 {t1:.3f} 毫秒（{repeats} 次重复的中位数）'),
}
