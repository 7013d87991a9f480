"""13.3.0 概览：机器、预测、结论与小结，全部由测量到的数字生成。"""
MESSAGES = {
    'overview.lanes_of': '{framework} 在这台机器上的执行路：',
    'overview.assume.separate': '假设各执行路在不同的硬件上（每条执行路有自己的设备），且单独运行时耗时大致相同',
    'overview.assume.shared': ('假设各执行路共用 CPU 核：{cores} 个核，每条执行路 {threads} 个线程，'
                               '因此能同时运行 {ways} 条'),
    'overview.prediction': '预测：同时运行的速度是先后运行的 {speedup:.2f} 倍，{assumption}',
    'overview.verdict.as_predicted': ('实测 {measured:.2f} 倍，预测 {predicted:.2f} 倍：'
                                      '与预测相差不超过 {tolerance:.0%}。'),
    'overview.verdict.no_gain': ('实测 {measured:.2f} 倍，预测 {predicted:.2f} 倍：这次同时运行没有节省时间。'
                                 '看看图中的点：如果它们很分散，说明有别的程序在占用 CPU 核；请再运行一次这个单元格。'),
    'overview.verdict.below': ('实测 {measured:.2f} 倍，低于预测的 {predicted:.2f} 倍：两条执行路互相妨碍了'
                               '（别的程序占用了 CPU 核，或者两条执行路争用内存带宽）。'),
    'overview.verdict.above': ('实测 {measured:.2f} 倍，高于预测的 {predicted:.2f} 倍：'
                               '单独运行的某几次重复受到了干扰而变慢；看看这些点分散得有多开。'),
    'overview.checked': '每个矩阵乘法的结果都与 float64 参考结果比较过：最大相对误差 {error:.1e}。',
    'overview.recorded.none': '这里没有 GPU 上的录制结果，所以本 notebook 无法展示 GPU 上的证据。',
    'overview.recorded.title': '{gpu}：每条执行路 {iters} 个矩阵乘法，同时运行（每个条形是一个乘法）',
    'overview.summary.here_gain': '1. 多个设备：在这台机器上，两条执行路同时运行的速度是先后运行的 {speedup:.2f} 倍。',
    'overview.summary.here_no_gain': ('1. 多个设备：在这台机器上，两条执行路同时运行的速度是先后运行的 '
                                      '{speedup:.2f} 倍，这次没有加速（见上图中的点）。'),
    'overview.summary.gpu': ('   录制于 {gpu}：GPU 执行路与 CPU 执行路同时运行的速度是先后运行的 {speedup:.2f} 倍'
                             '（预期 {expected:.2f} 倍）。'),
    'overview.summary.comm': ('2. 计算与通信（录制于 {gpu}）：单独计算 {iters} 个矩阵乘法用时 {run:.3f} 秒；'
                              '在同一个流上把每个结果复制到主机用时 {one:.3f} 秒；使用复制流和事件用时 {two:.3f} 秒。'),
    'overview.summary.no_comm': '2. 计算与通信：这里没有 GPU 上复制操作的录制结果。',
    'overview.summary.graph': ('3. 依赖图：13.3.3 把一个训练步拆分到两条执行路上，'
                               '并与在一条执行路上处理整个小批量相比较。'),
}
