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
# The section ends with Fig. 13.3.1: one training step of a two-layer MLP on a CPU and two GPUs. The minibatch is
# split in two halves; each GPU runs the forward pass through both layers, the loss and the backward pass on its half;
# the weight gradients go to the CPU (the *parameter server*), which sums them and updates the weights; the new
# weights are copied back. Here you write that step, record its dependency graph from your own code, predict from the
# graph how long the step takes on this machine, and measure it.
#
# Two facts first. PyTorch does use a graph: in the backward pass its autograd engine runs each node as soon as the
# nodes it depends on are done. But no framework plans the split across devices for you. Which device gets which rows,
# where the gradients are summed and when weights travel is your plan (or `DistributedDataParallel`'s, 13.3.4).

# %% [markdown] lang="zh"
# # 13.3.3 依赖图
#
# 本节最后的图13.3.1画出了一个两层MLP在一个CPU和两个GPU上的一个训练步：小批量被拆成两半；每个GPU在自己的一半上
# 依次完成经过两层的前向传播、损失和反向传播；权重的梯度被送到CPU（即*参数服务器*），由它求和并更新权重；新的权重再被
# 复制回去。本节我们亲手写出这个训练步，根据自己的代码记录它的依赖图，用依赖图预测这个训练步在这台机器上要花多长时间，
# 然后实测。
#
# 先说清两件事。PyTorch确实用到了图：在反向传播中，它的自动求导引擎会在一个节点所依赖的节点都完成后立即运行该节点。
# 但是没有哪个框架会替你规划如何在设备之间拆分工作：哪个设备处理哪些样本、在哪里对梯度求和、何时传输权重，
# 都是你的计划（或者是 `DistributedDataParallel` 的计划，见13.3.4节）。

# %%
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
# The book's figure needs two GPUs. Without them, `find_lanes` gives two *lanes* that can work at the same time: a GPU
# and the CPU, or two halves of the CPU's cores (13.3.1). The code below is the same on all of them.
#
# Each lane runs `lane_step` on its rows: the book's MLP (784 inputs, 256 hidden units, 10 outputs, squared loss)
# with the backward pass written out, so every operation sits in a named box (`dg.stage`) like those of the figure.
# The loss is divided by the *whole* minibatch size, so the two lanes' gradients add up to the whole batch's.

# %% [markdown] lang="zh"
# ## 写成代码的训练步
#
# 书中的图需要两个GPU。没有两个GPU时，`find_lanes` 给出两个可以同时工作的*执行路*：一个GPU和CPU，或者CPU核心的两半
# （见13.3.1节）。下面的代码在这几种情况下都相同。
#
# 每个执行路在自己的样本上运行 `lane_step`：书中的MLP（784个输入、256个隐藏单元、10个输出、平方损失），反向传播逐步
# 写出，这样每个操作都位于一个有名字的方框（`dg.stage`）中，就像图中的方框一样。损失除以的是*整个*小批量的大小，
# 因此两个执行路的梯度相加正好等于整个小批量的梯度。

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
# The parameter server is the CPU. `server_step` copies each lane's gradients to it, sums them, updates the weights
# and copies the new weights back to each lane. The split is done once, before the step: each lane gets its own copy
# of the weights and half of the rows. `dg.split_step` then runs `lane_step` on both lanes at once (a CPU lane in its
# own thread, a GPU lane's kernels queued) and calls `server_step` when both are done.

# %% [markdown] lang="zh"
# 参数服务器就是CPU。`server_step` 把每个执行路的梯度复制到CPU上，求和，更新权重，再把新的权重复制回每个执行路。
# 拆分在训练步之前完成一次：每个执行路得到一份自己的权重副本和一半样本。然后，`dg.split_step` 让两个执行路同时运行
# `lane_step`（CPU执行路在自己的线程中运行，GPU执行路的核函数被放入队列），两者都完成后再调用 `server_step`。

# %%
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
# It is the book's figure, with the biases and the loss as boxes of their own: two chains that never meet except at
# the server, whose `sum` must wait for **both** lanes' gradients. Inside a chain nothing can run early (`fc2 bwd`
# needs the loss, `relu bwd` needs `fc2 bwd`); between the chains everything can overlap.
#
# ## Predict: the schedule the graph allows
#
# Give each box the time it takes here, run alone on its lane (`measure_node_costs`: median of 5 runs). The
# schedule starts every box as soon as its inputs are done and its lane or link is free. Three numbers follow:
# the **serial total** (every box in turn), the **scheduled total**, and the **critical path**, the longest chain
# of dependent boxes, which no schedule can beat.

# %% [markdown] lang="zh"
# 这正是书中的图，只是偏置和损失各自成了单独的方框：两条链只在服务器处汇合，而服务器的 `sum` 必须等待**两个**执行路
# 的梯度都到达。在一条链内部，没有什么能提前运行（`fc2 bwd` 需要损失，`relu bwd` 需要 `fc2 bwd`）；两条链之间的
# 一切都可以重叠。
#
# ## 预测：依赖图所允许的调度
#
# 给每个方框一个代价：它在这里、在自己的执行路上单独运行所花的时间（`measure_node_costs`：5次运行的中位数）。调度
# 让每个方框在其输入都已完成、且其执行路或链路空闲时立即开始。由此得到三个数字：**串行总耗时**（各方框依次运行）、
# **调度后总耗时**，以及**关键路径**，即相互依赖的方框组成的最长链，任何调度都不可能比它更快。

# %% tags=["nbval-ignore-output"]
graph_here, costs = dg.measure_node_costs(lanes, (params, X, Y), lane_step=lane_step, server_step=server_step)
plan = dg.schedule_step(graph_here, measured=costs)
print(show.schedule_text(plan))
show.draw_schedule(plan, title=d2l_ext.t('graph.title_plan'))

# %% [markdown]
# Now predict the three ways to run the step. Together: the scheduled total. One after the other: the serial total.
# The baseline, one device with the whole minibatch and no copies, we estimate from lane 0's boxes: twice the rows
# take twice as long, and on a CPU all the cores make it faster in proportion (lane 0 has only its share of them).

# %% [markdown] lang="zh"
# 现在预测运行这个训练步的三种方式。同时运行：调度后总耗时。先后运行：串行总耗时。基线，即一个设备处理整个小批量、
# 不做复制，我们根据执行路0的方框来估计：样本数加倍，时间也加倍；在CPU上，使用全部核心会使它按比例变快
# （执行路0只有其中的一份）。

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
# The prediction for "together" assumes the lanes do not slow each other down. That holds for lanes on separate
# hardware. Two CPU lanes share one memory system and, with other programs running, the same cores, so expect them
# slower than predicted, and expect them not to beat one device using all the cores: they have no more arithmetic,
# and they add copies and thread hand-offs. With a GPU, one GPU with the whole minibatch has no copies over PCIe and
# no slow CPU lane to wait for; look for it to win by a wide margin.
# </details>
#
# ## Measure
#
# The three ways run interleaved (one, two, three, one, two, three, ...), so a slow moment hits all of them alike;
# every update is checked against float64. Each dot is one repeat; the hatched bar is the prediction.

# %% [markdown] lang="zh"
# <details><summary>参考答案：应当预期什么</summary>
#
# “同时运行”的预测假定两个执行路互不拖慢。对位于不同硬件上的执行路，这是成立的。两个CPU执行路共用一个内存系统，
# 而且当有其他程序在运行时，还要共用同样的核心，因此应当预期它们比预测慢，也不要指望它们胜过使用全部核心的一个设备：
# 它们的算术运算能力并不更多，还要增加复制和线程之间的交接。有GPU时，一个GPU处理整个小批量既不需要经过PCIe复制，
# 也不用等待缓慢的CPU执行路；留意它是否以很大的优势胜出。
# </details>
#
# ## 实测
#
# 三种方式交替运行（一、二、三、一、二、三……），这样某一时刻的变慢会同样影响所有方式；每次更新都与float64的结果
# 进行校验。每个点是一次重复；斜线条是预测。

# %% tags=["nbval-ignore-output"]
timing = dg.time_step(lanes, (params, X, Y), repeats=7, predicted=predicted,
                      lane_step=lane_step, server_step=server_step)
print(show.step_timing_text(timing))
show.draw_step_timing(timing)

# %% [markdown]
# Read the printed ratios, not a rule: on a busy 2-core machine the two CPU lanes can land either side of one
# another. What the graph promises is the gap between "one after the other" and "together": the two chains overlap.
# What it does not promise is that splitting pays: the baseline keeps all the hardware busy on one chain with no
# copies. Splitting the batch pays when the lanes *add* hardware, with enough rows per device that the arithmetic
# outweighs the copies, and when the gradients travel while the backward pass still runs (13.3.4).
#
# The panel below recomputes a model of the book's setting as you move a slider (two GPUs at 10 TFLOP/s, a CPU
# server, PCIe at 12 GB/s: assumed round numbers); **Measure here** times the boxes on this machine instead.

# %% [markdown] lang="zh"
# 请以打印出的比值为准，而不是套用某条规律：在一台繁忙的双核机器上，两个CPU执行路可能比另一种方式快，也可能慢。
# 依赖图所承诺的是“先后运行”与“同时运行”之间的差距：两条链可以重叠。它并不承诺拆分一定划算：基线让全部硬件都忙于
# 一条链，而且不做复制。只有当执行路*增加*了硬件、每个设备分到的样本足够多以致算术运算超过复制的代价，并且梯度在
# 反向传播仍在进行时就开始传输（见13.3.4节）时，拆分批量才划算。
#
# 下面的面板在你移动滑块时重新计算书中场景的一个模型（两个10 TFLOP/s的GPU、一个CPU服务器、每个方向12 GB/s的PCIe：
# 这些是假定的整数）；**在这里测量** 则改为在这台机器上为各方框计时。

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


hasty = dg.record_step_graph(dg.split_step, params, shards, lane_step=lane_step, server_step=hasty_server)
show.draw_graph(dg.coarsen_graph(hasty), title=d2l_ext.t('graph.title_graph'))
try:
    dg.check_step_matches(lanes, (params, X, Y), lane_step=lane_step, server_step=hasty_server)
    print(d2l_ext.t('graph.check_missed'))
except d2l_ext.ResultMismatch as e:
    print(d2l_ext.t('graph.check_caught', message=e))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# The graph changes: lane 1's chain now ends in nothing, since no edge carries its gradients to the server. That is
# exactly the missing dependency, and a scheduler would happily start `sum` without lane 1. The update is wrong, and
# the check against float64 catches it.
# </details>
#
# **2. An uneven split.** With a GPU and the CPU as lanes, an even split makes the GPU wait for the CPU. From the
# measured boxes above, what share of the 256 rows should each lane get so both finish together? Change
# `X.chunk(2)` to `X.split([a, 256 - a])` (and `Y` alike), run that cell again, and time `dg.split_step(...)` with
# `d2l_ext.measure(..., lanes=lanes)`.
#
# <details><summary>Worked answer</summary>
#
# A lane's time grows with its rows, so give lane *i* rows in proportion to its speed: a = 256 · t₁ / (t₀ + t₁),
# where tᵢ is the sum of lane *i*'s boxes at 128 rows. On an H200 next to the CPU that is nearly all rows on the GPU,
# and then one GPU with the whole minibatch, without copies, is simpler and faster. On two equal CPU lanes the even
# split is already balanced.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 依赖图变了：执行路1的链现在没有下文，因为没有任何边把它的梯度送到服务器。这正是缺失的依赖关系，调度器会毫不犹豫地
# 在没有执行路1的情况下开始 `sum`。更新是错的，与float64结果的校验发现了这一点。
# </details>
#
# **2. 不均匀的拆分。** 以一个GPU和CPU作为执行路时，平均拆分会使GPU等待CPU。根据上面实测的各方框，256个样本应当
# 怎样分给两个执行路，才能让它们同时完成？把 `X.chunk(2)` 改为 `X.split([a, 256 - a])`（`Y` 也一样），重新运行那个
# 单元格，再用 `d2l_ext.measure(..., lanes=lanes)` 为 `dg.split_step(...)` 计时。
#
# <details><summary>参考答案</summary>
#
# 一个执行路的时间随其样本数增长，因此按速度成比例地分配样本：a = 256 · t₁ / (t₀ + t₁)，其中 tᵢ 是执行路 *i* 在
# 128个样本时各方框耗时之和。对于与CPU并列的H200，这几乎是把全部样本都给GPU；这时一个GPU处理整个小批量、不做复制，
# 既简单又更快。在两个相同的CPU执行路上，平均拆分本来就是平衡的。
# </details>

# %% [markdown]
# **3. The book's exercise 5: more complex dependencies.** Design tasks with more complex dependencies and check that
# the results stay correct while the computation gets faster. Here each task is `tanh((sum of its inputs) @ W)`;
# three stages, each a diamond of arms of `arms` products that meet in a join; `cross=True` adds edges between arms.
# A planner puts each task on a lane (longest chain behind it first); a small engine runs the plan, each lane waiting
# for the tasks it reads, like MXNet's dependency engine. Change `arms` and `cross`, read the model's prediction
# (in products), then run it.

# %% [markdown] lang="zh"
# **3. 本节的练习5：更复杂的依赖关系。** 设计具有更复杂依赖关系的任务，检查在计算变快的同时结果仍然正确。这里每个
# 任务计算 `tanh((sum of its inputs) @ W)`；一共三个阶段，每个阶段是一个菱形：若干条分支，各含 `arms` 中给定个数的
# 乘法，最后在一个汇合点汇合；`cross=True` 会在分支之间加上边。规划器把每个任务放到一个执行路上（其后的链最长的任务
# 先放）；一个小引擎执行这个计划，每个执行路等待它所读取的任务完成，就像MXNet的依赖引擎一样。修改 `arms` 和
# `cross`，读出模型的预测（以乘法次数为单位），然后运行。

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
# With `arms=(1, 2, 3), cross=True`: 21 products in series; the critical path is 4 per stage (the longest arm, then
# the join), 12 in all, and the plan on two equal lanes reaches it, using both lanes. With `arms=(2, 2, 2),
# cross=False` (cell below): still 21 in series, a critical path of only 9, but two lanes need 3 per stage for six
# arm products plus 1 for the join: 12, so the lanes, not the path, set the time. In both cases the engine without
# its waits reads inputs that were never written, and the check catches it. On two CPU lanes of one core each,
# expect the measured speedup below the model's 1.75x: the lanes share memory and wait for each other.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 当 `arms=(1, 2, 3), cross=True` 时：串行需要21次乘法；关键路径每个阶段为4（最长的分支再加汇合点），总共12，
# 两个相同执行路上的计划达到了这个值，并且用到了两个执行路。当 `arms=(2, 2, 2), cross=False` 时（见下面的单元格）：
# 串行仍是21，关键路径只有9，但两个执行路完成六个分支乘法需要每个阶段3，再加汇合点1，共12，因此决定时间的是
# 执行路的数量，而不是关键路径。在这两种情况下，去掉等待的引擎都会读取从未写入的输入，校验都能发现。在各用一个核心的
# 两个CPU执行路上，实测的加速比应低于模型的1.75倍：两个执行路共用内存，而且要互相等待。
# </details>

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
answer = dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False, repeats=3)
print(show.dag_text(answer))
caught, message = dg.broken_engine_check(answer)
print(d2l_ext.t('graph.broken_caught', message=message) if caught else message)

# %% [markdown]
# ## Remember
#
# * A step split over devices is a graph: chains that run side by side and meet where the gradients are summed.
# * Serial total ≥ scheduled total ≥ critical path; measure the boxes here to predict, then measure the step.
# * Compare with one device holding the whole minibatch and no copies; splitting pays only when lanes add hardware.
# * Faster must stay correct: check every result against a float64 reference.
#
# ## Pitfalls
#
# * Two CPU lanes share cores and memory: their "speedup" is not that of two devices.
# * Reading a lane's result before it has finished (a GPU's queued work, a thread's output) gives wrong numbers; an
#   engine must wait for its inputs.
# * Timing without waiting for every device measures only the queueing.

# %% [markdown] lang="zh"
# ## 要记住的
#
# * 拆分到多个设备上的训练步是一个图：并排运行的链在梯度求和处汇合。
# * 串行总耗时 ≥ 调度后总耗时 ≥ 关键路径；先在这里测量各方框来做预测，再实测整个训练步。
# * 要与一个设备处理整个小批量、不做复制的情况比较；只有当执行路增加了硬件时，拆分才划算。
# * 变快的同时必须保持正确：把每个结果都与float64的参考结果进行校验。
#
# ## 易犯的错误
#
# * 两个CPU执行路共用核心和内存：它们的“加速比”不是两个设备的加速比。
# * 在一个执行路完成之前读取它的结果（GPU队列中的工作、线程的输出），会得到错误的数值；引擎必须等待它的输入。
# * 计时时不等待每个设备完成，测到的只是排队的时间。
