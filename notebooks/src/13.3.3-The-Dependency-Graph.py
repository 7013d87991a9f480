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
# # Extra: The Dependency Graph (d2l §13.3, Fig. 13.3.1)
#
# Fig. 13.3.1 of the book shows one training step of a two-layer MLP on a CPU and two GPUs: each GPU takes half of the
# minibatch through forward, loss and backward; the CPU (the *parameter server*) sums the gradients and updates the
# weights, which go back to the GPUs. Here you write that step on this machine's two lanes, record its graph, predict
# its time from the graph, and measure it.

# %% [markdown] lang="zh"
# # 扩展：依赖图（《动手学深度学习》§12.3，图12.3.1）
#
# 书中的图12.3.1画出了一个两层多层感知机在一个CPU和两个GPU上的一个训练步：每个GPU在小批量的一半上完成前向传播、
# 损失和反向传播；CPU（即*参数服务器*）对梯度求和并更新权重，新的权重再回到各个GPU。本课我们在这台机器的两条
# 执行路上亲手写出这个训练步，记录它的依赖图，用依赖图预测它的耗时，然后实测。

# %% tags=["nbval-ignore-output"]
# %matplotlib inline
import torch

import d2l_ext
from d2l_ext import depgraph as dg
from d2l_ext.backends.torch_backend import run_on_lanes
from d2l_ext.depgraph import SERVER, stage
from d2l_ext.display import graph as show

d2l_ext.set_language('en')
lanes = d2l_ext.find_lanes('torch')  # two GPUs; or a GPU and the CPU; or two halves of the CPU's cores
params, X, y = dg.make_problem(batch=256)  # the weights (on the CPU) and one minibatch
print(show.machine_text(lanes))

# %% [markdown]
# ## One lane's work
#
# Without two GPUs, `find_lanes` gives two *lanes* that can work at once: a GPU and the CPU, or two halves of the
# CPU's cores (13.3.1). Lane `i` runs `lane_step` on its rows: the book's MLP (784-256-10, squared loss), backward
# written out so every operation sits in a named box (`stage`), as in the figure. The loss is
# divided by the *whole* minibatch size `n_total`, so the two lanes' gradients add up to the whole minibatch's.

# %% [markdown] lang="zh"
# ## 一条执行路的工作
#
# 没有两个GPU时，`find_lanes` 给出两条可以同时工作的*执行路*：一个GPU和CPU，或者CPU核心的两半（见12.3.1节）。执行路
# `i` 在自己的样本上运行 `lane_step`：书中的多层感知机（784个输入、256个隐藏单元、10个输出、平方损失），反向传播逐步
# 写出，使每个操作都像图中那样位于一个有名字的方框（`stage`）中。损失除以的是*整个*小批量的大小 `n_total`，因此两条
# 执行路的梯度相加正好等于整个小批量的梯度。

# %%
def lane_step(i, params, X, y, n_total):
    """Forward and backward of lane i's rows -> (loss, gradients), the loss divided by all n_total rows."""
    W1, b1, W2, b2 = params['W1'], params['b1'], params['W2'], params['b2']
    with stage(i, 'fc1 fwd'):
        Z1 = X @ W1 + b1
    with stage(i, 'relu'):
        H = torch.relu(Z1)
    with stage(i, 'fc2 fwd'):
        y_hat = H @ W2 + b2
    with stage(i, 'loss'):
        D = y_hat - y
        loss = (D * D).sum() / (2 * n_total)
        dY = D / n_total  # d loss / d y_hat
    with stage(i, 'fc2 bwd'):
        dW2, db2, dH = H.T @ dY, dY.sum(0), dY @ W2.T
    with stage(i, 'relu bwd'):
        dZ1 = dH * (Z1 > 0)
    with stage(i, 'fc1 bwd'):
        dW1, db1 = X.T @ dZ1, dZ1.sum(0)
    return loss, {'W1': dW1, 'b1': db1, 'W2': dW2, 'b2': db2}


# %% [markdown]
# ## Build it: `mlp_step`
#
# Write the step of Fig. 13.3.1 for two lanes: which device runs what, and where the data moves.
#
# 1. Give lane `i` half of the rows (`X.tensor_split(2)`, `y` alike) and a copy of the weights, on `lanes[i].device()`.
# 2. Run `lane_step` for both halves **at once**: `run_on_lanes(lanes, jobs)` starts `jobs[i]()` on `lanes[i]` (a CPU
#    lane in its own thread, a GPU lane's kernels queued) and returns their results.
# 3. Move the gradients to the CPU, where `params` live, sum them there and return the new weights
#    `params[k] - lr * total[k]`.
#
# The check runs four SGD steps and grades the updates (against float64), the placement and the halves' overlap, from
# timestamps taken while your code ran.

# %% [markdown] lang="zh"
# ## 动手实现：`mlp_step`
#
# 为两条执行路写出图12.3.1中的训练步：哪个设备运行什么，数据在哪里移动。
#
# 1. 把一半样本（`X.tensor_split(2)`，`y` 也一样）和一份权重副本交给执行路 `i`，放在 `lanes[i].device()` 上。
# 2. **同时**在两半样本上运行 `lane_step`：`run_on_lanes(lanes, jobs)` 在 `lanes[i]` 上启动 `jobs[i]()`（CPU执行路在
#    自己的线程中运行，GPU执行路的CUDA内核排入队列），并返回它们的结果。
# 3. 把梯度移到 `params` 所在的CPU上，在那里求和，返回新的权重 `params[k] - lr * total[k]`。
#
# 检查会运行四个随机梯度下降步，并评判：更新（与float64结果比较）、放置和两半的重叠（根据你的代码运行时记录的
# 时间戳计算）。

# %% tags=["nbval-ignore-output"]
def mlp_step(lanes, params, X, y, lr):
    """One SGD step, the minibatch split over two lanes (the book's two-GPU figure) -> new weights on the CPU."""
    # TODO: half of the rows and a copy of the weights on each lane's device; lane_step on both halves at once
    #       (run_on_lanes); the gradients to the CPU, summed there; return params[k] - lr * total[k] for every k.
    raise NotImplementedError


d2l_ext.check('13.3.3-mlp', mlp_step)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
def mlp_step(lanes, params, X, y, lr):
    """One SGD step, the minibatch split over two lanes (the book's two-GPU figure) -> new weights on the CPU."""
    server, n = params['W1'].device, X.shape[0]  # the weights live on the server: the CPU
    halves = []
    for i, (lane, Xi, yi) in enumerate(zip(lanes, X.tensor_split(2), y.tensor_split(2))):
        with stage(i, 'copy in'):  # lane i gets a fresh copy of the weights and its half of the rows
            w = {k: v.to(lane.device(), copy=True) for k, v in params.items()}
            halves.append((w, Xi.to(lane.device()), yi.to(lane.device())))
    # Both halves at once, each on its lane; each loss is divided by all n rows, so the gradients add up.
    results = run_on_lanes(lanes, [lambda i=i, h=h: lane_step(i, *h, n) for i, h in enumerate(halves)])
    with stage(SERVER, 'grad copy'):  # every gradient to the server
        grads = [{k: g[k].to(server, copy=True) for k in g} for _, g in results]
    with stage(SERVER, 'sum'):  # waits for both lanes
        total = {k: grads[0][k] + grads[1][k] for k in params}
    with stage(SERVER, 'update'):
        return {k: params[k] - lr * total[k] for k in params}


d2l_ext.check('13.3.3-mlp', mlp_step)

# %% [markdown]
# ## The graph, recorded from the worked step
#
# `record_step_graph` runs the worked `mlp_step` once under a PyTorch hook that sees every operation. An edge joins A
# to B when B reads a tensor A wrote; a copy is its own node, between two lanes, with the bytes it moves.
# Merging each box's operations gives the book's picture. Each step starts with the copies in (`copy in`), each named
# for what it moves: `weights in`, a fresh copy to each lane, and `rows in` only where the rows move to another device.

# %% [markdown] lang="zh"
# ## 根据参考实现记录的依赖图
#
# `record_step_graph` 在一个能看到每个操作的PyTorch钩子下运行一次参考实现 `mlp_step`。当B读取了A写入的张量时，就有
# 一条从A到B的边；一次复制是两条执行路之间的一个单独节点，并带有它传输的字节数。把每个方框里的操作合并起来，就
# 得到了书中的图。每个训练步从传入的复制（`copy in`）开始，每次复制按它传输的内容命名：“传入权重”给每条执行路一份新的
# 权重副本，“传入样本”只在样本换设备时才出现。

# %%
graph = dg.coarsen_graph(dg.record_step_graph(lanes, (params, X, y)))  # one node per box
print(show.summary_text(graph, d2l_ext.t('graph.title_graph')))
show.draw_graph(graph, title=d2l_ext.t('graph.title_graph'))

# %% [markdown]
# It is the book's figure plus the biases and the loss: two chains that meet only at the server, whose `sum` waits
# for **both** lanes' gradients. Inside a chain nothing can start early; between the chains everything can overlap.
#
# ## Predict, then measure
#
# Measured here (medians of repeated runs): each box alone, each lane's boxes alone and both at once, lane 0's boxes
# on its whole device (a CPU: all its cores).

# %% [markdown] lang="zh"
# 这正是书中的图，只是多了偏置和损失：两条链只在服务器处汇合，而服务器的 `sum` 要等待**两条**执行路的梯度。在一条链
# 内部，没有什么能提前开始；两条链之间的一切都可以重叠。
#
# ## 先预测，再测量
#
# 在这里实测（多次运行的中位数）：每个方框单独运行的时间、每条执行路的方框单独运行和两条同时运行的时间，以及执行路0的
# 方框在其整个设备上（CPU则使用全部核心）的时间。

# %% tags=["nbval-ignore-output"]
print(d2l_ext.t('graph.step_checked', err=dg.check_step_matches(lanes, (params, X, y))['relative_error']))
graph_here, costs = dg.measure_node_costs(lanes, (params, X, y))
rates = dg.measure_rates(lanes, (params, X, y))
print(show.rates_text(rates))

# %% [markdown]
# Guess one step with both lanes together; write it into `my_guess`. The cell prints closed forms from the times
# above: **one after the other**, every box in turn, each lane as alone; **together**, the schedule the graph allows (a
# box starts once its inputs are done and its lane or link is free), lanes as at once; **one device**, lane 0's boxes
# on its whole device, twice, plus the update. A step adds the server's boxes and the copies, so it outlasts the
# lanes' boxes above. The three are timed interleaved, checked against float64.

# %% [markdown] lang="zh"
# 猜一猜两条执行路同时运行一个训练步要多长时间，并把它写进 `my_guess`。这个单元格打印按公式得出的预测，每条执行路的
# 方框都按上面测得的时间缩放：**先后运行**，各方框依次运行，每条执行路取单独运行的时间；**同时运行**，依赖图所允许的
# 调度（方框在其输入都已完成、且其执行路或链路空闲时立即开始），两条执行路取同时运行的时间；**一个设备**，执行路0的
# 方框在其整个设备上的时间乘以2，再加上更新。一个训练步还要运行服务器的方框和各次复制，所以比上面各执行路的方框
# 用时更长。接着它把三种方式交替运行并计时，每次都与float64的结果进行检查。

# %% tags=["nbval-ignore-output"]
my_guess = None  # ms: one step with the two lanes together. Write a number, then run this cell.

plan = dg.schedule_step(graph_here, measured=costs)
predicted = dg.predict_step(plan, graph_here, costs, rates)
timing = dg.time_step(lanes, (params, X, y), repeats=7, predicted=predicted)
print(show.guess_text(my_guess, timing))
print(show.step_timing_text(timing, plan))
show.draw_step_timing(timing)

# %% [markdown]
# The overlap is measured from when each half ran; the wall-clock difference beside it counts everything else the two
# ways do differently. Below: the schedule from the boxes timed one at a time (critical path outlined), then the step's
# three numbers, each with the share of the cores other programs used meanwhile.

# %% [markdown] lang="zh"
# 重叠根据每一半实际运行的时间测得；旁边的挂钟时间差还计入了两种方式之间的所有其他差别。下面是按逐个计时的方框排出的
# 调度（关键路径已描边），然后是这个训练步的三个数字，以及为每个数字计时时其他程序占用的核心的比例。

# %% tags=["nbval-ignore-output"]
print(show.schedule_text(plan))
print(show.schedule_vs_step_text(plan, rates, timing))
show.draw_schedule(plan, title=d2l_ext.t('graph.title_plan'))

# %% [markdown]
# The panel's sliders recompute a model of the book's setting (round numbers assumed for illustration, not measured:
# two GPUs at 10 TFLOP/s, a CPU server, PCIe at 12 GB/s); **Measure here** times the boxes on this machine.

# %% [markdown] lang="zh"
# 下面面板的滑块重新计算书中场景的一个模型（为便于说明而假定的整齐的数，并非实测：两个10 TFLOP/s的GPU、一个
# CPU服务器、每个方向12 GB/s的PCIe）；**在这里测量**则改为在这台机器上为各方框计时。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.graph_panel import GraphSchedulePanel

panel = GraphSchedulePanel(lanes).show()

# %% [markdown]
# ## Exercises
#
# **1. A server that does not wait.** `dg.wrong_version('lane0_twice')` is the worked step with one change: its server
# uses lane 0's gradients twice, as a server that read before lane 1's arrived would. Predict: does the recorded graph
# change, and does the check catch it? Then open the cell's output.

# %% [markdown] lang="zh"
# ## 练习
#
# **1. 不等待的服务器**。`dg.wrong_version('lane0_twice')` 是参考实现只改了一处的版本：它的服务器把执行路0的梯度
# 用了两次，就像一个没等执行路1的梯度到达就去读取的服务器那样。先预测：记录下来的依赖图会变吗？检查能发现吗？然后
# 展开下面单元格的输出。

# %% jupyter={"outputs_hidden": true}
hasty = dg.wrong_version('lane0_twice')
try:
    dg.check_step_matches(lanes, (params, X, y), step=hasty)
    print(d2l_ext.t('graph.check_missed'))
except d2l_ext.ResultMismatch as e:
    print(d2l_ext.t('graph.check_caught', message=e))
show.draw_graph(dg.coarsen_graph(dg.record_step_graph(lanes, (params, X, y), step=hasty)),
                title=d2l_ext.t('graph.title_hasty'))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# The graph changes: lane 1's gradients still reach the server, but no edge joins them to `sum`, so a scheduler
# would start `sum` without them. The update is wrong, and the check against float64 catches it.
# </details>
#
# **2. An uneven split.** With a GPU and the CPU as lanes, an even split makes the GPU wait. How many of the 256 rows
# should lane 0 get so that both lanes finish together? Try `X.tensor_split([a])` (and `y` alike) in your `mlp_step`
# and time it with `d2l_ext.measure(..., lanes=lanes)`. Without a GPU, use the recording at the end: its line "each
# lane alone" gives each lane's busy time at 128 rows.
#
# <details><summary>Worked answer</summary>
#
# Split in proportion to speed: a = 256 · t₁ / (t₀ + t₁), where tᵢ is the sum of lane *i*'s boxes at 128 rows. Next to
# a GPU the CPU gets a small share, and one GPU with the whole minibatch may still be faster: time both. Two CPU lanes
# on equal cores are balanced only if their measured times agree.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 依赖图变了：执行路1的梯度仍然到达服务器，但不再有任何边把它们连到 `sum`，因此调度器会在没有这些梯度的情况下开始
# `sum`。更新是错的，与float64结果的检查发现了这一点。
# </details>
#
# **2. 不均匀的拆分**。以一个GPU和CPU作为执行路时，平均拆分会使GPU等待。256个样本中应当给执行路0多少个，才能让两条
# 执行路同时完成？在你的 `mlp_step` 中试用 `X.tensor_split([a])`（`y` 也一样），再用
# `d2l_ext.measure(..., lanes=lanes)` 为它计时。没有GPU时，请用本课末尾的录制结果：其中“每条执行路单独运行”那一行
# 给出了每条执行路处理128个样本时的忙碌时间。
#
# <details><summary>参考答案</summary>
#
# 按速度成比例地拆分：a = 256 · t₁ / (t₀ + t₁)，其中 tᵢ 是执行路 *i* 在128个样本时各方框耗时之和。与GPU并列时，
# CPU只分到一小部分样本，一个GPU处理整个小批量仍可能更快：两者都计时。两条核心数相同的CPU执行路只有在实测用时相近时才算平衡。
# </details>

# %% [markdown]
# **3. The book's exercise 5: more complex dependencies, still correct while faster.** Each task computes
# `tanh((sum of its inputs) @ W)`; three stages, each a diamond of arms of `arms` products meeting in a join;
# `cross=True` adds edges between arms. A planner puts each task on a lane (longest chain behind it first) and gives
# every lane at least one; a small engine runs the plan, each lane waiting for the tasks it reads.

# %% [markdown] lang="zh"
# **3. 书中的练习5：更复杂的依赖关系**。设计具有更复杂依赖关系的任务，检查在计算变快的同时结果仍然正确。每个任务计算
# `tanh((各输入之和) @ W)`；一共三个阶段，每个阶段是一个菱形：若干条分支，各含 `arms` 中给定个数的乘法，最后在
# 汇合点汇合；`cross=True` 会在分支之间加上边。规划器把每个任务放到一条执行路上（其后的链最长的任务先放），并让每条
# 执行路至少分到一个；一个小引擎执行这个计划，每条执行路等待它所读取的任务完成。

# %%
arms, cross = (1, 2, 3), True  # change these
dag = dg.diamond_dag(stages=3, arms=arms, cross=cross)
print(show.dag_model_text(dg.dag_model(dag, lanes)))

# %% tags=["nbval-ignore-output"]
ex5 = dg.dag_experiment(lanes, arms=arms, cross=cross, repeats=5)  # every result checked against float64
print(show.dag_text(ex5))
caught, message = dg.broken_engine_check(ex5)  # the same plan, with the waits left out
print(d2l_ext.t('graph.broken_caught', message=message) if caught else message)
show.draw_dag(ex5)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# With `arms=(1, 2, 3), cross=True`: 21 products in series; the critical path is 4 per stage (the longest arm, then the
# join), 12 in all, and the plan on two lanes reaches it. With `arms=(2, 2, 2), cross=False` (cell below) the critical
# path drops to 9, but six arm products on two lanes take 3 per stage, plus the join: still 12. In units of one
# product the lanes, not the path, set the time; measured times need not follow the unit count.
#
# Beside a GPU (recorded at the end), the output says whether the planner gave the CPU anything, what one
# product timed on each lane predicted, and how the plan compared with the GPU alone.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 当 `arms=(1, 2, 3), cross=True` 时：串行需要21次乘法；关键路径每个阶段为4（最长的分支再加汇合点），总共12，两条执行路
# 上的计划达到了这个值。当 `arms=(2, 2, 2), cross=False` 时（见下面的单元格），关键路径降到9，但两条执行路完成六个分支
# 乘法需要每个阶段3，再加汇合点：仍是12。以一次乘法为单位，决定时间的是执行路的数量，而不是关键路径；实测时间不一定
# 符合按单位的计数。
#
# 与GPU并列时（见本课末尾的录制结果），输出会说明规划器是否给了CPU任务、根据在每条执行路上为一次乘法计时得出的
# 预测，以及计划与GPU单独运行相比如何。
# </details>

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
answer = dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False, repeats=3)
print(show.dag_text(answer))
caught, message = dg.broken_engine_check(answer)
print(d2l_ext.t('graph.broken_caught', message=message) if caught else message)

# %% [markdown]
# ## Recorded on a GPU machine
#
# The worked step recorded on a GPU machine: every repeat of the three ways, and the ringed ones' intervals.

# %% [markdown] lang="zh"
# ## 在GPU上录制的结果
#
# 参考实现的训练步（两层多层感知机，图12.3.1）在一台有GPU的机器上录制的结果：三种方式的每次重复，以及其中圈出的
# 那几次重复的忙碌区间。

# %% tags=["nbval-ignore-output"]
from d2l_ext.depgraph import recording
from d2l_ext.display import graph_recorded

recorded = recording.newest()  # the newest recording from a machine with a GPU, or None
print(graph_recorded.recorded_text(recorded))
graph_recorded.draw_recorded(recorded)  # draws nothing when no recording is shipped

# %% [markdown]
# ## Remember
#
# * A step split over devices is a graph: chains side by side that meet where the gradients are summed.
# * Serial total ≥ scheduled total ≥ critical path; predict from rates measured here, then measure.
# * Report an overlap as a fraction of an interval, beside its prediction and the wall-clock difference.
# * Compare with one device holding the whole minibatch, no copies: only that comparison says whether splitting pays.
# * Faster must stay correct: check every result against a float64 reference.
#
# ## Pitfalls
#
# * Each half's loss divided by its own rows, then summed: the update is twice too large.
# * Weights copied to the lanes once and kept: every later step runs on stale weights.
# * Two CPU lanes split one CPU's cores and share its memory: their "speedup" is not two devices'.

# %% [markdown] lang="zh"
# ## 记住
#
# * 拆分到多个设备上的训练步是一个图：并排运行的链在梯度求和处汇合。
# * 串行总耗时 ≥ 调度后总耗时 ≥ 关键路径；用在这里测得的速度来预测，再实测。
# * 报告重叠时给出区间的比例，并在旁边给出预测和挂钟时间差。
# * 要与一个设备处理整个小批量、不做复制的情况比较：只有这个比较才能说明拆分是否划算。
# * 变快的同时必须保持正确：把每个结果都与float64的参考结果进行检查。
#
# ## 易错点
#
# * 每一半的损失除以自己的样本数，然后求和：更新会变成两倍大。
# * 只把权重复制到执行路上一次并一直保留：之后的每一步都在过时的权重上运行。
# * 两条CPU执行路把一个CPU的核心分开用（每条执行路用各自的核心），但共用它的内存：它们的“加速比”不是两个设备的
#   加速比。
