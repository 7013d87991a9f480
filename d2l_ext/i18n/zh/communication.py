"""13.3.2 并行计算与通信：复制方式、预期与证据。"""
MESSAGES = {
    'communication.what': '这次运行',
    'communication.variant.run': '计算（只算乘积）',
    'communication.variant.copy': '复制（只做复制）',
    'communication.variant.run_then_copy': '先计算，后复制',
    'communication.variant.overlapped': '计算与复制一起发出',
    'communication.variant.warm': '之后的调用（已预热）',
    'communication.variant.cold': '第一次调用（冷启动）',
    'communication.variant.lane1_compute_and_copy': '执行路 1 计算并复制，单独运行',
    'communication.variant.lane2_compute': '执行路 2 计算，单独运行',
    'communication.variant.together': '两个执行路同时运行',
    'communication.variant.serial_sum': '先后运行（用时之和）',
    'communication.variant.expected.separate': '预期：max(各执行路用时)，硬件相互独立',
    'communication.variant.expected.shared': '预期：各执行路共用 CPU 核',
    'communication.variant.expected.engine': '预期：没有收益，MXNet 的引擎已用上所有核',
    'communication.mode.cpu_analogue': 'CPU 上的类比：由第二个线程复制',
    'communication.plan.copy_thread': '预先分配的主机缓冲区，由第二个线程复制',
    'communication.plan.engine_new_array': '每个结果一个新的主机数组，由引擎安排顺序',
    'communication.rule.separate': 'max(计算, 复制)：复制引擎与计算单元并行工作',
    'communication.rule.one_stream': '计算 + 复制：排在乘积所在流上的复制要等乘积完成',
    'communication.rule.shared': '复制线程与计算线程共用 CPU 核',
    'communication.rule.engine': '计算 + 复制：MXNet 的引擎已让所有核忙于乘积',
    'communication.no_link': '这里没有 GPU，也就没有设备到主机的链路：下面各行是标明了的 CPU 类比。',
    'communication.link': '普通的设备到主机复制：可分页内存 {pageable:.1f} GB/s，锁页内存 {pinned:.1f} GB/s',
    'communication.first_copy.no_gpu': '这里没有 GPU：主机内存无需锁页，因此不存在冷启动的第一次复制',
    'communication.first_copy.summary': (
        '书中的 copy_to_cpu(y, non_blocking=True)：'
        '第一次调用 {cold:.3f} 秒，'
        '之后的调用 {warm:.3f} 秒（第一次调用要为新的主机内存锁页）'
    ),
    'communication.timeline.cpu_analogue': 'CPU 上的类比：计算线程与复制线程',
    'communication.first_copy.title': '书中的 non_blocking 复制：第一次调用要为新内存锁页',
    'communication.profile_title': 'torch.profiler：主机等待的时间远长于 GPU 复制的时间',
}
