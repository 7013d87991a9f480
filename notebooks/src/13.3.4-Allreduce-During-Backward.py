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
# # 13.3.4 Gradients All-Reduced While Backward Still Runs
#
# Section 13.3.2 motivates communication with "aggregating gradients across accelerators in distributed
# optimization", then only copies results to the host. In practice that aggregation is an **all-reduce**: every
# process contributes its gradients and every process receives their sum. Frameworks hide it behind the backward
# pass, and this notebook takes the hiding apart.
#
# The setting is *data parallelism* on an MLP like 13.3.3's: every process holds the same model and takes its share
# of the minibatch; the gradients are averaged over the processes before the update. No cluster is needed: on CPUs
# two processes on this machine (one core each) talk through the gloo library; with two or more GPUs, one process
# per GPU talks through NCCL.

# %% [markdown] lang="zh"
# # 13.3.4 在反向传播仍在进行时全归约梯度
#
# 13.3.2节用“在分布式优化中聚合多个加速器上的梯度”来说明通信的必要性，但之后只演示了把结果复制到主机。实际上，
# 这种聚合就是**全归约**（all-reduce）：每个进程贡献自己的梯度，每个进程都得到它们的和。深度学习框架把全归约藏在
# 反向传播的背后，本节就把这种“隐藏”拆开来看。
#
# 场景是*数据并行*，模型是与13.3.3节类似的MLP：每个进程持有同样的模型，处理小批量中属于自己的那一份；
# 在更新参数之前，梯度要在所有进程之间取平均。这不需要集群：在CPU上，这台机器上的两个进程（每个进程一个核）
# 通过gloo库通信；有两个或更多GPU时，每个GPU一个进程，通过NCCL通信。

# %%
# %matplotlib inline
import math
import statistics
import tempfile

import torch
import torch.distributed as dist
from IPython.display import display

import d2l_ext
from d2l_ext.allreduce import loss_of, run_allreduce
from d2l_ext.display import allreduce as show
from d2l_ext.display.allreduce_panel import BucketPanel

d2l_ext.set_language('en')
if torch.cuda.device_count() >= 2:  # one process per GPU; sizes that keep a GPU busy
    BACKEND, WORLD, SIZES = 'nccl', torch.cuda.device_count(), dict(layers=8, width=4096, batch=1024)
else:  # two CPU processes, one core each; sizes that take about a tenth of a second per step
    BACKEND, WORLD, SIZES = 'gloo', 2, dict(layers=6, width=1024, batch=128)
print(show.machine_text(BACKEND, WORLD))

# %% [markdown]
# ## The step, three ways
#
# Each process runs the same step on its share `X, y`; `loss_of` is the squared error averaged over that share; the
# model is `layers` linear layers, `width` wide, with ReLUs. Dividing each gradient by the number of processes before
# summing gives the whole minibatch's average.
#
# **(a) Backward, then all-reduce.** The obvious version: finish the backward pass, then send every gradient.
# `dist.all_reduce` returns when every process has sent and received.

# %% [markdown] lang="zh"
# ## 一个训练步的三种写法
#
# 每个进程在自己那一份数据 `X, y` 上运行同一个训练步；`loss_of` 是在这一份数据上取平均的平方误差；模型由
# `layers` 个宽为 `width` 的全连接层组成，层间是ReLU。求和之前把每个梯度除以进程数，得到的就是整个小批量上的
# 平均梯度。
#
# **(a) 先反向传播，再全归约。** 最直接的写法：反向传播全部完成后，再发送每个梯度。`dist.all_reduce`
# 要等到每个进程都发送并接收完毕才返回。

# %%
def backward_then_allreduce(model, X, y, optimizer):
    """(a) The whole backward pass first, then one all-reduce per gradient."""
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for p in model.parameters():
        p.grad /= dist.get_world_size()  # the sum of the averages / n = the average over the whole minibatch
        dist.all_reduce(p.grad)           # blocks until every process has contributed
    optimizer.step()


# %% [markdown]
# **(b) All-reduce from gradient hooks.** The backward pass computes the last layer's gradients first. A hook
# registered with `register_post_accumulate_grad_hook` runs as soon as a parameter's gradient is ready; with
# `async_op=True` the all-reduce starts and returns at once, so backward carries on with earlier layers while the
# gradient travels. Before the update we must `wait()` for every all-reduce.

# %% [markdown] lang="zh"
# **(b) 由梯度钩子发起全归约。** 反向传播最先算出最后一层的梯度。用 `register_post_accumulate_grad_hook` 注册的
# 钩子会在某个参数的梯度就绪时立即运行；加上 `async_op=True`，全归约一开始就立即返回，于是在梯度传输的同时，
# 反向传播继续计算前面各层。更新参数之前，必须对每个全归约调用 `wait()`。

# %%
def allreduce_in_hooks(model, X, y, optimizer):
    """(b) Each gradient's all-reduce starts as soon as backward has computed it."""
    works = []

    def send(p):
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))  # returns at once; backward goes on

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters()]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()  # every gradient summed before the update reads it
    for hook in hooks:
        hook.remove()
    optimizer.step()


# %% [markdown]
# **(c) `DistributedDataParallel`.** PyTorch's DDP does what (b) does, in *buckets*. Wrapping the model is the
# only change; the step is a plain one:
#
# ```python
# model = DistributedDataParallel(mlp(layers, width), bucket_cap_mb=1)
# optimizer.zero_grad(); loss_of(model, X, y).backward(); optimizer.step()
# ```
#
# DDP groups the gradients into buckets of about `bucket_cap_mb` MB, in reverse parameter order (the order backward
# produces them). A hook marks each gradient ready; when a bucket's gradients are all ready, its all-reduce starts
# asynchronously; backward returns once every bucket is reduced. A bucket holds whole tensors, so a size below one
# weight matrix (width² × 4 bytes) gives one bucket per layer. Large buckets: few calls; small: an early start.

# %% [markdown] lang="zh"
# **(c) `DistributedDataParallel`。** PyTorch的DDP做的正是(b)所做的事，只不过是按*桶*进行。唯一的改动是包装模型，
# 训练步本身就是普通的训练步：
#
# ```python
# model = DistributedDataParallel(mlp(layers, width), bucket_cap_mb=1)
# optimizer.zero_grad(); loss_of(model, X, y).backward(); optimizer.step()
# ```
#
# DDP按参数的逆序（也就是反向传播产生梯度的顺序）把梯度分到大约 `bucket_cap_mb` MB大小的桶里。每个梯度由一个
# 钩子标记为就绪；一个桶中的梯度全部就绪后，这个桶的全归约就异步开始；每个桶都归约完之后，反向传播才返回。
# 一个桶只装完整的张量，所以小于一个权重矩阵（width² × 4 字节）的桶大小会让每层一个桶。桶大，调用次数少；
# 桶小，开始得早。

# %% [markdown]
# ## Measure the ingredients
#
# `run_allreduce` starts the processes and sends them *your* functions above as source code, so what runs is what
# you read; it adds DDP with 1 MB buckets and two baselines, **backward alone** (nothing sent) and **all-reduce
# alone**. All run interleaved, every repeat is kept, and each step is checked against one process training on the
# whole minibatch in float64. A large buffer's all-reduce measures the bandwidth. First, only the ingredients:

# %% [markdown] lang="zh"
# ## 测量预测所需的数据
#
# `run_allreduce` 启动进程，并以源代码的形式把上面*你的*函数发给它们，因此运行的正是你读到的代码；它还加上
# 桶大小为1 MB的DDP和两个基线：**仅反向传播**（什么也不发送）和**仅全归约**。所有版本交替运行，每次重复都被保留，
# 每个训练步都与单个进程在整个小批量上用float64训练的结果进行校验。对一个大缓冲区的全归约用来测量带宽。
# 先只看预测所需的数据：

# %% tags=["nbval-ignore-output"]
traces = tempfile.mkdtemp(prefix='allreduce-')  # one Chrome trace per version and process
result = run_allreduce(BACKEND, WORLD, bucket_mb=1, repeats=5, trace_dir=traces,
                       steps={'serial': backward_then_allreduce, 'hooks': allreduce_in_hooks}, **SIZES)
print(show.ingredients_text(result))

# %% [markdown]
# ## Predict
#
# A ring all-reduce passes pieces of the buffer around the n processes, summing them on the way, then passes the
# sums on: each process sends 2(n-1)/n of the buffer's bytes. Those bytes over the large buffer's time give the *bus
# bandwidth*, and the gradients travel at it. Predict (a), and the best any overlap can do.

# %% [markdown] lang="zh"
# ## 预测
#
# 环形全归约让缓冲区的各个分块沿着n个进程组成的环传递，边传边求和，再把求得的和传下去：每个进程发送缓冲区字节数
# 的2(n-1)/n。这些字节数除以大缓冲区的时间就是*总线带宽*，梯度也以这个带宽传输。请预测(a)的时间，
# 以及任何重叠方式所能达到的最好结果。

# %% tags=["nbval-ignore-output"]
p, n = result.prediction, result.processes  # measured: backward alone, and the large buffer's all-reduce
ring = 2 * (n - 1) / n                      # share of the bytes each process sends
bus = ring * p.buffer_bytes / statistics.median(p.buffer_times)  # bytes per second
allreduce = ring * p.gradient_bytes / bus
serial = p.backward + allreduce             # (a): one after the other
overlapped = max(p.backward, allreduce)     # if the all-reduce ran on hardware of its own
print(show.prediction_text(allreduce, serial, overlapped))

# %% [markdown]
# <details><summary>Worked answer: what to expect</summary>
#
# With two processes the ring factor is 2·1/2 = 1. The best overlap, max(backward, all-reduce), assumes
# communication has hardware of its own: a network card, a GPU's links. Here it does not: gloo sums and copies on
# CPU threads, and each process has one core, so communication takes time from backward. Expect (b) and (c)
# between the two predictions, nearer (a); on a busy machine the difference may drown in noise. On GPUs linked by
# NVLink, NCCL uses the GPUs' own links, and most of the all-reduce can hide.
# </details>
#
# ## Measure
#
# Each dot is one repeat (the slowest process: the next step waits for it); the hatched bar is the prediction.

# %% [markdown] lang="zh"
# <details><summary>参考答案：应当预期什么</summary>
#
# 两个进程时，环形因子是2·1/2 = 1。最佳重叠 max(反向传播, 全归约) 假定通信拥有自己的硬件：网卡，或者GPU之间的
# 链路。这里并非如此：gloo在CPU线程上求和、复制，而每个进程只有一个核，因此通信会占用反向传播的时间。应当预期
# (b)和(c)落在两个预测之间，更接近(a)；在繁忙的机器上，这个差别可能被噪声淹没。在通过NVLink相连的GPU上，
# NCCL使用GPU自己的链路，全归约的大部分可以被隐藏。
# </details>
#
# ## 实测
#
# 每个点是一次重复（取最慢的进程，因为下一步要等它）；斜线条是预测。

# %% tags=["nbval-ignore-output"]
print(show.check_text(result))
print(show.hidden_text(result))
show.plot_steps(result)

# %% [markdown]
# Look at two gaps: (a) against backward alone is the cost of communication; (a) against (b) and (c) is what
# overlap won back. On two CPU cores expect well under half of the all-reduce to hide, and on a busy machine perhaps
# none: gloo's threads and backward compete for the same cores. The lines above say what this run found.
#
# One more cost hides in "all-reduce alone": it is one call per gradient tensor. Compare it with the same bytes sent
# as one buffer:

# %% [markdown] lang="zh"
# 请看两个差距：(a)与仅反向传播之差是通信的代价；(a)与(b)、(c)之差是重叠挽回的时间。在两个CPU核上，应当预期
# 被隐藏的全归约远不到一半，机器繁忙时甚至一点也没有：gloo的线程和反向传播争用同样的核。图上方的几行文字说明了
# 这次运行的实际结果。
#
# “仅全归约”里还藏着另一种代价：每个梯度张量一次调用。把它与同样字节数的单个缓冲区相比：

# %% tags=["nbval-ignore-output"]
print(show.per_call_text(result))

# %% [markdown]
# ## One step, process by process
#
# The run also profiled one step per version (`torch.profiler`). Each process gets two rows: its backward
# operations and the all-reduces beside them. In (a) every all-reduce waits for backward to end; with DDP the first
# buckets start while backward still computes earlier layers.

# %% [markdown] lang="zh"
# ## 一个训练步，逐个进程来看
#
# 这次运行还对每个版本的一个训练步做了性能分析（`torch.profiler`）。每个进程占两行：它的反向传播操作，以及在旁边
# 执行的全归约。在(a)中，每个全归约都要等反向传播结束；而用DDP时，最先的几个桶在反向传播还在计算前面各层时
# 就开始了。

# %% tags=["nbval-ignore-output"]
display(show.draw_step_timeline(result, 'serial'))
show.draw_step_timeline(result, 'ddp-1')

# %% [markdown]
# The full traces are Chrome-trace files, one per process; open one in Perfetto to zoom into every operation:

# %% [markdown] lang="zh"
# 完整的跟踪记录是Chrome跟踪格式的文件，每个进程一个；在Perfetto中打开，可以放大查看每个操作：

# %% tags=["nbval-ignore-output"]
print(show.trace_text(result, 'ddp-1'))

# %% [markdown]
# ## Try bucket sizes
#
# Pick a bucket size and press **Run**: the panel times backward alone, all-reduce alone, (a) and DDP at that size
# (about ten seconds), draws DDP's step per process, and keeps every run in the table.

# %% [markdown] lang="zh"
# ## 试试不同的桶大小
#
# 选择一个桶大小并点击**运行**：面板会对仅反向传播、仅全归约、(a)以及该桶大小下的DDP计时（大约十秒），画出DDP在
# 每个进程上的一个训练步，并把每次运行都保留在表中。

# %% tags=["nbval-ignore-output"]
panel = BucketPanel(BACKEND, WORLD, bucket_mb=8.0, steps={'serial': backward_then_allreduce}, **SIZES).show()

# %% [markdown]
# ## MXNet
#
# MXNet does this job with its KVStore: `kv.push(key, grads)` sums the values pushed from several devices and
# `kv.pull(key, out=...)` returns the sum; gluon's `Trainer` pushes each gradient after backward, key by key. On a
# CPU-only machine it could only run with the contexts `cpu(0)` and `cpu(1)` in one process: the "reduction" is a
# memory copy competing with backward for the same cores, with no separate link to hide. That would show
# contention, not overlap, so we do not present it as a measurement.
#
# ## Beyond one machine
#
# The same code runs across machines. `torchrun` starts the processes on each machine, and they find one another
# through a rendezvous endpoint; run this on each of two machines (HOST is the first one's address):
#
# ```
# torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 -m d2l_ext.allreduce
# ```
#
# Between machines the link is a network card, separate from the cores and GPUs, which is where overlapping
# communication with backward pays most.

# %% [markdown] lang="zh"
# ## MXNet
#
# MXNet用KVStore完成这项工作：`kv.push(key, grads)` 把多个设备推送来的值求和，`kv.pull(key, out=...)` 取回这个和；
# gluon的 `Trainer` 在反向传播之后逐个键地推送每个梯度。在只有CPU的机器上，它只能在一个进程里用 `cpu(0)` 和
# `cpu(1)` 两个上下文运行：所谓“归约”只是一次内存复制，与反向传播争用同样的核，也没有一条独立的链路可供隐藏。
# 那样展示的是争用而不是重叠，所以我们不把它作为测量结果给出。
#
# ## 超越一台机器
#
# 同样的代码可以跨机器运行。`torchrun` 在每台机器上启动进程，进程通过一个汇合端点（rendezvous endpoint）找到彼此；
# 在两台机器上各运行一次下面的命令（HOST是第一台机器的地址）：
#
# ```
# torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 -m d2l_ext.allreduce
# ```
#
# 机器之间的链路是网卡，它独立于CPU核和GPU，这正是让通信与反向传播重叠收益最大的地方。

# %% [markdown]
# ## Exercises
#
# 1. DDP's default bucket is 25 MB, about all of this model's gradients on CPUs. Predict the hidden fraction with one
#    bucket that holds every gradient, against 1 MB buckets. Then run the cell.

# %% [markdown] lang="zh"
# ## 练习
#
# 1. DDP默认的桶大小是25 MB，在CPU上差不多就是这个模型的全部梯度。请预测：用一个装下全部梯度的桶，与用1 MB的桶
#    相比，隐藏比例各是多少？然后运行下面的单元格。

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
one_bucket = math.ceil(result.prediction.gradient_bytes / 2**20)  # DDP's MB are 2**20 bytes
ex1 = run_allreduce(BACKEND, WORLD, bucket_mb=[1, one_bucket], repeats=3,
                    steps={'serial': backward_then_allreduce}, **SIZES)
print(show.hidden_text(ex1))
show.plot_steps(ex1)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# One bucket can start only when its last gradient, the first layer's, is ready: at the end of backward. Nothing is
# left to overlap; expect it as slow as (a), or slower (a large copy into the bucket).
# </details>
#
# 2. Edit (b) so that it forgets to divide by the number of processes. Predict what the check says, then run.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 一个桶只有在它的最后一个梯度（第一层的梯度）就绪后才能开始，也就是反向传播结束的时候。没有什么可以重叠了；
# 应当预期它与(a)一样慢，甚至更慢（还要把数据复制进一个大桶）。
# </details>
#
# 2. 修改(b)，让它忘记除以进程数。预测校验会给出什么结果，然后运行。

# %% jupyter={"source_hidden": true}
def hooks_without_average(model, X, y, optimizer):
    """(b) with the division by the number of processes left out."""
    works = []

    def send(p):
        works.append(dist.all_reduce(p.grad, async_op=True))  # the sum, not the average

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters()]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()
    for hook in hooks:
        hook.remove()
    optimizer.step()


try:
    run_allreduce(BACKEND, WORLD, bucket_mb=1, repeats=1, steps={'summed': hooks_without_average},
                  layers=2, width=256, batch=32)
except d2l_ext.ResultMismatch as wrong:
    print(wrong)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# Every gradient comes back n times too large, so the update moves n times too far. The check compares with one
# process on the whole minibatch and stops the run with a relative error near n - 1 (1 for two processes).
# </details>
#
# 3. The all-reduce's bytes grow with the parameters (about width² per layer); backward's arithmetic grows with
#    batch × width². Predict how the ratio of all-reduce alone to backward alone changes when the batch per process
#    is halved, then run.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 每个梯度都大了n倍，所以更新也走远了n倍。校验把结果与单个进程在整个小批量上的结果相比较，以接近n - 1的相对误差
# （两个进程时为1）终止运行。
# </details>
#
# 3. 全归约的字节数随参数量增长（每层约为width²）；反向传播的算术运算量随 batch × width² 增长。请预测：当每个进程
#    的批量减半时，仅全归约与仅反向传播之比如何变化？然后运行。

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
half = {**SIZES, 'batch': SIZES['batch'] // 2}
ex3 = run_allreduce(BACKEND, WORLD, bucket_mb=1, repeats=3, steps={'serial': backward_then_allreduce}, **half)
for r in (result, ex3):
    print(d2l_ext.t('allreduce.ratio', batch=r.batch_per_process,
                    ratio=r.version('allreduce').median / r.version('backward').median))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# Half the batch halves backward's arithmetic and leaves the bytes alone: the ratio should about double (the width
# leaves it about the same). Small per-device batches let communication dominate. On CPUs it moves less than
# predicted: smaller products use the core less efficiently.
# </details>
#
# ## Remember
#
# - Data parallelism sums (averages) gradients with an all-reduce; a ring sends 2(n-1)/n of the bytes per process.
# - Overlap comes from the dependency graph: a layer's gradient is final before earlier layers are done.
# - The best overlap is max(backward, all-reduce), and only when communication has hardware of its own.
#
# ## Pitfalls
#
# - All-reduce after backward hides nothing.
# - One huge bucket hides nothing: it starts when backward ends.
# - Forgetting to `wait()` before `optimizer.step()` updates with half-summed gradients.
# - Forgetting to average gives n times the gradient.
# - On CPUs, gloo's communication shares the cores with compute; expect far less than the best overlap.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 批量减半使反向传播的算术运算量减半，而字节数不变：这个比值应当大约翻倍（改变宽度则大致不改变它）。每个设备的
# 批量小，通信就占主导。在CPU上，它的变化比预测的小：较小的矩阵乘法对核的利用效率更低。
# </details>
#
# ## 要记住的
#
# - 数据并行用全归约对梯度求和（取平均）；环形全归约中每个进程发送2(n-1)/n的字节。
# - 重叠来自依赖图：一层的梯度在前面各层完成之前就已经确定了。
# - 最佳重叠是 max(反向传播, 全归约)，而且只有在通信拥有自己的硬件时才能达到。
#
# ## 易犯的错误
#
# - 反向传播之后再全归约，什么也隐藏不了。
# - 一个巨大的桶什么也隐藏不了：它在反向传播结束时才开始。
# - 在 `optimizer.step()` 之前忘记 `wait()`，会用只求和了一部分的梯度来更新。
# - 忘记取平均，梯度就会大n倍。
# - 在CPU上，gloo的通信与计算共用同样的核；实际效果会远不如最佳重叠。
