"""13.3.4 的练习'13.3.4-a-after' .. '13.3.4-d-buckets'：描述和每个评分标准的一行。"""
_OFF = '相对误差 {error:.2g}，容差 {tolerance:.0e}'
_VS = '与单个进程在整个小批量上用 float64 训练的结果不同：' + _OFF
_HEAD = '重叠 {measured:.0%}（模型 {predicted:.0%}，要求 {threshold:.0%}）'
_WAIT = '：在 optimizer.step() 之前对每一个调用 wait()'
MESSAGES = {
    'task.allreduce.a.description': '反向传播之后对每个梯度做全归约，并在各进程间取平均',
    'task.allreduce.b.description': '把所有梯度放进一个扁平缓冲区做全归约：每步只调用一次',
    'task.allreduce.c.description': '在每个梯度的钩子中发起全归约（async_op=True），在 step() 之前等待',
    'task.allreduce.d.description': '按参数的逆序把梯度装进大小为 bucket_mb MiB 的桶，每个桶一装满就做全归约',
    'task.allreduce.ran': '{name} 在 2 个进程上运行了 {steps} 步，没有出错',
    'task.allreduce.ran_sizes': '{name} 在 2 个进程上、{sizes} 种桶大小下各运行了 {steps} 步，没有出错',
    'task.allreduce.correct': '参数与单个进程在整个小批量上用 float64 训练的结果一致：最大' + _OFF,
    'task.allreduce.correct_sizes': '{sizes} 种桶大小下，参数都与单个进程用 float64 训练的结果一致：最大' + _OFF,
    'task.allreduce.wrong': '第 {step} 步之后，{parameter} ' + _VS,
    'task.allreduce.wrong_buckets': 'bucket_mb={bucket_mb:g} 时，第 {step} 步之后，{parameter} ' + _VS,
    'task.allreduce.wrong_tied': '第 {step} 步之后只有 {parameter} 不对（' + _OFF + '）：它只列出一次，只能全归约一次',
    'task.allreduce.wrong_frozen': '第 {step} 步之后，冻结的参数 {parameter} 改变了：requires_grad=False',
    'task.allreduce.wrong_sum': '每个参数都移动了 {n} 倍距离：梯度求了和，没有取平均（' + _OFF + '）',
    'task.allreduce.wrong_local': '每个进程只按自己那一半的梯度移动：全归约的结果没有写回梯度',
    'task.allreduce.none_grad': '{parameter} 被冻结（.grad 为 None），却把 None 传给了 dist.all_reduce',
    'task.allreduce.no_allreduce': '有一步没有做任何全归约：只有通过通信才能得到整个小批量的梯度',
    'task.allreduce.leftover_hooks': '第 {step} 步为 {params} 个梯度启动了 {calls} 次全归约：上一步的钩子仍然注册着',
    'task.allreduce.safe': '优化器更新开始时，每个全归约都已完成',
    'task.allreduce.unsafe': '第 {step} 步更新开始时，{calls} 个全归约里有 {unfinished} 个还没有完成' + _WAIT,
    'task.allreduce.unwaited': '第 {step} 步以 async_op=True 发起了 {calls} 个全归约，只等待了 {waits} 个' + _WAIT,
    'task.allreduce.calls': '每步一次全归约，一次处理所有梯度',
    'task.allreduce.calls_wrong': '每步调用了 {calls} 次全归约：把所有梯度放进一个扁平缓冲区',
    'task.allreduce.buckets': '每种桶大小下都是每个桶一次全归约（最后一种：{expected} 个桶）',
    'task.allreduce.buckets_wrong': 'bucket_mb={bucket_mb:g} 时，每步调用了 {calls} 次全归约，应为 {expected} 个桶',
    'task.allreduce.buckets_forward': '桶按前向顺序装入：应使用 reversed(list(model.parameters()))',
    'task.allreduce.overlap_info': '重叠 {measured:.0%}（此处不评分；模型 {predicted:.0%}：在反向传播之后发送）',
    'task.allreduce.overlap_after': _HEAD + '：没有一个全归约在反向传播结束之前开始',
    'task.allreduce.overlap_blocking': _HEAD + '：反向传播在全归约中等待；请传入 async_op=True',
    'task.allreduce.overlap_low': _HEAD + '：全归约大多在反向传播之后进行',
    'task.allreduce.hung': '进程 {rank} 在 {seconds:.0f} 秒后仍未完成；两个进程都已停止',
    'task.allreduce.waited': '进程 {rank} 为另一进程从未参与的全归约等待了 {seconds:.0f} 秒：请以相同顺序做相同的调用',
    'task.allreduce.died': '进程 {rank} 没有留下任何信息就结束了（{code}）；两个进程都已停止',
    'task.allreduce.stopped': '进程 {rank} 被暂停（SIGSTOP 或调试器），不是调用不匹配；两个进程都已结束',
    'task.allreduce.failed': '进程 {rank} 失败：{error}',
    **{f'task.allreduce.overlap{side}{slow}': _HEAD + ('；单独计时，这些调用用了模型的 {ratio:.1f} 倍，未检验原因'
                                                       if slow else '') for side in ('', '_above', '_above_shorter')
       for slow in ('', '_slow')},
}
