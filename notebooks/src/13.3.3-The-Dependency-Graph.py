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
# # 13.3.3 Extra: The Dependency Graph of Fig. 13.3.1
#
# [Fig. 13.3.1](https://d2l.ai/chapter_computational-performance/auto-parallelism.html) of the book shows one training step of a two-layer MLP on a CPU and two GPUs: each GPU takes half of the
# minibatch through forward, loss and backward; the CPU (the *parameter server*) sums the gradients and updates the
# weights. Here you write it for two lanes, record its graph, predict and measure it.

# %% [markdown] lang="zh"
# # 扩展：依赖图（12.3节，图12.3.1）
#
# 书中的[图12.3.1](https://zh.d2l.ai/chapter_computational-performance/auto-parallelism.html)“在一个CPU和两个GPU上的两层的多层感知机的计算图及其依赖关系”
# 画出了一次训练迭代。每个 GPU 在小批量的一半上完成前向传播、损失和反向传播；CPU（即**参数服务器**）对梯度求和并更新权重。
# 本节我们在这台机器的两个计算资源上写出这次训练迭代，记录它的依赖图（即带依赖关系的计算图），预测它的执行时间，然后实测。

# %% tags=["nbval-ignore-output"]
# %matplotlib inline
import torch  # lane_step below uses it  #zh: 下面的 lane_step 要用

import d2l_ext
from d2l_ext import depgraph as dg
from d2l_ext.depgraph import recording
from d2l_ext.display import graph as show

d2l_ext.set_language('en')
lanes = d2l_ext.find_lanes('torch')  # two GPUs; or a GPU and the CPU; or two halves of the CPU's cores  #zh: 两个 GPU；或一个 GPU 和 CPU；或 CPU 核心的两半
params, X, y = dg.make_problem(batch=256)  # the weights (on the CPU) and one minibatch  #zh: 权重（在 CPU 上）和一个小批量
print(show.machine_line(lanes))

# %% [markdown]
# ## One lane's work
#
# Without two GPUs, `find_lanes` gives two *lanes* that can work at once (13.3.1). Lane `i` runs `lane_step` on its
# rows: a two-layer MLP (784-256-10, squared loss), backward written out so every operation sits in a named box
# (`stage`). The loss is divided by the *whole* minibatch size `n_total`, so the lanes' gradients add up.

# %% [markdown] lang="zh"
# ## 一个计算资源的工作
#
# 没有两个 GPU 时，`find_lanes` 给出两个可以同时工作的**计算资源**：一个 GPU 和 CPU，或者 CPU 核心的两半（见 12.3.1 节）。
# 计算资源 `i` 在自己的样本上运行 `lane_step`，即一个两层的多层感知机（784 个输入、256 个隐藏单元、10 个输出、平方损失）。
# 反向传播逐步写出，并用 `stage` 给每一部分命名（即图中的阶段）。损失除以的是整个小批量的大小 `n_total`，
# 因此两个计算资源的梯度相加正好等于整个小批量的梯度。

# %%
#@source d2l_ext.depgraph.model.lane_step

# %% [markdown]
# ## Build it: `mlp_step`
#
# Write the step of Fig. 13.3.1 for two lanes:
#
# * lane `i`'s job copies half of the rows and the weights to `lanes[i].device()`, as a GPU would. On a CPU lane,
#   `.to(device)` alone returns the same tensor: add `copy=True`;
# * `run_on_lanes(lanes, jobs)` runs `jobs[i]()` on `lanes[i]`, both halves' `lane_step` **at once**, and returns
#   their results;
# * the gradients are summed on the CPU, where `params` live; the step returns the new weights (minibatch SGD);
# * each part sits in a box, `with stage(i, 'copy in'):` on lane `i` as in `lane_step`, `stage(SERVER, name)` for the
#   gradient copies, the sum and the update: the graph and the timeline below are drawn from these boxes.
#
# The check runs four steps and grades the updates against float64, where each half ran, and the halves' overlap.

# %% [markdown] lang="zh"
# ## 动手实现：`mlp_step`
#
# 为两个计算资源写出图12.3.1 中的训练迭代：
#
# * 计算资源 `i` 运行的函数 `jobs[i]` 把一半样本和权重复制到 `lanes[i].device()` 上，就像 GPU 那样
#   （在 CPU 上，只写 `.to(device)` 会返回同一个张量，要加 `copy=True`）；
# * `run_on_lanes(lanes, jobs)` 在 `lanes[i]` 上运行 `jobs[i]()`，让两半**同时**运行 `lane_step`，并返回它们的结果；
# * 梯度在 `params` 所在的 CPU 上求和，训练迭代返回新的权重（小批量随机梯度下降）；
# * 每一部分放进一个阶段：与 `lane_step` 一样，计算资源 `i` 上用 `with stage(i, 'copy in'):`；梯度的复制、求和与更新
#   用 `stage(SERVER, name)`。下面的依赖图和时间线都由这些阶段画出。
#
# 运行四次训练迭代后，检查更新（与 float64 结果比较）、每一半在哪里运行，以及两半的重叠。

# %% tags=["nbval-ignore-output"]
from d2l_ext.backends.torch_backend import run_on_lanes  # at hand for the Build-it  #zh: 供动手实现使用
from d2l_ext.depgraph import SERVER, stage


def mlp_step(lanes, params, X, y, lr):
    # One minibatch SGD step, split over two lanes  #zh: 一次小批量随机梯度下降，小批量分给两个计算资源
    # (the book's two-GPU figure); returns the new weights, on the CPU  #zh: （书中两个 GPU 的图）；返回 CPU 上的新权重
    # TODO: the halves on the lanes, lane_step on both at once,  #zh: TODO：两半放到计算资源上，同时运行 lane_step，
    # the sum and the update on the CPU  #zh: 在 CPU 上求和并更新
    raise NotImplementedError


mine = mlp_step  # the graph and timings below use yours once this check passes  #zh: 这个检查通过后，下面的依赖图和计时就用你的函数
checked = d2l_ext.check('13.3.3-mlp', mlp_step)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
#@source d2l_ext.depgraph.model.mlp_step

# %% [markdown]
# ## The graph, recorded from the step
#
# `record_step_graph` runs the step once and records every PyTorch operation. An arrow joins A to B when B reads a
# tensor that A wrote.

# %% [markdown] lang="zh"
# ## 记录训练迭代的依赖图
#
# `record_step_graph` 运行训练迭代一次，记录每个 PyTorch 操作。当 B 读取了 A 写入的张量时，就有一条从 A 到 B 的箭头。

# %%
mlp_step = mine if checked.passed else dg.mlp_step  # yours once its check passed  #zh: 你的函数通过检查后就用你的
print('graphed and timed: your mlp_step (its check passed)' if checked.passed else
      'graphed and timed: the worked mlp_step (yours has not passed its check yet)')
#zh-str: {'graphed and timed: your mlp_step (its check passed)': '依赖图和计时用的是你的 mlp_step（它通过了检查）', 'graphed and timed: the worked mlp_step (yours has not passed its check yet)': '依赖图和计时用的是参考实现 mlp_step（你的尚未通过检查）'}
graph = dg.coarsen_graph(dg.record_step_graph(lanes, (params, X, y), step=mlp_step))  # one node per box  #zh: 每个阶段一个节点
show.draw_graph(graph)

# %% [markdown]
# The two chains meet at the server, whose `sum` waits for **both** lanes' gradients.
#
# ## Predict, then measure
#
# The step is timed three ways, each checked against float64:
#
# * **one device**, the whole minibatch, on all cores and on one thread; the one with the lower median is the baseline;
# * **one after the other**: lane 1's half after lane 0's;
# * **together**.
#
# Splitting pays only if together beats the baseline by the rule. On 2 CPU cores, each half runs on one core.

# %% [markdown] lang="zh"
# 两条链在服务器处汇合，服务器的 `sum` 要等待**两个**计算资源的梯度。
#
# ## 先预测，再测量
#
# 训练迭代按三种方式计时，每次更新都与 float64 的结果进行检查：
#
# * **一个设备**处理整个小批量，用全部核心，以及只用一个线程；中位数较低的一行是基线，结论和时间线都用它；
# * **先后运行**：计算资源 0 上的半个小批量完成后，计算资源 1 上的才开始；
# * **同时运行**。
#
# 只有当“同时运行”按概览中的规则比基线更快时，拆分才划算。
# 在 2 核 CPU 上，每一半只用一个核心。

# %% [markdown]
# The graph predicts *together* ($t_\textrm{par}$) from *one after the other* ($t_\textrm{ser}$, halves $t_0$, $t_1$):
# the shorter half hides inside the longer one, so together takes the longer half plus the other time:
#
# $$t_\textrm{par} \approx \underbrace{t_\textrm{ser} - t_0 - t_1}_\textrm{other time} + \max(t_0, t_1) = t_\textrm{ser} - \min(t_0, t_1).$$
#
# It assumes:
#
# 1. each half runs as fast together as one after the other;
# 2. both start at once, the shorter inside the longer (overlap 100%);
# 3. the other time (copies, sum, update, unrecorded time) stays the same.
#
# If $t_\textrm{ser} - \min(t_0, t_1)$ is above the baseline that the next cell prints, expect splitting not to pay here.
# Two lanes can pay only where the critical path, the longest chain of dependent work, takes less than one device doing
# it all (exercise 3). Does the prediction land? Exercise 2 checks each assumption.

# %% [markdown] lang="zh"
# 依赖图根据“先后运行”（$t_\text{先后}$，两半为$t_0$、$t_1$）预测“同时运行”（$t_\text{同时}$）。
# 两种方式运行的阶段相同，只是两条链现在可以同时运行。
# 较短的一半完全与较长的一半重叠，所以“同时运行”的时间是较长的一半加上其他时间：
#
# $$t_\text{同时} \approx \underbrace{t_\text{先后} - t_0 - t_1}_\text{其他时间} + \max(t_0, t_1) = t_\text{先后} - \min(t_0, t_1).$$
#
# 这个预测假设：
#
# 1. 每一半同时运行时和先后运行时一样快；
# 2. 两半同时开始，较短的一半完全与较长的一半重叠（100%）；
# 3. 其他时间（复制、求和、更新、未归入任何阶段的时间，见时间线的图例）不变。
#
# 如果$t_\text{先后} - \min(t_0, t_1)$比下一个单元格打印的基线还长，就预期拆分在这里不划算。
# 只有当关键路径（最长的一条相互依赖的计算链）比一个设备完成全部工作的时间短时，两个计算资源才可能划算（见练习3）。
# 预测准确吗？练习2逐一检验三个假设。

# %% tags=["nbval-ignore-output"]
here = dg.record_step(lanes, repeats=41, control=True, step=mlp_step)  # every repeat and interval of each way  #zh: 每种方式的每次重复和区间
print(show.inputs_line(here))  # the prediction's inputs  #zh: 预测要用的数

# %%
my_guess = None  # ms: one step with the two lanes together  #zh: 毫秒：两个计算资源同时运行一次训练迭代

# %% tags=["nbval-ignore-output"]
show.show_step(here, my_guess)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
show.step_answer(here)

# %% [markdown]
# ## Recorded on a GPU machine
#
# The same cell on a GPU machine: its lanes are the GPU and the CPU, half the minibatch each. In the timeline, if the
# CPU's half is longer than the one-device row (the whole step on the GPU), splitting can only be slower.

# %% [markdown] lang="zh"
# ## 在 GPU 上记录的结果
#
# 同一个单元格在一台 GPU 机器上运行的结果：那里的两个计算资源是 GPU 和 CPU，各分到半个小批量。
# 在时间线中，如果 CPU 上的半个小批量比“一个设备”一行（GPU 上的整次训练迭代）还长，拆分就只会更慢。

# %% tags=["nbval-ignore-output"]
recorded = recording.newest()  # the newest recording from a machine with a GPU, or None  #zh: 最新的 GPU 记录结果，没有则为 None
show.show_recorded(recorded)

# %% [markdown]
# ## Exercises
#
# **1. One line changed on the server.** `dg.wrong_version('lane0_twice')` is the worked step with one change: its server
# uses lane 0's gradients twice. Predict: does the recorded graph change, and does the check catch it? The graph
# below marks in red any edge it lacks; the cell after it runs the float64 check.

# %% [markdown] lang="zh"
# ## 练习
#
# **1. 服务器上改了一行**。`dg.wrong_version('lane0_twice')` 是参考实现只改了一处的版本：它的服务器把计算资源 0 的梯度
# 用了两次。先预测：记录下来的依赖图会变吗？检查能发现吗？下面的依赖图用红色标出它缺少的边（如果有）；
# 再下一个单元格运行 float64 检查。

# %%
my_guess_graph = None  # two True/False: (does the graph change?, does the check catch it?)  #zh: 两个 True/False：（依赖图会变吗？检查能发现吗？）

# %%
lane0_twice = dg.wrong_version('lane0_twice')  # its server sums lane 0's gradients twice  #zh: 它的服务器把计算资源 0 的梯度用了两次
twice_graph = dg.coarsen_graph(dg.record_step_graph(lanes, (params, X, y), step=lane0_twice))
worked_graph = dg.coarsen_graph(dg.record_step_graph(lanes, (params, X, y)))  # the worked step's  #zh: 参考实现的
show.draw_graph(twice_graph, missing=worked_graph)  # red: an edge the worked step has  #zh: 红色：参考实现中有的边

# %% tags=["nbval-ignore-output"]
try:  # one step checked against float64, as in the Build-it; it raises if the update is wrong  #zh: 与动手实现一样，把一次训练迭代与 float64 结果比较；更新不对就报错
    print(dg.check_step_matches(lanes, (params, X, y), step=lane0_twice))
    caught = False
except d2l_ext.ResultMismatch as e:
    print(e)
    caught = True

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
show.wrong_sum_answer(twice_graph, caught, my_guess_graph)

# %% [markdown]
# **2. Did assumption 1 fail?** It fails if a half took longer or shorter together than one after the other, by the
# rule of 13.3.0. Its worked answer judges all three assumptions by the rule.

# %% [markdown] lang="zh"
# **2. 假设1成立吗？**按 12.3 节概览中的规则，某一半同时运行时的执行时间比先后运行时更长或更短，假设1就不成立。
# 参考答案按规则给出三个假设各自的结论。

# %%
my_guess_failed = None  # True if assumption 1 failed here, else False  #zh: 假设1在这里不成立就写 True，否则写 False

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
show.split_answer(here, my_guess_failed)

# %% [markdown]
# **3. The book's exercise 5: more complex dependencies. Still correct, and what limits the speed?** The next cell
# builds 21 tasks, each `tanh((sum of its inputs) @ W)`. Each of 3 stages runs arms of 1, 2 and 3 tasks (`arms`) side
# by side, then a task joining them. `2b1` is stage 2, arm b, step 1; `2J` joins stage 2's arms; `cross=True` adds
# arrows between arms. Before running it: at least how many task times must any plan on two lanes take?

# %% [markdown] lang="zh"
# **3. 书中的练习 5：更复杂的依赖关系。结果仍然正确吗？是什么限制了速度？**下一个单元格构造 21 个任务，每个任务是
# `tanh((各输入之和) @ W)`。3 个阶段中，每个阶段先并排运行长为 1、2、3 个任务的分支，再用一个任务汇合
# 它们。`2b1` 是第 2 阶段、分支 b 的第 1 步；`2J` 汇合第 2 阶段的各分支；`cross=True` 加上分支之间的箭头。
# 运行它之前先想一想：两个计算资源上的任何计划至少要用几个任务的时间？

# %%
my_guess_tasks = None  # at least how many task times, any plan on two lanes  #zh: 两个计算资源上的任何计划至少要用几个任务的时间

# %%
arms, cross = (1, 2, 3), True  # change these  #zh: 可以修改这两个值
dag = dg.diamond_dag(stages=3, arms=arms, cross=cross)
alone = dg.task_times(dag, lanes)  # a task, all in order on each lane alone  #zh: 每个计算资源单独按顺序运行全部任务
print(show.dag_line(dg.dag_model(dag, lanes), alone))
show.draw_dag(dag, lanes)

# %% [markdown]
# `dg.dag_plan` makes the plan before the run: the ready task with the longest chain behind it goes to the lane
# where it would finish first (its colour). Each lane runs its tasks in order, waiting for inputs. The estimate
# (hatched) replays the plan at the times alone, as if neither lane slowed the other. Guess the planned run's time,
# then measure it beside one device running all 21 in order (on a CPU, all cores and one thread; the one with the
# lower median is the baseline).

# %% [markdown] lang="zh"
# `dg.dag_plan` 在运行前做出计划：在可以开始的任务中，剩余路径最长的任务分给能最早完成它的计算资源（图中的颜色）。
# 每个计算资源按顺序运行自己的任务，并等待它们的输入。
# 估算（斜线条形）按每个计算资源单独运行的执行时间重放这个计划，即假设两个计算资源互不拖慢。
# 先猜一猜按计划运行要多久，再测量，与一个设备按顺序运行全部 21 个任务比较
# （在 CPU 上用全部核心，以及只用一个线程；中位数较低的一行是基线）。

# %%
my_guess_dag = None  # ms: two lanes, planned  #zh: 毫秒：两个计算资源按计划运行

# %% tags=["nbval-ignore-output"]
ex5 = dg.dag_experiment(lanes, arms=arms, cross=cross, repeats=15, alone=alone)  # every result checked against float64  #zh: 每个结果都与 float64 结果检查
show.show_dag(ex5, my_guess_dag)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
show.dag_answer(ex5, my_guess_tasks)

# %% [markdown]
# ## Remember
#
# * A split step is a graph: chains side by side, meeting where the gradients are summed.
# * Splitting pays only if together beats the baseline, the one-device row with the lower median.
# * Faster must stay correct: check against float64.
#
# ## Pitfalls
#
# * **Each half's loss divided by its own rows**: an update twice too large.
# * **Weights copied to the lanes only once**: later steps use stale weights.
# * **Jobs made in a loop as `lambda: lane_step(i, *h, n)`**: they read `i` and `h` when they run, so both run lane 1's
#   half. Bind them: `lambda i=i, h=h: ...`.

# %% [markdown] lang="zh"
# ## 小结
#
# * 拆分的训练迭代是一个图：并排的链在梯度求和处汇合。
# * 只有“同时运行”比基线（中位数较低的那一行“一个设备”）更快，拆分才划算。
# * 变快的同时必须保持正确：与 float64 结果检查。
#
# ## 易错点
#
# * **每一半的损失除以自己的样本数**：更新会变成两倍大。
# * **只把权重复制到计算资源上一次**：之后的训练迭代用的是过时的权重。
# * **在循环中把函数写成 `lambda: lane_step(i, *h, n)`**：函数运行时才读取 `i` 和 `h`，两个函数都算计算资源 1 上的半个小批量。
#   要绑定它们：`lambda i=i, h=h: ...`。
