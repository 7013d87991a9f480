"""13.3.3 的评分任务 '13.3.3-mlp'（mlp_step）：任务说明与评语。"""
MESSAGES = {
    'task.mlp.description': ('按照依赖图把多层感知机的训练步放到两条执行路上：每条执行路同时处理一半样本，'
                             '梯度在CPU上求和；更新与一个设备的结果相同'),
    'task.mlp.ran': 'mlp_step 运行了 {steps} 个训练步，没有出错',
    'task.mlp.not_weights': "请以字典返回新的权重，键为 'W1'、'b1'、'W2'、'b2'；实际得到 {got}",
    'task.mlp.shape': '新的 {name} 形状为 {got}；{name} 的形状应为 {want}',
    'task.mlp.correct': ('每次更新都与一个设备在整个小批量上的float64结果相符：{steps} 个随机梯度下降步中'
                         '最大相对误差 {error:.1e}（容差 {tolerance:.0e}）'),
    'task.mlp.wrong': ('第 {step} 个随机梯度下降步：更新与一个设备在整个小批量上的float64结果不同（相对误差 '
                       '{error:.1e}，容差 {tolerance:.0e}）；你的更新是正确更新的 {scale:.2f} 倍'),
    'task.mlp.calls': '每个训练步中每一半样本调用一次 lane_step；有一个训练步调用了 {calls} 次',
    'task.mlp.rows': '两半样本分别有 {rows} 行；合起来必须是整个小批量的 {batch} 行',
    'task.mlp.device': '执行路 {lane} 的那一半在 {got} 上运行；执行路 {lane} 是 {want}：请把它的样本和权重移到那里',
    'task.mlp.threads': ('执行路 {lane} 的那一半用 {got} 个线程运行；这条执行路分到 {want} 个线程：'
                         '请在它自己的执行路上运行（run_on_lanes）'),
    'task.mlp.same_thread': '两半样本在同一个线程（{thread}）上运行：请给每条CPU执行路各自的线程',
    'task.mlp.result_device': '新的权重位于 {got}：请在CPU上返回它们，参数服务器在那里保存权重',
    'task.mlp.server_device': '梯度在 {got} 上求和或更新：请在CPU（服务器）上完成',
    'task.mlp.placed': '每一半都在自己的执行路上运行（{lanes}）；梯度在CPU上求和',
    'task.mlp.no_halves': '没有一个训练步通过 lane_step 运行两半样本，因此无法测量重叠',
    'task.mlp.overlap': ('在评分的 {steps} 个训练步中最好的一步里，较短的一半在其忙碌时间的 {measured:.0%} 里，'
                         '另一半也在忙碌（中位数 {median:.0%}；两半同时开始时的预测为 {predicted:.0%}；要求至少 '
                         '{threshold:.0%}）；检查每步使用 {batch} 个样本，一个训练步的挂钟时间 {wall:.2f} 毫秒，两半'
                         '共忙碌 {serial:.2f} 毫秒，较长的一半 {longest:.2f} 毫秒（这 {steps} 步的中位数，之前的 '
                         '{warmup} 步不计入）'),
}
