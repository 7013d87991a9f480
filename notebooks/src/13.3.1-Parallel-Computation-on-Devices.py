# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 13.3.1 Parallel Computation on Devices
#
# *Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition).
#
# The book, on two GPUs: "the total execution time is less than the sum of its parts". You run the book's cells on this
# machine's two **lanes** (hardware that can run work beside other work), then predict and measure.

# %% [markdown] lang="zh"
# # 12.3.1. 基于 GPU 的并行计算
#
# 《动手学深度学习》12.3节“自动并行”中的12.3.1节（英文版编号为 13.3.1）。
#
# 书中说，在两个 GPU 上，“总执行时间小于两个部分执行时间的总和”。
# 这里你将在这台机器的两个**计算资源**上运行书中的代码；计算资源指能与其他工作同时运行的硬件。然后先预测，再测量。

# %% tags=["nbval-ignore-output"]
# %matplotlib inline
import d2l_ext
from d2l_ext.display.machine import machine_line

d2l_ext.set_language('en')
print(machine_line())

# %% [markdown]
# ## The book's cells, on this machine's lanes
#
# The book's `d2l.try_all_gpus()` needs two GPUs, so we take this machine's two lanes: two GPUs, a GPU and the CPU,
# or two CPU lanes with half the cores each.

# %% [markdown] lang="zh"
# ## 在这台机器上运行书中的代码
#
# 书中的 `devices = d2l.try_all_gpus()` 需要两个 GPU（GPU 不足两个时，例如在 Colab 上，`devices[1]` 会引发
# `IndexError`）。所以改用这台机器上的两个计算资源：两个 GPU，一个 GPU 加 CPU，或者把 CPU 的核心分成两半。

# %% tags=["nbval-ignore-output"]
import torch

from d2l_ext.display.parallel import lanes_table

lanes = d2l_ext.find_lanes('torch')  # instead of devices = d2l.try_all_gpus()  #zh: 代替 devices = d2l.try_all_gpus()
devices = [lane.device() for lane in lanes]
lanes_table({'torch': lanes})

# %% [markdown]
# The book's `run` computes 50 products of a 4000 × 4000 matrix on each GPU. Where a lane is a CPU, both lanes use a
# smaller matrix, and a CPU lane beside a GPU gets fewer products. `refs` (float64) checks every answer.

# %% [markdown] lang="zh"
# 书中的 `run` 在每个 GPU 上计算一个 4000×4000 矩阵的 50 次乘法。只要其中有 CPU，两者都用较小的矩阵；
# CPU 与 GPU 搭配时，CPU 分到较少的乘法。`refs` 保存用 float64 计算的乘积，用来核对每个计时得到的结果。

# %% tags=["nbval-ignore-output"]
from d2l_ext.workloads import BOOK_ITERS, BOOK_SIZE, resolve_workload


def run(x, k=50):
    return [x.mm(x) for _ in range(k)]


work = resolve_workload(lanes, lesson=True)  # the book's sizes on two GPUs, else smaller  #zh: 两个 GPU 上用书中的大小，否则更小
N, K = work.size, work.iters  # K: products per lane  #zh: K：每个计算资源的乘法次数
x_gpu1 = torch.rand(size=(N, N), device=devices[0])
x_gpu2 = torch.rand(size=(N, N), device=devices[1])
refs = [x.double().mm(x.double()) for x in (x_gpu1, x_gpu2)]
if lanes[-1].kind == 'cpu':
    torch.set_num_threads(lanes[-1].threads)  # a CPU lane's share of the cores  #zh: 一个 CPU 计算资源分到的核心
each = f'{K[0]} products per lane' if K[0] == K[1] else f'{K[0]} and {K[1]} products per lane'
print(f'this run: {N} × {N} matrices, {each} (the book: {BOOK_ITERS} products of {BOOK_SIZE} × {BOOK_SIZE} per GPU)')
#zh-str: {'{K[0]} products per lane': '两个计算资源各做{K[0]}次乘法', '{K[0]} and {K[1]} products per lane': '两个计算资源分别做{K[0]}次和{K[1]}次乘法', 'this run: {N} × {N} matrices, {each} (the book: {BOOK_ITERS} products of {BOOK_SIZE} × {BOOK_SIZE} per GPU)': '这次运行：{N}×{N}的矩阵，{each}（书中：每个GPU上{BOOK_ITERS}次{BOOK_SIZE}×{BOOK_SIZE}的乘法）'}

# %% [markdown]
# Warm up, then the book's timings. `d2l_ext.Benchmark` keeps the book's idiom but waits for every device used.

# %% [markdown] lang="zh"
# 先预热，再做书中的三次计时。`d2l_ext.Benchmark` 保留了书中的写法，但在开始计时和停止计时之前，
# 都会等待用到的每个设备完成。

# %% tags=["nbval-ignore-output"]
run(x_gpu1, K[0]), run(x_gpu2, K[1])  # warm-up  #zh: 预热
d2l_ext.wait_for_lanes(lanes)

with d2l_ext.Benchmark(f'{lanes[0].label}, one timing', lanes[:1]):
    run(x_gpu1, K[0])

with d2l_ext.Benchmark(f'{lanes[1].label}, one timing', lanes[1:]):
    run(x_gpu2, K[1])
#zh-str: {'{lanes[0].label}, one timing': '{lanes[0].label}，计时一次', '{lanes[1].label}, one timing': '{lanes[1].label}，计时一次'}

# %% [markdown]
# One thread calls both `run`s in turn, as in the book. A GPU `run` only queues its products, so the second runs
# beside the first. A CPU `run` finishes before it returns, so on CPU lanes the second starts when the first ends.
# Each time in these cells is one timing; the figure below repeats every row.

# %% [markdown] lang="zh"
# 一个线程依次调用两个 `run`，与书中一样。GPU 上的 `run` 只是把乘法排入队列就返回，所以第二个与第一个同时运行。
# CPU 上的 `run` 在返回前就算完每个乘法，所以在 CPU 上，第二个要等第一个算完才开始。
# 这几个单元格都只计时一次；下面的图中每一行测量15次。

# %% tags=["nbval-ignore-output"]
run(x_gpu1, K[0]), run(x_gpu2, K[1])  # warm-up, in turn as timed  #zh: 预热，顺序与计时时相同
d2l_ext.wait_for_lanes(lanes)

per = f' ({torch.get_num_threads()} of {d2l_ext.cpu_cores()} cores)' if lanes[0].kind == 'cpu' else ''  # as set above  #zh: 上面设定的
with d2l_ext.Benchmark(f'one thread{per}, both runs in turn, one timing', lanes):
    run(x_gpu1, K[0])
    run(x_gpu2, K[1])
#zh-str: {' ({torch.get_num_threads()} of {d2l_ext.cpu_cores()} cores)': '（{torch.get_num_threads()}个核心，共{d2l_ext.cpu_cores()}个）', 'one thread{per}, both runs in turn, one timing': '一个线程{per}依次调用两个run，计时一次'}

# %% [markdown]
# ### What the clock waits for
#
# With no wait at all, the clock stops before the GPU's work has run. The GPU recording shows it.

# %% [markdown] lang="zh"
# ### 计时要等待什么
#
# 完全不等待时，GPU 上的工作还没运行完，计时就停止了。在 GPU 上记录的结果显示了这一点。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_recorded import plot_recorded_sync, recorded_sync_line
from d2l_ext.recorded import newest

rec = newest()  # the newest GPU recording shipped with the package  #zh: 包里附带的最新 GPU 记录结果
print(recorded_sync_line(rec))  # without a recording: one line saying so  #zh: 没有记录结果时，输出一行说明
plot_recorded_sync(rec)

# %% [markdown]
# ## Two lanes at the same time
#
# One thread keeps several GPUs busy, but not two CPU lanes: each CPU lane needs its own thread, calling
# `torch.set_num_threads(lane.threads)`.

# %% [markdown] lang="zh"
# ## 两个计算资源同时运行
#
# 一个线程就能让多个 GPU 都忙起来，但把 CPU 的核心分成两半时不行：两半各需要自己的 Python 线程，
# 每个线程调用 `torch.set_num_threads(lane.threads)`，设定自己的线程数。

# %% [markdown]
# ### Build it: `run_together`
#
# Write `run_together(lanes, works)`: run `works[i]()` on `lanes[i]`, all lanes at the same time, and return the
# results in order only after every lane has finished. A lane has `.kind` (`'cpu'` or `'gpu'`), `.threads` and
# `.index`; `ThreadPoolExecutor`, `threading` and `torch` are at hand. The check runs in a separate process on this
# machine's lanes (without a GPU, your GPU branch runs on a simulated GPU):
#
# - it runs, and its results match float64;
# - each CPU lane's work runs on `.threads` threads;
# - every lane has finished when it returns;
# - the shorter lane runs at least half of its busy time beside the other (the check prints that share).

# %% [markdown] lang="zh"
# ### 动手实现：`run_together`
#
# 编写 `run_together(lanes, works)`：在 `lanes[i]` 上运行 `works[i]()`，让它们同时运行；等全部
# 完成后，再按顺序返回结果。计算资源有 `.kind`（`'cpu'` 或 `'gpu'`）、`.threads` 和 `.index` 属性；可以直接使用
# `ThreadPoolExecutor`、`threading` 和 `torch`。检查会在单独的进程中，用这台机器的计算资源运行你的函数
# （没有 GPU 时，GPU 分支在模拟的 GPU 上运行）：
#
# - 能否运行，结果是否与 float64 相符；
# - 每个 CPU 计算资源的工作是否用 `.threads` 个线程；
# - 返回时是否全部完成；
# - 两者是否真的同时在忙：执行时间较短的那个，至少一半时间与另一个重叠（检查会输出这个比例）。

# %% tags=["nbval-ignore-output"]
import threading  # at hand for the task  #zh: 供动手实现使用
from concurrent.futures import ThreadPoolExecutor


def run_together(lanes, works):
    # works[i]() on lanes[i], all at once; the results in order  #zh: 各计算资源同时运行 works[i]()；按顺序返回结果
    # TODO: your code here  #zh: TODO：在这里写你的代码
    raise NotImplementedError


mine = run_together  # the measurements below use yours once this check passes  #zh: 这个检查通过后，下面的测量就用你的函数
checked = d2l_ext.check('13.3.1-lanes', run_together)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
#@source d2l_ext.parallel.together.run_together

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
d2l_ext.check('13.3.1-lanes', run_together)  # checks the worked solution above  #zh: 检查上面的参考答案

# %% [markdown]
# ## Predict, then measure
#
# The book's cells on two GPUs, from d2l's own slides:

# %% [markdown] lang="zh"
# ## 先预测，再测量
#
# 书中代码在两个 GPU 上的运行结果（见 d2l.smola.org 的幻灯片）：

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import plot_book_slides

plot_book_slides()  # GPU1, GPU2, their sum and both together, one timing each  #zh: GPU1、GPU2、两者之和、同时运行，各计时一次

# %% [markdown]
# The next cell measures, interleaved, 15 repeats each: each lane alone, together, and the **baseline**: one device
# doing both jobs. On CPU lanes the baseline is the whole CPU (both cores), and a last row, the **control**, runs its
# job on one core.
#
# On CPU lanes, if the baseline runs $r$ times as fast as the control, together saves at most $1 - r/2$ of the
# baseline's time: nothing if $r = 2$, half if $r = 1$. The control row measures $r$.

# %% [markdown] lang="zh"
# 下一个单元格交替测量以下各行，每行测量15次：两者各自单独运行、同时运行，以及**基线**（一个设备完成两项任务）。
# 在 CPU 上，基线是整个 CPU（两个核心），最后一行**对照**用一个核心完成基线的任务。
#
# 在 CPU 上，如果基线的速度是对照的$r$倍，同时运行至多省下基线执行时间的$1 - r/2$：
# $r = 2$时一点也省不下，$r = 1$时省下一半。“对照”一行测出$r$。

# %% tags=["nbval-ignore-output"]
from d2l_ext import parallel
from d2l_ext.display.parallel import alone_line, plot_lanes_run
from d2l_ext.parallel.together import run_together as worked

run_together = mine if checked.passed else worked  # yours once its check passed  #zh: 你的函数通过检查后就用你的
print('measured with your run_together (its check passed)' if checked.passed else
      "measured with the package's run_together (yours has not passed its check yet)")
#zh-str: {'measured with your run_together (its check passed)': '用你的 run_together 测量（它通过了检查）', "measured with the package's run_together (yours has not passed its check yet)": '用参考实现测量（你的版本尚未通过检查）'}
# each lane alone, together, the baseline; on CPU lanes the control  #zh: 两者各自单独运行、同时运行、基线；在 CPU 上还有对照
rows = parallel.lane_rows(run_together, lanes, [x_gpu1, x_gpu2], K, refs, repeats=15)
print(alone_line(rows))  # what you predict from  #zh: 你做预测所用的数字

# %% [markdown]
# How long will the two lanes take together? Write it, in seconds, into `my_guess`. The hatched bar is
# $\max(t_1, t_2)$: on separate hardware the estimate. Two CPU lanes share one CPU's memory and caches, so there it is
# a floor, not a prediction.

# %% [markdown] lang="zh"
# 两项任务同时运行要多久？把你的预测（秒）写进 `my_guess`。
# 斜线条形是$\max(t_1, t_2)$：在相互独立的硬件上，它是估算值；CPU 的两半共用内存和缓存，这时它只是下界，不是预测。

# %%
my_guess = None  # both lanes together, in seconds  #zh: 两项任务同时运行的执行时间（秒）

# %% tags=["nbval-ignore-output"]
plot_lanes_run(rows, my_guess)  # your guess's line once you set it; together vs the baseline by the rule  #zh: 写下猜测后输出它与预测的比较；再按规则比较同时运行与基线

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import lanes_answer

print(lanes_answer(rows, my_guess))  # the worked answer, from this run's numbers  #zh: 参考答案，由这次运行的数字得出

# %% [markdown]
# ## Try it yourself
#
# Choose a size and the products per lane, then press **Run**.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 选择矩阵大小和每个计算资源的乘法次数，然后点击**运行**；每次运行都会追加到表格中。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.panels import ParallelPanel

panel = ParallelPanel(size=400 if lanes[0].kind == 'cpu' else 4000, iters=10).show()

# %% [markdown]
# ## Exercises
#
# **1.** The products inside one `run` are independent. Does the framework run them at the same time by itself?
# MXNet's engine has one worker per core; its control, NaiveEngine, runs one operation at a time. How many times as
# fast as its own one-at-a-time row will MXNet's engine run ten products issued before one wait? Write it into
# `my_guess`.

# %% [markdown] lang="zh"
# ## 练习
#
# **1.** 一次 `run` 里的各次乘法互不依赖。框架会自行让它们同时运行吗？
# MXNet 的引擎每个核心有一个工作线程；
# 作为对照的 NaiveEngine 一次只运行一个操作。把10次乘法全部发出后只等待一次，
# MXNet 引擎的速度会是它自己逐个执行的几倍？把你的猜测写进 `my_guess`。

# %%
my_guess = None  # times as fast as one at a time: MXNet, all issued before one wait  #zh: MXNet 全部发出后只等待一次，速度是逐个执行的几倍

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import independence_answer, plot_independence

size = min(N, 800)  # one size for every run  #zh: 每次运行用同一个大小
cores = d2l_ext.cpu_cores()  # PyTorch on a CPU: each product on every core  #zh: 在 CPU 上，PyTorch 的每个乘法都用全部核心
runs = [parallel.independence('torch', size=size, iters=10, repeats=5, threads=cores)]
if 'mxnet' in d2l_ext.available_frameworks():  # MXNet's engine, then its control  #zh: MXNet 的引擎，再加对照
    runs += [parallel.independence('mxnet', size=size, iters=10, repeats=5, engine=e) for e in (None, 'NaiveEngine')]
plot_independence(runs, my_guess)  # your guess's line once you set it  #zh: 写下猜测后输出它与预测的比较

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(independence_answer(runs))  # the worked answer, from this run's numbers  #zh: 参考答案，由这次运行的数字得出

# %% [markdown]
# **2.** When each operation is small, can two lanes beat one device? The next cell times 800 products of 64 × 64,
# each way 31 times:
#
# - the **baseline**: one thread on the whole device;
# - two lanes together: two threads of 400 products each;
# - one `torch.bmm`: all 800 in one call;
# - on a CPU, the control: the baseline's job on one core.

# %% [markdown] lang="zh"
# **2.** 当每个操作都很小时，同时运行能比一个设备快吗？下一个单元格以 800 次 64×64 的矩阵乘法为例，
# 每种方式测量31次：
#
# - **基线**：一个线程用整个设备；
# - 同时运行：两个线程各做 400 次；
# - 一次 `torch.bmm`：一次调用做完全部 800 次；
# - 在 CPU 上还有对照：用一个核心完成基线的任务。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import plot_small_ops, small_ops_answer, small_ops_baseline

small = parallel.small_ops(size=64, iters=400, repeats=31)  # iters: products per thread, 800 in all  #zh: iters：每个线程的乘法次数，共 800 次
print(small_ops_baseline(small))  # what you predict from  #zh: 你做预测所用的数字

# %% [markdown]
# If the baseline used the whole device fully, two lanes would take its time (the estimate). How long will two lanes
# together take, in ms? Write it into `my_guess`.

# %% [markdown] lang="zh"
# 如果基线充分利用了整个设备，同时运行的执行时间就与它相同（估算）。同时运行要多少毫秒？把你的猜测写进 `my_guess`。

# %%
my_guess = None  # two lanes together, in ms  #zh: 两个计算资源同时运行的执行时间（毫秒）

# %% tags=["nbval-ignore-output"]
plot_small_ops(small, my_guess)  # your guess's line once you set it  #zh: 写下猜测后输出它与预测的比较

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(small_ops_answer(small))  # the worked answer, from this run's numbers  #zh: 参考答案，由这次运行的数字得出

# %% [markdown]
# The book's exercises 3 and 4 are in 13.3.2, exercise 5 in the dependency graph notebook.
#
# ## Remember
#
# * Two lanes on separate hardware take about $\max(t_1, t_2)$; on one CPU that is a floor. Two CPU lanes save at most
#   $1 - r/2$ of the baseline's time ($r$: its speed over one core's).
# * One thread keeps several GPUs busy; eager CPU work needs a thread per lane.
# * Predict from each lane's measured time, then look at every repeat.
#
# ## Pitfalls
#
# * **Timing without synchronizing**: the clock stops before GPU work has run; wait for every device used.

# %% [markdown] lang="zh"
# 书中的练习 3 和练习 4 见12.3.2节，练习 5 见扩展一节“依赖图”。
#
# ## 小结
#
# * 在相互独立的硬件上，同时运行的执行时间约为$\max(t_1, t_2)$；在同一个 CPU 上它只是下界。
#   在 CPU 上，两者同时运行至多省下基线执行时间的$1 - r/2$（$r$：基线比一个核心快的倍数）。
# * 一个线程就能让多个 GPU 都忙起来；命令式执行的 CPU 工作则需要每个计算资源一个线程。
# * 用各自实测的执行时间做预测，再看每次重复。
#
# ## 易错点
#
# * **不同步就计时**：GPU 上的工作还没运行完，计时就结束了；要等待用到的每个设备。
