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
# *Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition), Fig. 13.3.1.
#
# The book ends the section with a picture: one training step of a two-layer MLP on a CPU and two GPUs, every
# dependency drawn, and the remark that scheduling such a program by hand would be painful. This notebook makes that
# picture from code that really runs, and then does with it what a scheduler does:
#
# 1. record the graph of one training step with the minibatch split over this machine's two lanes, and draw it;
# 2. give every node a cost (from a model with speeds and bandwidths, and measured here) and compute the
#    **serial total**, the **scheduled total** and the **critical-path bound**, drawn as a timeline;
# 3. run the step on both lanes at once, check the weights equal those of the one-device step, and time it;
# 4. exercise 5 of the section: a graph with more complex dependencies, run on two lanes and checked.
#
# **A correction to the book.** The section's introduction says that frameworks build a computational graph in the
# backend and so find independent work by themselves. That is true of MXNet's dependency engine (and of compiled
# graphs), but not of PyTorch in its usual eager mode: it keeps a graph only for autograd, to run the backward pass,
# and never uses it to schedule work. Each call runs (on a CPU) or is queued (on a GPU) in program order, and nothing
# reorders the work of two devices for you. The graph below is therefore *recorded*, with a hook that watches every
# operation the step runs.

# %% [markdown] lang="zh"
# # 13.3.3 依赖图
#
# *动手学深度学习*（Dive into Deep Learning），§13.3“自动并行”（中文版为§12.3），图13.3.1。
#
# 书中以一幅图结束本节：一个两层MLP在一个CPU和两个GPU上的一个训练步，画出了所有依赖关系，并指出手工调度这样的程序
# 会非常痛苦。本notebook用真正运行的代码画出这幅图，然后用它做调度器所做的事：
#
# 1. 把小批量拆分到这台机器的两个通道（lane）上，记录一个训练步的依赖图，并把它画出来；
# 2. 为每个节点给出代价（来自一个包含速度和带宽的模型，以及在这里的实测），并计算**串行总耗时**、**调度后总耗时**
#    和**关键路径下界**，画成时间线；
# 3. 在两个通道上同时运行这个训练步，核对权重与单设备训练步的结果相等，并为其计时；
# 4. 本节的练习5：一个具有更复杂依赖关系的图，在两个通道上运行并加以校验。
#
# **对书中内容的一处更正。** 本节的引言说，框架会在后端构建计算图，因此能够自行找出相互独立的工作。这对MXNet的依赖引擎
# （以及编译后的计算图）成立，但对通常以即时执行（eager）模式运行的PyTorch并不成立：PyTorch只为自动求导保留一个计算图，
# 用来执行反向传播，从不用它来调度工作。每个调用都按程序顺序执行（在CPU上）或放入队列（在GPU上），没有任何机制会替你
# 重新安排两个设备上的工作。因此，下面的图是*记录*出来的：用一个钩子观察这个训练步执行的每一个操作。

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext import report

d2l_ext.set_language('en')

print(report.machine_text())

# %% [markdown]
# ## The lanes
#
# The book's figure has two GPUs. `d2l_ext.find_lanes` picks two lanes from what this machine has (two GPUs; one GPU
# and the CPU; or, without a GPU, two CPU lanes with half of the cores each; see 13.3.1). The recorded graph has the
# same shape on all three: the lanes are named `lane 0` and `lane 1` in it (counted from 0, like devices: `lane 0` is
# the first lane listed below), and the physical device is kept beside.

# %% [markdown] lang="zh"
# ## 通道
#
# 书中的图有两个GPU。`d2l_ext.find_lanes` 从这台机器现有的设备中选出两个通道（两个GPU；一个GPU和CPU；或者在没有GPU时，
# 两个CPU通道，各使用一半的核心；见13.3.1）。在这三种情况下，记录下来的图形状都相同：图中的通道命名为 `lane 0` 和
# `lane 1`（与设备一样从0开始计数：`lane 0` 是下面列出的第一个通道），实际的物理设备则标注在旁边。

# %%
from d2l_ext import depgraph as dg
from d2l_ext import plots

lanes = d2l_ext.find_lanes('torch')
print(d2l_ext.describe_lanes(lanes))

# %% [markdown]
# ## Recording one training step
#
# The model is the book's MLP for Fashion-MNIST: 784 inputs, 256 hidden units with ReLU, 10 outputs, squared loss,
# plain SGD. A minibatch of 256 examples is split in two halves of 128. The step does what Fig. 13.3.1 shows:
#
# * on each lane: forward through both layers, the loss, backward to the weight gradients;
# * the gradients of both lanes are copied to the CPU (the *parameter server*), summed, and the CPU updates the
#   weights;
# * the new weights are copied back to both lanes.
#
# `record_step_graph` runs this step once under a `TorchDispatchMode`, a PyTorch hook that sees every *aten* operation
# (PyTorch's internal operators) with its inputs and outputs. An edge joins operation A to operation B when B reads a
# tensor A wrote. A copy between lanes becomes a node of its own, on the *link* between them, carrying the bytes
# moved. `coarsen_graph` then merges the operations of each lane and stage into one box, like the book's figure.

# %% [markdown] lang="zh"
# ## 记录一个训练步
#
# 模型是书中用于Fashion-MNIST的MLP：784个输入，256个带ReLU的隐藏单元，10个输出，平方损失，普通的SGD。
# 一个含256个样本的小批量被拆成两半，每半128个。这个训练步所做的正是图13.3.1所示的内容：
#
# * 在每个通道上：经过两层的前向传播、计算损失、反向传播直到得到权重的梯度；
# * 两个通道的梯度被复制到CPU（即*参数服务器*），在那里求和，然后由CPU更新权重；
# * 新的权重被复制回两个通道。
#
# `record_step_graph` 在一个 `TorchDispatchMode` 下运行一次这个训练步。`TorchDispatchMode` 是PyTorch的一个钩子，
# 能够看到每一个 *aten* 操作（PyTorch的内部算子）及其输入和输出。当操作B读取了操作A写入的张量时，就有一条从A到B的边。
# 通道之间的一次复制成为一个单独的节点，位于两个通道之间的*链路*上，并带有所传输的字节数。然后，`coarsen_graph`
# 把每个通道每个阶段的操作合并成一个方框，就像书中的图那样。

# %%
raw = dg.record_step_graph(lanes)  # runs one step, logging every aten operation
coarse = dg.coarsen_graph(raw)    # one node per (lane, stage): the boxes of Fig. 13.3.1
print(dg.summary_text(raw, 'every aten operation'))
print(dg.summary_text(coarse, 'book-level boxes'))

# %% [markdown]
# Both views hold the same work: the same FLOP and the same bytes copied. The bytes are four copies of the
# parameters, `(784·256 + 256 + 256·10 + 10) · 4` bytes each: each lane sends its gradients to the server and receives
# the new weights. This is what each box is made of, for lane 0 and its copies (the numbers in brackets are the input
# shapes; `t` is a transpose, which moves no data):

# %% [markdown] lang="zh"
# 两种视图包含相同的工作：相同的FLOP数和相同的复制字节数。这些字节是参数的四次复制，每次
# `(784·256 + 256 + 256·10 + 10) · 4` 字节：每个通道把自己的梯度发送给服务器，并接收新的权重。下面列出了通道0及其复制
# 的每个方框由哪些操作组成（括号中的数字是输入的形状；`t` 是转置，不移动任何数据）：

# %%
print(dg.stage_ops_text(raw))

# %% [markdown]
# The backward pass is written out by hand (`H.t() @ dO`, ...) rather than left to autograd, so that every
# operation belongs to a named stage; the next section checks that it computes the same update as autograd.
#
# ## The figure, from the recording
#
# One row per lane, with the parameter server between them; columns follow the dependencies (a box stands to the right
# of everything it needs). Grey boxes are copies; dashed arrows enter and leave them and are labelled with the bytes
# moved; solid arrows carry tensors on one device, labelled with their shapes.

# %% [markdown] lang="zh"
# 反向传播是手工写出的（`H.t() @ dO`, ...），而不是交给自动求导，这样每个操作都属于一个有名字的阶段；下一节会核对
# 它计算出的更新与自动求导的结果相同。
#
# ## 根据记录画出的图
#
# 每个通道占一行，参数服务器位于两行之间；各列按照依赖关系排列（一个方框位于它所需的全部方框的右侧）。灰色方框表示复制；
# 进出它们的是虚线箭头，标注着传输的字节数；实线箭头表示在同一设备上传递的张量，标注着张量的形状。

# %%
dg.draw_graph(coarse, title='One training step on two lanes, recorded')

# %% [markdown]
# Compared with the book's figure:
#
# * it has the same structure: two independent chains (one per lane) that meet only at the server, and the server's
#   work (sum, update) cannot start before **both** lanes' gradients have arrived;
# * it also shows what the book leaves out: the biases, the loss as its own box, and the fact that `fc2 bwd` must
#   finish before `relu bwd` can start (the gradient flows back through the second layer);
# * the two lanes never talk to each other directly, only through the server. Multi-GPU training today (PyTorch's
#   `DistributedDataParallel`, Horovod) instead sums the gradients with an *all-reduce* directly between the GPUs, and
#   starts it while the backward pass is still running.

# %% [markdown] lang="zh"
# 与书中的图相比：
#
# * 结构相同：两条相互独立的链（每个通道一条）只在服务器处汇合，而服务器的工作（求和、更新）必须等到**两个**通道的梯度
#   都到达之后才能开始；
# * 它还显示了书中省略的内容：偏置、作为单独方框的损失，以及 `fc2 bwd` 必须在 `relu bwd` 开始之前完成这一事实
#   （梯度要反向流经第二层）；
# * 两个通道从不直接通信，只通过服务器交换数据。如今的多GPU训练（PyTorch的 `DistributedDataParallel`、Horovod）
#   则直接在GPU之间用*全归约*（all-reduce）对梯度求和，并在反向传播仍在进行时就开始这一操作。

# %% [markdown]
# ## Scheduling the graph
#
# Give every node a cost: a computation costs its FLOP divided by the speed of its device; a copy costs its bytes
# divided by the bandwidth of its link (each direction of each link is its own resource, as PCIe carries both at
# once). Three numbers then describe the step:
#
# * **serial total**: all nodes one after another, on one resource; the sum of the costs;
# * **critical-path bound**: the longest chain of dependent nodes. No schedule, however many devices it has, can
#   finish before this chain has run;
# * **scheduled total**: list scheduling, as a runtime would do it: each node starts as soon as everything it needs is
#   done and its device (or link) is free.
#
# Always critical path ≤ scheduled ≤ serial. First a model of the book's setting: two GPUs reaching 10 TFLOP/s on these
# small products, a CPU at 0.1 TFLOP/s, and PCIe at 12 GB/s in each direction. These are round numbers *assumed* for
# illustration, not measurements, so the totals below are the same on every machine. The model graph is recorded on
# PyTorch's `meta` device (shapes without data): the same operations, shapes and bytes, at no cost.

# %% [markdown] lang="zh"
# ## 调度这个图
#
# 为每个节点给出一个代价：一次计算的代价是它的FLOP数除以所在设备的速度；一次复制的代价是它的字节数除以所在链路的带宽
# （每条链路的每个方向都是一个独立的资源，因为PCIe可以同时双向传输）。于是，三个数字描述了这个训练步：
#
# * **串行总耗时**：所有节点在一个资源上一个接一个地运行；即各代价之和；
# * **关键路径下界**：相互依赖的节点组成的最长链。无论有多少设备，任何调度都不可能在这条链运行完之前完成；
# * **调度后总耗时**：列表调度，就像运行时系统会做的那样：每个节点在其所需的一切都已完成、且其设备（或链路）空闲时
#   立即开始。
#
# 总有 关键路径 ≤ 调度后 ≤ 串行。首先是书中场景的一个模型：两个GPU在这些小乘积上达到10 TFLOP/s，一个CPU为
# 0.1 TFLOP/s，PCIe每个方向12 GB/s。这些是为了说明而*假定*的整数，不是测量值，因此下面的总耗时在每台机器上都相同。
# 模型图是在PyTorch的 `meta` 设备（只有形状、没有数据）上记录的：操作、形状和字节数都相同，而且不花任何代价。

# %%
setting = dg.BOOK_SETTING
print('model: ' + ', '.join(f'{k} {v / 1e12:g} TFLOP/s' for k, v in setting['device_speed'].items())
      + f", links {setting['link_bandwidth'] / 1e9:g} GB/s")
print('model graph = recorded graph:', dg.graph_summary(dg.model_graph())['flops'] == dg.graph_summary(coarse)['flops'])
model = dg.schedule_step(dg.model_graph(), **setting)
print(dg.schedule_text(model))

# %%
plots.draw_timeline(model['events'], title="Model of the book's setting: the step's schedule",
                    highlight=model['critical_path'])

# %% [markdown]
# What the model shows:
#
# * the two lanes run side by side, so the schedule takes about half the serial total; the speedup is a little under
#   2 because the server's part (sum and update) runs once, after both lanes;
# * the scheduled total equals the critical-path bound: each lane has its own device and each copy its own link, so
#   no node ever waits for a busy resource, only for its inputs;
# * the copies, not the arithmetic, take most of the time: at batch 256 each GPU computes its half in microseconds,
#   and then 0.8 MB of gradients must cross PCIe and the new weights come back. This is why real data-parallel
#   training uses large batches, fast links (NVLink) and overlaps the gradient transfer with the backward pass.
#
# The critical path (outlined in black) goes through lane 0: both lanes are equally long, and ties go to the first.
#
# ### Costs measured on this machine
#
# Now the same schedule with each box's cost measured here: `measure_node_costs` runs the operations of one box at a
# time, on its lane (a CPU lane with its share of the cores), and keeps the median of 5 runs. Measured times vary
# from run to run, so only the totals are printed.

# %% [markdown] lang="zh"
# 模型显示了：
#
# * 两个通道并排运行，因此调度后的耗时约为串行总耗时的一半；加速比略低于2，因为服务器的部分（求和与更新）
#   只在两个通道都完成之后运行一次；
# * 调度后总耗时等于关键路径下界：每个通道有自己的设备，每次复制有自己的链路，因此没有任何节点需要等待繁忙的资源，
#   只需等待它的输入；
# * 占去大部分时间的是复制，而不是算术运算：批量大小为256时，每个GPU在几微秒内就算完了自己的一半，然后0.8 MB的梯度
#   必须经过PCIe传输，新的权重再传回来。这就是为什么真实的数据并行训练使用大批量、快速链路（NVLink），并让梯度传输
#   与反向传播重叠。
#
# 关键路径（用黑色勾勒）经过通道0：两个通道一样长，相同时取第一个。
#
# ### 在这台机器上测得的代价
#
# 现在用在这里测得的每个方框的代价进行同样的调度：`measure_node_costs` 每次只运行一个方框的操作，在该方框所在的通道上
# 运行（CPU通道使用它那一份核心），并取5次运行的中位数。测得的时间每次运行都有所不同，因此只打印总耗时。

# %%
coarse_here, costs = dg.measure_node_costs(lanes, repeats=5)
measured = dg.schedule_step(coarse_here, measured=costs)
print('costs measured on this machine, each box alone (median of 5 runs):')
print(dg.schedule_text(measured, unit='s', path=False))

# %%
plots.draw_timeline(measured['events'], title='Costs measured on this machine: the schedule',
                    highlight=measured['critical_path'])

# %% [markdown]
# On CPU lanes the picture is different from the book's. The "copies" are memory copies between two tensors on the
# same CPU, and on a quiet machine the products (`fc1 fwd`, `fc1 bwd`) take most of the time. If the copies, `sum` or
# `update` look long in the plot above, another program was using a core while they were timed: these small operations
# are split over all the cores, and each must wait for its slowest thread. With a GPU lane the copies cross PCIe again,
# and a CPU lane next to a GPU is far slower: the critical path then runs through the CPU lane.
#
# ## Try it yourself
#
# Move a slider and the model is recomputed at once: the batch size and the hidden size change the FLOP and the bytes;
# the speeds and the bandwidth change what they cost. Each change adds a row to the table; the timeline shows the last
# one, critical path outlined. Things to try: make the link 10 times faster; make one lane 10 times slower (a GPU next
# to a CPU); raise the batch size until the arithmetic outweighs the copies. **Measure here** measures every box on
# this machine's lanes at the chosen batch and hidden size, schedules them, and also times the real step with both
# lanes running, in the last column.

# %% [markdown] lang="zh"
# 在CPU通道上，情况与书中不同。这里的“复制”是同一个CPU上两个张量之间的内存复制，在一台空闲的机器上，占去大部分时间的是
# 乘积（`fc1 fwd`、`fc1 bwd`）。如果上图中的复制、`sum` 或 `update` 显得很长，说明在为它们计时时有另一个程序正在占用
# 某个核心：这些小操作被分摊到所有核心上，每个操作都必须等待其最慢的线程。有GPU通道时，复制又要经过PCIe，而与GPU
# 并列的CPU通道要慢得多：此时关键路径经过CPU通道。
#
# ## 自己动手试试
#
# 移动滑块，模型会立即重新计算：批量大小和隐藏单元数改变FLOP数和字节数；速度和带宽改变它们的代价。每次改动都会在表格中
# 添加一行；时间线显示最后一次的结果，并勾勒出关键路径。可以尝试：让链路快10倍；让一个通道慢10倍（与CPU并列的GPU）；
# 增大批量大小，直到算术运算的耗时超过复制。**Measure here** 按所选的批量大小和隐藏单元数，在这台机器的通道上测量每个
# 方框，对它们进行调度，并在最后一列中给出两个通道同时运行时真实训练步的耗时。

# %% tags=["nbval-ignore-output"]
from d2l_ext.graph_widgets import GraphSchedulePanel

panel = GraphSchedulePanel(lanes).show()

# %% [markdown]
# ## Running the step on both lanes
#
# `run_step` runs the recorded step for real, with both lanes at once (a GPU lane is queued; a CPU lane runs in its
# own Python thread with its share of the cores, as in 13.3.1). Is it still the same training step? It is compared
# with the ordinary one-device step on the whole minibatch, with the gradients from autograd. Adding in a different
# order changes the last bits of a float32 result, so the check is `torch.allclose` with a relative tolerance of 1e-5
# (and an absolute one of 1e-6 for entries near zero) rather than exact equality.

# %% [markdown] lang="zh"
# ## 在两个通道上运行这个训练步
#
# `run_step` 真正地运行记录下来的训练步，两个通道同时运行（GPU通道的工作被放入队列；CPU通道在各自的Python线程中运行，
# 使用它那一份核心，与13.3.1中一样）。它还是同一个训练步吗？我们把它与普通的单设备训练步进行比较：后者在整个小批量上运行，
# 梯度来自自动求导。以不同的顺序做加法会改变float32结果的最后几位，因此校验使用相对容差为1e-5（对于接近零的元素，
# 绝对容差为1e-6）的 `torch.allclose`，而不是要求完全相等。

# %%
check = dg.check_step_matches(lanes=lanes)
print(f"weights after one step on two lanes == one-device step: {check['match']} "
      f"(torch.allclose, rtol {check['rtol']:g}, atol {check['atol']:g})")

# %% [markdown]
# Now the time of one step, three ways: the whole minibatch on one device with no copies (on a CPU: one thread
# with all the cores); the two lanes one after the other; the two lanes at once. Each is warmed up, then timed 5
# times, waiting for every device; the medians are printed.

# %% [markdown] lang="zh"
# 现在用三种方式为一个训练步计时：在一个设备上处理整个小批量、不做复制（在CPU上：一个线程使用全部核心）；两个通道先后运行；
# 两个通道同时运行。每种方式都先预热，然后计时5次，每次都等待每个设备；打印的是中位数。

# %%
steps = dg.time_step(lanes, repeats=5)
print(dg.step_timing_text(steps))
print(f"the schedule of the measured boxes predicted {measured['total']:.4f} s for the lanes together")

# %% [markdown]
# How to read these numbers:
#
# * **two lanes at once vs one after the other** is the speedup the graph promises: the lanes' chains are
#   independent. Apart from noise (a run slowed by another program) it cannot exceed the measured schedule's bound
#   printed above.
# * **vs one device** is the honest comparison. On a machine without a GPU the two CPU lanes are two halves of the same
#   cores, so they have no more arithmetic than one thread using all of them, and they add copies and thread
#   hand-offs; do not expect them to beat it. Splitting the batch pays off when the lanes add hardware: two GPUs.
# * With one GPU and the CPU, the CPU lane is far slower, and the step waits for it: an even split of the batch is
#   then the wrong split (see the exercises).
# * The real step and the schedule's prediction differ: the prediction adds up boxes measured one at a time, and
#   leaves out handing work to the lanes' threads, waking the threads of the server's small operations, allocating
#   fresh tensors, Python between the operations, and lanes competing for memory bandwidth. At batch 256 a lane's
#   share is little arithmetic (the measured schedule above shows how little), so these costs are not small next to
#   it. In the panel, **Measure here** with a larger batch and hidden size brings the real step closer to the
#   prediction. Each box measured alone also varies when the machine is busy.
#
# **MXNet.** The book's MXNet code never needs this hand-written split: MXNet's engine records, for each operation,
# which arrays it reads and writes, and runs whatever is ready, on any device. But it does not hand that graph to
# Python operation by operation (a hybridized block exports the forward pass only, per device), so there is no simple
# way to record the figure from MXNet. The graph here is traced from the PyTorch version, where a dispatch hook sees
# every operation.

# %% [markdown] lang="zh"
# 如何解读这些数字：
#
# * **两个通道同时运行与先后运行相比**，体现的是依赖图所承诺的加速：两个通道的链相互独立。除去噪声（被另一个程序拖慢
#   的运行）之外，它不可能超过上面打印的实测调度的上限。
# * **与一个设备相比**才是如实的比较。在没有GPU的机器上，两个CPU通道是同一组核心的两半，因此它们的算术运算能力并不比
#   使用全部核心的一个线程更多，还要增加复制和线程间的交接；不要指望它们胜过后者。只有当通道增加了硬件（两个GPU）时，
#   拆分批量才划算。
# * 在一个GPU和CPU的情况下，CPU通道要慢得多，训练步要等待它：此时把批量平均拆分就是错误的拆分方式（见练习）。
# * 真实的训练步与调度的预测并不相同：预测把逐个单独测量的方框加起来，而遗漏了把工作交给通道线程、唤醒服务器上那些
#   小操作的线程、分配新张量、操作之间的Python代码，以及各通道争用内存带宽。批量大小为256时，每个通道分到的算术运算很少
#   （上面的实测调度显示了有多少），因此与之相比，这些代价并不小。在面板中，用更大的批量大小和隐藏单元数执行
#   **Measure here**，可以让真实训练步更接近预测。机器繁忙时，单独测量的每个方框也会有所波动。
#
# **MXNet。** 书中的MXNet代码从不需要这种手工拆分：MXNet的引擎为每个操作记录它读取和写入了哪些数组，并在任何设备上
# 运行所有已就绪的操作。但它不会把这个图逐个操作地交给Python（一个混合式（hybridized）块只按设备导出前向传播），
# 因此没有简单的办法从MXNet记录出这幅图。这里的图是从PyTorch版本追踪得到的，在PyTorch中，一个分派（dispatch）钩子
# 能看到每一个操作。

# %% [markdown]
# ## Exercise 5: more complex dependencies
#
# *Design tasks with more complex dependencies, and check that the results stay correct while the computation gets
# faster.*
#
# The experiment: a graph of 21 matrix products in three stages. Each stage is a diamond with three arms of unequal
# length (1, 2 and 3 products) that all start from the previous stage's result and meet again in a *join*; in
# addition, the last product of the second and third arm also reads the first product of the arm before it. Every
# task computes `tanh((sum of its inputs) @ W)`, with its own weight matrix `W`.
#
# * A **planner** (`schedule.list_schedule`) decides which lane runs which task: the task with the longest chain behind
#   it goes first, to the lane where it finishes earliest.
# * An **engine** (`run_dag`) runs the plan: one thread per lane, and before a task starts, its lane waits until every
#   task it reads has finished. That is the dependency engine of MXNet in a dozen lines.
# * Every result is compared with the same graph computed one task after another in float64.
#
# The model counts in units of one product (the same everywhere); the times are measured here.

# %% [markdown] lang="zh"
# ## 练习5：更复杂的依赖关系
#
# *设计具有更复杂依赖关系的任务，检查在计算变快的同时结果仍然正确。*
#
# 实验：一个由21个矩阵乘积组成的图，分为三个阶段。每个阶段是一个菱形，有三条长度不等的分支（1、2和3个乘积），它们都从
# 上一阶段的结果出发，并在一个*汇合点*（join）重新汇合；此外，第二条和第三条分支的最后一个乘积还要读取前一条分支的第一个
# 乘积。每个任务计算 `tanh((sum of its inputs) @ W)`，并有自己的权重矩阵 `W`。
#
# * **规划器**（`schedule.list_schedule`）决定哪个通道运行哪个任务：其后所跟的链最长的任务先运行，放到能最早完成它的通道上。
# * **引擎**（`run_dag`）执行这个计划：每个通道一个线程；在一个任务开始之前，它所在的通道会等待它所读取的每个任务都已完成。
#   这就是用十几行代码写成的MXNet依赖引擎。
# * 每个结果都与以float64逐个任务依次计算同一个图得到的结果进行比较。
#
# 模型以一个乘积为单位计数（在所有地方都相同）；时间则在这里实测。

# %%
ex5 = dg.dag_experiment(lanes, repeats=5)
print(dg.dag_text(ex5))

# %%
from matplotlib.figure import Figure

fig = Figure(figsize=(12, 6.5))
top, bottom = fig.subplots(2, 1, gridspec_kw={'height_ratios': [1.4, 1]})
dg.draw_graph(dg.dag_graph(ex5), ax=top, label_edges=False, rows=ex5['lanes'],
              title='The plan: which lane runs each task (columns follow the dependencies)')
plots.draw_timeline(ex5['trace'], ax=bottom, title='When each task ran on this machine (one traced run)')
fig.tight_layout()
fig

# %% [markdown]
# What to see: on two equal lanes the plan needs 12 product-times instead of 21, and 12 is also the critical
# path (per stage: the three-product arm, then the join), so no plan on any number of lanes can do better. Both lanes
# are busy for three product-times per stage; to keep them so, the planner moves part of the long arm to the other
# lane, so some tasks read their input from the other lane. In the measured timeline a task starts only after the tasks
# it reads. On CPU lanes the last row of the table is again the honest comparison: one thread using all the cores for
# one product at a time. With a GPU and the CPU, the plan is made from one product timed on each lane, and it gives the
# CPU little or nothing.
#
# Correct while faster: is the check worth anything? Here is the engine with the waits left out (the lanes run one
# after the other, the second lane first, so some tasks read inputs that were never written). The same check must catch
# it:

# %% [markdown] lang="zh"
# 要看的是：在两个相同的通道上，计划需要12个乘积时间，而不是21个；12也正是关键路径的长度（每个阶段：含三个乘积的分支，
# 再加上汇合点），因此在任意多个通道上，任何计划都不可能做得更好。每个阶段中两个通道都要忙碌三个乘积时间；为了让它们保持
# 忙碌，规划器把长分支的一部分移到另一个通道上，因此有些任务要从另一个通道读取输入。在实测的时间线中，一个任务只有在它所读取
# 的任务完成之后才开始。在CPU通道上，表格的最后一行同样是如实的比较：一个线程使用全部核心，一次计算一个乘积。在一个GPU和
# CPU的情况下，计划依据在每个通道上各计时一个乘积的结果来制定，它分给CPU的任务很少，甚至没有。
#
# 在变快的同时保持正确：这项校验真的有用吗？下面是去掉了等待的引擎（两个通道先后运行，第二个通道先运行，因此有些任务读取的
# 输入从未被写入过）。同样的校验必须能发现这个问题：

# %%
caught, message = dg.broken_engine_check(ex5)
print(f'an engine that does not wait for dependencies gives wrong results; the check caught it: {caught}')

# %% [markdown]
# ## Summary
#
# * A training step split over two devices is a graph with two independent chains that meet at the gradient sum; the
#   recorded graph above has exactly the shape of the book's Fig. 13.3.1, plus the biases and the loss.
# * Three numbers describe a schedule: the serial total, the scheduled total and the critical-path bound, always in
#   that order from largest to smallest. In the model printed above, the step's schedule takes about half of the
#   serial total, and the copies, not the products, fill most of it.
# * Splitting the batch computes the same update as one device (checked above to rtol 1e-5); whether it is faster
#   depends on the lanes adding hardware and on the links, as the timings printed above show for this machine.
# * A dependency engine is short: wait for your inputs, run, signal. A check against a reference is what shows that
#   it waited: the broken engine above fails it.
# * PyTorch's eager mode schedules nothing from a graph: the parallelism comes from queued GPU work and from threads
#   you start. MXNet's engine tracks the dependencies and runs whatever is ready.
#
# ## Exercises
#
# 1. Exercises 1 and 2 of the section are in 13.3.1, exercises 3 and 4 in 13.3.2, exercise 5 above.
# 2. With one GPU and the CPU as lanes, an even split makes the step wait for the CPU. Using the measured cost of each
#    box, what split of the 256 examples balances the two lanes? Pass `make_problem(...)` halves of your choice to
#    `run_step` and time it.
# 3. Replace the parameter server with an all-reduce: each lane sends half of its gradient to the other lane and
#    receives the other half (a *reduce-scatter*), adds it, and sends the sum back (an *all-gather*). Draw the graph
#    as a list of `schedule.Task`s with the book's speeds and compare the scheduled total with the model above.
# 4. In the panel, find the batch size at which the book's setting stops being limited by the copies.
# 5. Change exercise 5's arms to `(2, 2, 2)` with `cross=False`. Predict the serial total, the plan's total and the
#    critical path before running `dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False)`.

# %% [markdown] lang="zh"
# ## 小结
#
# * 拆分到两个设备上的一个训练步是一个图，其中两条相互独立的链在梯度求和处汇合；上面记录的图与书中图13.3.1的形状完全相同，
#   只是多了偏置和损失。
# * 三个数字描述一个调度：串行总耗时、调度后总耗时和关键路径下界，从大到小总是这个顺序。在上面打印的模型中，训练步的调度
#   耗时约为串行总耗时的一半，而其中大部分时间被复制而不是乘积占去。
# * 拆分批量计算出的更新与单个设备相同（上面已按rtol 1e-5校验）；它是否更快，取决于通道是否增加了硬件以及链路的情况，
#   上面打印的计时显示了这台机器上的情形。
# * 依赖引擎很简短：等待输入、运行、发出信号。与参考结果比对的校验才能表明它确实等待了：上面那个有缺陷的引擎通不过这项校验。
# * PyTorch的即时执行模式不依据任何图进行调度：并行性来自放入队列的GPU工作以及你自己启动的线程。MXNet的引擎跟踪依赖关系，
#   并运行所有已就绪的操作。
#
# ## 练习
#
# 1. 本节的练习1和练习2在13.3.1中，练习3和练习4在13.3.2中，练习5在上面。
# 2. 以一个GPU和CPU作为通道时，平均拆分会使训练步等待CPU。利用每个方框的实测代价，256个样本怎样拆分才能使两个通道平衡？
#    把你选择的两部分 `make_problem(...)` 传给 `run_step` 并为其计时。
# 3. 用全归约（all-reduce）代替参数服务器：每个通道把自己梯度的一半发送给另一个通道，并接收另一半（即*归约-分散*，
#    reduce-scatter），把它加上，再把和发送回去（即*全收集*，all-gather）。用书中的速度把这个图写成一个 `schedule.Task`
#    列表，并把调度后总耗时与上面的模型进行比较。
# 4. 在面板中，找出书中的场景不再受限于复制的批量大小。
# 5. 把练习5的分支改为 `(2, 2, 2)`，并设 `cross=False`。在运行 `dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False)`
#    之前，预测串行总耗时、计划的总耗时和关键路径。
