"""13.3.4 的消息：反向传播仍在进行时就全归约梯度。"""
MESSAGES = {
    'allreduce.version.backward': '仅反向传播（不发送）',
    'allreduce.version.allreduce': '仅全归约',
    'allreduce.version.serial': '(a) 先反向传播，再全归约',
    'allreduce.version.hooks': '(b) 由梯度钩子发起全归约',
    'allreduce.version.ddp': '(c) DDP，{mb:g} MB 的桶',
    'allreduce.col.version': '版本',
    'allreduce.col.median': '每步中位数（秒）',
    'allreduce.col.iqr': '四分位距（秒）',
    'allreduce.col.min': '最小（秒）',
    'allreduce.col.max': '最大（秒）',
    'allreduce.col.predicted': '预测（秒）',
    'allreduce.col.error': '相对误差',
    'allreduce.col.times': '每次重复（秒）',
    'allreduce.lane': '进程 {rank} · {what}',
    'allreduce.lane.compute': '计算',
    'allreduce.lane.allreduce': '全归约',
    'allreduce.mismatch': '进程 {rank} 上的{version}得到了错误的参数：相对误差 {error:.2e} > {tol:.0e}',
    'allreduce.fail.died': '进程 {rank} 意外结束（退出码 {code}）；其余进程均已停止',
    'allreduce.fail.hung': '进程 {rank} 停止响应（{seconds:.0f} 秒没有进展）；所有进程均已停止',
    'allreduce.fail.silent': '进程 {rank} 已有 {seconds:.0f} 秒没有进展；所有进程均已停止',
    'allreduce.fail.error': '进程 {rank} 出错：{kind}：{message}；所有进程均已停止',
    'allreduce.usage.backend': "没有后端 {backend!r}：请选择 'gloo'（CPU）或 'nccl'（至少 2 个 GPU）",
    'allreduce.usage.nccl': 'NCCL 至少需要 2 个 GPU，而这台机器有 {gpus} 个：请改用 --backend gloo',
    'allreduce.usage.world_hint': '请给出不小于 2 的进程数',
    'allreduce.usage.world_small': '只有 {n} 个进程就没有可以一起全归约的对象：请使用至少 2 个进程',
    'allreduce.usage.cores': '{n} 个进程需要 {n} 个核，而这台机器有 {cores} 个：进程数最多为 {cores}',
    'allreduce.usage.gpus': '{n} 个 NCCL 进程需要 {n} 个 GPU，而这台机器有 {gpus} 个：最多使用 {gpus} 个',
    'allreduce.usage.bucket': '桶的大小 {value!r} 必须是大于 0 的 MB 数，例如 1 或 0.25,1,4,25',
    'allreduce.usage.port_hint': '请给出 1024 到 65535 之间的空闲端口，或者不给端口让程序自动挑选',
    'allreduce.usage.port_range': '{port} 不是有效端口：请给出 1024 到 65535 之间的端口，或者不给',
    'allreduce.usage.port_busy': '127.0.0.1 上的端口 {port} 已被占用：请换一个端口，或者不给端口让程序自动挑选',
    'allreduce.usage.no_trace': '没有 {version!r} 的时间线：请在运行时给出保存跟踪记录的文件夹（已跟踪：{traced}）',
    'allreduce.usage.size_hint': '请给出正整数 {name}',
    'allreduce.summary.head': '{processes} 个进程（{backend}），MLP {layers} x {width}，每个进程 {batch} 个样本；'
                              '梯度共 {mb:.1f} MB',
    'allreduce.summary.version': '{label:<30} 中位数 {median:.4f} 秒（相对误差 {error:.1e}，重复 {repeats} 次）',
    'allreduce.summary.bandwidth': '全归约 {buffer_mb:.0f} MB：{seconds:.4f} 秒，总线带宽 {gbps:.2f} GB/s；'
                                   '环形全归约要传输 {ring:.2f} 倍的字节',
    'allreduce.summary.predicted': '预测：全归约 {allreduce:.4f} 秒，先反向传播再全归约 {serial:.4f} 秒，'
                                   '最佳重叠 {overlapped:.4f} 秒',
    'allreduce.summary.hidden': '{label}：全归约有 {fraction:.0%} 隐藏在反向传播之后',
    'allreduce.summary.trace': '{label}在进程 {rank} 上的跟踪记录：{path}（可用 Perfetto 打开）',
    'allreduce.plot.title': '一个训练步，每次重复',
    'allreduce.plot.xlabel': '每步时间（秒，最慢的进程）',
    'allreduce.plot.predicted': '预测',
    'allreduce.plot.timeline': '{label}：每个进程上的一步',
    'allreduce.mxnet': (
        'MXNet 用 KVStore 完成同样的工作：`kv.push(key, grads)` 把多个设备推送来的值求和，'
        '`kv.pull(key, out=...)` 再把和取回；\'device\' 类型的 KVStore 在一台机器的多个加速器上求和，'
        '\'dist_sync\' 类型则通过参数服务器在多台机器之间求和；gluon 的 Trainer 在反向传播之后逐个键地'
        '为每个参数的梯度自动完成推送和拉取，因此引擎可以在后面的梯度还在计算时就开始某个键的归约。'
        '在这台只有 CPU 的机器上，我们只能在同一个进程里用 cpu(0) 和 cpu(1) 两个上下文来演示：'
        '它们共用同样的核和同一块内存，所谓“归约”只是一次内存复制，它与反向传播争用同样的核，'
        '也没有一条独立的链路可供隐藏其时间。这样的测量展示的是争用而不是重叠，所以我们不给出它。'),
}
