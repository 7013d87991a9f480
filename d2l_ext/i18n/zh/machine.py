"""这台机器能测出什么：单核心说明与噪声下限（d2l_ext.machine；命令行、课程、评分器）。"""
MESSAGES = {
    'machine.one_core': '1 个核心',
    'machine.cores': '{count} 个核心',
    'machine.turns_lanes': '这台机器只有 {cores}，却要运行 {needed} 个计算资源：它们轮流运行，因此这里测不出重叠或加速',
    'machine.turns_processes': '这台机器只有 {cores}，却要运行 {needed} 个进程：它们轮流运行，因此这里测不出重叠或加速',
    'machine.turns_threads': ('这台机器只有 {cores}，却要运行 {needed} 个线程（乘积与复制）：它们轮流运行，'
                              '因此这里测不出重叠或加速'),
    'machine.noise': ('低于 {ms} 毫秒的时间在这里主要是噪声（时钟与调度），谁快谁慢说明不了什么：'
                      '更大的 --size 或更多的 --iters 才能得到可比较的时间'),
}
