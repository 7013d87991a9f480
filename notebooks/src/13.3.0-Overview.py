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
# *Dive into Deep Learning*, §13.3 (§12.3 in the Chinese edition). PyTorch queues GPU work and returns at once, so
# Python can hand independent work to other hardware while the GPU computes. But one large matrix
# product (the book's are 4000 × 4000) already keeps a whole GPU busy, so more speed needs more hardware at
# once. The book's two ways:
#
# 1. **several devices** (two GPUs, or a GPU and the CPU) working on independent jobs at the same time;
#
# 2. **computation and communication overlapping**: copying one result while the next one is computed.
#
# The book shows both with two GPUs. Here: a recorded H200 run. The recorded runs (an H200, a 16-core host) are the
# picture of the gains; on a laptop, later lessons split the CPU's cores in two and measure what sharing them costs.
#
# | notebook | what you will see |
# |---|---|
# | [13.3.1 Parallel Computation on Devices](13.3.1-Parallel-Computation-on-Devices.ipynb) | the book's cells on this machine; what the clock waits for; two jobs on two lanes at once (two devices, or two halves of one CPU), against one device doing both; small products on two CPU lanes (exercise 2) |
# | [13.3.2 Parallel Computation and Communication](13.3.2-Parallel-Computation-and-Communication.ipynb) | copying results to the host while the next product computes, and what that takes (recorded: the copy stream's gain) |
# | [13.3.3 Extra: The Dependency Graph of Fig. 13.3.1](13.3.3-The-Dependency-Graph.ipynb) | the book's Fig. 13.3.1, built and measured: a training step split into two halves run at once, against one device |
# | [13.3.4 Extra: Gradients All-Reduced While Backward Still Runs](13.3.4-Allreduce-During-Backward.ipynb) | beyond the book: data-parallel training with `torch.distributed`, each gradient's all-reduce starting while backward still runs (recorded: the hooks' gain) |

# %% [markdown] lang="zh"
# # 12.3. 自动并行：概览
#
# 《动手学深度学习》12.3节（英文版编号为 13.3）。PyTorch 把 GPU 上的工作排入队列后立即返回，
# 所以 GPU 计算的同时，Python 可以把相互独立的工作交给其他硬件。但在单个 GPU 上，这样做的帮助有限：
# 一个大的矩阵乘法（书中是 4000×4000）就已经能让整个 GPU 忙碌起来，
# 要更快就得同时使用更多硬件。书中介绍了两种方法：
#
# 1. **多个设备**（两个 GPU，或者一个 GPU 加 CPU）同时处理相互独立的工作。
#
# 2. **计算与通信重叠**：在计算下一个结果的同时复制上一个结果。
#
# 书中用两个 GPU 展示了这两点。本节展示在 H200 上记录的运行。收益要看记录的运行（H200、16 核主机）；
# 在笔记本电脑上，之后各节把 CPU 的核心分成两半，测量共用这些核心要付出多少时间。
#
# | Jupyter 记事本 | 你将看到 |
# |---|---|
# | [12.3.1节：基于 GPU 的并行计算](13.3.1-Parallel-Computation-on-Devices.ipynb) | 在这台机器上运行书中的代码；计时要等待什么；两项任务同时在两个设备上运行（或把 CPU 的核心分成两半），与一个设备完成它们所用的时间相比较；练习 2 改用小矩阵乘法 |
# | [12.3.2节：并行计算与通信](13.3.2-Parallel-Computation-and-Communication.ipynb) | 在计算下一个乘法的同时把结果复制到主机，以及需要哪些条件（记录结果：复制流带来的收益） |
# | [扩展：依赖图](13.3.3-The-Dependency-Graph.ipynb) | 书中的图12.3.1，动手实现并测量：一次训练迭代拆成两半同时运行，再与一个设备相比较 |
# | [扩展：在反向传播的同时对梯度做全归约](13.3.4-Allreduce-During-Backward.ipynb) | 超出书本的内容：用 `torch.distributed` 做数据并行训练，反向传播还在进行时，每个梯度的全归约就已开始（记录结果：钩子带来的收益） |

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext.display.machine import machine_line

d2l_ext.set_language('en')

print(machine_line(mxnet=False))

# %% [markdown]
# ## Predict, then look: a GPU recording
#
# The book: "While parallelization is typically most relevant between multiple GPUs, adding the local CPU will
# increase performance slightly." The recording pairs its one GPU with the CPU.
#
# The GPU and the CPU are each a *lane*: hardware that can run work beside other work (the CPU keeps one core back to
# feed the GPU).
#
# Each lane ran one job, the book's `run`: independent products of 2000 × 2000 matrices (of the book's 4000 × 4000 the
# CPU would finish only a few in 0.5 s). Each job's count was set to about 0.5 s on its lane alone. The **baseline** is
# the GPU alone doing both jobs' products. The next cell prints each job's products and its measured time alone.

# %% [markdown] lang="zh"
# ## 根据在 GPU 上记录的结果做预测
#
# 书中说：“虽然并行化通常应用在多个GPU之间，但增加本地CPU以后还将提高少许性能。”记录中只有一个 GPU，
# 所以让 GPU 与 CPU 搭配。
#
# GPU 和 CPU 各是一个**计算资源**，即能与其他工作同时运行的硬件（CPU 留出一个核心给 GPU 发指令）。
#
# 两者各完成一项任务，即书中的 `run` 函数：相互独立的 2000×2000 矩阵乘法（若用书中的 4000×4000，CPU 在 0.5 秒内只能做几次）。
# 每项任务的乘法次数按该计算资源单独运行约 0.5 秒定出。
# **基线**是 GPU 单独完成两项任务的全部乘法所用的时间。下一个单元格输出每项任务的乘法次数和单独运行的执行时间。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_recorded import recorded_alone, recorded_answer, recorded_figure, recorded_why
from d2l_ext.recorded import newest

rec = newest()  # the newest GPU recording  #zh: 最新的 GPU 记录结果
print(recorded_why(rec, d2l_ext.find_lanes('torch')))  # this machine, and where the figure comes from  #zh: 这台机器，以及下图从哪里来
print(recorded_alone(rec))

# %% [markdown]
# One rule decides every comparison. The middle halves of the two rows' repeats (grey boxes) must not
# overlap, and the medians must differ by at least 5% of the larger median. Only then is a way *faster* (or
# *slower*); otherwise there is *no clear difference*.

# %% [markdown] lang="zh"
# 所有比较都用同一条规则，它有两个条件：两行的灰色方框（中间50%的测量值）互不重叠；中位数之差至少是较大中位数的5%。
# 两个条件都满足，才算**更快**（或**更慢**）；否则就是**没有明显差别**。

# %% [markdown]
# **Exercise.** Compared with the baseline, running together takes the CPU's job off the GPU. By what share at most
# can that cut the baseline's time? Hint: if the CPU's job took no time at all, what would the GPU still have to do? Write the share into
# `my_guess` (0.1 or 10 for 10%).

# %% [markdown] lang="zh"
# **练习**：与基线相比，同时运行时 CPU 的任务不再由 GPU 来做。这最多能让基线的执行时间缩短百分之几？
# 提示：即使 CPU 的任务完全不花时间，GPU 还要做什么？把你的猜测写进 `my_guess`（0.1 或 10 都表示 10%）。

# %%
my_guess = None  # the share of the baseline's time saved, e.g. 0.1  #zh: 基线执行时间缩短的比例，例如 0.1

# %% [markdown]
# If that share is under the rule's 5%, expect no clear difference: the rule needs medians at least 5% apart.
#
# The figure's top half: every repeat, each estimate hatched and labelled, your guess a diamond on together's row.
# Its bottom half: together's median run.

# %% [markdown] lang="zh"
# 如果这个比例低于规则中的5%，就应当没有明显差别：规则要求中位数至少相差5%。
#
# 下图上半部分画出每次重复，斜线条形是估算值，下方注明了估算方法；菱形是你的猜测（画在“同时运行”一行）。
# 下图下半部分是“同时运行”中执行时间居中的那次运行。

# %% tags=["nbval-ignore-output"]
recorded_figure(rec, my_guess)  # every repeat as a dot; your guess, once set, as a diamond  #zh: 每次重复画成一个点；写下猜测后，猜测画成菱形

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(recorded_answer(rec))  # the worked answer, from the recording's numbers  #zh: 参考答案，由记录中的数字得出

# %% [markdown]
# ## Remember
#
# - Compare running together with one device doing both jobs. Here adding the CPU made no clear difference.
# - Adding a device saves at most the time the first spent on the work it takes over.
# - Call a way faster or slower only by the rule.
#
# ## Pitfalls
#
# - **Comparing with the sum of the two times alone**: that sum is not a baseline; compare with one device doing both
#   jobs.
# - **One number**: a single run hides the spread; look at every repeat.

# %% [markdown] lang="zh"
# ## 小结
#
# - 要把同时运行与一个设备完成两项任务相比。这里加上 CPU 没有明显差别。
# - 新设备接走多少工作，至多就省下原设备做这些工作的时间。
# - 只按规则判断更快或更慢。
#
# ## 易错点
#
# - **与两者单独执行时间之和比较**：这个和不是基线；要与一个设备完成两项任务相比。
# - **只看一个数字**：一次运行看不出波动；要看每次重复。
