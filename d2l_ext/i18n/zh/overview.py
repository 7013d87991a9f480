"""12.3 概览：按硬件规则做出的预测。"""
MESSAGES = {
    'overview.prediction': '预测：同时运行的速度是先后运行的 {speedup}（{assumption}）',
    'overview.assume.separate': '不同的硬件',
    'overview.assume.shared': '{cores} 个核心上，{lanes} 条执行路中有 {ways} 条能同时运行',
}
