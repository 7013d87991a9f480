"""13.3.1-13.3.4 “动手实现”任务的评分：结论、被停止的运行，以及无法评分的输入。"""
MESSAGES = {
    # 学习者看到的任务名（任务编号只用在代码和命令行中）
    'grading.title.lanes': '动手实现 12.3.1：run_together',
    'grading.title.copy': '动手实现 12.3.2：run_and_copy',
    'grading.title.mlp': '动手实现（依赖图）：mlp_step',
    'grading.title.a_after': '动手实现（全归约）(a)：backward_then_allreduce',
    'grading.title.b_flat': '动手实现（全归约）(b)：flat_allreduce',
    'grading.title.c_hooks': '动手实现（全归约）(c)：allreduce_in_hooks',
    'grading.title.d_buckets': '动手实现（全归约）(d)：allreduce_in_buckets',
    # 结论的第一行
    'grading.passed': '✓ 通过：{task}',
    'grading.not_yet': '尚未通过：{task}',
    'grading.cannot_grade': '无法评分 {task}：{reason}',
    'grading.interrupted': '评分已中断：评分进程及其启动的所有进程都已停止',
    # 学习者的函数没有运行完
    'grading.will_check': '能运行之后，检查会看：{checks}',
    'grading.checks.lanes': ('不出错；每个结果都与 float64 一致；run_together 返回时每条执行路都已结束；'
                             '较短的执行路至少有 {threshold:.0%} 的忙碌时间与另一条同时忙碌'),
    'grading.checks.copy': ('不出错；每个结果都与 float64 一致；run_and_copy 返回的那一刻每个缓冲区都已完整；'
                            '复制与乘积并排的时间至少达到为它们预测的重叠的 {threshold:.0%}'),
    'grading.checks.mlp': ('不出错；每个随机梯度下降步都与一个设备处理整个小批量的 float64 结果一致；'
                           '每一半在各自的执行路上，梯度在 CPU 上求和；在被检查的几步中最好的一步里，'
                           '较短的一半至少有 {threshold:.0%} 的忙碌时间与另一半同时忙碌'),
    'grading.checks.allreduce_a': ('在 2 个进程上不出错、不挂起；每一步之后的参数都与一个 float64 进程'
                                   '处理整个小批量的结果一致（包括一个共享权重和一个冻结权重）；'
                                   'optimizer.step() 之前每次全归约都已完成；重叠只显示，不评分'),
    'grading.checks.allreduce_b': '与 (a) 相同，且每一步只调用一次全归约；重叠只显示，不评分',
    'grading.checks.allreduce_c': ('与 (a) 相同，且在全归约进行的时间里，'
                                   '反向传播至少有 {threshold:.0%} 的时间在计算'),
    'grading.checks.allreduce_d': ('与 (c) 相同，桶按 bucket_mb 的要求划分（桶大小分别给出 1、2、3 个桶），'
                                   '且在全归约进行的时间里，反向传播至少有 {threshold:.0%} 的时间在计算'),
    'grading.todo': '仍然抛出 NotImplementedError：请把 TODO 换成你的代码',
    'grading.raised': '{name} 抛出了 {error}',
    'grading.raised_at': '{name} 抛出了 {error}（第 {line} 行）',
    'grading.undefined': '{name} 抛出了 {error}：评分只运行这个函数本身，请在函数内部导入或定义它用到的名字',
    # 评分进程被停止，或自行结束
    'grading.hung': '{seconds:.1f} 秒后被停止，这是本机上此任务的时间上限：有代码在无限等待，或者比任务所需慢得多',
    'grading.hung_startup': '{seconds:.1f} 秒后被停止：评分进程没能完成启动',
    'grading.killed': '评分进程被系统强行终止（SIGKILL），这通常意味着内存不足',
    'grading.out_of_memory': '内存不足（{error}）',
    'grading.crashed_signal': '评分进程崩溃（信号 {signal}）',
    'grading.crashed_code': '评分进程在报告结果之前就结束了（退出码 {code}）：你的代码是否调用了退出？',
    'grading.crashed_error': '评分因 {error} 而停止',
    'grading.task_broken': '此任务无法在这里加载（{error}）',
    'grading.no_criteria': '评分程序没有测到任何结果',
    # 无法评分的输入（命令行以退出码 2 结束）
    'grading.syntax': '第 {line} 行有语法错误：{message}',
    'grading.missing': '请定义函数 {signature}（在顶层没有找到函数 {name}）',
    'grading.signature': '{name} 的参数是（{got}）；任务要求 {signature}',
    'grading.top_level': '运行函数之外的代码时抛出了 {error}',
    'grading.no_task': '没有任务 {task}：请从 {tasks} 中选择',
    'grading.no_file': '{path} 不存在：请给出定义了你的函数的文件',
    'grading.is_dir': '{path} 是一个文件夹：请给出定义了你的函数的 .py 文件',
    'grading.unreadable': '无法读取 {path}（{error}）',
    'grading.not_regular': '{path} 不是普通文件：请给出定义了你的函数的 .py 文件',
    'grading.not_utf8': '{path} 不是 UTF-8 文本：请以 UTF-8 编码保存',
    'grading.too_big': '{path} 超过 {limit} 字节：请只给出包含你的函数的文件',
    'grading.no_source': '找不到 {name} 的源代码：请在笔记本单元格或文件中定义它，然后再检查一次',
    'grading.not_function': '请传入你的函数本身，而不是 {given}',
    'grading.names': '{task} 评分的函数是 {wanted}；收到的是 {given}：请传入这些名字的函数',
    'grading.bad_budget': '时间上限必须是正的秒数，而不是 {value}',
    # 任务评分程序可以使用的通用评分项
    'grading.correct': '数值：与 float64 参考结果相比，最大相对误差为 {error:.1e}（容差 {tolerance:.0e}）',
    # 命令行
    'grading.cli_error': 'python -m d2l_ext check：错误：{message}',
    'grading.cli_usage': '请给出任务编号和文件（check 13.3.1-lanes my_answer.py），或使用 --list',
    'grading.cli_interrupted': 'python -m d2l_ext check：已中断；没有留下仍在运行的进程',
}
