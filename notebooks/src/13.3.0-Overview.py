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
# asks for before they run it, so they can run the independent pieces at the same time. But one large matrix
# product (the book's are 4000 × 4000) already keeps a whole GPU busy. The book's two ways to use hardware at once:
#
# 1. **several devices** (two GPUs, or a GPU and the CPU) working on independent jobs at the same time;
#
# 2. **computation and communication overlapping**: copying one result while the next one is computed.
#
# The book shows both with two GPUs.
#
# | notebook | what you will see |
# |---|---|
# | [13.3.1 Parallel Computation on Devices](13.3.1-Parallel-Computation-on-Devices.ipynb) | two jobs on separate hardware take about the slower one's time; timing queued work |
# | [13.3.2 Parallel Computation and Communication](13.3.2-Parallel-Computation-and-Communication.ipynb) | copies to the host hidden behind the next product: pinned buffers, a copy stream, events |
# | [Extra: The Dependency Graph](13.3.3-The-Dependency-Graph.ipynb) | the book's two-layer MLP step split over two lanes, its graph and schedule, against one lane with the whole minibatch |
# | [Extra: Gradients All-Reduced While Backward Still Runs](13.3.4-Allreduce-During-Backward.ipynb) | beyond the book: data-parallel training with `torch.distributed`, where each gradient's all-reduce starts while backward still runs |

# %% [markdown] lang="zh"
# # 12.3. 自动并行：概览
#
# 《动手学深度学习》12.3节（英文版编号为 13.3）。深度学习框架在执行之前就能看到程序要做的工作，因此能让相互独立的部分
# 同时运行。不过，一个大的矩阵乘法（书中是 4000 × 4000）就已经能让整个 GPU 忙碌起来。书中介绍了同时使用硬件的两种方法：
#
# 1. **多个设备**（两个 GPU，或者一个 GPU 加 CPU）同时处理相互独立的工作。
#
# 2. **计算与通信重叠**：在计算下一个结果的同时复制上一个结果。
#
# 书中用两个 GPU 展示了这两点。
#
# | Jupyter 记事本 | 你将看到 |
# |---|---|
# | [12.3.1节：基于 GPU 的并行计算](13.3.1-Parallel-Computation-on-Devices.ipynb) | 两项独立的工作在不同的硬件上同时运行，耗时约等于较慢的那一项；如何为排队的工作计时 |
# | [12.3.2节：并行计算与通信](13.3.2-Parallel-Computation-and-Communication.ipynb) | 把结果复制到主机的时间隐藏在下一个矩阵乘法之后：锁页内存缓冲区、复制流、事件 |
# | [扩展：依赖图](13.3.3-The-Dependency-Graph.ipynb) | 书中两层多层感知机的一个训练步拆成两半，它的依赖图与调度，并与用一个设备处理整个小批量相比较 |
# | [扩展：在反向传播仍在进行时全归约梯度](13.3.4-Allreduce-During-Backward.ipynb) | 超出书本的内容：用 `torch.distributed` 做数据并行训练，反向传播还在进行时，每个梯度的全归约就已开始 |

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext.display.machine import machine_line

d2l_ext.set_language('en')

print(machine_line())

# %% [markdown]
# ## This machine's lanes
#
# A *lane* is a place where work can run at the same time as other work: a GPU, the CPU, or some of the CPU's
# cores.

# %% [markdown] lang="zh"
# ## 这台机器的执行单元
#
# *执行单元*是能与其他工作同时运行的一份硬件：一块 GPU、整个 CPU，或 CPU 的一部分核心。下表列出这台机器的执行单元。

# %%
from d2l_ext.display.parallel import lanes_table

lanes = d2l_ext.find_lanes('torch')
lanes_table({'torch': lanes})

# %% [markdown]
# ## Predict on a GPU recording
#
# A GPU and the CPU each ran a job of independent matrix products (the book's `run`, on 2000 × 2000 matrices: half
# the book's size, small enough for the CPU): each lane alone, both together, and the **baseline**: the GPU doing
# both jobs. The CPU, far slower, got far fewer products and left one core to feed the GPU.
# [13.3.1](13.3.1-Parallel-Computation-on-Devices.ipynb) measures the same on this machine's lanes.
#
# The prediction: on separate hardware together takes the slower lane's time, max(t1, t2). The lanes' times alone:

# %% [markdown] lang="zh"
# ## 根据 GPU 记录结果做预测
#
# 一个 GPU 和 CPU 各完成一项任务：书中 `run` 的相互独立的矩阵乘法，矩阵为 2000 × 2000（书中大小的一半，CPU 也能承担）。
# 记录了每个执行单元单独运行、两个同时运行，以及**基线**（GPU 独自完成两项任务）。CPU 慢得多，分到的乘法少得多，
# 并留出一个核心给 GPU 派发工作。[12.3.1节](13.3.1-Parallel-Computation-on-Devices.ipynb)
# 在这台机器的执行单元上做同样的测量。
#
# 预测规则：在相互独立的硬件上，同时运行的用时等于较慢那个执行单元的用时 max(t1, t2)。各执行单元单独运行的用时：

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_recorded import recorded_alone, recorded_answer, recorded_figure, recorded_lines
from d2l_ext.recorded import newest

rec = newest()  # the newest GPU recording  #zh: 最新的 GPU 记录结果
print(recorded_alone(rec))

# %% [markdown]
# **Exercise.** Will together beat the baseline? Predict its time from the lanes' times above and write it, in
# seconds, into `my_guess`: the figure draws it beside the baseline.

# %% [markdown] lang="zh"
# **练习**：同时运行会比基线快吗？根据上面各执行单元的用时预测同时运行的用时，写进 `my_guess`（秒）：图中会把它画在基线旁边。

# %%
my_guess = None  # seconds: both lanes together (s)  #zh: 两个执行单元同时运行的用时（秒）

# %% [markdown]
# Compare by **one rule for every comparison:** a way is *faster* (or *slower*) only when the middle halves of the
# two rows' repeats (grey boxes) do not overlap and their medians differ by at least 5% of the slower one; otherwise
# *no clear difference*. Here the repeats agree so closely that each grey box hides under its median mark; the blue
# band spans 5% either side of the baseline's median. The hatched bar is the prediction, the diamond your guess.
# Below, on the same time axis, the repeat of "together" timed as the median shows when each lane was busy.

# %% [markdown] lang="zh"
# 比较时，**每次比较都用同一条规则**：两行各次重复的中间一半（灰色方框）互不重叠，且中位数之差至少是较慢那一个的
# 5%，才算*更快*（或*更慢*）；否则就是*没有明显差别*。这里各次重复非常接近，灰色方框被中位数的竖线挡住了；蓝色带是
# 基线中位数上下5%的范围。斜线条形是预测，菱形是你的猜测。下方用同一条时间轴画出“同时运行”中用时为中位数的那次重复，
# 显示每个执行单元何时在忙。

# %% tags=["nbval-ignore-output"]
print(recorded_lines(rec, my_guess))  # your guess, then together vs the baseline by the rule  #zh: 你的猜测，再按规则比较同时运行与基线
recorded_figure(rec, my_guess)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(recorded_answer(rec))  # the worked answer, from the recording's numbers  #zh: 参考答案，由记录结果中的数字得出

# %% [markdown]
# ## Summary
#
# The book's summary makes three claims; where each is shown:
#
# - 13.3.1: several devices run independent work at once.
# - 13.3.2: several communication resources work in parallel: copies run while computing.
# - The all-reduce extra: the backend can improve performance by parallelizing computation and communication
#   automatically; DDP starts each bucket's all-reduce while backward still runs (the extra also builds this by hand).
#
# ## Remember
#
# - One large product already keeps a GPU busy: compare with the baseline, one device doing both jobs.
# - On separate hardware, predict together from each lane's time alone: max(t1, t2).
# - Call a way faster or slower only by the rule: grey boxes apart and medians at least 5% apart.
#
# ## Pitfalls
#
# - **Only the sum as baseline**: together beats one after the other even where one device doing both jobs is as fast.
# - **No wait**: the clock stops once GPU work is queued; wait for every device used.
# - **One number**: a single run hides the spread; look at every repeat.

# %% [markdown] lang="zh"
# ## 小结
#
# 书中的小结有三点，分别见：
#
# - 12.3.1节：多个设备可以同时运行相互独立的工作。
# - 12.3.2节：多种通信资源可以并行使用：在计算的同时复制。
# - 扩展“全归约”：后端可以通过自动地并行计算和通信来提高性能；DDP 在反向传播仍在进行时就发起每个桶的全归约
#   （该扩展也手工实现了这一点）。
#
# ## 要记住
#
# - 一个大的矩阵乘法就已经能让 GPU 忙碌起来：要与基线（一个设备完成两项任务）比较。
# - 在相互独立的硬件上，用每个执行单元单独运行的用时预测同时运行：max(t1, t2)。
# - 只按规则判断更快或更慢：灰色方框互不重叠，且中位数相差至少 5%。
#
# ## 易错点
#
# - **只与先后运行比较**：即使一个设备完成两项任务同样快，同时运行也会比先后运行快。
# - **不等待**：GPU 上的工作一排入队列计时就停止；计时前后都要同步所用的每个设备。
# - **只看一个数字**：一次运行看不出波动；要看每一次重复。
