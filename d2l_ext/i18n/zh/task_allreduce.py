"""13.3.4 的练习'13.3.4-a-after' .. '13.3.4-d-buckets'：描述和评分结果的句子。"""
_OVERLAP = ('重叠：全归约进行的时间里，有 {measured:.0%} 的时间反向传播在计算，SIDE模型对本评分网络预测的 '
            '{predicted:.0%}；模型让每个全归约在其梯度就绪时开始，用它在这里单独运行的时间：{calls} 次调用（每步 '
            '{per_step:g} 次 × {steps} 步 × {processes} 个进程）× {each:.2f} 毫秒 = {alone:.1f} 毫秒；它们共进行了 '
            '{busy:.1f} 毫秒LONGER；要求 {threshold:.0%}SLOW')
_SLOW = '；单独计时，这些调用用了每次调用开销 + 带宽模型的 {ratio:.1f} 倍（每次 {model_each:.2f} 毫秒）；未检验原因'
_PARTS = {'': ('不高于', ''), '_above': ('高于', '，比这更长'), '_above_shorter': ('高于', '，比这更短')}
_OFF = '相对误差 {error:.2g}，容差 {tolerance:.0e}'
_HEAD = '重叠 {measured:.0%}（模型 {predicted:.0%}，要求 {threshold:.0%}）：'
MESSAGES = {
    'task.allreduce.a.description': '反向传播之后对每个梯度做全归约，并在各进程间取平均',
    'task.allreduce.b.description': '把所有梯度放进一个扁平缓冲区做全归约：每步只调用一次',
    'task.allreduce.c.description': '在每个梯度的钩子中发起全归约（async_op=True），在 step() 之前等待',
    'task.allreduce.d.description': '按参数的逆序把梯度装进大小为 bucket_mb MiB 的桶，每个桶一装满就做全归约',
    'task.allreduce.ran': '{name} 在 2 个进程上运行了 {steps} 步，没有出错',
    'task.allreduce.correct': ('{steps} 步中每一步之后，参数都与单个进程在整个小批量上用 float64 训练的结果一致：'
                               '最大相对误差 {error:.1e}（容差 {tolerance:.0e}）'),
    'task.allreduce.wrong': '第 {step} 步之后，{parameter} 与单个进程在整个小批量上用 float64 训练的结果不同：' + _OFF,
    'task.allreduce.wrong_buckets': ('bucket_mb={bucket_mb:g} 时，第 {step} 步之后，{parameter} 与单个进程在整个'
                                     '小批量上用 float64 训练的结果不同：' + _OFF),
    'task.allreduce.wrong_tied': ('第 {step} 步之后，只有 {parameter} 不对（' + _OFF + '）：它在前向传播中用了两次，'
                                  '但在 model.parameters() 中只列出一次，只能全归约一次'),
    'task.allreduce.wrong_frozen': ('第 {step} 步之后，冻结的参数 {parameter} 改变了（相对误差 {error:.2g}）：'
                                    'requires_grad=False 的参数必须保持不变'),
    'task.allreduce.wrong_sum': '每个参数都移动了 {n} 倍距离：梯度在 {n} 个进程间求了和，没有取平均（' + _OFF + '）',
    'task.allreduce.wrong_local': '每个进程只按自己那一半的梯度移动：全归约的结果没有写回梯度（' + _OFF + '）',
    'task.allreduce.none_grad': '{parameter} 没有梯度（被冻结：.grad 为 None），却把 None 传给了 dist.all_reduce',
    'task.allreduce.no_allreduce': '有一步没有做任何全归约：只有通过通信才能得到整个小批量的梯度',
    'task.allreduce.leftover_hooks': '第 {step} 步为 {params} 个梯度启动了 {calls} 次全归约：上一步的钩子仍然注册着',
    'task.allreduce.safe': '优化器更新开始时，每个全归约都已完成',
    'task.allreduce.unsafe': ('第 {step} 步中，优化器更新开始时，{calls} 个全归约里有 {unfinished} 个还没有完成：'
                              '在 optimizer.step() 之前对每一个调用 wait()'),
    'task.allreduce.unwaited': ('第 {step} 步更新之前以 async_op=True 发起了 {calls} 个全归约，只等待了 {waits} 个：'
                                '在 optimizer.step() 之前对每一个调用 wait()'),
    'task.allreduce.calls': '每步一次全归约，一次处理所有梯度',
    'task.allreduce.calls_wrong': '每步调用了 {calls} 次全归约：把所有梯度放进一个扁平缓冲区，只调用 {expected} 次',
    'task.allreduce.buckets': '每种桶大小下都是每个桶一次全归约（最后一种：{expected} 个桶）',
    'task.allreduce.buckets_wrong': ('bucket_mb={bucket_mb:g} 时，每步调用了 {calls} 次全归约，'
                                     '但这个大小的桶装下全部梯度需要 {expected} 个桶'),
    'task.allreduce.buckets_forward': ('桶按前向顺序装入（bucket_mb={bucket_mb:g}）；应按反向传播的顺序装桶：'
                                       'reversed(list(model.parameters()))'),
    'task.allreduce.overlap_info': ('重叠（此处不评分）：全归约进行的时间里，有 {measured:.0%} 的时间反向传播在计算；'
                                    '预测为 {predicted:.0%}：它们在反向传播之后才开始'),
    'task.allreduce.overlap_after': _HEAD + '没有一个全归约在反向传播结束之前开始',
    'task.allreduce.overlap_blocking': _HEAD + ('全归约在反向传播期间开始了，但反向传播在其中等待；'
                                                '请传入 async_op=True，只在更新之前调用 wait()'),
    'task.allreduce.overlap_low': _HEAD + '全归约大多在反向传播之后进行',
    'task.allreduce.hung': '进程 {rank} 在 {seconds:.0f} 秒后仍未完成；两个进程都已停止',
    'task.allreduce.waited': ('进程 {rank} 为一个另一进程从未参与的全归约等待了 {seconds:.0f} 秒：'
                              '每个进程必须以相同的顺序做相同的全归约调用'),
    'task.allreduce.died': '进程 {rank} 没有留下任何信息就结束了（{code}）；两个进程都已停止',
    'task.allreduce.stopped': '进程 {rank} 被暂停（SIGSTOP 或调试器）：不是调用不匹配；两个进程都已结束',
    'task.allreduce.failed': '进程 {rank} 失败：{error}',
    'task.allreduce.ran_sizes': '{name} 在 2 个进程上、{sizes} 种桶大小下各运行了 {steps} 步（共 {total} 步），无错',
    'task.allreduce.correct_sizes': ('{sizes} 种桶大小下，各自 {steps} 步中每一步之后，参数都与单个进程在整个小批量上用'
                                     ' float64 训练的结果一致：最大相对误差 {error:.1e}（容差 {tolerance:.0e}）'),
    **{f'task.allreduce.overlap{kind}{slow}': _OVERLAP.replace('SIDE', side).replace('LONGER', longer).replace(
        'SLOW', _SLOW if slow else '') for kind, (side, longer) in _PARTS.items() for slow in ('', '_slow')},
}
