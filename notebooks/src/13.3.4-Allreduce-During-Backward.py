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
# # Extra: Gradients All-Reduced While Backward Still Runs
#
# Section 13.3.2 notes that distributed optimization moves data to aggregate gradients across accelerators: an
# **all-reduce**, where every process contributes its gradients and receives their sum. Frameworks run it while
# backward still computes; we measure how much really overlaps.
#
# In *data parallelism* every process holds the same MLP and a share of the minibatch. CPU processes talk through
# gloo; one process per GPU, through NCCL.

# %% [markdown] lang="zh"
# # 扩展：在反向传播仍在进行时全归约梯度
#
# 12.3.2节写道：“例如，当执行分布式优化时，就需要移动数据来聚合多个加速卡上的梯度。”这就是**全归约**
# （all-reduce），每个进程贡献自己的梯度，并得到它们的和。深度学习框架在反向传播仍在计算时就进行全归约；我们测量其中有多少真正是同时进行的。
#
# 在*数据并行*中，每个进程持有同样的多层感知机和小批量中的一份。CPU上的进程通过gloo通信；每个GPU一个进程时，
# 通过NCCL通信。

# %%
# %matplotlib inline
import math

import torch
import torch.distributed as dist
from IPython.display import display

import d2l_ext
from d2l_ext.allreduce import loss_of, recording, run_allreduce, trace_folder, world_sizes
from d2l_ext.display import allreduce as show
from d2l_ext.display import allreduce_buckets as sweep
from d2l_ext.display import allreduce_recorded as recorded
from d2l_ext.display.allreduce_panel import BucketPanel

d2l_ext.set_language('en')
if torch.cuda.device_count() >= 2:  # one process per GPU; sizes that keep a GPU busy
    BACKEND, WORLD, SIZES = 'nccl', torch.cuda.device_count(), dict(layers=8, width=4096, batch=1024)
else:  # the fewest gloo processes (2)
    BACKEND, WORLD, SIZES = 'gloo', world_sizes('gloo')[0], dict(layers=6, width=1024, batch=128)
# DDP bucket sizes in MiB (2**20 bytes, what DDP calls bucket_cap_mb); the last holds every gradient in one bucket
BUCKETS = [0.25, 1, 8, math.ceil(SIZES['layers'] * (SIZES['width'] + 1) * SIZES['width'] * 4 / 2**20)]
print(show.machine_text(BACKEND, WORLD))

# %% [markdown]
# ## The step, three ways
#
# Each process runs the step on its share `X, y`; dividing each gradient by the number of processes before summing
# gives the whole minibatch's average. The letters match the four versions you build at the end.
#
# **(a) Backward, then all-reduce.** `dist.all_reduce` returns when every process has sent and received.

# %% [markdown] lang="zh"
# ## 一个训练步的三种写法
#
# 每个进程在自己那一份数据 `X, y` 上运行训练步；求和之前把每个梯度除以进程数，得到的就是整个小批量上的平均梯度。
# 字母与最后你要动手实现的四个版本一致。
#
# **(a) 先反向传播，再全归约。** `dist.all_reduce` 要等到每个进程都发送并接收完毕才返回。

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
# **(c) All-reduce from gradient hooks.** A hook from `register_post_accumulate_grad_hook` runs as soon as a gradient
# is ready; with `async_op=True` the all-reduce returns at once and backward carries on. We `wait()` before the update.

# %% [markdown] lang="zh"
# **(c) 由梯度钩子发起全归约。** 用 `register_post_accumulate_grad_hook` 注册的钩子在梯度就绪时立即运行；加上
# `async_op=True`，全归约立即返回，反向传播继续进行。更新参数之前调用 `wait()`。

# %%
def allreduce_in_hooks(model, X, y, optimizer):
    """(c) Each gradient's all-reduce starts as soon as backward has computed it."""
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
# **(d) `DistributedDataParallel`** does what (c) does, in *buckets*; the step is a plain one:
#
# ```python
# model = DistributedDataParallel(mlp(layers, width), bucket_cap_mb=1)
# optimizer.zero_grad(); loss_of(model, X, y).backward(); optimizer.step()
# ```
#
# Gradients fill buckets of about `bucket_cap_mb` MiB in the order backward produces them; a full bucket's all-reduce
# starts at once. Large buckets: few calls; small: an early start.

# %% [markdown] lang="zh"
# **(d) `DistributedDataParallel`** 按*桶*做(c)所做的事；训练步就是普通的训练步：
#
# ```python
# model = DistributedDataParallel(mlp(layers, width), bucket_cap_mb=1)
# optimizer.zero_grad(); loss_of(model, X, y).backward(); optimizer.step()
# ```
#
# 梯度按反向传播产生的顺序装进大约 `bucket_cap_mb` MiB的桶里；一个桶装满后，它的全归约立即开始。桶大，调用次数少；
# 桶小，开始得早。

# %% [markdown]
# ## Measure the ingredients
#
# `run_allreduce` sends *your* functions to the processes. It adds DDP at four bucket sizes, the **step without
# all-reduce** (forward, backward, update; nothing sent), **all-reduce alone**, and a control, **(b) flat**: (a) with
# all gradients in one buffer, one call. (a) minus flat compares many calls with one call plus two copies, timed
# within (b)'s step, not separately. Every step is checked against float64; a few are profiled for the intervals.

# %% [markdown] lang="zh"
# ## 测量预测所需的数据
#
# `run_allreduce` 把*你的*函数发给各个进程。它还加上四种桶大小的DDP、**不做全归约的训练步**（前向传播、
# 反向传播、更新；不发送）、
# **仅全归约**，以及一个对照版本**(b) 扁平**：即(a)，但所有梯度放在一个缓冲区里，只调用一次。(a)减去扁平版本，
# 比较的是多次调用与一次调用加两次复制（复制计入(b)的训练步时间，只是未单独计时）。每个训练步都与float64的结果
# 检查；有几步做了性能分析以得到时间区间。

# %% tags=["nbval-ignore-output"]
traces = trace_folder()  # removed when this variable is replaced or the kernel ends
result = run_allreduce(BACKEND, WORLD, bucket_mb=BUCKETS, repeats=5, profiled=2, trace_dir=traces.name,
                       steps={'serial': backward_then_allreduce, 'hooks': allreduce_in_hooks}, **SIZES)
print(show.ingredients_text(result))

# %% [markdown]
# ## Predict
#
# A ring all-reduce sends 2(n-1)/n of the bytes from each process, so one call costs **α + 2(n-1)/n × bytes / β**:
# α, the per-call overhead, from the one-float all-reduce; β, the bus bandwidth, from the large buffer; both
# from median repeats, as every step time below.
#
# A call starts once its gradients are ready and the call before it is done. With K equal calls the last waits for
# the end of backward: the model gives at most (K-1)/K of the all-reduce during backward. That caps the model's
# share only: a measured share can be higher. The model assumes communication has hardware of its own.
# Guess the share of (c)'s all-reduce that runs while backward computes; the cell then works out (a) from the model.

# %% [markdown] lang="zh"
# ## 预测
#
# 环形全归约中，每个进程发送的字节数是梯度字节数的 2(n-1)/n 倍，所以一次调用的代价是 **α + 2(n-1)/n × 字节数 / β**：每次调用的
# 开销α来自一个浮点数的全归约，总线带宽β来自大缓冲区；两者都取各次重复的中位数，与下面每个训练步的时间一样。
#
# 一次调用要等它的梯度就绪、并且前一次调用完成后才能开始。若有K次大小相同的调用，最后一次要等反向传播结束：模型
# 给出的在反向传播期间进行的全归约比例最多是(K-1)/K。这个上限只属于模型：实测比例可能更高。模型假定通信
# 拥有自己的硬件。请猜一猜(c)的全归约有多大比例会在反向传播计算的同时进行；随后这个单元格用模型算出(a)的时间。

# %% tags=["nbval-ignore-output"]
my_guess = None  # share of (c)'s all-reduce that runs while backward computes, 0 to 1

p, n = result.prediction, result.processes  # medians: step without all-reduce, one float's, a large buffer's
ring = 2 * (n - 1) / n                      # share of the bytes each process sends
alpha, bus = p.per_call, p.bus_bandwidth    # seconds per call; bytes per second
allreduce = len(p.tensor_bytes) * alpha + ring * p.gradient_bytes / bus  # (a): one call per gradient tensor
serial = p.backward + allreduce             # (a): one after the other
overlapped = max(p.backward, allreduce)     # if the all-reduce ran on hardware of its own
print(show.prediction_text(allreduce, serial, overlapped))

# %% [markdown]
# <details><summary>Worked answer: what to expect</summary>
#
# The ring factor is 1 for two processes; the model's share for (c) is printed below. The line after it compares
# backward's operators while (c)'s all-reduce ran with the step without all-reduce.
# </details>
#
# ## Measure
#
# Per overlapping version: the **overlap** (share of its all-reduce's busy time during which backward computed),
# the **model**'s share, and the **wall clock** against (a), split into terms. Dots: repeats; hatched: predicted
# (printed above).

# %% [markdown] lang="zh"
# <details><summary>参考答案：应当预期什么</summary>
#
# 两个进程时环形因子是1；模型给出的(c)的比例印在下面。紧接着的一行把(c)的全归约进行期间反向传播的操作符
# 用时与不做全归约的训练步相比。
# </details>
#
# ## 实测
#
# 每个重叠的版本给出：**重叠**（它的全归约忙碌的时间里反向传播也在计算的比例）、**模型**给出的比例，以及与(a)
# 相比的**挂钟时间**，拆成若干项。点：各次重复；斜线条：预测（数值印在图的上方）。

# %% tags=["nbval-ignore-output"]
print(show.check_text(result))
print(show.guess_text(my_guess, result))
print(show.overlap_text(result, ['hooks', 'ddp-1']))
drawn = ['backward', 'allreduce', 'serial', 'flat', 'hooks', 'ddp-1']
print(show.model_steps_text(result, drawn))  # every hatched value in the figure
show.plot_steps(result, ids=drawn)

# %% [markdown]
# The overlap counts time, not savings (0-100%). Compare the unexplained term with the interquartile range beside it.
#
# ## Fewer calls, or overlap?
#
# Fewer calls could save time without overlap:

# %% [markdown] lang="zh"
# 重叠统计的是时间而不是节省，所以总在0-100%之间。“无法解释”的那一项要与旁边印出的四分位距对照着看。
#
# ## 是调用少了，还是重叠了？
#
# 调用次数少了，即使没有任何重叠也可能省时间：

# %% tags=["nbval-ignore-output"]
print(show.per_call_text(result))

# %% [markdown]
# ## One step, process by process
#
# Two rows per process, from one profiled step. In (a) every all-reduce waits for backward to end; with DDP the first
# buckets start while backward still computes.

# %% [markdown] lang="zh"
# ## 一个训练步，逐个进程来看
#
# 每个进程占两行，来自做了性能分析的一步。在(a)中，每个全归约都要等反向传播结束；用DDP时，最先的几个桶在反向
# 传播还在计算时就开始了。

# %% tags=["nbval-ignore-output"]
display(show.draw_step_timeline(result, 'serial'))
show.draw_step_timeline(result, 'ddp-1')

# %% [markdown]
# Your run's Chrome traces for Perfetto, one per process:

# %% [markdown] lang="zh"
# 这次运行的、供Perfetto打开的Chrome跟踪文件，每个进程一个：

# %% tags=["nbval-ignore-output"]
print(show.trace_text(result, 'ddp-1'))

# %% [markdown]
# ## Try bucket sizes
#
# The table starts with the first run's four sizes; pick another and press **Run**: each run is added beside the
# model's line.

# %% [markdown] lang="zh"
# ## 试试不同的桶大小
#
# 表中先列出第一次运行的四种大小；选择另一个大小并点击**运行**：每次运行都会加到表和图中，旁边是模型的曲线。

# %% tags=["nbval-ignore-output"]
panel = BucketPanel(BACKEND, WORLD, bucket_mb=8.0, steps={'serial': backward_then_allreduce},
                    **SIZES).show(first=result)  # starts from the first run's four bucket sizes

# %% [markdown]
# ## MXNet
#
# MXNet's KVStore (`kv.push` sums, `kv.pull` returns) sums the devices of one process, or goes through server
# processes (`dist_` types): no all-reduce between processes to time here.
#
# ## Beyond one machine
#
# Run this on each of two machines (HOST: the first one's address):
#
# ```
# torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 -m d2l_ext.allreduce
# ```
#
# There a network card would carry the bytes. With fewer than two GPUs, as in the recording, this lesson
# measures gloo on CPU cores.
#
# ## Recorded at 2, 4 and 8 processes
#
# The same run, one core per process, on the machine the first lines name: step times, overlap beside the
# model's, one step of (c) at the largest size.

# %% [markdown] lang="zh"
# ## MXNet
#
# MXNet的KVStore（`kv.push` 求和，`kv.pull` 取回）对一个进程中的各个设备求和，或者经过服务器进程（`dist_` 系列
# 类型）：这里没有进程之间的全归约可以计时。
#
# ## 超越一台机器
#
# 在两台机器上各运行一次（HOST：第一台机器的地址）：
#
# ```
# torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 -m d2l_ext.allreduce
# ```
#
# 那里会由独立于CPU核心和GPU的网卡传输字节。少于两个GPU时（录制结果就是如此），本节测量的是CPU核心上的
# gloo。
#
# ## 用2、4和8个进程录制的结果
#
# 同样的运行，每个进程一个核心，录制于开头几行所说的机器：训练步时间、重叠与模型给出的比例，以及最大进程数时(c)
# 的一个训练步。

# %% tags=["nbval-ignore-output"]
rec = recording.newest()  # the newest recording from a machine with a GPU shipped with d2l_ext, or None
print(recorded.recorded_text(rec))
if rec is not None:
    display(recorded.plot_recorded(rec))
    display(recorded.draw_recorded_timeline(rec, max(recording.results(rec)), 'hooks'))

# %% [markdown]
# ## Exercises
#
# 1. With the CPU sizes, DDP's default bucket, 25 MiB, holds all of this model's gradients (24.0 MiB). Which size
#    does the model predict fastest among 0.25, 1, 8 MiB and one bucket? What overlap for the one bucket? The first
#    run timed all four.

# %% [markdown] lang="zh"
# ## 练习
#
# 1. 用CPU上的大小时，DDP默认的桶大小25 MiB能装下这个模型的全部梯度（24.0 MiB）。在0.25、1、8 MiB和一个桶之中，
#    模型预测哪个最快？一个桶的重叠是多少？第一次运行已经测量了这四种大小。

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
ddp = [v.id for v in result.ddp_versions()]  # the first run timed every size in BUCKETS
print(sweep.bucket_text(result))
print(show.overlap_text(result, ddp))
sweep.plot_buckets(result)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# In the model one bucket starts when backward ends, so it gives no overlap; the measured share can differ. Small
# buckets start early but pay α per call; the model's line shows where the two balance.
# </details>
#
# 2. Edit (c) so that it forgets to divide by the number of processes. Predict what the check says, then run.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 在模型中，一个桶要等反向传播结束才能开始，所以模型给它的重叠是0；实测的比例可能不同。小桶开始得早，但每次调用都要付出α；
# 模型的曲线显示了两者在哪里平衡。
# </details>
#
# 2. 修改(c)，让它忘记除以进程数。预测检查会给出什么结果，然后运行。

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
def hooks_without_average(model, X, y, optimizer):
    """(c) with the division by the number of processes left out."""
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
# Every gradient comes back n times too large. The check stops the run with a relative error near n - 1.
# </details>
#
# 3. Bytes grow with width², backward's arithmetic with batch × width². How does all-reduce alone / the step
#    without all-reduce change when the batch per process is halved?

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 每个梯度都变成了应有值的 n 倍。检查以接近n - 1的相对误差终止运行。
# </details>
#
# 3. 字节数随宽度²增长，反向传播的算术运算量随批量 × 宽度²增长。每个进程的批量减半时，仅全归约 / 不做全归约的
#    训练步如何变化？

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
half = {**SIZES, 'batch': SIZES['batch'] // 2}
ex3 = run_allreduce(BACKEND, WORLD, bucket_mb=[], repeats=3, steps={}, **half)  # alone versions only: no DDP
print(show.ratio_text(result, ex3))  # each batch's ratio, then how many times it grew beside 2x

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# Half the batch halves forward and backward's arithmetic, not the bytes nor the update's work. The last line says
# whether the ratio grew about 2x (neither more than 1.1 times the other), more, or less.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 批量减半使前向传播和反向传播的算术运算量减半，而字节数和参数更新的工作量不变。两个比值下面的那一行说明这个比值
# 大约是2倍（两者之比不超过1.1）、多于还是少于2倍。
# </details>

# %% [markdown]
# ## Build it: four versions
#
# Now write the step yourself, four times, each closer to what DDP does, with `loss_of`, `dist` and `torch`. The
# check runs it on two processes for 3 steps, on a model with a *tied* weight (used twice in forward, listed once in
# `model.parameters()`) and a *frozen* one (its `.grad` stays `None`), against one float64 process on the whole
# minibatch. For (c) and (d) it also measures the overlap beside the model's. Until a version passes, it says
# "not yet" and why.
#
# **(a) After backward, averaged.** The first step above, made to work with a frozen parameter.

# %% [markdown] lang="zh"
# ## 动手实现：四个版本
#
# 现在由你来写这个训练步，写四遍，一遍比一遍更接近DDP的做法，可以使用 `loss_of`、`dist` 和 `torch`。检查会在
# 两个进程上把它运行3步，模型中有一个*共享*的权重（在前向传播中用了两次，在 `model.parameters()` 中只列出一次）
# 和一个*冻结*的权重（它的 `.grad` 一直是 `None`），并与单个进程在整个小批量上用float64训练的结果相比较。对于(c)
# 和(d)，它还测量重叠，旁边给出模型的比例。一个版本通过之前，检查会显示“尚未通过”以及原因。
#
# **(a) 反向传播之后全归约，取平均。** 即上面的第一种训练步，只是要能处理冻结的参数。

# %%
def backward_then_allreduce(model, X, y, optimizer):
    """(a) Backward on this process's share, then all-reduce every gradient, averaged; then the step."""
    # TODO: zero the gradients, backward, then average each gradient over the processes (frozen ones have none)
    raise NotImplementedError


d2l_ext.check('13.3.4-a-after', backward_then_allreduce)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
def backward_then_allreduce(model, X, y, optimizer):
    """(a): the whole backward pass first, then one all-reduce per gradient, averaged."""
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for p in model.parameters():
        if p.grad is None:  # a frozen parameter has no gradient to send
            continue
        p.grad /= dist.get_world_size()  # the sum of the averages / n = the average over the whole minibatch
        dist.all_reduce(p.grad)  # blocks until every process has contributed
    optimizer.step()


d2l_ext.check('13.3.4-a-after', backward_then_allreduce)

# %% [markdown]
# **(b) One flat buffer.** Copy all the gradients into one flat tensor
# (`torch.cat` of `g.reshape(-1)`), all-reduce it once, and copy each piece back (`g.copy_(...)`). The check counts
# the calls.

# %% [markdown] lang="zh"
# **(b) 一个扁平缓冲区。** 把所有梯度复制进一个扁平张量（对 `g.reshape(-1)` 用
# `torch.cat`），只做一次全归约，再把每一段复制回去（`g.copy_(...)`）。检查会统计调用次数。

# %%
def flat_allreduce(model, X, y, optimizer):
    """(b) Backward, then one all-reduce of every gradient in one flat buffer; then the step."""
    # TODO: flatten the gradients into one tensor, all-reduce it once, averaged, and copy the pieces back
    raise NotImplementedError


d2l_ext.check('13.3.4-b-flat', flat_allreduce)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
def flat_allreduce(model, X, y, optimizer):
    """(b): every gradient copied into one flat buffer, one all-reduce, copied back."""
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads]) / dist.get_world_size()
    dist.all_reduce(flat)  # one call: one start-up cost instead of one per tensor
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()
    optimizer.step()


d2l_ext.check('13.3.4-b-flat', flat_allreduce)

# %% [markdown]
# **(c) From gradient hooks.** Start each gradient's all-reduce with `async_op=True` in a hook registered with
# `p.register_post_accumulate_grad_hook` (a frozen parameter cannot take one); `wait()` for every one before
# `optimizer.step()`, and remove the hooks, or the next step adds more.

# %% [markdown] lang="zh"
# **(c) 由梯度钩子发起。** 在用 `p.register_post_accumulate_grad_hook` 注册的钩子里，以 `async_op=True` 发起
# 每个梯度的全归约（冻结的参数不能注册钩子）；在 `optimizer.step()` 之前对每一个调用 `wait()`，并移除钩子，
# 否则下一步会再添加一批。

# %%
def allreduce_in_hooks(model, X, y, optimizer):
    """(c) Each gradient's all-reduce started from its hook during backward, waited for before the step."""
    # TODO: register a hook per parameter that needs a gradient; it averages and starts the all-reduce
    raise NotImplementedError


d2l_ext.check('13.3.4-c-hooks', allreduce_in_hooks)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
def allreduce_in_hooks(model, X, y, optimizer):
    """(c): each gradient's all-reduce starts from its hook as soon as backward has computed it."""
    works = []

    def send(p):
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))  # returns at once; backward goes on

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters() if p.requires_grad]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()  # every gradient summed before the update reads it
    for hook in hooks:
        hook.remove()
    optimizer.step()


d2l_ext.check('13.3.4-c-hooks', allreduce_in_hooks)

# %% [markdown]
# **(d) Buckets.** Fill buckets with the parameters that need a gradient, in reverse order; close a bucket once it
# holds at least `bucket_mb` MiB (2**20 bytes). When a bucket's last gradient is ready, flatten it and start its
# all-reduce; after backward, wait and copy back. The check expects one call per bucket for sizes giving 1, 2 and 3
# buckets, and judges the overlap at the size that overlapped most (its line gives its calls per step).

# %% [markdown] lang="zh"
# **(d) 桶。** 按逆序取出需要梯度的参数，依次装进桶里：每放入一个参数，一旦桶中已有至少 `bucket_mb` MiB
# （2**20字节），就封上这个桶。一个桶的最后一个梯度就绪时，把桶展平并发起它的全归约；反向传播之后，等待并复制
# 回去。检查会试用分别得到1个、2个和3个桶的桶大小，要求每个桶一次调用；重叠按三种大小中重叠最多的那一种评判
# （那一行给出该大小每步的调用次数）。

# %%
def allreduce_in_buckets(model, X, y, optimizer, bucket_mb):
    """(d) Buckets of bucket_mb MiB in reverse parameter order, each all-reduced as soon as it is full."""
    # TODO: build the buckets, count each bucket's missing gradients in hooks, start a full bucket's all-reduce
    raise NotImplementedError


d2l_ext.check('13.3.4-d-buckets', allreduce_in_buckets)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
def allreduce_in_buckets(model, X, y, optimizer, bucket_mb):
    """(d): buckets of bucket_mb MiB filled in reverse parameter order, each all-reduced once full."""
    params = [p for p in reversed(list(model.parameters())) if p.requires_grad]  # backward's order
    buckets, current, size = [], [], 0
    for p in params:  # a bucket closes once it holds bucket_mb MiB (2**20 bytes), as DDP's do
        current.append(p)
        size += p.numel() * p.element_size()
        if size >= bucket_mb * 2**20:
            buckets.append(current)
            current, size = [], 0
    buckets += [current] if current else []
    bucket_of = {p: b for b, members in enumerate(buckets) for p in members}
    missing = [len(members) for members in buckets]  # gradients each bucket still waits for
    works = []

    def ready(p):
        b = bucket_of[p]
        missing[b] -= 1
        if missing[b] == 0:  # full: one flat buffer, its all-reduce started, backward goes on
            flat = torch.cat([q.grad.reshape(-1) for q in buckets[b]]) / dist.get_world_size()
            works.append((buckets[b], flat, dist.all_reduce(flat, async_op=True)))

    hooks = [p.register_post_accumulate_grad_hook(ready) for p in params]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for members, flat, work in works:
        work.wait()
        offset = 0
        for q in members:  # the summed bucket back into each gradient
            q.grad.copy_(flat[offset:offset + q.numel()].view_as(q))
            offset += q.numel()
    for hook in hooks:
        hook.remove()
    optimizer.step()


d2l_ext.check('13.3.4-d-buckets', allreduce_in_buckets)

# %% [markdown]
# ## Remember
#
# - Data parallelism averages gradients with an all-reduce; a call costs about α + 2(n-1)/n × bytes / β.
# - Overlap comes from the dependency graph: a layer's gradient is final before backward reaches the layers nearer
#   the input.
# - Measure overlap from intervals (0-100%); the wall clock also counts fewer calls and backward's speed.
#
# ## Pitfalls
#
# - All-reduce after backward, or one bucket for everything, overlaps almost nothing (the model: none).
# - No `wait()` before `optimizer.step()`: half-summed gradients. No average: n times the gradient.
# - Overlap is not savings: compare the wall clock, and backward's time while sending with its time alone.

# %% [markdown] lang="zh"
# ## 记住
#
# - 数据并行用全归约对梯度取平均；一次调用的代价约为 α + 2(n-1)/n × 字节数 / β。
# - 重叠来自依赖图：一层的梯度在靠近输入的各层的反向传播完成之前就已经确定了。
# - 用时间区间测量重叠（0-100%）；挂钟时间的差别还包含调用次数的减少和反向传播快慢的变化。
#
# ## 易错点
#
# - 反向传播之后再全归约，或者把全部梯度装进一个桶，都几乎什么也重叠不了（模型：完全不重叠）。
# - `optimizer.step()` 之前没有 `wait()`：梯度只求和了一部分。没有取平均：每个梯度都变成了应有值的 n 倍。
# - 重叠不等于节省：要看挂钟时间，并把发送期间反向传播的时间与它单独运行时的时间相比。
