"""13.3.3：依赖图、它的调度、训练步计时、练习5和交互面板。"""
MESSAGES = {
    'graph.lane': '执行路 {i}',
    'graph.server': '服务器（CPU）',
    'graph.link': '{src} → {dst}',
    'graph.edge.copy': '复制',
    'graph.edge.data': '数据',
    'graph.summary': ('{title}：{nodes} 个节点，{edges} 条边（{kinds}）\n'
                      '  执行路：{lanes}；设备：{devices}\n'
                      '  复制：{copies} 个复制节点，共传输 {bytes} 字节（{size}）；算术运算：{flops} FLOP'),
    'graph.ops_title': '为{lane}及其复制记录的操作：',
    'graph.serial_total': '串行总耗时（一次一个方框）',
    'graph.scheduled_total': '调度后总耗时（尽早开始）',
    'graph.critical_path_bound': '关键路径下界',
    'graph.col_seconds': '秒',
    'graph.col_speedup': '串行总耗时 / 该值',
    'graph.col_predicted': '预测（秒）',
    'graph.col_error': '与float64结果的相对误差',
    'graph.schedule_speedup': '该调度比一次一个方框快 {speedup:.2f} 倍；任何调度都不可能超过 {bound:.2f} 倍',
    'graph.critical_path_is': '关键路径：{path}',
    'graph.variant.0': '一个设备，整个小批量，不做复制',
    'graph.variant.1': '两个执行路，先后运行',
    'graph.variant.2': '两个执行路，同时运行',
    'graph.step_title': '一个训练步，批量大小 {batch}，执行路：{lanes}；每种方式交替重复 {repeats} 次',
    'graph.step_speedup': '两个执行路同时运行与先后运行之比：{ratio:.2f} 倍（大于1：同时运行节省了时间）',
    'graph.step_vs_one': ('两个执行路同时运行与一个设备处理整个小批量之比：{ratio:.2f} 倍'
                          '（大于1：拆分批量划算；小于1：一个设备更快）'),
    'graph.step_predicted': ('两个执行路同时运行的预测：{predicted:.4f} 秒；'
                             '实测 {measured:.4f} 秒（预测的 {ratio:.2f} 倍）'),
    'graph.step_predicted_apart': '先后运行的预测（各方框依次运行）：{predicted:.4f} 秒；实测 {measured:.4f} 秒',
    'graph.assumption_separate': ('该预测假定每个方框的代价等于它单独运行时的代价，且两个执行路互不拖慢：'
                                  '对位于不同硬件上的执行路成立，只是没有计入启动工作和操作之间的Python代码'),
    'graph.assumption_shared': ('该预测假定每个方框的代价等于它单独运行时的代价，且两个执行路互不拖慢；'
                                '这里两个执行路共用一个CPU（它的内存带宽和缓存），因此实测值应高于预测'),
    'graph.dag_variant.0': '一个执行路，按顺序',
    'graph.dag_variant.1': '两个执行路，按计划',
    'graph.dag_variant.2': '一个设备，全部核心，按顺序',
    'graph.dag_tasks': '{tasks} 个任务，每个是一次 {n} x {n} 的矩阵乘法；执行路：{lanes}',
    'graph.dag_model': ('模型（以两个相同执行路上的一次乘法为单位）：串行 {serial:.0f}，计划 {planned:.0f}，'
                        '关键路径 {path:.0f}（任何计划都不可能快于 {bound:.2f} 倍）'),
    'graph.dag_count': '{count} 个在{lane}上',
    'graph.dag_split': '计划的分配：{counts}',
    'graph.dag_split_speeds': '两个执行路速度不同（在每个执行路上各计时一次乘法）；计划的分配：{counts}',
    'graph.dag_speedup': '两个执行路按计划运行与一个执行路按顺序运行之比：{ratio:.2f} 倍（大于1：计划节省了时间）',
    'graph.dag_all_cores_faster': ('一个设备使用全部核心与一个执行路（一个核心）按顺序运行之比：{ratio:.2f} 倍：'
                                   '每次乘法被分摊到各个核心上'),
    'graph.dag_all_cores_slower': ('一个设备使用全部核心与一个执行路（一个核心）按顺序运行之比：'
                                   '{ratio:.2f} 倍，反而更慢：'
                                   '有另一个程序占用了一个核心；分摊到各核心上的乘法在结束时要等待最慢的线程，'
                                   '因此一个繁忙的核心会拖慢每一次乘法'),
    'graph.broken_not_caught': '结果一致：这个计划恰好不需要等待',
    'graph.n_tensors': '{n} 个张量',
    'graph.legend_copy': '复制（虚线箭头：传输的字节数）',
    'graph.panel.batch': '批量大小（两个执行路合计）',
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
    'graph.panel.title_model': '模型：一个训练步的调度',
    'graph.panel.title_measured': '在{lanes}上实测各方框：调度',
}
