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
    'allreduce.version.nosync': 'no_sync 中的 DDP（不发送）',
    'allreduce.machine': 'Python {python}，PyTorch {torch}；{cores} 个CPU核；GPU：{gpus}',
    'allreduce.no_gpu': '无',
    'allreduce.processes.gloo': '本节在这台机器上启动 {n} 个进程，每个进程一个CPU核，通过 gloo 通信',
    'allreduce.processes.nccl': '本节启动 {n} 个进程，每个进程一个GPU，通过 NCCL 通信',
    'allreduce.ingredient.backward': ('仅反向传播（前向传播、反向传播和更新，不发送）：{seconds:.4f} 秒（中位数）；'
                                      '它产生 {tensors} 个梯度张量'),
    'allreduce.predict.allreduce': '预测：梯度的全归约                      {seconds:.4f} 秒',
    'allreduce.predict.serial': '预测：(a) 先反向传播再全归约            {seconds:.4f} 秒',
    'allreduce.predict.overlapped': '预测：最佳重叠，max(反向传播, 全归约)   {seconds:.4f} 秒',
    'allreduce.hidden.most': '{label}：全归约有 {fraction:.0%} 隐藏在反向传播之后，超过一半',
    'allreduce.hidden.part': '{label}：全归约有 {fraction:.0%} 隐藏在反向传播之后，不到一半',
    'allreduce.hidden.noise': ('{label}：隐藏了 {fraction:.0%}，但这在各次重复的波动范围之内：这次运行与 (a) 没有明'
                               '显差别'),
    'allreduce.hidden.slower': ('{label}：比 (a) 慢（隐藏比例 {fraction:.0%}）：这次运行中，提前开始全归约付出的代'
                                '价超过了它隐藏的时间'),
    'allreduce.hidden.rule': '隐藏比例 = ((a) − 该版本) / 仅全归约，均取最慢进程的中位数',
    'allreduce.per_call.costly': ('{calls} 次单独的全归约用了 {measured:.4f} 秒；按实测带宽，同样的字节放在一个缓冲'
                                  '区里只需 {predicted:.4f} 秒：每次调用大约多花 {per_call:.2f} 毫秒，这正是 DDP 把'
                                  '梯度装进桶里的原因之一'),
    'allreduce.per_call.cheap': ('{calls} 次单独的全归约用了 {measured:.4f} 秒，与同样字节放在一个缓冲区里的时间（{'
                                 'predicted:.4f} 秒）相近：在这样的大小下，起决定作用的是字节数而不是调用次数；成百'
                                 '上千个小张量的开销就会累积起来，所以 DDP 把梯度装进桶里'),
    'allreduce.checked': ('结果正确：一步之后，{versions} 个需要发送的版本都得到了与单个进程在整个小批量上训练相同'
                          '的参数（以 float64 为参考）；梯度的最大相对误差 {error:.1e}'),
    'allreduce.perfetto': ('在 ui.perfetto.dev 中打开跟踪记录（“Open trace file”）：同一条时间轴上是一个进程的反向'
                           '传播操作和全归约线程'),
    'allreduce.plot.title_best': '{label}隐藏了全归约的 {fraction:.0%}',
    'allreduce.plot.title_none': '这次运行中没有哪个版本隐藏了全归约',
    'allreduce.panel.bucket': 'DDP 桶的大小',
    'allreduce.panel.bucket_choice': '滑块上没有 {mb} MB 的桶：请从 {sizes} 中选择',
    'allreduce.panel.running': '正在启动进程，桶的大小为 {mb:g} MB……',
    'allreduce.panel.interrupted': '已中断：所有进程均已停止；点击“运行”重新开始。',
    'allreduce.panel.col_bucket': '桶（MB）',
    'allreduce.panel.col_ddp': '(c) DDP（秒）',
    'allreduce.panel.col_hidden': '隐藏比例',
    'allreduce.ratio': '每个进程的批量为 {batch}：仅全归约 / 仅反向传播 = {ratio:.2f}',
    'allreduce.hidden.beyond': ('{label}：“隐藏”了 {fraction:.0%}，超过了整个全归约：机器上的其他工作改变了中位数；'
                                '请再运行一次'),
    'allreduce.plot.title_beyond': '{label}：“隐藏”了 {fraction:.0%}，比全部还多（噪声）',
    'allreduce.plot.timeline_after': '{label}：每个全归约都在反向传播结束后才开始',
    'allreduce.plot.timeline_during': '{label}：全归约在反向传播结束前 {ms:.0f} 毫秒就开始了',
    'allreduce.mismatch_grad': '进程 {rank} 上的{version}使用了错误的梯度：相对误差 {error:.2e} > {tol:.0e}',
    'allreduce.plot.title_noise': '{label}：隐藏了 {fraction:.0%}，在各次重复的波动范围之内',
    'allreduce.panel.col_seconds': '{label}（秒）',
    'allreduce.mxnet': (
        'MXNet 用 KVStore 完成同样的工作：`kv.push(key, grads)` 把多个设备推送来的值求和，'
        '`kv.pull(key, out=...)` 再把和取回；\'device\' 类型的 KVStore 在一台机器的多个加速器上求和，'
        '\'dist_sync\' 类型则通过参数服务器在多台机器之间求和；gluon 的 Trainer 在反向传播之后逐个键地'
        '为每个参数的梯度自动完成推送和拉取，因此引擎可以在后面的梯度还在计算时就开始某个键的归约。'
        '在这台只有 CPU 的机器上，我们只能在同一个进程里用 cpu(0) 和 cpu(1) 两个上下文来演示：'
        '它们共用同样的核和同一块内存，所谓“归约”只是一次内存复制，它与反向传播争用同样的核，'
        '也没有一条独立的链路可供隐藏其时间。这样的测量展示的是争用而不是重叠，所以我们不给出它。'),
}
