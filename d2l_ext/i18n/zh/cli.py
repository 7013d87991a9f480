"""命令行（python -m d2l_ext），供教师使用。"""
MESSAGES = {
    'cli.error': 'python -m d2l_ext：错误：{message}',
    'cli.interrupted': 'python -m d2l_ext：已中断；没有留下仍在运行的工作进程',
    'cli.recording_to': '录制结果将写入 {path}',
    'cli.recorded': '已录制到 {path}',
    'cli.out_exists': '{path} 已存在：加上 --force 以替换它，或用 --out 指定另一个文件',
    'cli.out_is_dir': '{path} 是一个文件夹：请用 --out 给出文件名，例如 {path}/recording.json',
    'cli.out_no_folder': '文件夹 {folder} 不存在：请先创建它，或选择另一个 --out',
    'cli.out_not_writable': '无法写入 {folder}：请选择一个可写文件夹中的 --out',
    'cli.lane_missing': '执行路 {lane} 只存在于 {has}，{lacks} 中没有：请单独运行 --framework {has}，或去掉 --lanes',
    'cli.mxnet_missing': "未安装：pip install 'd2l_ext[mxnet]'（Python 3.11，numpy<1.24）",
    'cli.yes_hint': '或者加上 --yes 仍然运行',
}
