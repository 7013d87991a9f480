"""13.3.3 的评分任务 '13.3.3-mlp'（mlp_step）：任务说明与评语。"""
MESSAGES = {
    'task.mlp.description': '把多层感知机的训练迭代放到两个计算资源上：各自同时处理一半样本，梯度在CPU上求和',
    'task.mlp.ran': 'mlp_step 运行了 {steps} 次训练迭代，没有出错',
    'task.mlp.not_weights': "得到 {got}，而不是键为 'W1'、'b1'、'W2'、'b2' 的字典",
    'task.mlp.shape': '新的 {name} 形状为 {got}，而不是 {want}',
    'task.mlp.correct': ('每次更新都与一个float64设备相符：{steps} 次训练迭代中最大相对误差 {error:.1e}'
                         '（容差 {tolerance:.0e}）'),
    'task.mlp.wrong': ('第 {step} 次训练迭代：与一个float64设备相比相对误差 {error:.1e}（容差 {tolerance:.0e}）；'
                       '你的更新是正确更新的 {scale:.2f} 倍'),
    'task.mlp.calls': '有一次训练迭代调用了 {calls} 次 lane_step',
    'task.mlp.rows': '两半样本分别有 {rows} 行；小批量有 {batch} 行',
    'task.mlp.device': '计算资源 {lane} 的那一半在 {got} 上运行，而不是 {want}',
    'task.mlp.threads': '计算资源 {lane} 的那一半用了 {got} 个线程，而不是它应得的 {want} 个',
    'task.mlp.same_thread': '两半样本在同一个线程（{thread}）上运行',
    'task.mlp.result_device': '新的权重位于 {got}，而不是CPU',
    'task.mlp.server_device': '梯度在 {got} 上求和或更新，而不是CPU',
    'task.mlp.placed': '每一半都在自己的计算资源上运行（{lanes}）；梯度在CPU上求和',
    'task.mlp.no_halves': '没有一次训练迭代通过 lane_step 运行两半样本',
    'task.mlp.overlap': ('{steps} 次训练迭代中最好的一次：较短的一半有 {measured:.0%} 与另一半同时运行'
                         '（中位数 {median:.0%}，预测 {predicted:.0%}）；每次 {batch} 行，{wall:.2f} 毫秒'),
    'task.mlp.overlap_waited': ('{steps} 次训练迭代中最好的一次：较短的一半有 {measured:.0%} 与另一半同时运行'
                                '（GPU 的一半先等待 {waited:.0f} 毫秒）'),
}
