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
# # 13.3.3 The Dependency Graph
#
# Fig. 13.3.1 of the book shows one training step of a two-layer MLP on a CPU and two GPUs: each GPU takes half of the
# minibatch through the forward pass, the loss and the backward pass; the CPU (the *parameter server*) sums the weight
# gradients and updates the weights; the new weights are copied back. Here you write that step, record its graph,
# predict from it how long the step takes on this machine, and measure it.
#
# PyTorch does use a graph: in the backward pass its autograd engine runs each node once the nodes it depends on are
# done. But no framework plans the split across devices for you: which device gets which rows, where the gradients are
# summed and when the weights travel is your plan (or `DistributedDataParallel`'s, 13.3.4).

# %% [markdown] lang="zh"
# # 13.3.3 依赖图
#
# 书中的图12.3.1画出了一个两层MLP在一个CPU和两个GPU上的一个训练步：每个GPU在小批量的一半上完成前向传播、损失和
# 反向传播；CPU（即*参数服务器*）对权重的梯度求和并更新权重；新的权重再被复制回去。本节我们亲手写出这个训练步，
# 记录它的依赖图，用依赖图预测它在这台机器上要花多长时间，然后实测。
#
# PyTorch确实用到了图：在反向传播中，它的自动求导引擎会在一个节点所依赖的节点都完成后运行该节点。但是没有哪个框架
# 会替你规划如何在设备之间拆分：哪个设备处理哪些样本、在哪里对梯度求和、何时传输权重，都是你的计划（或者是
# `DistributedDataParallel` 的计划，见13.3.4节）。

# %% tags=["nbval-ignore-output"]
# %matplotlib inline
import torch

import d2l_ext
from d2l_ext import depgraph as dg
from d2l_ext.display import graph as show

d2l_ext.set_language('en')
lanes = d2l_ext.find_lanes('torch')  # two GPUs; or a GPU and the CPU; or two halves of the CPU's cores
print(show.machine_text(lanes))

# %% [markdown]
# ## The step, as code
#
# Without two GPUs, `find_lanes` gives two *lanes* that can work at the same time: a GPU and the CPU, or two halves of
# the CPU's cores (13.3.1); the code is the same on all of them. Each lane runs `lane_step` on its rows: the book's MLP
# (784 inputs, 256 hidden units, 10 outputs, squared loss) with the backward pass written out, so every operation sits
# in a named box (`dg.stage`) like those of the figure. The loss is divided by the *whole* minibatch size, so the two
# lanes' gradients add up to the whole minibatch's.

# %% [markdown] lang="zh"
# ## 写成代码的训练步
#
# 没有两个GPU时，`find_lanes` 给出两条可以同时工作的*执行路*：一个GPU和CPU，或者CPU核的两半（见13.3.1节）；
# 代码在这些情况下都相同。每条执行路在自己的样本上运行 `lane_step`：书中的MLP（784个输入、256个隐藏单元、10个输出、
# 平方损失），反向传播逐步写出，这样每个操作都位于一个有名字的方框（`dg.stage`）中，就像图中的方框一样。损失除以的是
# *整个*小批量的大小，因此两条执行路的梯度相加正好等于整个小批量的梯度。

# %%
def lane_step(lane, params, X, Y, n_total):
    """Forward and backward on one lane's rows -> (loss, gradients)."""
    W1, b1, W2, b2 = params['W1'], params['b1'], params['W2'], params['b2']
    with dg.stage(lane, 'fc1 fwd'):
        Z1 = X @ W1 + b1
    with dg.stage(lane, 'relu'):
        H = torch.relu(Z1)
    with dg.stage(lane, 'fc2 fwd'):
        Y_hat = H @ W2 + b2
    with dg.stage(lane, 'loss'):
        D = Y_hat - Y
        loss = (D * D).sum() / (2 * n_total)
        dY = D / n_total                      # d loss / d Y_hat
    with dg.stage(lane, 'fc2 bwd'):
        dW2, db2, dH = H.T @ dY, dY.sum(0), dY @ W2.T
    with dg.stage(lane, 'relu bwd'):
        dZ1 = dH * (Z1 > 0)
    with dg.stage(lane, 'fc1 bwd'):
        dW1, db1 = X.T @ dZ1, dZ1.sum(0)
    return loss, {'W1': dW1, 'b1': db1, 'W2': dW2, 'b2': db2}


# %% [markdown]
# The parameter server is the CPU: `server_step` copies each lane's gradients to it, sums them, updates the weights
# and copies them back to each lane. The split happens once, before the step: each lane gets its own copy of the
# weights and half of the rows. `dg.split_step` runs `lane_step` on both lanes at once (a CPU lane in its own thread, a
# GPU lane's kernels queued), then `server_step`.

# %% [markdown] lang="zh"
# 参数服务器就是CPU：`server_step` 把每条执行路的梯度复制到CPU上，求和，更新权重，再把新的权重复制回每条执行路。
# 拆分在训练步之前完成一次：每条执行路得到一份自己的权重副本和一半样本。`dg.split_step` 让两条执行路同时运行
# `lane_step`（CPU执行路在自己的线程中运行，GPU执行路的核函数被放入队列），然后运行 `server_step`。

# %% tags=["nbval-ignore-output"]
SERVER = dg.SERVER  # the parameter server's row in the graph


def server_step(params, grads, lr=0.1):
    """On the CPU: sum both lanes' gradients, update the weights, copy them back -> (new, each lane's copy)."""
    with dg.stage(SERVER, 'grad copy'):
        on_cpu = [{k: g[k].to('cpu', copy=True) for k in g} for g in grads]
    with dg.stage(SERVER, 'sum'):
        total = {k: on_cpu[0][k] + on_cpu[1][k] for k in params}
    with dg.stage(SERVER, 'update'):
        new = {k: params[k] - lr * total[k] for k in params}
    copies = []
    for i, g in enumerate(grads):
        with dg.stage(f'lane {i}', 'weight copy'):
            copies.append({k: new[k].to(g[k].device, copy=True) for k in new})
    return new, copies


params, X, Y = dg.make_problem(batch=256)  # weights on the CPU and one minibatch
devices = [lane.device() for lane in lanes]
shards = [{'params': {k: w.to(d, copy=True) for k, w in params.items()}, 'X': Xi.to(d), 'Y': Yi.to(d)}
          for d, Xi, Yi in zip(devices, X.chunk(2), Y.chunk(2))]
new, copies, losses = dg.split_step(params, shards, lanes, lane_step=lane_step, server_step=server_step)

reference, _ = dg.reference_step(params, X, Y)  # the same step with autograd, in float64 on the CPU
err = dg.check_update(new, params, reference, 'two-lane step')  # raises if the update is wrong
print(d2l_ext.t('graph.step_checked', err=err))

# %% [markdown]
# ## The graph, recorded from your code
#
# `record_step_graph` runs your step once under a PyTorch hook that sees every operation with its inputs and outputs.
# An edge joins A to B when B reads a tensor A wrote; a copy between lanes becomes its own node, on the link, with the
# bytes it moves. Merging the operations of each box gives the book's picture.

# %% [markdown] lang="zh"
# ## 根据你的代码记录的依赖图
#
# `record_step_graph` 在一个PyTorch钩子下运行一次你的训练步，这个钩子能看到每个操作及其输入和输出。当B读取了A写入的
# 张量时，就有一条从A到B的边；执行路之间的一次复制成为链路上的一个单独节点，并带有它传输的字节数。把每个方框里的操作
# 合并起来，就得到了书中的图。

# %%
raw = dg.record_step_graph(dg.split_step, params, shards, lane_step=lane_step, server_step=server_step)
graph = dg.coarsen_graph(raw)  # one node per box
print(show.summary_text(graph, d2l_ext.t('graph.title_graph')))
show.draw_graph(graph, title=d2l_ext.t('graph.title_graph'))

# %% [markdown]
# It is the book's figure plus the biases and the loss: two chains that meet only at the server, whose `sum` waits
# for **both** lanes' gradients. Inside a chain nothing can start early; between the chains everything can overlap.
#
# ## Predict: the schedule the graph allows
#
# Each box gets the time it takes here, run alone on its lane (median of 5 runs). Starting every box as soon as its
# inputs are done and its lane or link is free gives three numbers: the **serial total** (every box in turn), the
# **scheduled total**, and the **critical path**, the longest chain of dependent boxes, which no schedule can beat.

# %% [markdown] lang="zh"
# 这正是书中的图，只是多了偏置和损失：两条链只在服务器处汇合，而服务器的 `sum` 要等待**两个**执行路的梯度。在一条链
# 内部，没有什么能提前开始；两条链之间的一切都可以重叠。
#
# ## 预测：依赖图所允许的调度
#
# 每个方框的代价是它在这里、在自己的执行路上单独运行的时间（5次运行的中位数）。让每个方框在其输入都已完成、且其执行路
# 或链路空闲时立即开始，就得到三个数字：**串行总耗时**（各方框依次运行）、**调度后总耗时**，以及**关键路径**，即相互
# 依赖的方框组成的最长链，任何调度都不可能比它更快。

# %% tags=["nbval-ignore-output"]
graph_here, costs = dg.measure_node_costs(lanes, (params, X, Y), lane_step=lane_step, server_step=server_step)
plan = dg.schedule_step(graph_here, measured=costs)
print(show.schedule_text(plan))
show.draw_schedule(plan, title=d2l_ext.t('graph.title_plan'))

# %% [markdown]
# The predictions: together, the scheduled total; one after the other, the serial total; the baseline, one device
# with the whole minibatch and no copies, from lane 0's boxes: twice the rows take twice as long, and on a CPU all the
# cores make it faster in proportion.

# %% [markdown] lang="zh"
# 预测如下：同时运行，取调度后总耗时；先后运行，取串行总耗时；基线，即一个设备处理整个小批量、不做复制，根据执行路0
# 的方框来估计：样本数加倍，时间也加倍；在CPU上，使用全部核会使它按比例变快。

# %% tags=["nbval-ignore-output"]
lane0 = sum(s for box, s in costs.items() if box.endswith('[lane 0]'))  # lane 0's compute boxes
share = lanes[0].threads / d2l_ext.cpu_cores() if lanes[0].kind == 'cpu' else 1.0
predicted = {dg.ONE_DEVICE: 2 * lane0 * share + costs[f'update [{SERVER}]'],
             dg.APART: plan.serial_total,
             dg.TOGETHER: plan.total}
print(show.prediction_text(predicted))

# %% [markdown]
# <details><summary>Worked answer: what to expect</summary>
#
# "Together" assumes the lanes do not slow each other down, which holds for separate hardware. Two CPU lanes share the
# memory system and, when other programs run, the cores: expect them slower than predicted and no faster than one
# device with all the cores, which has the same arithmetic without copies or thread hand-offs. With a GPU, expect one
# GPU with the whole minibatch to win clearly: no copies over PCIe, no slow CPU lane to wait for.
# </details>
#
# ## Measure
#
# The three ways run interleaved, so a slow moment hits all of them alike; every update is checked against float64.
# The dots are the repeats; the hatched bars, the predictions.

# %% [markdown] lang="zh"
# <details><summary>参考答案：应当预期什么</summary>
#
# “同时运行”的预测假定两条执行路互不拖慢，这对位于不同硬件上的执行路成立。两条CPU执行路共用内存系统，有其他程序运行时
# 还要共用核：应当预期它们比预测慢，也不会比使用全部核的一个设备快，因为后者的算术运算能力相同，却不需要复制，也没有
# 线程之间的交接。有GPU时，应当预期一个GPU处理整个小批量会明显胜出：既没有经过PCIe的复制，也不用等待缓慢的CPU执行路。
# </details>
#
# ## 实测
#
# 三种方式交替运行，这样某一时刻的变慢会同样影响所有方式；每次更新都与float64的结果进行校验。圆点是各次重复，
# 斜线条是预测。

# %% tags=["nbval-ignore-output"]
timing = dg.time_step(lanes, (params, X, Y), repeats=7, predicted=predicted,
                      lane_step=lane_step, server_step=server_step)
print(show.step_timing_text(timing))
show.draw_step_timing(timing)

# %% [markdown]
# Boxes timed alone leave out what the whole step adds: handing work to the lanes' threads, Python between the
# operations, fresh memory for every copy; so expect most measurements above their predictions. On a busy 2-core
# machine the comparisons can go either way: read the printed ratios. The graph promises only that the two chains
# can overlap ("together" against "one after the other"), not that splitting pays. That needs lanes that *add* hardware, enough rows per device for the arithmetic to outweigh the copies, and gradients that
# travel while the backward pass still runs (13.3.4).
#
# The panel recomputes a model of the book's setting as you move a slider (assumed round numbers: two GPUs at
# 10 TFLOP/s, a CPU server, PCIe at 12 GB/s); **Measure here** times the boxes on this machine instead.

# %% [markdown] lang="zh"
# 单独计时的方框没有计入整个训练步额外的开销：把工作交给执行路的线程、操作之间的Python代码、每次复制都要分配的新内存；
# 因此应当预期多数实测值高于预测。在一台繁忙的双核机器上，比较的结果可能偏向任何一方：请以打印出的比值为准。依赖图只
# 承诺两条链可以重叠（“同时运行”对比“先后运行”），并不承诺拆分一定划算。拆分要划算，需要执行路*增加*了硬件、每个设备
# 分到的样本足够多以致算术运算超过复制的代价，并且梯度在反向传播仍在进行时就开始传输（见13.3.4节）。
#
# 下面的面板在你移动滑块时重新计算书中场景的一个模型（假定的整数：两个10 TFLOP/s的GPU、一个CPU服务器、每个方向
# 12 GB/s的PCIe）；**在这里测量** 则改为在这台机器上为各方框计时。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.graph_panel import GraphSchedulePanel

panel = GraphSchedulePanel(lanes).show()

# %% [markdown]
# ## Exercises
#
# **1. A server that does not wait.** Make `server_step` use lane 0's gradients twice, as a server that read before
# lane 1's arrived would. Predict: does the recorded graph change? Does the check catch it? Then run the cell below.

# %% [markdown] lang="zh"
# ## 练习
#
# **1. 不等待的服务器。** 让 `server_step` 把执行路0的梯度用两次，就像一个没等执行路1的梯度到达就去读取的服务器那样。
# 先预测：记录下来的依赖图会变吗？校验能发现吗？然后运行下面的单元格。

# %% jupyter={"source_hidden": true}
def hasty_server(params, grads, lr=0.1):
    """A server that does not wait for lane 1: it uses lane 0's gradients twice."""
    return server_step(params, [grads[0], grads[0]], lr)


try:
    dg.check_step_matches(lanes, (params, X, Y), lane_step=lane_step, server_step=hasty_server)
    print(d2l_ext.t('graph.check_missed'))
except d2l_ext.ResultMismatch as e:
    print(d2l_ext.t('graph.check_caught', message=e))
hasty = dg.record_step_graph(dg.split_step, params, shards, lane_step=lane_step, server_step=hasty_server)
show.draw_graph(dg.coarsen_graph(hasty), title=d2l_ext.t('graph.title_hasty'))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# The graph changes: no edge carries lane 1's gradients to the server any more, so a scheduler would start `sum`
# without them. The update is wrong, and the check against float64 catches it.
# </details>
#
# **2. An uneven split.** With a GPU and the CPU as lanes, an even split makes the GPU wait for the CPU. From the
# measured boxes, how many of the 256 rows should lane 0 get so that both lanes finish together? Change `X.chunk(2)` to
# `X.split([a, 256 - a])` (and `Y` alike), rerun that cell, and time `dg.split_step(...)` with
# `d2l_ext.measure(..., lanes=lanes)`.
#
# <details><summary>Worked answer</summary>
#
# Split in proportion to speed: a = 256 · t₁ / (t₀ + t₁), where tᵢ is the sum of lane *i*'s boxes at 128 rows. Next to
# a GPU the CPU gets almost nothing, and then one GPU with the whole minibatch is simpler and faster. Two equal CPU
# lanes are already balanced.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 依赖图变了：不再有任何边把执行路1的梯度送到服务器，因此调度器会在没有这些梯度的情况下开始 `sum`。更新是错的，
# 与float64结果的校验发现了这一点。
# </details>
#
# **2. 不均匀的拆分。** 以一个GPU和CPU作为执行路时，平均拆分会使GPU等待CPU。根据实测的各方框，256个样本中应当给执行路0
# 多少个，才能让两条执行路同时完成？把 `X.chunk(2)` 改为 `X.split([a, 256 - a])`（`Y` 也一样），重新运行那个单元格，
# 再用 `d2l_ext.measure(..., lanes=lanes)` 为 `dg.split_step(...)` 计时。
#
# <details><summary>参考答案</summary>
#
# 按速度成比例地拆分：a = 256 · t₁ / (t₀ + t₁)，其中 tᵢ 是执行路 *i* 在128个样本时各方框耗时之和。与GPU并列时，
# CPU几乎分不到样本，这时一个GPU处理整个小批量既简单又更快。两个相同的CPU执行路本来就是平衡的。
# </details>

# %% [markdown]
# **3. The book's exercise 5: more complex dependencies.** Design tasks with more complex dependencies, and check that
# the results stay correct while the computation gets faster. Each task computes `tanh((sum of its inputs) @ W)`;
# three stages, each a diamond of arms of `arms` products that meet in a join; `cross=True` adds edges between arms. A
# planner puts each task on a lane (longest chain behind it first); a small engine runs the plan, each lane waiting
# for the tasks it reads, as MXNet's engine does. Change `arms` and `cross`, read the prediction (in products), run.

# %% [markdown] lang="zh"
# **3. 书中的练习5：更复杂的依赖关系。** 设计具有更复杂依赖关系的任务，检查在计算变快的同时结果仍然正确。每个任务计算
# `tanh((sum of its inputs) @ W)`；一共三个阶段，每个阶段是一个菱形：若干条分支，各含 `arms` 中给定个数的乘法，最后在
# 汇合点汇合；`cross=True` 会在分支之间加上边。规划器把每个任务放到一条执行路上（其后的链最长的任务先放）；一个小引擎
# 执行这个计划，每条执行路等待它所读取的任务完成，就像MXNet的引擎那样。修改 `arms` 和 `cross`，读出预测（以乘法次数
# 为单位），然后运行。

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
# path drops to 9, but six arm products on two lanes take 3 per stage, plus the join: still 12. The lanes, not the
# path, set the time. Two CPU lanes of one core each measure below the model's speedup: they share memory and wait
# for each other.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 当 `arms=(1, 2, 3), cross=True` 时：串行需要21次乘法；关键路径每个阶段为4（最长的分支再加汇合点），总共12，两条执行路
# 上的计划达到了这个值。当 `arms=(2, 2, 2), cross=False` 时（见下面的单元格），关键路径降到9，但两条执行路完成六个分支
# 乘法需要每个阶段3，再加汇合点：仍是12。决定时间的是执行路的数量，而不是关键路径。各用一个核的两条CPU执行路，
# 实测的加速比低于模型：它们共用内存，而且要互相等待。
# </details>

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
answer = dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False, repeats=3)
print(show.dag_text(answer))
caught, message = dg.broken_engine_check(answer)
print(d2l_ext.t('graph.broken_caught', message=message) if caught else message)

# %% [markdown]
# ## Remember
#
# * A step split over devices is a graph: chains side by side that meet where the gradients are summed.
# * Serial total ≥ scheduled total ≥ critical path. Measure the boxes to predict, then measure the step.
# * Compare with one device holding the whole minibatch, no copies; splitting pays only when lanes add hardware.
# * Faster must stay correct: check every result against a float64 reference.
#
# ## Pitfalls
#
# * Two CPU lanes share cores and memory: their "speedup" is not that of two devices.
# * Reading a lane's result before it is finished gives wrong numbers: an engine must wait for its inputs.
# * Timing without waiting for every device measures only the queueing.

# %% [markdown] lang="zh"
# ## 要记住的
#
# * 拆分到多个设备上的训练步是一个图：并排运行的链在梯度求和处汇合。
# * 串行总耗时 ≥ 调度后总耗时 ≥ 关键路径。先测量各方框来做预测，再实测整个训练步。
# * 要与一个设备处理整个小批量、不做复制的情况比较；只有当执行路增加了硬件时，拆分才划算。
# * 变快的同时必须保持正确：把每个结果都与float64的参考结果进行校验。
#
# ## 易犯的错误
#
# * 两条CPU执行路共用核和内存：它们的“加速比”不是两个设备的加速比。
# * 在一条执行路完成之前读取它的结果，会得到错误的数值：引擎必须等待它的输入。
# * 计时时不等待每个设备完成，测到的只是排队的时间。
