"""命令行（python -m d2l_ext），供教师使用。"""
MESSAGES = {
    'cli.error': '{prog}：错误：{message}',
    'cli.interrupted': '{prog}：已中断；没有留下仍在运行的工作进程',
    'cli.recording_to': '记录结果将写入 {path}',
    'cli.recorded': '已记录到 {path}',
    'cli.out_exists': '{path} 已存在：加上 --force 以替换它，或用 --out 指定另一个文件',
    'cli.out_is_dir': '{path} 是一个文件夹：请用 --out 给出文件名，例如 {suggestion}',
    'cli.out_no_folder': '文件夹 {folder} 不存在：请先创建它，或选择另一个 --out',
    'cli.lane_missing': '计算资源 {lane} 只存在于 {has}，{lacks} 中没有：请单独运行 --framework {has}，或去掉 --lanes',
    'cli.mxnet_missing': "未安装：pip install 'd2l_ext[mxnet]'（Python 3.11，numpy<1.24）",
    'cli.yes_hint': '或者加上 --yes 仍然运行',
    'cli.out_not_regular': ('{path} 不是普通文件，而是{kind}，即使加上 --force 也绝不替换它：'
                            '请选择另一个 {option}，例如 {suggestion}'),
    'cli.kind_file': '一个文件',
    'cli.kind_device': '一个设备',
    'cli.kind_fifo': '一个命名管道（FIFO）',
    'cli.kind_socket': '一个套接字',
    'cli.kind_other': '既不是文件也不是文件夹的对象',
    'cli.not_a_regular_file': '不是普通文件',
    'cli.path_dangling': '{path} 是一个指向不存在目标的链接：请选择另一个 {option}',
    'cli.path_under_file': '{path} 位于一个文件之下，而不是文件夹之下：请选择另一个 {option}',
    'cli.path_is_file': '{path} 是{kind}，而不是文件夹：请选择另一个 {option}，例如 {suggestion}',
    'cli.path_cannot_write': '无法写入 {path}（{reason}）：请在可写的文件夹中选择另一个 {option}，例如 {suggestion}',
    'cli.saved_elsewhere': '无法写入 {path}（{reason}）；记录结果已改存到 {saved}',
    'cli.traces_missing': ('{total} 个跟踪文件中有 {count} 个未能写入（第一个：{first}）；'
                           '上面的数字是完整的：请选择另一个 --trace-dir 以得到跟踪文件'),
    'cli.timeout': '--timeout 必须是 {low} 到 {high} 之间的秒数，收到的是 {value}：例如 30',
    'cli.port': ('--port 必须是 1024 到 65535 之间的整数，收到的是 {value}：'
                 '或者不给出它，自动选择一个空闲端口'),
    'cli.world_range': ('--world-size 在这里必须是 {fewest} 到 {most} 之间的整数（{cores} 个核心；gloo 每个核心'
                        '运行一个进程，至少 2 个），收到的是 {value}'),
    'cli.model_memory': ('{world} 个进程、--layers {layers} --width {width} --batch {batch} 大约需要 {need:.1f} GiB，'
                         '而本机只有 {free:.1f} GiB 可用：请选择 {option} {fit} 或更小'),
    'cli.world_only': '--world-size 在这里只能是 {only}，收到的是 {value}：{turns}',
    'cli.hung_after': '{message}（上限：max({floor} 秒，估计用时 {estimate:.0f} 秒的 {factor} 倍））',
}
