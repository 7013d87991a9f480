"""12.3.2的评分任务 '13.3.2-copy'（run_and_copy）：任务说明与评语。"""
MESSAGES = {
    'task.copy.description': ('计算一系列乘积，并把每个乘积复制到主机内存，让复制与后面的乘积重叠；'
                              '函数一返回，结果就能安全读取'),
    'task.copy.ran': 'run_and_copy 运行完毕，没有出错',
    'task.copy.count': '应返回传入的 {buffers} 个缓冲区（已填好）；实际得到 {got}',
    'task.copy.not_buffer': ('结果 {index} 不是 buffers[{index}]：请把每个乘积复制到传入的缓冲区（预先分配的主机内存，'
                             '在GPU上是锁页内存），然后返回这些缓冲区'),
    'task.copy.wrong': 'buffers[{index}] 与以 float64 计算的 x @ w 不符：相对误差 {error:.1e}，容差 {tolerance:.0e}',
    'task.copy.correct': '每个缓冲区都装着 x @ w：与 float64 相比，最大相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.copy.safe': 'run_and_copy 返回的那一刻，全部 {buffers} 个缓冲区都已复制完毕',
    'task.copy.safe_raised': '未判断安全性：第二次调用引发了错误',
    'task.copy.unsafe_gpu': ('run_and_copy 返回时，buffers[{index}]（共 {buffers} 个）还没有（完全）复制好：返回之前，'
                             '主机必须等待复制流（copy_stream.synchronize()）'),
    'task.copy.unsafe_cpu': ('run_and_copy 返回时，buffers[{index}]（共 {buffers} 个）还没有（完全）复制好：返回之前，'
                             '请先等待复制线程结束（join）'),
    'task.copy.no_intervals_gpu': ('性能分析器只看到 {products} 个 CUDA 内核和 {copies} 次设备到主机的复制：'
                                   '请把每个乘积从GPU复制到它的主机缓冲区'),
    'task.copy.no_intervals_cpu': ('计时器只看到 {products} 个乘积和 {copies} 次复制：'
                                   '请计算 x.mm(w)，再用 buf.copy_(y) 复制'),
    'task.copy.overlap': ('复制在其忙碌时间的 {measured:.0%} 里与某个乘积同时运行（预测 {predicted:.0%}，'
                          '至少需要 {threshold:.0%}）；乘积忙碌 {compute:.4f} 秒，复制忙碌 {copy:.4f} 秒，'
                          '二者相加 {serial:.4f} 秒；这次调用的挂钟时间 {wall:.4f} 秒，比二者的忙碌时间相加少 '
                          '{diff:.4f} 秒：至少有这么长的时间里，乘积和复制同时在忙（这是同时进行的忙碌时间，'
                          '不是与“先计算，后复制”相比省下的时间，这项检查没有为后者计时；缓冲区在调用之前就已分配好，'
                          '在GPU上还已锁页：不计在内）'),
    'task.copy.overlap_equal': ('复制在其忙碌时间的 {measured:.0%} 里与某个乘积同时运行（预测 {predicted:.0%}，'
                                '至少需要 {threshold:.0%}）；乘积忙碌 {compute:.4f} 秒，复制忙碌 {copy:.4f} 秒，'
                                '二者相加 {serial:.4f} 秒；这次调用的挂钟时间 {wall:.4f} 秒，保留 4 位小数时与二者之和'
                                '相等（缓冲区在调用之前就已分配好，在GPU上还已锁页：不计在内）'),
    'task.copy.overlap_more': ('复制在其忙碌时间的 {measured:.0%} 里与某个乘积同时运行（预测 {predicted:.0%}，'
                               '至少需要 {threshold:.0%}）；乘积忙碌 {compute:.4f} 秒，复制忙碌 {copy:.4f} 秒，'
                               '二者相加 {serial:.4f} 秒；这次调用的挂钟时间 {wall:.4f} 秒，'
                               '比二者之和多 {diff:.4f} 秒：至少有这么长的时间里，乘积和复制都不忙碌'
                               '（缓冲区在调用之前就已分配好，在GPU上还已锁页：不计在内）'),
}
