"""计算资源、结果检查、计时表格、工作量与工作进程（各节共用）。"""
MESSAGES = {
    'core.benchmark': '{description}：{seconds:.4f} 秒',
    'core.machine': 'Python {python}，PyTorch {torch}，MXNet {mxnet}；{cores} 个 CPU 核心；GPU：{gpus}',
    'core.machine_torch': 'Python {python}，PyTorch {torch}；{cores} 个 CPU 核心；GPU：{gpus}',
    'core.gpus': '{count} 块 {name}',  # a machine's GPUs: 'NVIDIA H200 x1'
    'core.not_installed': '未安装',
    'core.no_gpu': '无',
    'core.lane_gpu_label': 'GPU {index}',
    'core.lane_gpu_label_named': 'GPU {index}（{name}）',
    'core.lane_gpu_torch': '一整块 GPU：PyTorch 把 CUDA 内核排入 GPU 的队列后立即返回',
    'core.lane_gpu_mxnet': '一整块 GPU：MXNet 的引擎把计算排入 GPU 的队列后立即返回',
    'core.lane_cpu_label': 'CPU（{cores} 个核心中的 {threads} 个）',
    'core.lane_cpu_plain': 'CPU',
    'core.lane_cpu_number': 'CPU {number}',
    'core.lane_cpu_all_label': 'CPU（{cores} 个核心）',
    'core.lane_cpu_beside_gpu_torch': (
        'CPU，使用 {cores} 个核心中的 {threads} 个（留一个核心给 GPU 启动 CUDA 内核）：PyTorch 在调用线程中把 CPU '
        '运算执行完毕才返回，所以这个计算资源有自己的 Python 线程，与 GPU 同时运行'),
    'core.lane_cpu_beside_gpu_mxnet': 'CPU：MXNet 的引擎在由 {workers} 个 CPU 工作线程组成的线程池上执行运算',
    'core.lane_cpu_share_label': 'CPU {number}（{cores} 个核心中的 {threads} 个）',
    'core.lane_cpu_share_torch': (
        '一个运行 PyTorch 的 Python 线程，使用 {threads} 个操作符内线程，即 {cores} 个核心中的 {threads} 个；'
        'PyTorch 同步执行 CPU 运算，所以两个计算资源需要两个线程。'),
    'core.lane_one_core': '这台机器只有一个核心，两个计算资源只能轮流运行：不要期待加速。',
    'core.lane_worker_row': '{lane} / 工作线程 {worker}',
    'core.lane_mxnet_cpu_label': 'MXNet CPU 上下文 {index}',
    'core.lane_mxnet_cpu': (
        '它的运算交给 MXNet 的依赖引擎，引擎为每个 CPU 设备上下文各配一个由 {workers} 个工作线程组成的线程池；'
        '这两个 CPU 上下文是共用同样 {cores} 个核心的两个线程池，而不是两份独立的硬件'),
    'core.describe_lane': '计算资源 {number}：{label} - {explanation}',
    'core.unknown_lane': '这台机器上 {framework} 没有计算资源 {lane}；现有的计算资源是：{names}',
    'core.lane_twice': '计算资源 {lane} 被指定了两次：每个计算资源只能指定一次',
    'core.no_lane': '请至少指定一个计算资源：{names}',
    'core.mismatch': '{what}：相对误差 {error:.2e} 超过 {tol:.0e}，结果不对',
    'core.worker_not_framework': '工作进程 {worker} 不运行 {framework}',
    'core.worker_failed': ('{framework} 工作进程在完成之前停止了（被终止或崩溃，可能是内存不足）；'
                           '下次运行会启动一个新的工作进程'),
    'core.col_median': '中位数（秒）',
    'core.col_iqr': '四分位距（秒）',
    'core.col_min': '最小值（秒）',
    'core.col_max': '最大值（秒）',
    'core.col_times': '每次重复（秒）',
    'core.iters_per_lane': '请给出一个迭代次数，或每个计算资源各一个（共 {lanes} 个计算资源）',
    'core.where_gpu': 'GPU {index}',
    'core.where_host': '主机内存',
    'core.memory_size': (
        '大小 {size}、每个计算资源 {iters} 次乘法需要 {where} 上 {need:.1f} GiB 内存，而它只有 {free:.1f} GiB 空闲：'
        '请选择不超过 {fit} 的大小，或减少迭代次数'),
    'core.memory_iters': (
        '每个计算资源 {iters} 次大小为 {size} 的乘法需要 {where} 上 {need:.1f} GiB 内存（每个结果还有额外的管理开销），'
        '而它只有 {free:.1f} GiB 空闲：请选择 {option} {fit} 或更少'),
    'core.too_long': '{what}在这台机器上大约需要 {estimate}，超过了 {limit} 的上限：请选择 {suggestion}',
    'core.suggest_iters': '{option} {iters} 或更少（大约 {estimate}）',
    'core.suggest_size': '{option} {size} 或更小，并设 {iters_option} 1',
    'core.duration_s': '{value:.3g} 秒',
    'core.duration_min': '{value:.1f} 分钟',
    'core.duration_h': '{value:.1f} 小时',
    'core.worker_hung': ('{framework} 工作进程在 {seconds} 秒内没有应答（卡住了），已被终止；'
                         '下次运行会启动一个新的工作进程'),
    'core.unknown_framework': "未知的框架 {name}：请从 {names} 中选择一个（命令行中也可以用 'all'）",
    'core.mxnet_missing': ("这里没有安装 MXNet：请用 pip install 'd2l_ext[mxnet]' 安装"
                           '（需要 Python 3.11 和 numpy<1.24），或选择 PyTorch'),
    'core.torch_missing': '这里没有安装 PyTorch：请用 pip install torch 安装',
    'core.what_size': '矩阵大小',
    'core.what_iters': '迭代次数',
    'core.what_repeats': '重复次数',
    'core.not_whole': '{what}必须是整数，得到的是 {value}：{hint}',
    'core.not_positive': '{what}至少为 1，得到的是 {value}：{hint}',
    'core.positive_hint': '请给出正的 {option}，例如 {example}',
    'core.positive_any': '请使用不小于 1 的整数',
    'core.and_hint': '，{hint}',
    'core.no_language': '没有语言 {language}：请从 {choices} 中选择',
    'core.no_results': '请至少给出一个结果，以便与参考值比较',
    'core.not_json': '{path}：无法作为 JSON 读取（{reason}）',
    'core.see_help': '{message}（见 --help）',
    'core.worker_silent': ('{framework} 工作进程 {seconds} 秒内没有任何响应（被暂停或卡死），已将其终止；'
                           '下次运行会启动一个新的'),
}
