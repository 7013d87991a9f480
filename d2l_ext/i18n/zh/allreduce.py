"""13.3.4 的消息：反向传播仍在进行时就全归约梯度。"""
MESSAGES = {
    'allreduce.version.backward': '不做全归约的训练步（前向传播、反向传播、更新；不发送）',
    'allreduce.version.allreduce': '仅全归约',
    'allreduce.version.serial': '(a) 先反向传播，再全归约',
    'allreduce.version.hooks': '(c) 由梯度钩子发起全归约',
    'allreduce.version.ddp': '(d) DDP，{mb:g} MiB 的桶',
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
    'allreduce.usage.cores': ('{n} 个进程需要 {n} 个核心（每个进程一个），而这台机器给本程序 {cores} 个：进程数'
                              '请取 2 到 {most}'),
    'allreduce.usage.gpus': '{n} 个 NCCL 进程需要 {n} 个 GPU，而这台机器有 {gpus} 个：最多使用 {gpus} 个',
    'allreduce.usage.bucket': '桶的大小 {value!r} 必须是大于 0 的 MiB 数，例如 1 或 0.25,1,4,25',
    'allreduce.usage.port_hint': '请给出 1024 到 65535 之间的空闲端口，或者不给端口让程序自动挑选',
    'allreduce.usage.port_range': '{port} 不是有效端口：请给出 1024 到 65535 之间的端口，或者不给',
    'allreduce.usage.port_busy': '127.0.0.1 上的端口 {port} 已被占用：请换一个端口，或者不给端口让程序自动挑选',
    'allreduce.usage.no_trace': '没有 {version!r} 的时间线：请在运行时给出保存跟踪文件的文件夹（已跟踪：{traced}）',
    'allreduce.usage.size_hint': '请给出正整数 {name}',
    'allreduce.summary.head': ('{processes} 个进程（{backend}），多层感知机：{layers} 层、宽度 {width}，'
                               '每个进程 {batch} 个样本；梯度共 {mb:.1f} MiB'),
    'allreduce.summary.version': '{label:<30} 中位数 {median:.4f} 秒（相对误差 {error:.1e}，重复 {repeats} 次）',
    'allreduce.summary.trace': '{label}在进程 {rank} 上的跟踪文件：{path}（可用 Perfetto 打开）',
    'allreduce.plot.title': '一个训练步，每次重复',
    'allreduce.plot.xlabel': '每步时间（秒，最慢的进程）',
    'allreduce.plot.predicted': '预测',
    'allreduce.version.nosync': 'no_sync 中的 DDP（不发送）',
    'allreduce.processes.gloo': '本节在这台机器上启动 {n} 个进程，每个进程一个CPU核心，通过 gloo 通信',
    'allreduce.processes.one_gpu': ('这台机器只有一块GPU：NCCL 每个进程用一块GPU，所以这里用 CPU 上的 gloo '
                                    '演示进程之间的全归约；这里不使用GPU'),
    'allreduce.processes.nccl': '本节启动 {n} 个进程，每个进程一个GPU，通过 NCCL 通信',
    'allreduce.predict.allreduce': '预测：梯度的全归约                      {seconds:.4f} 秒',
    'allreduce.predict.serial': '预测：(a) 先反向传播再全归约            {seconds:.4f} 秒',
    'allreduce.checked': ('结果正确：一步之后，{versions} 个需要发送的版本都得到了与单个进程在整个小批量上训练相'
                          '同的参数（以 float64 为参考）；梯度的最大相对误差 {error:.1e}，允许 {tol:.1e}（{n} 个'
                          '进程上 float32 的舍入）'),
    'allreduce.perfetto': ('打开跟踪文件：在 ui.perfetto.dev 点击左侧菜单中的“Open trace file”（Perfetto 的界面是'
                           '英文的）；同一条时间轴上是一个进程的反向传播操作和全归约线程'),
    'allreduce.panel.bucket': 'DDP 桶的大小',
    'allreduce.panel.bucket_choice': '滑块上没有 {mb} MiB 的桶：请从 {sizes} 中选择',
    'allreduce.panel.running': '正在启动进程，桶的大小为 {mb:g} MiB……',
    'allreduce.panel.interrupted': '已中断：所有进程均已停止；点击“运行”重新开始。',
    'allreduce.panel.col_bucket': '桶（MiB）',
    'allreduce.panel.col_ddp': '(d) DDP（秒）',
    'allreduce.ratio': '每个进程的批量为 {batch}：仅全归约 / 不做全归约的训练步 = {ratio:.2f}（两者用时中位数之比）',
    'allreduce.plot.timeline_after': '{label}：每个全归约都在反向传播结束后才开始',
    'allreduce.plot.timeline_during': ('{label}：全归约在反向传播结束前 {ms:.0f} 毫秒就开始了\n'
                                       '（各进程的平均；每个进程从自己的起点计时）'),
    'allreduce.mismatch_grad': '进程 {rank} 上的“{version}”使用了错误的梯度：相对误差 {error:.2e} > {tol:.0e}',
    'allreduce.panel.col_seconds': '{label}（秒）',
    'allreduce.version.buckets': '(d) 分桶，1 MiB',
    'allreduce.version.flat': '(b) 扁平：先反向传播，再一个缓冲区',
    'allreduce.version.one_bucket': '{label}（只有一个桶：整个梯度）',
    'allreduce.col.overlap': '重叠（按时间区间）',
    'allreduce.processes.shared': ('本节在这台机器上启动 {n} 个进程，通过 gloo 通信，而这台机器只给本程序 {cores'
                                   '} 个核心：它们轮流使用核心，所以反向传播和全归约不可能在同一时刻运行；本节仍'
                                   '会检查每个结果、画出每条时间线，下面的重叠是两者都在进行（轮流执行）的时间区'
                                   '间'),
    'allreduce.summary.model': ('一次全归约调用的模型：每次调用 {alpha:.3f} 毫秒 + 字节数按总线带宽 {gbps:.2f} G'
                                'B/s 计（环形因子 {ring:.2f}）'),
    'allreduce.ingredient.points': ('一个浮点数的全归约：{small:.3f} 毫秒（{n} 次的中位数；与大小无关的每次'
                                    '调用开销）；{buffer_mb:.0f} MiB 的全归约：{large:.4f} 秒（{m} 次的中位数）'),
    'allreduce.ingredient.fit': ('每次调用的开销 α = {alpha:.3f} 毫秒，总线带宽 = {gbps:.2f} GB/s（环形全归'
                                 '约传输 {ring:.2f} 倍的字节）'),
    'allreduce.overlap.line': ('{label}：它的 {comm:.1f} 毫秒全归约中，有 {measured:.0%} 是在反向传播计算的同时'
                               '进行的（模型：{predicted:.0%}）；{wall}'),
    'allreduce.overlap.none_sent': '{label}：在做性能分析的那一步里没有发送任何东西',
    'allreduce.wall.faster': '(a) 与这一步：{verdict}；这一步更快',
    'allreduce.wall.slower': '(a) 与这一步：{verdict}；这一步更慢',
    'allreduce.wall.same': '(a) 与这一步：{verdict}',
    'allreduce.why.head': '    (a) 减去它，{gain} 毫秒 =',
    'allreduce.why.calls': '{ms} 毫秒是省下的：模型按少了 {k} 次调用算出（{k} × α {alpha:.3f} 毫秒）',
    'allreduce.why.overlap': ('{ms} 毫秒是藏在反向传播背后的全归约（在反向传播计算期间进行，包括它等待其他'
                              '进程的时间），藏起来不等于省下'),
    'allreduce.why.rest': '{ms} 毫秒无法用以上各项解释（较大的四分位距 {spread} 毫秒）',
    'allreduce.why.join': '；',
    'allreduce.sep_list': '、',
    'allreduce.overlap.rule': ('重叠 = 在全归约忙碌的时间里，反向传播也在计算的那部分所占的比例，由性能分析记录的'
                               '时间区间算出（总在 0-100% 之间）；模型 = 假如每次调用在它的梯度就绪时立即开始、并'
                               '且通信拥有自己的硬件，这个比例会是多少；两个训练步的中位数之差大于较大的四分位距'
                               '、且各次重复的中间一半互不重叠时，才算区分得出'),
    'allreduce.model_serial': ('(a) 先反向传播再全归约：实测 {measured} 毫秒（中位数），模型 {predicted} 毫秒'
                               '（是模型的 {ratio:.2f} 倍）'),
    'allreduce.model_under': ('仅全归约：实测 {measured} 毫秒，模型 {predicted} 毫秒：模型低估了 {gap} 毫秒'
                              '（实测是模型的 {ratio:.2f} 倍）'),
    'allreduce.model_over': ('仅全归约：实测 {measured} 毫秒，模型 {predicted} 毫秒：模型高估了 {gap} 毫秒'
                             '（实测是模型的 {ratio:.2f} 倍）'),
    'allreduce.per_call.line': ('(a) 调用了 {calls} 次全归约，扁平对照只调用 1 次，字节数相同；(a) 与扁平对照：{verdic'
                                't}；扁平对照更快，每省下一次调用快 {per:.3f} 毫秒；一个浮点数的全归约测得 α = 每次调'
                                '用 {alpha:.3f} 毫秒'),
    'allreduce.per_call.noise': ('(a) 调用了 {calls} 次全归约，扁平对照只调用 1 次，字节数相同；(a) 与扁平对照：{verdi'
                                 'ct}；一个浮点数的全归约测得 α = 每次调用 {alpha:.3f} 毫秒'),
    'allreduce.plot.title_overlap': '{label}：它的全归约有 {overlap:.0%} 在反向传播期间进行（模型 {predicted:.0%}）',
    'allreduce.plot.title_nothing': '一个训练步，每次重复：没有哪个版本在反向传播期间发送',
    'allreduce.buckets.xlabel': 'DDP 桶的大小（MiB，对数刻度）',
    'allreduce.buckets.ylabel': '每步时间（毫秒，最慢的进程）',
    'allreduce.buckets.model': '模型：每次调用 {alpha:.2f} 毫秒 + 字节数按 {gbps:.2f} GB/s 计',
    'allreduce.buckets.measured': '实测 DDP（每次重复）',
    'allreduce.buckets.serial': '(a) 实测',
    'allreduce.buckets.flat': '(b) 扁平对照实测',
    'allreduce.buckets.one': '只有一个桶：整个梯度',
    'allreduce.buckets.title': ('模型预测最快：{model} MiB（{buckets} 个桶）\n实测最快：{fastest} MiB（中位数 {ms}'
                                ' 毫秒）'),
    'allreduce.buckets.title_model': '模型预测最快：{model} MiB（{buckets} 个桶）',
    'allreduce.buckets.title_same': ('模型预测最快：{model} MiB（{buckets} 个桶）\n实测：没有哪个大小与最快的 {fas'
                                     'test} MiB（中位数 {ms} 毫秒）区分得出'),
    'allreduce.buckets.text': '模型预测最快的桶大小：{model} MiB；实测最快：{fastest} MiB，中位数 {ms} 毫秒（{where}）',
    'allreduce.buckets.text_tied': ('模型预测最快的桶大小：{model} MiB；实测最快：{fastest} MiB，中位数 {ms} 毫秒'
                                    '；与它区分不出的（按下面各行的检验）：{others} MiB（{where}）'),
    'allreduce.buckets.shared': '{mb} MiB 两者都有',
    'allreduce.buckets.neighbours': ('实测的 {measured} MiB 与模型的 {model} MiB 在所试的 {sweep} MiB 中'
                                     '是相邻的两个大小'),
    'allreduce.buckets.apart': ('实测的 {measured} MiB 与模型的 {model} MiB 在所试的 {sweep} MiB 中'
                                '相隔 {steps} 个位置'),
    'allreduce.buckets.text_same': ('模型预测最快的桶大小：{model} MiB；实测：没有哪个大小与最快的 {fastest} MiB（'
                                    '中位数 {ms} 毫秒）区分得出（每个大小与它的中位数之差都不大于较大的四分位距，'
                                    '或者各次重复的中间一半相互重叠）'),
    'allreduce.panel.col_buckets': '调用次数',
    'allreduce.panel.col_overlap': '重叠（实测）',
    'allreduce.panel.col_model': '重叠（模型）',
    'allreduce.panel.col_gain': '(a) − DDP（毫秒）',
    'allreduce.per_call.slower': ('(a) 调用了 {calls} 次全归约，扁平对照只调用 1 次，字节数相同；(a) 与扁平对照：{'
                                  'verdict}；扁平对照更慢，这里看不出调用次数减少带来的节省；按一个浮点数的全归约'
                                  '（α = {alpha:.3f} 毫秒），扁平对照省下的调用值 {saved:.1f} 毫秒；扁平对照还要把'
                                  '每个梯度复制进一个缓冲区再复制回来：这些复制计入它的训练步时间，只是没有单独计'
                                  '时'),
    'allreduce.recorded.where': ('录制于一台有 {gpus} 和 {cores} 个CPU核心的机器：gloo进程运行在它的CPU核心上，'
                                 '每个进程一个核心，没有用GPU（PyTorch {torch}，Python {python}，NumPy {numpy}），'
                                 '日期 {date}；进程数 {sizes}'),
    'allreduce.recorded.where_cpu': ('录制于一台没有GPU的机器，{cores} 个CPU核心（PyTorch {torch}，Python {python}，'
                                     'NumPy {numpy}），日期 {date}；进程数 {sizes}'),
    'allreduce.recorded.run_own': ('{n} 个进程，每个进程占 {cores} 个核心中的一个：{layers} 层、宽度 {width}，每个进程'
                                   ' {batch} 个样本，梯度共 {mb:.1f} MiB；{repeats} 次重复的中位数（最慢的进程）：'),
    'allreduce.recorded.run_shared': ('{n} 个进程在 {cores} 个核心上轮流运行，因此什么也不能重叠：{layers} 层、宽度'
                                      ' {width}，每个进程 {batch} 个样本，梯度共 {mb:.1f} MiB；{repeats} 次重复的中位'
                                      '数（最慢的进程）：'),
    'allreduce.recorded.median': '{label} {ms:.1f} 毫秒',
    'allreduce.recorded.best_ddp_same': '(d) DDP，{mb} MiB 的桶（录制的 {n} 种桶大小里中位数最小的）',
    'allreduce.recorded.best_ddp_each': '(d) DDP，录制的 {n} 种桶大小里中位数最小的（{mb} MiB）',
    'allreduce.recorded.sweep_same': ('DDP 录制了 {n} 种桶大小（{sweep} MiB）；下面的 (d) 是训练步中位数最小的那种，'
                                      '在每个进程数下都是 {mb} MiB'),
    'allreduce.recorded.sweep_each': ('DDP 录制了 {n} 种桶大小（{sweep} MiB）；下面的 (d) 是每个进程数下训练步中位数'
                                      '最小的那种：{each}'),
    'allreduce.recorded.sweep_at': '{n} 个进程时 {mb} MiB',
    'allreduce.recorded.xlabel': 'gloo进程数',
    'allreduce.recorded.ylabel_ms': '训练步时间（毫秒，最慢的进程）',
    'allreduce.recorded.ylabel_overlap': '全归约时间中与反向传播同时进行的比例',
    'allreduce.recorded.measured': '{label}：实测',
    'allreduce.recorded.model': '{label}：模型',
    'allreduce.recorded.title': '录制于 {date}，机器{machine}\n每个 gloo 进程占一个 CPU 核心',
    'allreduce.recorded.timeline': '录制于 {date}（机器{machine}），{n} 个 gloo 进程',
    'allreduce.recorded.no_size': '这份录制没有 {n} 个进程的运行；它有 {sizes}',
    'allreduce.overlap.shared': ('这里 {n} 个进程在 {cores} 个核心上轮流运行，所以反向传播和全归约从不在同一时刻'
                                 '运行：下面的重叠统计的是两者都在进行中的时间区间，一个在等待另一个运行；请看挂钟'
                                 '时间；重叠请看下面每个进程各占一个核心时的录制结果'),
    'allreduce.usage.what_world': '进程数',
    'allreduce.recorded.bad_format': '{where}：不是格式 {format} 的全归约录制结果（格式 {got}）：请重新录制',
    'allreduce.recorded.missing': '{where}：缺少 {missing}：请重新录制',
    'allreduce.ingredient.backward': ('不做全归约的训练步（前向传播、反向传播和更新，不发送）：{seconds:.4f} 秒（'
                                      '中位数）；其中反向传播的各个操作符，按性能分析从第一个到最后一个：{span:.1'
                                      'f} 毫秒（{steps} 个性能分析步的中位数）；它产生 {tensors} 个梯度张量'),
    'allreduce.predict.overlapped': '预测：最佳重叠，max(不做全归约的训练步, 全归约)   {seconds:.4f} 秒',
    'allreduce.summary.overlap': ('{label}：重叠 {measured:.0%}（模型 {predicted:.0%}）；(a) 减去它 {gain:+.1f} '
                                  '毫秒；反向传播的操作符用时是不做全归约的训练步中的 {slowdown:.2f} 倍（性能分析'
                                  '）'),
    'allreduce.panel.col_slowdown': '反向传播操作符用时是单独运行时的几倍（性能分析）',
    'allreduce.guess.none': ('先在 my_guess 里写下你的预测（一个数），再运行这个单元。模型：{predicted:.0%}，实测：'
                             '{measured:.0%}（{label}中，全归约在反向传播期间进行的比例）；{wall}'),
    'allreduce.guess.line': ('你的猜测 {guess:.0%}；模型 {predicted:.0%}；实测 {measured:.0%}（{label}中，全归约在'
                             '反向传播期间进行的比例）；{wall}'),
    'allreduce.recorded.none': '这个软件包没有附带来自有GPU的机器的录制结果',
    'allreduce.plot.title_overlap_faster': ('{label}：它的全归约有 {overlap:.0%} 在反向传播期间进行\n（模型 {predi'
                                            'cted:.0%}）；比 (a) 快 {ms} 毫秒，区分得出'),
    'allreduce.plot.title_overlap_slower': ('{label}：它的全归约有 {overlap:.0%} 在反向传播期间进行\n（模型 {predi'
                                            'cted:.0%}）；比 (a) 慢 {ms} 毫秒，区分得出'),
    'allreduce.plot.title_overlap_untold': ('{label}：它的全归约有 {overlap:.0%} 在反向传播期间进行\n（模型 {predi'
                                            'cted:.0%}）；训练步时间与 (a) 区分不出'),
    'allreduce.recorded.machine_gpu': '有 {gpus} 和 {cores} 个CPU核心',
    'allreduce.recorded.machine_cpu': '没有GPU、有 {cores} 个CPU核心',
    'allreduce.recorded.same_machine': ('这台机器与录制时的机器配置相同（{machine}）：录制结果是同类机器上较早的'
                                        '一次运行，不是本次运行'),
    'allreduce.recorded.other_machine': '这台机器与录制时的机器不同：这里{here}，录制时的机器{there}',
    'allreduce.why.slower': ('{ms} 毫秒是反向传播变慢而损失的：它的操作符（性能分析）用了 {mine} 毫秒，而在不做全'
                             '归约的训练步中是 {alone} 毫秒（是其 {ratio:.2f} 倍）'),
    'allreduce.why.faster': ('{ms} 毫秒是反向传播变快而省下的：它的操作符（性能分析）用了 {mine} 毫秒，而在不做全'
                             '归约的训练步中是 {alone} 毫秒（是其 {ratio:.2f} 倍）'),
    'allreduce.why.rest_larger': ('{ms} 毫秒无法用以上各项解释（较大的四分位距 {spread} 毫秒）：它比上面'
                                  '每一项都大，所以这些项解释不了这个差别'),
    'allreduce.guess.slowdown': ('在它的全归约进行期间，反向传播的操作符用了 {mine} 毫秒，是不做全归约的训练'
                                 '步中 {alone} 毫秒的 {ratio:.2f} 倍（性能分析，各性能分析步的中位数）；模型'
                                 '给它们的是不做全归约时的 {alone} 毫秒'),
    'allreduce.recorded.below': ('{label}（{ms:.1f} 毫秒）比不做全归约的训练步（{alone:.1f} 毫秒）少，两者都是每次重复'
                                 '中最慢进程的中位数：{verdict}；每个进程自己的中位数：不做全归约的训练步 {mine_alone}'
                                 ' 毫秒，{label} {mine} 毫秒'),
    'allreduce.recorded.below_within': '{verdict}',
    'allreduce.recorded.below_beyond': '{verdict}；这里测量的任何东西都解释不了它',
    'allreduce.recorded.processes': ('{label}，按进程和性能分析步：反向传播的操作符用了 {lo:.1f}–{hi:.1f} 毫秒（'
                                     '在不做全归约的训练步中：{alo:.1f}–{ahi:.1f} 毫秒）；它的全归约忙碌了 {clo:.'
                                     '1f}–{chi:.1f} 毫秒（在仅全归约中：{xlo:.1f}–{xhi:.1f} 毫秒）'),
    'allreduce.recorded.cap': ('；反向传播操作符的时间除以全归约忙碌的时间（对各进程和各步求和），把重叠限制在 '
                               '{cap:.0%} 以内'),
    'allreduce.recorded.steps': ('{label}，进程0到{last}上反向传播的操作符用时（毫秒），{steps}；下面的时间线画的'
                                 '是最后一步'),
    'allreduce.recorded.step': '第 {step} 个性能分析步：{spans}',
    'allreduce.recorded.unexplained': ('一个进程的反向传播或全归约为什么比另一个进程的慢、一次重复为什么比另一次'
                                       '慢，这里测量的任何东西都解释不了；模型给每个进程的都是不做全归约的训练步'
                                       '的时间，给每次调用的都是由α和β算出的时间'),
    'allreduce.overlap.line_above': ('{label}：它的 {comm:.1f} 毫秒全归约中，有 {measured:.0%} 是在反向传播计算的'
                                     '同时进行的，高于模型的 {predicted:.0%}（模型中它的全归约用时 {model:.1f} 毫秒）'
                                     '；{wall}'),
    'allreduce.calls_control.line': ('上面“少了几次调用”的各项是模型给出的（调用次数 × α）；实测的扁平对照只调用 1 次'
                                     '而不是 {calls} 次；(a) 与扁平对照：{verdict}；扁平对照更快；模型给少了的 {fewer}'
                                     ' 次调用算出的是 {saved:.1f} 毫秒'),
    'allreduce.calls_control.noise': ('上面“少了几次调用”的各项是模型给出的（调用次数 × α）；实测的扁平对照只调用 1 次'
                                      '而不是 {calls} 次；(a) 与扁平对照：{verdict}，所以看不出这份节省；模型给出的是 '
                                      '{saved:.1f} 毫秒'),
    'allreduce.calls_control.slower': ('上面“少了几次调用”的各项是模型给出的（调用次数 × α）；实测的扁平对照只调用 1 '
                                       '次而不是 {calls} 次；(a) 与扁平对照：{verdict}；扁平对照更慢，所以看不出这份节'
                                       '省；模型给出的是 {saved:.1f} 毫秒'),
    'allreduce.one_call.same': '{label}和扁平对照 (b) 都在反向传播之后对整个梯度做一次全归约；{verdict}',
    'allreduce.one_call.apart': ('{label}和扁平对照 (b) 都在反向传播之后对整个梯度做一次全归约；{verdict}；这里测量的'
                                 '各项都不能把这个差别拆开'),
    'allreduce.ratio_rise.more': ('批量减半后，这个比值变成了原来的 {rise:.2f} 倍（{new:.2f} / {old:.2f}）：多于 2'
                                  ' 倍（超过 {high:.2f} 倍）'),
    'allreduce.ratio_rise.less': ('批量减半后，这个比值变成了原来的 {rise:.2f} 倍（{new:.2f} / {old:.2f}）：少于 2'
                                  ' 倍（低于 {low:.2f} 倍）'),
    'allreduce.ratio_rise.about': ('批量减半后，这个比值变成了原来的 {rise:.2f} 倍（{new:.2f} / {old:.2f}）：约为 '
                                   '2 倍（在 {low:.2f} 倍到 {high:.2f} 倍之间）'),
    'allreduce.trace.file': '这次运行中{label}在进程 {rank} 上的跟踪文件：{path}',
    'allreduce.trace.kept': ('这些文件在这个Jupyter记事本的内核运行期间保留：变量 traces 被替换或内核结束时，文件'
                             '夹会被删除'),
    'allreduce.short.backward': '不做全归约的训练步',
    'allreduce.why.head_untold': ('    (a) 减去它，{gain} 毫秒（上面区分不出快慢：以下各项拆分的是一个各次重'
                                  '复并未确认的差别）='),
    'allreduce.ingredient.allreduce': ('仅全归约（{tensors} 个梯度的全归约，每个张量一次调用，不做训练步）：{seco'
                                       'nds:.4f} 秒（中位数）'),
    'allreduce.model_step': '{label} {seconds:.4f} 秒',
    'allreduce.model_steps': '预测的每步时间（模型给出，下图中的斜线条）：{steps}',
    'allreduce.why.calls_lost': '{ms} 毫秒是损失的：模型按多了 {k} 次调用算出（{k} × α {alpha:.3f} 毫秒）',
    'allreduce.why.overlap_lost': '{ms} 毫秒是损失的：藏在反向传播背后的全归约比 (a) 中少',
    'allreduce.buckets.title_tied': ('模型预测最快：{model} MiB（{buckets} 个桶）\n实测最快：{fastest} MiB（中位数'
                                     ' {ms} 毫秒）；与它区分不出：{others} MiB'),
    'allreduce.buckets.shared_tied': '其中的 {mb} MiB 是模型预测最快的',
    'allreduce.ratio_rise.why': ('；只有训练步的全部时间都是随批量减半的工作（前向传播和反向传播的算术运算）时，才'
                                 '会是 2 倍：参数更新的工作量与批量无关，这次运行也没有分别测量各个部分'),
    'allreduce.row.backward': '不做全归约的\n训练步',
    'allreduce.row.nosync': 'no_sync 中的 DDP',
    'allreduce.row.allreduce': '仅全归约',
    'allreduce.row.serial': '(a) 先反向传播，\n再全归约',
    'allreduce.row.flat': '(b) 扁平',
    'allreduce.row.hooks': '(c) 梯度钩子',
    'allreduce.row.ddp': '(d) DDP，{mb:g} MiB',
    'allreduce.row.one_bucket': '{label}\n（一个桶）',
}
