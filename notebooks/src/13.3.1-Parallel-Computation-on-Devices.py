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
# Two independent pieces of work on two devices should take about **max(t1, t2)**, not t1 + t2,
# because the framework hands work to each device and returns without waiting. The book shows this
# with two GPUs. This notebook runs the same experiment on *whatever this machine has*, measures it
# properly, and says plainly what each "lane" is.
#
# What you will see:
# 1. the machine and its lanes;
# 2. the book's cells, on this machine's lanes, with a timer that waits for every device;
# 3. the book's own timing mistake, with numbers where the hardware can show it;
# 4. careful measurements (warm-up, repeats, median and spread, answers checked) for PyTorch and MXNet side by side;
# 5. a timeline of which product ran where, a scaling plot, and a panel to try sizes yourself;
# 6. exercises 1 and 2 of the section as experiments.

# %% [markdown] lang="zh"
# # 13.3.1 设备上的并行计算
#
# *动手学深度学习*（Dive into Deep Learning），§13.3“自动并行”（中文版为§12.3）。
#
# 两个设备上的两项相互独立的工作，耗时应约为 **max(t1, t2)**，而不是 t1 + t2，
# 因为框架把工作交给每个设备后立即返回，并不等待。书中用两个GPU演示了这一点。本notebook在*这台机器现有的硬件*上
# 运行同样的实验，规范地加以测量，并明确说明每个“通道”（lane）是什么。
#
# 你将看到：
# 1. 这台机器及其通道；
# 2. 书中的代码单元，运行在这台机器的通道上，并使用一个会等待所有设备的计时器；
# 3. 书中自身的计时错误，在硬件能够体现时给出具体数字；
# 4. PyTorch和MXNet并列的细致测量（预热、重复、中位数与离散程度、结果校验）；
# 5. 一条显示哪个乘积在哪里运行的时间线、一张扩展性图，以及一个可自行尝试不同规模的面板；
# 6. 以实验的形式完成本节的练习1和练习2。

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext import experiments, plots, report

d2l_ext.set_language('en')

print(report.machine_text())

# %% [markdown]
# ## Lanes: what can run at the same time here
#
# The book calls `d2l.try_all_gpus()` and uses `devices[0]` and `devices[1]`. With d2l 1.0.3 that list is
# empty on a machine without a GPU (so `devices[0]` raises `IndexError`), and `devices[1]` fails with one GPU.
# `d2l_ext.find_lanes` picks two lanes from what exists:
#
# * two or more GPUs: GPU 0 and GPU 1;
# * one GPU: the GPU and the CPU;
# * no GPU: two CPU lanes, each with half of the cores.
#
# Read the explanation of each lane: it is what the numbers below are about.

# %% [markdown] lang="zh"
# ## 通道：这里哪些工作可以同时运行
#
# 书中调用 `d2l.try_all_gpus()`，并使用 `devices[0]` 和 `devices[1]`。在d2l 1.0.3中，没有GPU的机器上该列表为空
# （因此 `devices[0]` 会引发 `IndexError`），而只有一个GPU时 `devices[1]` 会失败。
# `d2l_ext.find_lanes` 从现有的设备中选出两个通道：
#
# * 两个或更多GPU：GPU 0和GPU 1；
# * 一个GPU：该GPU和CPU；
# * 没有GPU：两个CPU通道，各使用一半的核心。
#
# 请阅读对每个通道的说明：下面的数字说的正是它们。

# %%
lanes = d2l_ext.find_lanes('torch')
print(d2l_ext.describe_lanes(lanes))

# %% [markdown]
# ## The book's code, on these lanes
#
# The book's `run` performs **50** matrix products (its text says 10; the code says 50). On GPUs we use
# the book's 4000 x 4000 matrices and 50 products. On CPU lanes that would take minutes, so this notebook
# uses 800 x 800 and 10 products per lane (about 0.1 s per lane on a 2-core machine); with one GPU and the
# CPU, the number of products per lane is chosen so that both lanes take about as long.
#
# `on_lanes` starts one job per lane. A GPU job is only *queued* (the call returns at once); a CPU job
# runs in its own Python thread, because PyTorch runs CPU operations to completion before returning.

# %% [markdown] lang="zh"
# ## 书中的代码，运行在这些通道上
#
# 书中的 `run` 执行 **50** 次矩阵乘法（正文中说是10次；代码中是50次）。在GPU上，我们使用书中的4000 x 4000矩阵和50次乘法。
# 在CPU通道上这需要好几分钟，因此本notebook使用800 x 800的矩阵，每个通道10次乘法（在2核机器上每个通道约0.1秒）；
# 当有一个GPU和CPU时，每个通道的乘法次数经过选择，使两个通道的耗时大致相同。
#
# `on_lanes` 为每个通道启动一项任务。GPU任务只是被*放入队列*（调用立即返回）；CPU任务则在各自的Python线程中运行，
# 因为PyTorch会把CPU操作执行完毕之后才返回。

# %%
import torch

from d2l_ext.torch_work import on_lanes
from d2l_ext.workloads import lesson_workload

N, (K1, K2) = lesson_workload(lanes)

def run(x, k):
    return [x.mm(x) for _ in range(k)]

x_lane1 = torch.rand(size=(N, N), device=lanes[0].device())
x_lane2 = torch.rand(size=(N, N), device=lanes[1].device())
print(f'{N} x {N} matrices; {K1} products on lane 1, {K2} on lane 2')

# %% [markdown]
# Warm up both lanes first (the first call pays for memory allocation and library start-up), then time each
# lane alone. `d2l_ext.Benchmark` keeps the book's idiom but waits for every device of the lanes it is given,
# before starting the clock and before stopping it.

# %% [markdown] lang="zh"
# 先预热两个通道（第一次调用要承担内存分配和库启动的开销），然后分别单独为每个通道计时。
# `d2l_ext.Benchmark` 保留了书中的写法，但在开始计时之前和停止计时之前，都会等待所给通道的每个设备。

# %%
on_lanes(lanes, lambda: run(x_lane1, K1), lambda: run(x_lane2, K2))  # warm-up both lanes
d2l_ext.wait_for_lanes(lanes)

with d2l_ext.Benchmark('lane 1 time', lanes[:1]):
    on_lanes(lanes[:1], lambda: run(x_lane1, K1))

with d2l_ext.Benchmark('lane 2 time', lanes[1:]):
    on_lanes(lanes[1:], lambda: run(x_lane2, K2))

# %%
with d2l_ext.Benchmark('lane 1 & lane 2', lanes):
    on_lanes(lanes, lambda: run(x_lane1, K1), lambda: run(x_lane2, K2))

# %% [markdown]
# Both together should take about as long as the slower lane alone. One run of each is a noisy measurement,
# though: the next sections repeat it.
#
# ## The book's timing mistake
#
# The book's "GPU1 & GPU2" cell ends with `torch.cuda.synchronize()`. Without an argument this waits for the
# *current* device only, so work still running on the second GPU can fall outside the measurement. Forgetting to
# wait at all is worse: the clock then measures only how long it took to *queue* the work. The next cell times the
# same work three ways; it needs at least one GPU lane to show a difference.

# %% [markdown] lang="zh"
# 两者一起运行的耗时应与较慢的那个通道单独运行时大致相同。不过，每种情况只运行一次，测量结果噪声较大：
# 后面几节会重复这一测量。
#
# ## 书中的计时错误
#
# 书中的“GPU1 & GPU2”代码单元以 `torch.cuda.synchronize()` 结束。不带参数时，它只等待*当前*设备，
# 因此仍在第二个GPU上运行的工作可能落在测量范围之外。完全忘记等待则更糟：此时计时测到的只是把工作*放入队列*所用的时间。
# 下一个代码单元用三种方式为同样的工作计时；至少需要一个GPU通道才能显示出差别。

# %%
from d2l_ext.parallel import book_sync_mistake

print(report.sync_mistake_text(book_sync_mistake(lanes=[lane.name for lane in lanes])))

# %% [markdown]
# ## Measuring properly, PyTorch and MXNet side by side
#
# `experiments.parallel` warms up, then times each lane alone and both lanes together several times, waiting for
# every device each time; it reports the median and the interquartile range (IQR), and it checks every product
# against `x @ x` computed in float64, so a fast wrong answer would stop the run.
#
# Each framework runs in its **own worker process**: importing MXNet into a process that already runs PyTorch
# changes PyTorch's thread count (you will see this at the end of the notebook), and MXNet reads its engine settings
# only once, when it is imported.

# %% [markdown] lang="zh"
# ## 规范地测量：PyTorch与MXNet并列比较
#
# `experiments.parallel` 先预热，然后多次为每个通道单独计时、为两个通道一起计时，每次都等待每个设备；
# 它报告中位数和四分位距（IQR），并将每个乘积与以float64计算的 `x @ x` 进行核对，因此快速但错误的结果会使运行停止。
#
# 每个框架都在**各自的工作进程**中运行：把MXNet导入一个已经在运行PyTorch的进程，会改变PyTorch的线程数
# （在本notebook的末尾你会看到这一点），而且MXNet只在导入时读取一次其引擎设置。

# %%
frameworks = d2l_ext.available_frameworks()
results = [experiments.parallel(fw, repeats=5, lesson=True) for fw in frameworks]
for r in results:
    print(report.parallel_text(r))

# %%
plots.plot_parallel_bars(results)

# %%
print(report.explain_parallel(results))

# %% [markdown]
# ### Why PyTorch and MXNet differ
#
# * **PyTorch** executes each CPU operation before returning (it is *eager*). Two CPU lanes overlap only because each
#   lane has its own Python thread and its own share of the cores; PyTorch releases Python's global lock inside the
#   product. On GPUs, PyTorch only queues kernels, so one Python thread can keep two GPUs busy.
# * **The GPU's queue is finite.** It holds about a thousand kernels (measured with `benchmarks/launch_queue.py` on
#   an H100 and an H200: queuing 1024 products of 2000 x 2000 took 23-29 ms, queuing 1280 took 90 ms, because the
#   call waited for the GPU). So `on_lanes` starts the CPU lane's thread first and queues the GPU's products after;
#   in the other order, the CPU lane started only when queuing returned, 0.145 s late, and the pair took 0.620 s
#   instead of 0.500 s (H200, 2026-12-02, `benchmarks/results/h200-x1-2026-12-02T1901.txt`).
# * **MXNet** hands every operation to its *dependency engine*, which runs whatever is ready on its worker threads.
#   The products of one `run` do not depend on each other, so the engine already runs them on both CPU workers:
#   one lane alone uses the whole machine, and a second lane has nothing left to win. Exercise 1 below checks this
#   directly by swapping in MXNet's `NaiveEngine`, which runs each operation at once, one after another.
#
# The sentences printed above state the numbers measured on this machine. On the quiet 2-core CPU machine of our CI
# (AMD EPYC, 2 cores, 2026-12-02; `benchmarks/results/cpu-2core-amd-epyc-2026-12-02.json`), PyTorch's two CPU lanes
# ran 1.92x faster together than one after the other, and MXNet's 1.02x. With one GPU and the CPU as the second lane
# (recorded below), PyTorch's two lanes ran 1.88x faster together on an NVIDIA H200 and 1.74x on an H100, each within
# 1% of the best possible there. A machine that is busy with other work shows less: the lanes then compete with it for
# the cores.

# %% [markdown] lang="zh"
# ### 为什么PyTorch和MXNet不同
#
# * **PyTorch** 在返回之前执行完每个CPU操作（它是*即时执行*（eager）的）。两个CPU通道之所以能重叠，只是因为每个
#   通道都有自己的Python线程和自己那一份核心；PyTorch在乘法内部会释放Python的全局锁。在GPU上，PyTorch只是把核函数
#   放入队列，因此一个Python线程就能让两个GPU保持忙碌。
# * **GPU的队列是有限的。** 它大约能容纳一千个核函数（用 `benchmarks/launch_queue.py` 在H100和H200上测得：把1024次
#   2000 x 2000的乘法放入队列用了23-29毫秒，放入1280次却用了90毫秒，因为这次调用要等待GPU）。所以 `on_lanes` 先启动
#   CPU通道的线程，再把GPU的乘法放入队列；如果顺序反过来，CPU通道要等到入队调用返回后才开始，晚了0.145秒，两个通道
#   一共用了0.620秒而不是0.500秒（H200，2026-12-02，`benchmarks/results/h200-x1-2026-12-02T1901.txt`）。
# * **MXNet** 把每个操作都交给它的*依赖引擎*，由引擎在其工作线程上运行所有已就绪的操作。一次 `run` 中的各次乘法
#   互不依赖，因此引擎已经在两个CPU工作线程上运行它们：单个通道就已用满整台机器，第二个通道已无提升空间。
#   下面的练习1通过换用MXNet的 `NaiveEngine` 来直接检验这一点：该引擎一个接一个地立即运行每个操作。
#
# 上面打印出的语句给出的是在这台机器上测得的数字。在我们CI的那台空闲的2核CPU机器上（AMD EPYC，2核，2026-12-02；
# `benchmarks/results/cpu-2core-amd-epyc-2026-12-02.json`），PyTorch的两个CPU通道一起运行的速度为先后运行的1.92倍，
# MXNet为1.02倍。在只有一块GPU、以CPU作为第二个通道时（记录见下文），PyTorch的两个通道一起运行的速度在NVIDIA H200上
# 为先后运行的1.88倍，在H100上为1.74倍，都与各自可能达到的最好值相差不到1%。忙于其他工作的机器显示的加速会更小：
# 此时各通道要与那些工作争用核心。

# %% [markdown]
# ## A timeline: what ran where
#
# The bars below are measured, not drawn by hand: CUDA events on GPU lanes, timestamps taken in each CPU lane's
# thread, and MXNet's own profiler for MXNet (one row per engine worker, because the engine decides which worker runs
# which product).

# %% [markdown] lang="zh"
# ## 时间线：什么在哪里运行
#
# 下面的条形是测量得到的，而不是手工绘制的：GPU通道使用CUDA事件，CPU通道使用在各通道线程中记录的时间戳，
# MXNet则使用MXNet自带的性能分析器（每个引擎工作线程一行，因为由引擎决定哪个工作线程运行哪个乘积）。

# %%
from matplotlib.figure import Figure

timelines = [experiments.timeline(fw, lesson=True) for fw in frameworks]
fig = Figure(figsize=(9, 1.6 * len(timelines) + 0.6))
for ax, t in zip(fig.subplots(len(timelines), 1, squeeze=False)[:, 0], timelines):
    plots.draw_timeline(t['events'], ax=ax, title=f"{report.NAMES[t['framework']]}: {t['size']} x {t['size']}")
fig.tight_layout()
fig

# %% [markdown]
# ## When does running together pay off?
#
# Each product has a fixed cost (starting it, Python, synchronisation). As matrices get smaller, that overhead
# dominates and the speedup from two lanes shrinks, or even turns into a loss. Dashed lines show the best possible
# speedup, `serial sum / max(lane times)`.

# %% [markdown] lang="zh"
# ## 什么时候一起运行才划算？
#
# 每次乘法都有固定开销（启动、Python、同步）。随着矩阵变小，这部分开销占据主导，两个通道带来的加速比随之缩小，
# 甚至变为损失。虚线表示可能达到的最佳加速比，即 `serial sum / max(lane times)`。

# %%
sizes = (64, 128, 256, 512) if lanes[0].kind == 'cpu' else (256, 512, 1024, 2048)
points = [p for fw in frameworks for p in experiments.scaling(fw, sizes=sizes, iters=10, repeats=3)]
plots.plot_scaling(points)

# %% [markdown]
# ## Try it yourself
#
# Choose a matrix size and the number of products per lane, then press **Run**. Moving a slider does not start a
# run. Each run is appended to the table, so you can compare. Sizes that do not fit in memory give a message here
# instead of an error.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 选择矩阵大小和每个通道的乘法次数，然后按下**Run**。移动滑块不会启动运行。每次运行都会追加到表格中，便于比较。
# 内存放不下的规模会在这里给出提示信息，而不是报错。

# %% tags=["nbval-ignore-output"]
from d2l_ext.widgets import ParallelPanel

panel = ParallelPanel(size=400 if lanes[0].kind == 'cpu' else 4000, iters=10).show()

# %% [markdown]
# ## The book's MXNet cells, in this process
#
# The same experiment in MXNet's own idiom: `np.random.uniform(..., ctx=...)`, `x.dot(x)` and `npx.waitall()`.
# `setup_mxnet()` gives MXNet's CPU engine one worker per core *before* importing it (it reads the setting only at
# import). Watch PyTorch's thread count in this process before and after the import.

# %% [markdown] lang="zh"
# ## 书中的MXNet代码单元，在本进程中运行
#
# 同样的实验，采用MXNet自己的写法：`np.random.uniform(..., ctx=...)`、`x.dot(x)` 和 `npx.waitall()`。
# `setup_mxnet()` 在导入MXNet*之前*为其CPU引擎设置每个核心一个工作线程（MXNet只在导入时读取该设置）。
# 请观察本进程中PyTorch的线程数在导入前后的变化。

# %%
from d2l_ext.mxnet_work import setup_mxnet

torch_threads_before = torch.get_num_threads()
if 'mxnet' in frameworks:
    mx, np, npx = setup_mxnet()
    mx_lanes = d2l_ext.find_lanes('mxnet')
    print(d2l_ext.describe_lanes(mx_lanes))
else:
    print("MXNet is not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)")
print(f'torch.get_num_threads(): {torch_threads_before} before importing MXNet, {torch.get_num_threads()} after')

# %%
if 'mxnet' in frameworks:
    def run_mx(x, k):
        return [x.dot(x) for _ in range(k)]

    N_mx, (K1_mx, K2_mx) = lesson_workload(mx_lanes)
    x_mx1 = np.random.uniform(size=(N_mx, N_mx), ctx=mx_lanes[0].device())
    x_mx2 = np.random.uniform(size=(N_mx, N_mx), ctx=mx_lanes[1].device())
    run_mx(x_mx1, K1_mx)  # warm-up both lanes
    run_mx(x_mx2, K2_mx)
    npx.waitall()

    with d2l_ext.Benchmark('MXNet lane 1 time', mx_lanes[:1]):
        run_mx(x_mx1, K1_mx)
    with d2l_ext.Benchmark('MXNet lane 2 time', mx_lanes[1:]):
        run_mx(x_mx2, K2_mx)
    with d2l_ext.Benchmark('MXNet lane 1 & lane 2', mx_lanes):
        run_mx(x_mx1, K1_mx)
        run_mx(x_mx2, K2_mx)

# %% [markdown]
# On a 2-core machine PyTorch's thread count drops from 2 to 1 when MXNet is imported into the same process:
# any PyTorch timing taken in this kernel from now on would be skewed. That is why the comparison above ran each
# framework in its own worker process.

# %% [markdown] lang="zh"
# 在2核机器上，当MXNet被导入同一进程时，PyTorch的线程数会从2降到1：从现在起在这个内核中测得的任何PyTorch计时
# 都会失真。这就是上面的比较让每个框架在各自的工作进程中运行的原因。

# %% [markdown]
# ## Results recorded on GPUs
#
# Without a GPU you cannot see the book's setting live. These results were recorded on real GPUs with
# `python -m d2l_ext record`; each is labelled with the GPU, the software versions and the date.
#
# The recordings hold PyTorch only. MXNet's GPU build could not be installed on the GPU machines, and not even its
# CPU build runs there: MXNet 1.9.1, its last release, needs numpy < 1.24, which has no wheels for the Python 3.12
# those machines have.

# %% [markdown] lang="zh"
# ## 在GPU上记录的结果
#
# 没有GPU，就无法现场看到书中的设置。这些结果是用 `python -m d2l_ext record` 在真实的GPU上记录的；
# 每条结果都标注了GPU、软件版本和日期。
#
# 这些记录只有PyTorch的结果。在那些GPU机器上无法安装MXNet的GPU版本，连它的CPU版本也无法运行：MXNet的最后一个版本1.9.1
# 需要numpy < 1.24，而这些机器上的Python 3.12没有这样的numpy安装包（wheel）。

# %%
from d2l_ext import recorded

print(recorded.parallel_text())

# %% [markdown]
# ## Summary
#
# * Independent work on two lanes takes about the time of the slower lane, not the sum: the speedup measured above
#   is the evidence on this machine.
# * A GPU lane only queues work, so one Python thread can keep several GPUs busy; eager CPU work needs a thread per lane.
# * Timing queued work needs a wait for *every* device used; `torch.cuda.synchronize()` with no argument waits for one.
# * MXNet's engine finds independent operations by itself, even inside one lane.
#
# ## Exercises
#
# **1.** `run` performs independent products. Does the framework run them in parallel by itself? The experiment:
# issue the K products together and wait once, versus one at a time with a wait after each. MXNet's `NaiveEngine`
# (which runs every operation immediately) is the control.

# %% [markdown] lang="zh"
# ## 小结
#
# * 两个通道上的独立工作耗时约为较慢通道的时间，而非两者之和：上面测得的加速比就是这台机器上的证据。
# * GPU通道只是把工作放入队列，因此一个Python线程就能让多个GPU保持忙碌；即时执行的CPU工作则需要每个通道一个线程。
# * 为放入队列的工作计时，需要等待所用的*每个*设备；不带参数的 `torch.cuda.synchronize()` 只等待一个设备。
# * MXNet的引擎会自行找出相互独立的操作，即使在同一个通道内也是如此。
#
# ## 练习
#
# **1.** `run` 执行的是相互独立的乘法。框架会自动地并行执行它们吗？实验：把K次乘法一起发出、只等待一次，
# 与一次执行一个、每次之后都等待进行对比。MXNet的 `NaiveEngine`（它立即运行每个操作）作为对照。

# %%
print(report.independence_text(experiments.independence('torch', size=N, iters=10)))
if 'mxnet' in frameworks:
    for engine in (None, 'NaiveEngine'):
        print(report.independence_text(experiments.independence('mxnet', size=800, iters=10, engine=engine)))

# %% [markdown]
# **2.** When each operation is small, two lanes can help even on *one* device. The experiment: many 64 x 64
# products, once as one lane using the whole device, once split over two lanes on the same device (two threads with
# half the cores each on a CPU; two CUDA streams on a GPU).

# %% [markdown] lang="zh"
# **2.** 当每个操作都很小时，即使在*同一个*设备上，两个通道也可能有帮助。实验：执行大量64 x 64的乘法，
# 一次作为使用整个设备的单个通道运行，一次拆分到同一设备上的两个通道运行（在CPU上是两个各使用一半核心的线程；
# 在GPU上是两个CUDA流）。

# %%
print(report.small_ops_text(experiments.small_ops(size=64, iters=400)))

# %% [markdown]
# Exercises 3 and 4 (CPUs and GPUs together with communication; checking efficiency with a profiler) are in
# 13.3.2; exercise 5 (more complex dependencies, results checked) is in 13.3.3.

# %% [markdown] lang="zh"
# 练习3和练习4（CPU与GPU协同工作并进行通信；用性能分析器检查效率）见13.3.2；
# 练习5（更复杂的依赖关系，并校验结果）见13.3.3。
