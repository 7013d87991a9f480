"""12.3 概览：按硬件规则做出的预测；练习针对这次运行的答案。"""
MESSAGES = {
    'overview.prediction': '预测：同时运行的用时等于{rule}（{assumption}）',
    'overview.rule.slower': '较慢那条执行路的用时',
    'overview.rule.shared': '各执行路用时之和除以 {ways}',
    'overview.assume.separate': '不同的硬件',
    'overview.assume.shared': '{cores} 个核心上，{lanes} 条执行路中有 {ways} 条能同时运行',
    'overview.answer.busy': '这次运行：其他程序占着核心；请在空闲的机器上再运行一次，并看下面在 GPU 上记录的结果。',
    'overview.vs_serial.faster': '这次运行：比先后运行更快，先后运行让硬件闲着。',
    'overview.vs_serial.same': '这次运行：并不比先后运行快，同时运行没有带来收益。',
    'overview.vs_serial.slower': '这次运行：比先后运行更慢。',
    'overview.vs_device.faster': '也比{baseline}更快：同样的工作，同时运行的执行路更早完成。',
    'overview.vs_device.same': '与{baseline}没有明显差别：胜不过一个设备做两份工作。',
    'overview.vs_device.slower': '比{baseline}更慢：在这里，一个设备做两份工作更好。',
}
