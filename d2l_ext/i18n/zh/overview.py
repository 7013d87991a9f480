"""12.3 概览（英文版13.3.0）：机器、预测、结论与小结，全部由测量到的数字生成。"""
MESSAGES = {
    'overview.lanes_of': '{framework} 在这台机器上的执行路：',
    'overview.assume.separate': '假设各执行路在不同的硬件上（每条执行路有自己的设备），且单独运行时耗时大致相同',
    'overview.verdict.as_expected': ('实测 {measured:.2f} 倍；由各执行路单独运行的用时得到的预测为 {expected:.2f} '
                                     '倍：{within}。'),
    'overview.verdict.below': ('实测 {measured:.2f} 倍，低于由各执行路单独运行的用时得到的 {expected:.2f} 倍；'
                               '“同时运行”的各次重复给出 {low:.2f} 倍到 {high:.2f} 倍。'),
    'overview.verdict.above': ('实测 {measured:.2f} 倍，高于由各执行路单独运行的用时得到的 {expected:.2f} 倍；'
                               '“同时运行”的各次重复给出 {low:.2f} 倍到 {high:.2f} 倍。'),
    'overview.checked': '每个矩阵乘法的结果都与 float64 参考结果比较过：最大相对误差 {error:.1e}。',
    'overview.recorded.none': '这里没有 GPU 上的录制结果，所以本Jupyter记事本无法展示 GPU 上的证据。',
    'overview.summary.separate': ('1. 多个设备：在这台机器上，两条执行路同时运行的速度是先后运行的 {speedup:.2f} 倍'
                                  '（由各执行路单独运行的用时预测为 {expected:.2f} 倍）。'),
    'overview.summary.gpu': ('   录制于 {gpu}，{date}：{products}（{size}x{size}）；同时运行的速度是先后运行的 '
                             '{speedup:.2f} 倍（由各执行路单独运行的用时预测为 {expected:.2f} 倍）。'),
    'overview.summary.comm': ('2. 计算与通信（录制于 {gpu}，{date}）：只计算 {iters} 个 {size}x{size} 的矩阵乘积用'
                              '时 {run:.3f} 秒；计算并把每个结果复制到主机上{buffers}，在同一个流上用时 {one:.3f} '
                              '秒，使用复制流和事件用时 {two:.3f} 秒。'),
    'overview.summary.no_comm': '2. 计算与通信：这里没有 GPU 上复制操作的录制结果。',
    'overview.summary.graph': ('3. 依赖图：扩展一节“依赖图”把一个训练步拆分到两条执行路上，'
                               '并与在一条执行路上处理整个小批量相比较。'),
    'overview.summary.no_base': '这份录制中没有一个设备单独做两条执行路工作的运行，所以其中没有这项比较。',
    'overview.prediction': '按硬件规则预测：同时运行的速度是先后运行的 {speedup:.2f} 倍，{assumption}',
    'overview.assume.shared': ('假设 CPU 执行路在 {cores} 个核心上，每条执行路 {threads} 个线程：核心能分给几条，就'
                               '有几条（{ways} 条）同时运行'),
    'overview.summary.split': ('1. 多个设备：这台机器没有第二个设备，它的两条执行路把 CPU 的 {cores} 个核心分开用（'
                               '每条执行路用各自的核心）。同时运行的速度是先后运行的 {speedup:.2f} 倍；一条用上全部 '
                               '{cores} 个核心的执行路用时 {baseline:.3f} 秒，同时运行 {together:.3f} 秒：{verdict}'),
    'overview.summary.shared': ('1. 多个设备：这台机器没有第二个设备，它的两条执行路共用 CPU 的 {cores} '
                                '个核心（线程多于核心）。同时运行的速度是先后运行的 {speedup:.2f} 倍；一条用上全部 '
                                '{cores} 个核心的执行路用时 {baseline:.3f} 秒，同时运行 {together:.3f} 秒：{verdict}'),
    'overview.summary.base': ('{lane}：单独做两条执行路的工作用时 {baseline:.3f} 秒，同时运行 {together:.3f} '
                              '秒：{verdict}'),
    'overview.verdict.not_apart': '实测 {measured:.2f} 倍；由各执行路单独运行的用时得到的预测为 {expected:.2f} 倍。',
    'overview.verdict.unequal': ('各执行路单独运行分别用时 {times} 秒，并不相等：由这些用时得到的预测为 {expected:.2'
                                 'f} 倍，而按硬件规则的预测（{closed:.2f} 倍）假定各执行路用时相等。'),
    'overview.buffers.pinned.prealloc': '重复使用的锁页内存缓冲区',
    'overview.buffers.pinned.fresh': '新分配的锁页内存张量',
    'overview.buffers.pageable.prealloc': '重复使用的可分页内存缓冲区',
    'overview.buffers.pageable.fresh': '新分配的可分页内存张量',
}
