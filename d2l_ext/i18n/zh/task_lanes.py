"""13.3.1的评分任务 '13.3.1-lanes'（run_together）：任务说明与评语。"""
MESSAGES = {
    'task.lanes.description': '每个执行单元运行一项工作，让各个执行单元同时运行',
    'task.lanes.ran': 'run_together 运行了 {runs} 次，没有出错',
    'task.lanes.calls': '各项工作被调用了 {calls} 次；每次调用中每项工作只能调用一次',
    'task.lanes.count': '{lanes} 个执行单元，却得到 {got} 个结果',
    'task.lanes.not_results': '结果 {lane} 是 {got}，不是 works[{lane}]() 返回的 {products} 个张量',
    'task.lanes.order': '结果 {lane} 装的是执行单元 {other} 的乘积',
    'task.lanes.wrong': '结果 {lane}：与 float64 相比相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.lanes.correct': '每个结果都与 float64 相符：最大相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.lanes.threads': 'CPU 执行单元 {lane} 用了 {got} 个线程；它应得 {want} 个',
    'task.lanes.threads_ok': '每个 CPU 执行单元都用了它应得的线程数',
    'task.lanes.safe': 'run_together 返回时，每个执行单元都已完成',
    'task.lanes.safe_unknown': '结果有误，因此未判断是否安全',
    'task.lanes.unsafe_cpu': 'run_together 返回时，执行单元 {lane}（一个CPU线程）仍在运行',
    'task.lanes.unsafe_gpu': 'run_together 返回时，执行单元 {lane} 的GPU仍在计算',
    'task.lanes.unsafe_value': '结果是在 run_together 返回之后才填入的',
    'task.lanes.unfinished': 'run_together 返回 {seconds:.0f} 秒后，仍有工作没有完成',
    'task.lanes.overlap': ('较短的执行单元有 {measured:.0%} 的忙碌时间与另一个同时运行（模型 {predicted:.0%}）；'
                           '挂钟 {wall:.3f} 秒，忙碌合计 {serial:.3f} 秒'),
}
