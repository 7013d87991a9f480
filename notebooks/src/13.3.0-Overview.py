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
# # 13.3 Automatic Parallelism: overview
#
# *Dive into Deep Learning*, §13.3 (§12.3 in the Chinese edition). Deep learning frameworks see the work a program
# asks for before they run it, so they can tell which pieces are independent and run those at the same time. But one
# matrix product already keeps every core of a CPU, or a whole GPU, busy: running two products "in parallel" on the
# same device gains little when each already uses every core. A gain over running jobs one after the other needs
# separate hardware working at the same time:
#
# 1. **several devices** (two GPUs, or a GPU and the CPU) working on independent jobs at the same time;
# 2. **computation and communication overlapping**: copying one result while the next one is computed.
#
# The fair test of a second lane is one device doing both jobs; the measurements below say whether the second lane
# beat it here. The book shows both with two GPUs. These notebooks run on whatever this machine has, measure
# carefully (warm-up, waiting for every device, every repeat shown, every answer checked) and also show recorded GPU
# runs, for readers without a GPU and for comparison.
#
# | notebook | what you will see |
# |---|---|
# | [13.3.1 Parallel Computation on Devices](13.3.1-Parallel-Computation-on-Devices.ipynb) | two independent jobs on two lanes take about as long as the slower one, when the lanes are separate hardware; how to time queued work |
# | [13.3.2 Parallel Computation and Communication](13.3.2-Parallel-Computation-and-Communication.ipynb) | copies to the host hidden behind the next product: pinned buffers, a copy stream, events |
# | [Extra: The Dependency Graph](13.3.3-The-Dependency-Graph.ipynb) | the book's two-layer MLP step split over two lanes, its graph and schedule, against one lane with the whole minibatch |
# | [Extra: Gradients All-Reduced While Backward Still Runs](13.3.4-Allreduce-During-Backward.ipynb) | beyond the book: data-parallel training with `torch.distributed`, where each gradient's all-reduce starts while backward still runs |

# %% [markdown] lang="zh"
# # 12.3 自动并行：概览
#
# 《动手学深度学习》§12.3（英文版为§13.3）。深度学习框架在执行之前就能看到程序要做的工作，因此能够判断哪些部分
# 相互独立，并让它们同时运行。不过，一个矩阵乘法就已经能让 CPU 的所有核心或者整个 GPU 忙碌起来：在同一个设备上“并行”
# 运行两个矩阵乘法，在每个乘法都已用满所有核心时几乎没有收益。要比先后运行更快，需要能同时工作的不同硬件：
#
# 1. **多个设备**（两个 GPU，或者一个 GPU 加 CPU）同时处理相互独立的工作；
# 2. **计算与通信重叠**：在计算下一个结果的同时复制上一个结果。
#
# 检验第二条执行路的公平基线是一个设备做两份工作；下面的测量会说明，在这里第二条执行路是否胜过了它。书中用两个 GPU
# 展示了这两点。这些Jupyter记事本在这台机器现有的硬件上运行，并认真测量（预热、等待每个设备、展示每次重复、检查每个
# 结果）；此外还展示在 GPU 上录制的结果，供没有 GPU 的读者使用，也供对照。
#
# | Jupyter记事本 | 你将看到 |
# |---|---|
# | [12.3.1 基于GPU的并行计算](13.3.1-Parallel-Computation-on-Devices.ipynb) | 当两条执行路是不同的硬件时，两项独立的工作同时运行，耗时约等于较慢的那一项；如何为排队的工作计时 |
# | [12.3.2 并行计算与通信](13.3.2-Parallel-Computation-and-Communication.ipynb) | 把结果复制到主机的时间隐藏在下一个矩阵乘法之后：锁页内存缓冲区、复制流、事件 |
# | [扩展：依赖图](13.3.3-The-Dependency-Graph.ipynb) | 书中两层多层感知机的一个训练步拆分到两条执行路上，它的依赖图与调度，并与在一条执行路上处理整个小批量相比较 |
# | [扩展：在反向传播仍在进行时全归约梯度](13.3.4-Allreduce-During-Backward.ipynb) | 超出书本的内容：用 `torch.distributed` 做数据并行训练，反向传播还在进行时，每个梯度的全归约就已开始 |

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext import t
from d2l_ext.display.machine import machine_line

d2l_ext.set_language('en')

print(machine_line())

# %% [markdown]
# ## This machine's lanes
#
# A *lane* is a place where work can run at the same time as other work: a GPU, the CPU, or some of the CPU's
# cores. Read what each lane really is: two lanes on separate hardware, or lanes that split a CPU's cores (each lane
# its own cores), can both run at once, each at the speed of what it has; two lanes that share the same cores cannot.

# %% [markdown] lang="zh"
# ## 这台机器的执行路
#
# *执行路*是可以与其他工作同时运行的一条执行线路：一个 GPU、整个 CPU，或 CPU 的一部分核心。请读一读
# 每条执行路实际是什么：位于不同硬件上的两条执行路，或把 CPU 核心分开用（每条执行路用各自的核心）的执行路，可以同时
# 运行，各自以所拥有硬件的速度运行；共用同一组 CPU 核心的两条执行路则不能。

# %%
from d2l_ext.workers import lanes_for_all

lanes = d2l_ext.find_lanes('torch')
print(t('overview.lanes_of', framework='PyTorch'))
print(d2l_ext.describe_lanes(lanes))
if 'mxnet' in d2l_ext.available_frameworks():
    print('\n' + t('overview.lanes_of', framework='MXNet'))
    print(d2l_ext.describe_lanes(lanes_for_all(['mxnet'])['mxnet']))

# %% [markdown]
# ## A first taste: predict, then measure
#
# Each lane gets the same kind of job: independent matrix products (the book's `run`); beside a GPU, each lane's
# count of products is chosen from its measured rate, aiming at equal times. We time each lane alone, then both
# together, interleaved so that drift hits every variant alike. Before measuring, predict how many times as fast
# "together" is as "one after the other", and write it into `my_guess`. The rule depends on the hardware: lanes on
# separate devices can all run at once; CPU lanes can run at once only as far as the cores can be split among them.

# %% [markdown] lang="zh"
# ## 初体验：先预测，再测量
#
# 每条执行路做同一类工作：若干相互独立的矩阵乘法（即书中的 `run`）；有GPU时，每条执行路的乘积个数按其实测速度选定，
# 力求用时相等。我们先分别为每条执行路单独计时，再为两条
# 同时运行计时，并交替进行各种测量，使漂移对每种情况的影响都相同。测量之前，先预测“同时运行”的速度是“先后运行”
# 的几倍，并写进 `my_guess`。规则取决于硬件：位于不同设备上的执行路可以全部同时运行；CPU 上的执行路，
# 只有在核心够分时才能同时运行。

# %%
my_guess = None  # together is how many times as fast as one after the other?

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# With lanes of equal length, one after the other takes the sum of the lane times. If `w` lanes can run at once,
# together takes the sum divided by `w`, so together is `w` times as fast. Separate devices: `w` is the number of
# lanes. CPU lanes with `k` threads each on `c` cores: `w = min(lanes, c // k)`, so on a one-core machine the lanes
# take turns and `w = 1`. The collapsed cell below computes it for this machine; the measurement then applies the same
# rule to the lane times actually measured (never exactly equal), which can differ a little.
#
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 若各执行路耗时相同，先后运行的耗时是各执行路耗时之和。如果能有 `w` 条执行路同时运行，那么同时运行的耗时是这个和
# 除以 `w`，也就是说速度是先后运行的 `w` 倍。不同的设备：`w` 等于执行路的条数。在 `c` 个核心上、每条执行路 `k` 个
# 线程的 CPU 执行路：`w = min(执行路条数, c // k)`；所以在只有一个核心的机器上，各执行路只能轮流运行，`w = 1`。
# 下面折叠的单元格为这台机器算出它；测量时再把同样的规则用于实际测得的各执行路耗时（它们从不完全相等），
# 因此可能略有不同。
#
# </details>

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
cores = d2l_ext.cpu_cores()
if all(lane.kind == 'cpu' for lane in lanes):  # CPU lanes split the cores: as many run at once as fit
    threads = max(lane.threads for lane in lanes)
    ways = min(len(lanes), max(1, cores // threads))
    assumption = t('overview.assume.shared', cores=cores, threads=threads, ways=ways)
else:  # a GPU and the CPU, or two GPUs: separate hardware
    ways = len(lanes)
    assumption = t('overview.assume.separate')
predicted_speedup = float(ways)
print(t('overview.prediction', speedup=predicted_speedup, assumption=assumption))

# %% [markdown]
# Now measure. Each dot is one repeat; the black bar is the median; the hatched bar is "together" predicted by the
# same rule from the lanes' measured times alone (on separate devices, the slower lane's time), not the equal-lanes
# ratio above. One more row, the honest baseline, runs both jobs on one device: one lane with all the cores where the
# lanes are CPU lanes, else the first lane alone. The repeat of "together" timed as the median is kept as a timeline:
# it gives the overlap (the fraction of the shorter lane's busy time during which the other was busy too) and each
# lane's time per product while both were busy, set against the lane alone: a measured test of whether running side
# by side slowed each product. A gap between prediction and measurement is explained only by such a test.

# %% [markdown] lang="zh"
# 现在来测量。每个点是一次重复；黑色短线是中位数；带斜线的条形是按同一规则、由各执行路实测的单独用时算出的
# “同时运行”预测（在不同的设备上就是更慢的那条执行路的用时），而不是上面假定各执行路用时相等得到的倍数。还会多测
# 一行公平的基线：由一个设备做两份工作——各执行路都在 CPU 上时，是一条用上全部核心的执行路；否则是第一条执行路单独
# 运行。“同时运行”中用时为中位数的那次重复被保留为时间线，从中得到重叠（较短的执行路忙碌期间，另一条也在忙碌的时间
# 占比），以及两条都在忙碌时每条执行路每个乘积的用时，并与该执行路单独运行时相比：这是对“并排运行是否让每个乘积
# 变慢”的一次测量检验。预测与实测之间的差距，只用这样的检验来解释。

# %% tags=["nbval-ignore-output"]
from d2l_ext import parallel
from d2l_ext.display.lane_timeline import overlap_text
from d2l_ext.display.parallel import guess_text, overview_text, plot_parallel, verdict_text

result = parallel.parallel('torch', lesson=True, baseline=True)  # in PyTorch's worker process, answers checked
tl = result.timeline  # the median repeat of "together": when each product ran in it
alone = [m.median / k for m, k in zip(result.lane_times, result.iters)]  # seconds per product, each lane alone
print(guess_text(my_guess, predicted_speedup, result.speedup, unit='x', prediction='by_rule'))
print(overview_text(result, predicted_speedup, tl))
print(verdict_text(result.lane_times, result.serial_sum, result.together, result.baseline))
print(overlap_text(tl, result.serial_sum, result.together.median, result.expected, alone,
                   labels=[lane.label for lane in lanes], repeats=result.together.times, median_repeat=tl.repeat))
print(t('overview.checked', error=result.max_rel_error))
plot_parallel(result)

# %% [markdown]
# ## Recorded on a GPU
#
# The same experiment recorded on a machine with a GPU, where the lanes are the GPU and the CPU: separate hardware.
# Each lane's product count was chosen from its measured rate, aiming at equal times alone; the text prints the times
# the lanes then took alone, and the prediction is the slower lane's measured time. Below the repeats, the repeat of
# "together" timed as the median shows when each lane was busy. The titles give the counts, and the text each lane's
# time per product in that repeat.

# %% [markdown] lang="zh"
# ## 在GPU上录制的结果
#
# 同样的实验在一台有 GPU 的机器上录制，两条执行路是 GPU 和 CPU：不同的硬件。每条执行路的乘积个数是按它实测的速度
# 选定的，目标是两者单独运行的耗时相同；文字打印出两条执行路随后单独运行的实测用时，预测值是较慢那条执行路实测的耗时。
# 各次重复下方是“同时运行”中用时为中位数的那次重复，显示每条执行路何时在忙。各图标题给出了乘积的个数，文字给出这次
# 重复中每条执行路每个乘积的用时。

# %% tags=["nbval-ignore-output"]
from IPython.display import display

from d2l_ext.display.parallel_recorded import (
    recorded_comm_summary,
    recorded_figure,
    recorded_overlap_text,
    recorded_summary,
)
from d2l_ext.recorded import newest

rec = newest()  # the newest GPU recording: 13.3.1 and 13.3.2 draw the same one
print(rec.label() if rec else t('overview.recorded.none'))
if rec is not None:
    print(recorded_overlap_text(rec))
    display(recorded_figure(rec))

# %% [markdown]
# ## Summary, with the numbers
#
# The book's summary makes three claims; points 1 and 2 below are printed from measurements (point 2 from the GPU
# recording of 13.3.2). Point 3, the framework finding independent work in the computational graph, is measured in
# the extra notebook, so here it only points there.

# %% [markdown] lang="zh"
# ## 小结与数字
#
# 书中的小结有三点；下面第 1、2 点由测量结果打印出来（第 2 点来自 12.3.2 在 GPU 上的录制结果）。第 3 点，即框架从
# 计算图中找出相互独立的工作，在扩展一节“依赖图”中测量，所以这里的第 3 点只是指向那里。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import overview_summary

print(overview_summary(result))
if rec is not None and rec.parallel:
    print(recorded_summary(rec))
print(recorded_comm_summary(rec) or t('overview.summary.no_comm'))  # one stream against a copy stream, same buffers
print(t('overview.summary.graph'))

# %% [markdown]
# ## Remember
#
# - One operator already fills a device; a gain over one after the other needs separate hardware (several devices,
#   separate cores of one CPU, or copies beside computation), and the fair test is one device doing both jobs: the summary says whether the
#   second lane beat it here.
# - Predict from the hardware first: separate devices allow the slower lane's time; lanes on one CPU only split its
#   cores, so compare with one lane that uses all the cores.
# - Time queued work only after waiting for every device it ran on, and look at every repeat, not just one number.
#
# ## Pitfalls
#
# - **No wait**: GPU work is queued and the call returns at once, so a timer stopped without a wait measures almost
#   nothing.
# - **One-device `synchronize()`**: `torch.cuda.synchronize()` waits for the current device only; with two GPUs,
#   wait for each.
# - **Reading before the sync**: a `non_blocking=True` copy may not have finished when the next line reads it.
# - **New host memory on every copy**: in the recording, copies into new pageable tensors on every call were much
#   slower than into reused buffers, and reused pageable buffers slower than pinned ones; with pinned buffers, a copy
#   stream and an event per product, copies and compute overlapped. Allocate the buffers once.

# %% [markdown] lang="zh"
# ## 记住
#
# - 一个操作符就已经能占满一个设备；要比先后运行更快，需要不同的硬件（多个设备、同一个CPU上各自分开的核心，
#   或与计算同时进行的复制），
#   公平的检验是一个设备做两份工作：小结会说明在这里第二条执行路是否胜过了它。
# - 先根据硬件做预测：不同的设备上，同时运行的耗时等于较慢执行路的耗时；同一个 CPU 上的执行路只是把它的核心分开用，
#   所以要与一条用上全部核心的执行路比较。
# - 只有等待了工作所用的每个设备之后，才能为排队的工作计时；要看每一次重复，而不只看一个数字。
#
# ## 易错点
#
# - **不等待**：GPU 上的工作只是排入队列，调用会立即返回，因此不等待就停止计时，几乎什么都没有测到。
# - **只同步一个设备**：`torch.cuda.synchronize()` 只等待当前设备；有两个 GPU 时，要分别等待每一个。
# - **同步之前就读取**：`non_blocking=True` 的复制在下一行读取结果时可能还没有完成。
# - **每次复制都用新的主机内存**：在录制结果中，每次调用都复制到新分配的可分页张量比复制到重复使用的缓冲区慢得多，
#   重复使用的可分页缓冲区也比锁页缓冲区慢；使用锁页缓冲区、复制流，并为每个乘积记录一个事件时，复制和计算重叠了。
#   所以缓冲区只应分配一次。
