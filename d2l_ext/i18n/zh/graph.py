"""13.3.3：依赖图、它的调度、训练步计时、练习5和交互面板。"""
MESSAGES = {
    'graph.lane': '执行路 {i}',
    'graph.stage.copy_in': '传入数据',  # a copy in that moved neither or both (runs.name_copies_in)
    'graph.stage.weights_in': '传入权重',
    'graph.stage.rows_in': '传入样本',
    'graph.stage.fc1_fwd': 'fc1 前向',
    'graph.stage.relu': 'ReLU',
    'graph.stage.fc2_fwd': 'fc2 前向',
    'graph.stage.loss': '损失',
    'graph.stage.fc2_bwd': 'fc2 反向',
    'graph.stage.relu_bwd': 'ReLU 反向',
    'graph.stage.fc1_bwd': 'fc1 反向',
    'graph.stage.grad_copy': '传出梯度',
    'graph.stage.sum': '求和',
    'graph.stage.update': '更新',
    'graph.server': '服务器（CPU）',
    'graph.link': '{src} → {dst}',
    'graph.link_row': '{link}：{what}',  # a copy's row in the schedule: its ends, what it moved
    'graph.edge.copy': '复制',
    'graph.edge.data': '数据',
    'graph.sep_list': '、',
    'graph.sep_clause': '，',
    'graph.sep_semicolon': '；',
    'graph.edge_count': '{count} 条{kind}边',
    'graph.summary': ('{title}：{nodes} 个节点，{edges} 条边（{kinds}）\n'
                      '  执行路：{lanes}；设备：{devices}\n'
                      '  复制：{copies} 个复制节点，共传输 {bytes} 字节（{size}）；算术运算：{flops} FLOP'),
    'graph.serial_total': '串行总耗时（一次一个方框）',
    'graph.scheduled_total': '调度后总耗时（尽早开始）',
    'graph.critical_path_bound': '关键路径下界',
    'graph.col_seconds': '秒',
    'graph.col_speedup': '串行总耗时 / 该值',
    'graph.col_predicted': '预测（秒）',
    'graph.col_error': '与float64结果的相对误差',
    'graph.schedule_speedup': ('该调度的速度是一次一个方框的 {speedup:.2f} 倍；'
                               '按这些方框的耗时，任何调度的速度都不可能超过一次一个方框的 {bound:.2f} 倍：'
                               '任何调度都不短于关键路径（{crit:.3f} 毫秒），'
                               '也不短于调度中最忙的一行（{row}）依次运行其方框的时间（{lane:.3f} 毫秒）；'
                               '下界取两者中较大的一个，即 {floor:.3f} 毫秒'),
    'graph.critical_path_is': '关键路径：{path}',
    'graph.variant.one_device': '一个设备，整个小批量，不做复制',
    'graph.variant.in_turn': '两条执行路，先后运行',
    'graph.variant.split': '两条执行路，同时运行',
    'graph.step_title': '一个训练步，批量大小 {batch}，执行路：{lanes}；每种方式交替重复 {repeats} 次',
    # 区分快慢的句首与结论：{clause} 由 display.apart 给出（检验的两部分，按顺序）
    'graph.step_faster': '两条执行路同时运行的速度是先后运行的 {ratio:.2f} 倍（{clause}）：同时运行节省了时间',
    'graph.step_slower': '两条执行路同时运行的耗时是先后运行的 {inv:.2f} 倍（{clause}）：同时运行反而更慢',
    'graph.step_tied': '两条执行路同时运行与先后运行：{clause}',
    'graph.split_faster': '两条执行路同时运行的速度是一个设备处理整个小批量的 {ratio:.2f} 倍（{clause}）：拆分批量划算',
    'graph.split_slower': '两条执行路同时运行的耗时是一个设备处理整个小批量的 {inv:.2f} 倍（{clause}）：一个设备更快',
    'graph.split_tied': '两条执行路同时运行与一个设备处理整个小批量：{clause}，所以这次运行不能说明拆分批量划算',
    'graph.dag_variant.0': '一条执行路，按顺序',
    'graph.dag_variant.1': '两条执行路，按计划',
    'graph.dag_variant.2': '一个设备，全部核心，按顺序',
    'graph.dag_tasks': '{tasks} 个任务，每个是一次 {n} x {n} 的矩阵乘法；执行路：{lanes}',
    'graph.dag_model': ('模型（以两条相同执行路上的一次乘法为单位）：串行 {serial:.0f}，计划 {planned:.0f}，关键路径 '
                        '{path:.0f}；任何计划都至少需要 {floor:.0f}（汇合点要等它之前的所有任务完成，所以各汇合点之'
                        '间的部分只能依次运行：每部分至少取其最长的链与把其中的乘法平分给 {lanes} 条执行路（向上取整'
                        '）两者中较大的一个，每个汇合点再加 1），所以任何计划的速度都不超过串行的 {bound:.2f} 倍'),
    'graph.dag_count': '{lane} 上 {count} 个',
    'graph.dag_split': '计划的分配：{counts}',
    'graph.dag_split_speeds': '两条执行路速度不同（在每条执行路上各计时一次乘法）；计划的分配：{counts}',
    'graph.dag_faster': ('两条执行路按计划运行的速度是一条执行路按顺序运行的 {ratio:.2f} 倍（{clause}）：'
                         '计划节省了时间'),
    'graph.dag_slower': '两条执行路按计划运行的耗时是一条执行路按顺序运行的 {inv:.2f} 倍（{clause}）：计划反而更慢',
    'graph.dag_tied': '两条执行路按计划运行与一条执行路按顺序运行：{clause}',
    'graph.dag_all_cores_faster': ('本练习的 {tasks} 次乘法在使用全部核心的一个设备上的速度是按顺序在{lane}上的 '
                                   '{ratio:.2f} 倍（{clause}）'),
    'graph.dag_all_cores_slower': ('本练习的 {tasks} 次乘法在使用全部核心的一个设备上的耗时是按顺序在{lane}上的 '
                                   '{inv:.2f} 倍（{clause}）'),
    'graph.dag_all_cores_tied': '本练习的 {tasks} 次乘法，使用全部核心的一个设备与按顺序在{lane}上：{clause}',
    'graph.broken_not_caught': '结果一致：这个计划恰好不需要等待',
    'graph.n_tensors': '{n} 个张量',
    'graph.legend_copy': '复制（虚线箭头：传输的字节数）',
    'graph.panel.batch': '批量大小（两条执行路合计）',
    'graph.panel.hidden': '隐藏单元数',
    'graph.panel.lane_speed': '执行路 {i} GFLOP/s',
    'graph.panel.server_speed': '服务器（CPU）GFLOP/s',
    'graph.panel.link': '链路 GB/s（每个方向）',
    'graph.panel.measure': '在这里测量',
    'graph.panel.measure_tip': '按当前的批量大小和隐藏单元数，在这台机器的执行路上为每个方框计时',
    'graph.panel.lane_is': '执行路 {i} = {label}',
    'graph.panel.measures_on': '测量所用：{lanes}',
    'graph.panel.measuring': '正在测量每个方框，然后是真实的训练步……',
    'graph.panel.interrupted': '已中断。按下按钮可重新测量。',
    'graph.panel.row_model': '模型',
    'graph.panel.row_measured': '在这里实测',
    'graph.panel.col_costs': '代价',
    'graph.panel.col_real': '真实训练步，执行路同时运行（秒）',
    'graph.panel.col_serial': '串行总耗时（秒）',
    'graph.panel.col_scheduled': '调度后总耗时（秒）',
    'graph.panel.col_bound': '关键路径下界（秒）',
    'graph.panel.col_speedup': '串行总耗时 ÷ 调度后总耗时',
    'graph.panel.not_measured': '—：未测量（模型行由滑块的值计算得出，没有计时）',
    'graph.panel.title_model': '模型：一个训练步的调度',
    'graph.panel.title_measured': '在{lanes}上实测各方框：调度',
    'graph.schedule_numbers': '串行总耗时 {serial:.3f} 毫秒；调度后总耗时 {total:.3f} 毫秒；关键路径 {path:.3f} 毫秒',
    'graph.step_checked': '两条执行路上的训练步对权重的更新与float64下自动求导的结果一致（更新的相对误差 {err:.1e}）',
    'graph.check_caught': '检查发现了改动后的训练步（{message}）',
    'graph.check_missed': '检查通过：这处改动没有改变更新',
    'graph.step_row': '{variant}：{repeats} 次重复的中位数 {ms:.2f} 毫秒{predicted}',
    'graph.step_row_predicted': '（预测 {ms:.2f} 毫秒）',
    'graph.title_graph': '两条执行路上的一个训练步，根据参考实现 mlp_step 记录',
    'graph.title_plan': '依赖图所允许的调度，各方框在这里逐个计时（关键路径加粗框出）',
    'graph.title_step_tied': '一个训练步的每次重复：“{variant}”与“{other}”区分不出快慢',
    'graph.title_step': '一个训练步的每次重复：这里最快的是“{variant}”',
    'graph.dag_unnamed': '太窄、放不下任务名称的条形不标名称；上面的计划标出了每个任务',
    'graph.title_dag_plan': '书中的练习5：计划（每个任务由哪条执行路运行；各列按依赖关系排列）',
    'graph.title_dag_run': ('在这里运行该计划：速度是一条执行路按顺序运行的 {ratio:.2f} 倍（计时的中位数：{mine} 与 '
                            '{other} 毫秒）'),
    'graph.title_dag_run_slower': ('在这里运行该计划：耗时是一条执行路按顺序运行的 {inv:.2f} 倍（计时的中位数：{mine} '
                                   '与 {other} 毫秒）'),
    'graph.title_dag_bars': '条形：计时之后把计划再运行一次，共 {span:.2f} 毫秒（计时的中位数：{median} 毫秒）',
    'graph.title_dag_bars_only': '条形：计时之后把计划再运行一次，共 {span:.2f} 毫秒',
    'graph.broken_caught': '跳过等待的引擎：与float64结果的检查发现了错误（{message}）',
    'graph.lane_line': '{lane} = {name}：{explanation}',
    'graph.what_step': '两条执行路上的训练步',
    'graph.what_dag_task': '依赖图任务 {name}',
    'graph.title_hasty': '不等待的服务器：执行路 1 的梯度到达了，但求和（sum）从不读取它们',
    'graph.rates': ('执行路 0 的方框单独运行 {t0:.2f} 毫秒，执行路 1 的单独运行 {t1:.2f} 毫秒，'
                    '两条执行路的方框同时运行 {both:.2f} 毫秒：同时运行的速度是先后运行的 {rate:.2f} 倍'
                    '（若互不拖慢则为 {ideal:.2f} 倍：先后运行的时间除以较长一条单独运行的时间），'
                    '两条执行路一起的耗时是较长一条单独运行时的 {slowdown:.2f} 倍；'
                    '{whole}'),
    'graph.rates_above': ('执行路 0 的方框单独运行 {t0:.2f} 毫秒，执行路 1 的单独运行 {t1:.2f} 毫秒，'
                          '两条执行路的方框同时运行 {both:.2f} 毫秒：同时运行的速度是先后运行的 {rate:.2f} 倍，'
                          '高于互不拖慢时的 {ideal:.2f} 倍（先后运行的时间除以较长一条单独运行的时间）；互不拖慢的'
                          '执行路一起的耗时等于较长一条单独运行的时间，不会更短，但这两条一起的耗时是它的 '
                          '{slowdown:.3f} 倍（比 {longer:.2f} 毫秒少 {gap:.2f} 毫秒，超过它的 {noise:.0%}，即 '
                          '{limit:.2f} 毫秒），本次运行没有检验原因；{whole}'),
    'graph.rates_at_bound': ('执行路 0 的方框单独运行 {t0:.2f} 毫秒，执行路 1 的单独运行 {t1:.2f} 毫秒，'
                             '两条执行路的方框同时运行 {both:.2f} 毫秒：同时运行的速度是先后运行的 {rate:.2f} 倍'
                             '（互不拖慢时为 {ideal:.2f} 倍：先后运行的时间除以较长一条单独运行的时间）；互不拖慢的'
                             '执行路一起的耗时等于较长一条单独运行的时间，不会更短：这两条一起的耗时是它的 '
                             '{slowdown:.3f} 倍（比 {longer:.2f} 毫秒少 {gap:.2f} 毫秒，不超过它的 {noise:.0%}，即 '
                             '{limit:.2f} 毫秒），因此与互不拖慢的执行路区分不出，本次运行没有检验为什么更短；{whole}'),
    'graph.rates.whole_cpu': '执行路 0 的方框在一个线程中使用全部 {cores} 个核心：{all:.2f} 毫秒',
    'graph.rates.whole_gpu': '执行路 0 本身就是一整块GPU：把它的方框再计时一次，作为一个设备的基准：{all:.2f} 毫秒',
    'graph.guess_missing': '先在 my_guess 里写下你的预测（一个数），再运行这个单元。',
    'graph.guess_none': ('{variant}：你的猜测（尚无）| 按公式预测 {predicted:.2f} 毫秒 | '
                         '实测 {measured:.2f} 毫秒（中位数）'),
    'graph.guess_line': ('{variant}：你的猜测 {guess:.2f} 毫秒 | 按公式预测 {predicted:.2f} 毫秒 | '
                         '实测 {measured:.2f} 毫秒（中位数）'),
    'graph.ratio_item': '{variant} {ratio:.2f}',
    'graph.measured_over_predicted': '实测值除以预测值：{ratios}',
    'graph.overlap_line': ('两半同时运行的一个训练步中的重叠：较短的一半在其忙碌时间的 {fraction:.0%} 里，'
                           '另一半也在运行（计时之后另行记录了 {runs} 个训练步，取重叠为中位数的那一个：它的两半分别'
                           '忙碌 {t0:.2f} 毫秒和 {t1:.2f} 毫秒；'
                           '两半同时开始时预测为 {predicted:.0%}）；'
                           '挂钟时间，先后运行减去同时运行：{saved:.2f} 毫秒（预测 {saved_pred:.2f} 毫秒）'),
    'graph.overlap_unexplained': ('在那个训练步中，一半从 {a0:.2f} 毫秒忙到 {b0:.2f} 毫秒，另一半从 {a1:.2f} 毫秒忙到 '
                                  '{b1:.2f} 毫秒（从第一个开始的时刻算起）：两者重叠 {fraction:.0%}。但两条执行路同时'
                                  '运行的中位数（{mine:.2f} 毫秒）低于{others}：本次运行测得的重叠解释不了这个差别'),
    'graph.overlap_below_item': '“{variant}”的中位数（{ms:.2f} 毫秒）',
    'graph.sep_and': '和',
    'graph.schedule_numbers_measured': ('根据逐个单独计时的方框（每个重复 {repeats} 次，取中位数；两条执行路按互不'
                                        '拖慢计算）：串行总耗时 {serial:.3f} 毫秒；调度后总耗时 {total:.3f} 毫秒；'
                                        '关键路径 {path:.3f} 毫秒'),
    'graph.vs.title': '两条执行路同时运行的一个训练步，三个数字：',
    'graph.vs.schedule': '  上面的调度（方框逐个单独计时，每条执行路按单独运行计算）：{ms:.2f} 毫秒',
    'graph.vs.closed': ('  按公式预测（同一调度，每条执行路的方框按上面测得的两条执行路同时运行的时间缩放）：'
                        '{ms:.2f} 毫秒'),
    'graph.vs.measured': ('  实测（mlp_step 运行的整个训练步，{repeats} 次重复的中位数，范围 {lo:.2f} 到 {hi:.2f} '
                          '毫秒）：{ms:.2f} 毫秒'),
    'graph.vs.others': ('其他程序占用的核心的比例：为方框计时时 {boxes}，为两条执行路的速度计时时 {rates}，为训练步计'
                        '时时 {step}'),
    'graph.vs.unknown': '未知',
    'graph.vs.not_additive': ('按逐个计时的方框排出的调度（{ms:.2f} 毫秒）是实测训练步的 {ratio:.2f} 倍：在这里，'
                              '分开计时的方框预测不了训练步，所以读这个调度时看它的顺序（哪个方框等待哪个），'
                              '而不是它的长度'),
    'graph.vs.apart': ('按逐个计时的方框排出的调度（{ms:.2f} 毫秒）是实测训练步（{step:.2f} 毫秒）的 {ratio:.2f} 倍：'
                       '同样的方框，分开计时与在训练步中计时相差 {diff:.2f} 毫秒，本次运行没有把这个差别分解开'),
    'graph.vs.at_once_twice': ('两条执行路的方框同时运行，计时了两次：上面测速度时为 {rates:.2f} 毫秒（按公式预测把各'
                               '执行路的方框缩放到这个时间），在为重叠另行记录的训练步中，从第一半开始到最后一半结束'
                               '为 {span:.2f} 毫秒（测速度时的时间是训练步中的 {ratio:.2f} 倍）；本次运行没有检验两'
                               '者为什么不同'),
    'graph.vs.uneven': ('这些比例相差整台机器的 {gap:.0%}：这些数字是在繁忙程度不同的机器上测得的；请在机器较空闲时'
                        '重新运行这些单元格，然后再把它们之间的差距看作训练步本身的性质'),
    'graph.vs.quiet_none': '三次计时中其他程序占用的核心都是 {top:.0%}：它们解释不了这些数字之间的差距',
    'graph.vs.quiet': '三次计时中其他程序占用的核心都不超过 {top:.0%}：它们解释不了这些数字之间的差距',
    'graph.role.copy_lanes': '同一设备上执行路之间的复制',
    'graph.role.copy_mixed': '复制（设备之间，或同一设备的执行路之间）',
    'graph.dag_forced': ('规划器自己没有给{lane} 任何任务；本练习要求每条执行路都有任务，所以{lane} 分到了使模型中的'
                         '计划延长最少的那一个'),
    'graph.dag_predicted': ('根据在每条执行路上为一次乘法计时得出的预测：执行路 0 单独按顺序运行 {one:.2f} 毫秒，两'
                            '条执行路按计划运行 {planned:.2f} 毫秒：计划的速度预计是前者的 {ratio:.2f} 倍'),
    'graph.dag_predicted_slower': ('根据在每条执行路上为一次乘法计时得出的预测：'
                                   '执行路 0 单独按顺序运行 {one:.2f} 毫秒，'
                                   '两条执行路按计划运行 {planned:.2f} 毫秒：'
                                   '预计计划用时是前者的 {inv:.2f} 倍'),
    'graph.dag_predicted_loss': ('模型本身就预测这个计划比执行路 0 单独运行更慢：执行路的速度相差这么大时，应当把所'
                                 '有任务都交给较快的那条'),
    'graph.rec_dag.title': ('在那里录制的书中的练习5：{tasks} 个任务，每个是一次 {n} x {n} 的矩阵乘法；每种方式交替'
                            '重复 {repeats} 次（中位数，以及所有重复的范围）：'),
    'graph.rec_dag.row': '  {variant}：{ms:.3f} 毫秒（{lo:.3f} 到 {hi:.3f} 毫秒；按顺序的每次重复：{every}）',
    'graph.rec_dag.checked': '每种方式的结果都与float64一致（最大相对误差 {error:.1e}）',
    'graph.vs.threads_slow': ('一项检验：紧接着用一个线程再次计时，执行路以外的方框（复制、求和、更新）用了 '
                              '{one:.2f} 毫秒，而使用全部 {threads} 个核心时用了 {all:.2f} 毫秒：在为它们计时期间，把'
                              '每个操作分到多个核心上反而使它变慢，上面的调度计入的正是这些慢的时间'),
    'graph.vs.threads_slow_busy': ('一项检验：紧接着用一个线程再次计时，执行路以外的方框（复制、求和、更新）用了 '
                                   '{one:.2f} 毫秒，使用全部 {threads} 个核心时用了 {all:.2f} 毫秒；其间其他程序并非'
                                   '一直让核心空闲（占用比例见下），所以这次运行说明不了分到多个核心上是否使它们变慢'),
    'graph.vs.threads_faster': ('一项检验：紧接着用一个线程再次计时，执行路以外的方框（复制、求和、更新）用了 '
                                '{one:.2f} 毫秒，使用全部 {threads} 个核心时（即调度计入的时间）用了 {all:.2f} 毫秒：'
                                '一个线程更快，但全部核心的用时不到它的两倍，所以这项检验没有显示是把操作分到多个核心'
                                '上拉长了调度'),
    'graph.vs.threads_fine': ('一项检验：紧接着用一个线程再次计时，执行路以外的方框（复制、求和、更新）用了 '
                              '{one:.2f} 毫秒，使用全部 {threads} 个核心时（即调度计入的时间）用了 {all:.2f} 毫秒：'
                              '全部核心的用时不比一个线程长，所以这项检验没有显示是把操作分到多个核心上拉长了调度'),
    'graph.err.no_speed': ('device_speed 中没有执行路 {lane} 或设备 {device} 的条目；请加上一个（FLOP/s）'
                           "或一个 'default'"),
    'graph.err.no_bandwidth': '要为复制计算耗时，link_bandwidth（字节/秒）必须 > 0',
    'graph.err.dag_shape': '需要 stages >= 1，以及 1 到 {most} 条长度 >= 1 的分支；得到的是 {stages}，{arms}',
    'graph.err.no_lane': '计划没有给 {tasks} 分配执行路',
    'graph.err.batch_split': 'batch 必须是 >= 2 的整数（两条执行路各分到一部分），得到的是 {batch}',
    'graph.err.two_lanes': '拆分的训练步需要两条执行路，得到的是 {n} 条',
    'graph.err.rec_format': '{where}：格式 {got}，应为 {expected}：请用 tools/record_depgraph.py 重新录制',
    'graph.err.rec_missing': '{where}：缺少 {missing}：请重新录制',
    'graph.err.no_batch': '这份录制中没有批量大小 {batch} 的运行；它有 {has}',
    'graph.err.whole_number': '{name} 必须是 >= 1 的整数，得到的是 {value}',
    'graph.err.batch_two': '要拆分到两条执行路上，batch 至少为 2，得到的是 {batch}',
    'graph.err.variants': '未知的方式 {unknown}；请从 {known} 中选择',
    'graph.err.negative_cost': '任务 {task} 的耗时 {cost} 为负；耗时是 >= 0 的秒数',
    'graph.err.repeated': '任务名必须唯一；重复的有：{names}',
    'graph.err.unknown_deps': '任务 {task} 依赖未知的任务 {missing}',
    'graph.err.cycle': '依赖关系构成了环；永远不会就绪的任务：{stuck}',
    'graph.err.iters': 'iters 必须是 >= 1 的整数，得到的是 {iters}',
    'graph.err.durations': 'compute_s 和 copy_s 是以秒为单位的时长，必须 >= 0',
    'graph.err.no_resource': 'list_schedule 至少需要一个资源',
    'graph.err.speed': 'speed 必须为每个资源给出 > 0 的系数；请检查 {check}',
    'graph.err.pinned': '固定的任务指定了未列出的资源：{stray}',
    'graph.lane_device': '{lane}（{device}）',
    'graph.dag_per_product': ('根据一条执行路运行的中位数预测（{serial:.0f} 次乘法共 {one:.2f} 毫秒，每次 {per:.3f} '
                              '毫秒）：两条执行路按计划运行，计划长 {planned:.0f} 次乘法，{ms:.2f} 毫秒；实测 '
                              '{measured:.2f} 毫秒（中位数）'),
    'graph.dag_vs': '预测与实测并列：{rows}',
    'graph.dag_vs_row': '{variant}：预测 {predicted:.2f} 毫秒，实测 {measured:.2f} 毫秒（中位数）',
    'graph.dag_breakdown': '计时之后把计划再运行一次：从第一条执行路开始到最后一个任务结束共 {span:.2f} 毫秒；{lanes}',
    'graph.dag_breakdown_gpu': ('计时之后把计划再运行一次，GPU执行路等待它的每个任务完成：从第一条执行路开始到最后一个'
                                '任务结束共 {span:.2f} 毫秒；{lanes}'),
    'graph.dag_breakdown_lane': ('{lane}（{tasks} 个任务）：运行任务 {products:.2f} 毫秒，取得输入（若在另一设备上'
                                 '产生则需复制）{copies:.2f} 毫秒，等待输入 {waiting:.2f} 毫秒'),
    'graph.title_dag_run_tied': ('在这里运行该计划：与一条执行路按顺序运行区分不出快慢（计时的中位数：{mine} 与 '
                                 '{other} 毫秒）'),
    'graph.vs.shorter': ('按逐个计时的方框排出的调度（{ms:.2f} 毫秒）比实测训练步（{step:.2f} 毫秒）短 {diff:.2f} '
                         '毫秒（调度是训练步的 {ratio:.2f} 倍），本次运行没有把这个差别分解开'),
    'graph.vs.shorter_far': ('按逐个计时的方框排出的调度（{ms:.2f} 毫秒）比实测训练步（{step:.2f} 毫秒）短 '
                             '{diff:.2f} 毫秒（调度是训练步的 {ratio:.2f} 倍），本次运行没有把这个差别分解开：读这个'
                             '调度时看它的顺序（哪个方框等待哪个），而不是它的长度'),
    'graph.rates.twice_gpu': ('训练步中执行路 0 的方框（它那一半小批量的前向和反向传播）在同一块GPU上计时了两次：上面'
                              '单独运行时为 {alone:.2f} 毫秒，作为一个设备的基准时为 {all:.2f} 毫秒（基准是前者的 '
                              '{ratio:.2f} 倍）；下面对一个设备的预测用的是 {all:.2f} 毫秒，本次运行没有检验两者为什么'
                              '不同'),
    'graph.rates.all_cores_slower': ('训练步中执行路 0 的方框（它那一半小批量的前向和反向传播）在一个线程中使用全部 '
                                     '{cores} 个核心时用了 {all:.2f} 毫秒，而在执行路 0 自己分到的核心上用了 '
                                     '{alone:.2f} 毫秒（使用全部核心时是后者的 {ratio:.2f} 倍）；下面对一个设备的预测'
                                     '用的是 {all:.2f} 毫秒，本次运行没有检验为什么核心更多反而更慢'),
    'graph.predicted_apart': ('实测与预测相差超过 {noise:.0%}，也超过该方式各次重复的四分位距：{items}；本次运行没有'
                              '检验原因'),
    'graph.predicted_apart_tested': ('实测与预测相差超过 {noise:.0%}，也超过该方式各次重复的四分位距：{items}；'
                                     '对于预测高于实测的情形，调度下方检验了一个可能的原因：把执行路以外的方框（复制、'
                                     '求和、更新）用一个线程再次计时'),
    'graph.predicted_apart_item': ('{variant}，实测 {ms:.2f} 毫秒，预测 {predicted:.2f} 毫秒（{ratio:.2f} '
                                   '倍；四分位距 {iqr:.2f} 毫秒）'),
}
