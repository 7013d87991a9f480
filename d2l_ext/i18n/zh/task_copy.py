"""13.3.2的评分任务 '13.3.2-copy'（run_and_copy）：任务说明与评语。"""
MESSAGES = {
    'task.copy.description': '下一个乘积计算时，把每个乘积复制到主机内存；函数一返回，结果就能安全读取',
    'task.copy.ran': 'run_and_copy 运行完毕，没有出错',
    'task.copy.count': '得到 {got}，而不是传入的 {buffers} 个缓冲区',
    'task.copy.not_buffer': '结果 {index} 不是传入的主机缓冲区 buffers[{index}]',
    'task.copy.wrong': 'buffers[{index}]：与 float64 的 x @ w 相比相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.copy.correct': '每个缓冲区都装着 x @ w：最大相对误差 {error:.1e}（容差 {tolerance:.0e}）',
    'task.copy.safe': 'run_and_copy 返回的那一刻，全部 {buffers} 个缓冲区都已复制完毕',
    'task.copy.safe_raised': '未判断安全性：第二次调用引发了错误',
    'task.copy.unsafe': 'run_and_copy 返回时，buffers[{index}]（共 {buffers} 个）还没有完全复制好',
    'task.copy.no_intervals': '只看到 {products} 个乘积和 {copies} 次到主机内存的复制',
    'task.copy.overlap': '复制用时中与乘法同时进行的占 {measured:.0%}（要求 {threshold:.0%}）',
}
