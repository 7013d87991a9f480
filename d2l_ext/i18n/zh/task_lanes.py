"""13.3.1的评分任务 '13.3.1-lanes'（run_together）：任务说明与评语。"""
MESSAGES = {
    'task.lanes.description': '每条执行路运行一项工作，让各条执行路同时运行',
    'task.lanes.raised': 'run_together 引发了 {error}',
    'task.lanes.ran': 'run_together 运行了 {runs} 次，没有出错',
    'task.lanes.calls': '每次调用 run_together 时，每项工作必须恰好调用一次；实际调用次数为 {calls}',
    'task.lanes.count': '每条执行路应返回一个结果：{lanes} 条执行路，却得到 {got} 个',
    'task.lanes.not_results': ('结果 {lane} 应当是 works[{lane}]() 的返回值（含 {products} 个张量的列表）；'
                               '实际得到 {got}'),
    'task.lanes.order': '结果 {lane} 装的是执行路 {other} 的乘积：请按 lanes 的顺序返回结果',
    'task.lanes.wrong': '结果 {lane} 与 float64 参考值不符：相对误差 {error:.1e}，容差 {tolerance:.0e}',
    'task.lanes.correct': '每个结果都与 float64 参考值相符：最大相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.lanes.threads': ('执行路 {lane}（CPU 执行路）用了 {got} 个线程，它应得 {want} 个：在该执行路自己的线程里调用 '
                           'torch.set_num_threads(lane.threads)'),
    'task.lanes.threads_ok': '每条 CPU 执行路都用了它应得的线程数',
    'task.lanes.safe': 'run_together 返回时，每条执行路都已完成',
    'task.lanes.safe_unknown': '结果有误，因此未判断是否安全',
    'task.lanes.unsafe_cpu': 'run_together 返回时，执行路 {lane}（一个CPU线程）仍在运行：返回之前要等待每个线程',
    'task.lanes.unsafe_gpu': ('run_together 返回时，执行路 {lane} 的GPU还没有算完排入队列的乘法：'
                              '要同步用到的每个GPU（torch.cuda.synchronize(lane.index)）'),
    'task.lanes.unsafe_value': '结果是在 run_together 返回之后才填入的：调用者立即读取会读到缺失的值',
    'task.lanes.unfinished': 'run_together 返回 {seconds:.0f} 秒后，仍有工作没有完成',
    'task.lanes.overlap': ('较短的执行路在其忙碌时间的 {measured:.0%} 里，另一条执行路也在忙碌'
                           '（同时启动的执行路预测为 {predicted:.0%}；要求至少 {threshold:.0%}）；'
                           '挂钟时间 {wall:.3f} 秒，各执行路忙碌时间合计 {serial:.3f} 秒，较长的一条 {longest:.3f} 秒'),
}
