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
# # 13.3.4 Extra: Gradients All-Reduced While Backward Still Runs
#
# The book's §13.3.2 (computation and communication): "For instance, this occurs when we want to perform distributed
# optimization where we need to aggregate the gradients over multiple accelerator cards." That aggregation is an
# **all-reduce**: every process contributes its gradients and receives their sum. In **data parallelism** every
# process holds the same MLP and a share of the minibatch. First, a 16-core host's recording; then you write four
# versions of the step, the last as PyTorch's `DistributedDataParallel` (DDP) does it, and time them and DDP here.

# %% [markdown] lang="zh"
# # 扩展：在反向传播的同时对梯度做全归约
#
# 书中 12.3.2 节（并行计算与通信）写道：“例如，当我们打算执行分布式优化时，就需要移动数据来聚合多个加速卡上的梯度。”这种聚合
# 就是**全归约**（allreduce）：每个进程贡献自己的梯度，并得到它们的和。在**数据并行**中，每个进程持有同样的多层感知机和
# 小批量中的一份。下面先看 16 核主机上的记录结果，
# 然后写出训练迭代的四个版本，最后一个即 PyTorch 的 `DistributedDataParallel`（DDP）的做法，并在这台机器上测量它们和 DDP。

# %%
# %matplotlib inline
import torch  # at hand for your steps  #zh: 供你的训练迭代使用
import torch.distributed as dist
from IPython.display import display

import d2l_ext
from d2l_ext.allreduce import bucket_params, loss_of, recording, run_allreduce, world_sizes
from d2l_ext.display import allreduce as show
from d2l_ext.display import allreduce_recorded as recorded

d2l_ext.set_language('en')
# gloo: PyTorch's CPU communication backend; 2 processes (the fewest), 1 compute thread each  #zh: gloo：PyTorch 在 CPU 上的通信后端；2 个进程（最少的进程数），每个进程 1 个计算线程
BACKEND, WORLD, SIZES = 'gloo', world_sizes('gloo')[0], dict(layers=6, width=1024, batch=128)
# DDP bucket sizes in MiB (bucket_cap_mb); 25 holds all 24 MiB of gradients  #zh: DDP 桶的大小（MiB，即 bucket_cap_mb）；25 装得下全部 24 MiB 梯度
BUCKETS = [1, 8, 25]
checked = {}  # your versions' checks: checked['a'] to checked['d']  #zh: 你的各个版本的检查结果：checked['a'] 至 checked['d']
print(show.machine_text(BACKEND, WORLD))

# %% [markdown]
# ## The picture: recorded on a 16-core host
#
# Two processes on a 16-core host (an NVIDIA H200 machine's CPU) run two of the versions you write below, talking
# through gloo, PyTorch's CPU communication backend. In **(a)** every gradient is all-reduced after backward. In **(c)** each gradient's all-reduce starts from a
# hook once backward has computed it. The last layer's gradient is final first, so its all-reduce runs while backward
# computes the layers nearer the input. DDP does (c) with gradients grouped in buckets: DDP 1 MiB sends a bucket once
# it holds at least 1 MiB (a bucket never splits a layer).
#
# The top panel's top row, the step without all-reduce, is the floor.

# %% [markdown] lang="zh"
# ## 先看图：16 核主机上的记录结果
#
# 两个进程在 16 核主机（NVIDIA H200 机器的 CPU）上运行下文的两个版本，经 gloo（PyTorch 在 CPU 上的通信后端）通信。
# **（a）**在反向传播之后对每个梯度做全归约。**（c）**在反向传播算出一个梯度后，立即由钩子发起它的全归约。
# 最后一层的梯度最先算出，所以它的全归约与前面各层的反向传播同时进行。DDP 与（c）相同，只是按桶发送：
# DDP（1 MiB）在桶里至少有 1 MiB 时发送（一层的梯度不会拆到两个桶里）。
#
# 下图最上面一行是不做全归约的训练迭代，即下界。

# %% tags=["nbval-ignore-output"]
rec = recording.newest()  # the newest recording shipped with d2l_ext  #zh: d2l_ext 附带的最新一份记录结果
there = recorded.fewest(rec)  # its 2 processes' run  #zh: 其中 2 个进程的那次运行
print(recorded.recorded_text(rec))
if rec is not None:
    display(recorded.plot_recorded(rec))

# %% [markdown]
# ## Build it: four versions of the step
#
# Each process runs the step on its share `X, y`; dividing each gradient by the number of processes before the sum
# gives the whole minibatch's average. Use `loss_of(model, X, y)`, `dist` and `torch`. The check compares your step
# on two processes with one float64 process on the whole minibatch. Its model has a **tied** weight (one parameter used
# by two layers: its gradient sums both uses and is all-reduced once) and a **frozen** one (its `.grad` stays `None`).
#
# **(a) After backward**, as in the figure: backward, then `dist.all_reduce(p.grad)` on each gradient.

# %% [markdown] lang="zh"
# ## 动手实现：训练迭代的四个版本
#
# 每个进程在自己那份数据 `X, y` 上运行训练迭代；求和前把每个梯度除以进程数，得到的就是整个小批量的平均梯度。
# 可以使用 `loss_of(model, X, y)`、`dist` 和 `torch`。检查把两个进程的结果
# 与单个进程用 float64 在整个小批量上的结果比较。检查用的模型有一个**共享**的权重：它被两层使用，
# 梯度是两次使用之和，只做一次全归约；还有一个**冻结**的权重，它的 `.grad` 一直是 `None`。
#
# **（a）先反向传播再全归约**，如上图：反向传播之后，对每个梯度调用 `dist.all_reduce(p.grad)`。

# %%
def backward_then_allreduce(model, X, y, optimizer):
    # (a) Backward on this process's share, then all-reduce every gradient, averaged; then the step  #zh: （a）在本进程那一份数据上反向传播，再对每个梯度做全归约并取平均；然后更新参数
    # TODO: zero the gradients, backward, then average each gradient over the processes (frozen ones have none)  #zh: TODO：梯度清零、反向传播，再在各进程间对每个梯度取平均（冻结的参数没有梯度）
    raise NotImplementedError


checked['a'] = d2l_ext.check('13.3.4-a-after', backward_then_allreduce)

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
#@source d2l_ext.allreduce.steps.backward_then_allreduce

# %% [markdown]
# **(b) One flat buffer.** (a) with one call instead of one per tensor: copy every gradient into one flat tensor,
# all-reduce it once, and copy each piece back into its gradient.

# %% [markdown] lang="zh"
# **（b）一个展平的缓冲区。**即（a），但只调用一次全归约：把所有梯度复制进一个展平的张量，
# 全归约后再把每一段复制回它的梯度。

# %%
def flat_allreduce(model, X, y, optimizer):
    # (b) Backward, then one all-reduce of every gradient in one flat buffer; then the step  #zh: （b）反向传播，再把全部梯度放进一个展平的缓冲区，只做一次全归约；然后更新参数
    # TODO: flatten the gradients into one tensor, all-reduce it once, averaged, and copy the pieces back  #zh: TODO：把梯度展平成一个张量，只做一次全归约并取平均，再把各段复制回去
    raise NotImplementedError


checked['b'] = d2l_ext.check('13.3.4-b-flat', flat_allreduce)

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
#@source d2l_ext.allreduce.steps.flat_allreduce

# %% [markdown]
# **(c) From gradient hooks**, as in the figure. A hook registered with `p.register_post_accumulate_grad_hook` runs
# as soon as `p.grad` is ready; `dist.all_reduce(..., async_op=True)` returns a handle at once. `wait()` on every
# handle before `optimizer.step()`, and remove the hooks. A frozen parameter cannot take a hook.

# %% [markdown] lang="zh"
# **（c）由梯度钩子发起**，如上图。用 `p.register_post_accumulate_grad_hook` 注册的钩子在 `p.grad` 就绪时立即运行；
# `dist.all_reduce(..., async_op=True)` 立即返回一个句柄，反向传播继续进行。在 `optimizer.step()` 之前对每个
# 句柄调用 `wait()`，并移除钩子，否则下一次迭代会再添加一批。冻结的参数不能注册钩子。

# %%
def allreduce_in_hooks(model, X, y, optimizer):
    # (c) Each gradient's all-reduce started from its hook during backward, waited for before the step  #zh: （c）反向传播期间由钩子发起每个梯度的全归约，更新参数之前等待它们完成
    # TODO: register a hook per parameter that needs a gradient; it averages and starts the all-reduce  #zh: TODO：为每个需要梯度的参数注册钩子，在钩子里取平均并发起全归约
    raise NotImplementedError


checked['c'] = d2l_ext.check('13.3.4-c-hooks', allreduce_in_hooks)

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
#@source d2l_ext.allreduce.steps.allreduce_in_hooks

# %% [markdown]
# **(d) Buckets**, as DDP does (c): large buckets make few calls, small ones start early. Given: `bucket_params`
# fills the buckets: the parameters that need a gradient, in reverse order, until a bucket holds `bucket_mb` MiB.
# You write the rest: once a bucket's last gradient is ready, flatten the bucket and all-reduce it.

# %% [markdown] lang="zh"
# **（d）分桶**，即 DDP 做（c）的方式：桶大，调用次数少；桶小，开始得早。已给出的 `bucket_params` 按逆序把需要梯度的
# 参数装进桶，一个桶装到至少 `bucket_mb` MiB 为止。你来写其余部分：桶中最后一个梯度就绪时，这个桶展平后做全归约。

# %%
def allreduce_in_buckets(model, X, y, optimizer, bucket_mb):
    # (d) Buckets of bucket_mb MiB in reverse parameter order, each all-reduced as soon as it is full  #zh: （d）按逆序把参数装进 bucket_mb MiB 的桶，每个桶一装满就全归约
    # Given: buckets = bucket_params(reversed(list(model.parameters())), bucket_mb * 2**20), lists of parameters  #zh: 已给出：buckets = bucket_params(reversed(list(model.parameters())), bucket_mb * 2**20)，由参数组成的列表
    # TODO: once a bucket's last gradient is ready (a hook per parameter), start its all-reduce, averaged  #zh: TODO：一个桶的最后一个梯度就绪时（每个参数一个钩子），发起它的全归约（取平均）
    # Before the step, wait for every bucket, copy its pieces back into the gradients and remove the hooks  #zh: 更新参数之前，等待每个桶完成，把各段复制回各个梯度，并移除钩子
    raise NotImplementedError


checked['d'] = d2l_ext.check('13.3.4-d-buckets', allreduce_in_buckets)

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
#@source d2l_ext.allreduce.steps.allreduce_in_buckets

# %% [markdown]
# ## Measure here: the ingredients
#
# `run_allreduce` times (a)-(d), DDP at three bucket sizes, the **step without all-reduce**
# and **all-reduce alone**.
#
# The **cost formula** estimates each step. In a ring all-reduce each process sends $2(n-1)/n$ of the bytes (1 for
# $n=2$). The formula charges a call $\alpha + 2(n-1)/n \cdot \text{bytes}/\beta$, with $\alpha$ a call's fixed cost
# and $\beta$ the bandwidth (gloo over loopback). Two timings fit them: all-reduce alone (12 calls, 24 MiB in all)
# and one call on a 96 MiB buffer. A call starts once its gradients are ready and the call before it is done.

# %% [markdown] lang="zh"
# ## 本机测量：预测所需的数据
#
# `run_allreduce` 为（a）至（d）计时，还有三种桶大小的 DDP、**不做全归约的训练迭代**和**只做全归约**。
#
# **代价公式**估算每次训练迭代的执行时间。环形全归约中每个进程发送梯度字节数的$2(n-1)/n$倍（$n=2$时为 1），
# 代价公式把一次调用记为$\alpha + 2(n-1)/n \cdot \text{字节数}/\beta$。其中$\alpha$是每次调用的固定开销，
# $\beta$是带宽（gloo 经本机回环网络）。用两次计时拟合$\alpha$和$\beta$：
# 只做全归约（12 次调用，共 24 MiB），以及对一个 96 MiB 的缓冲区调用一次。
# 一次调用要等它的梯度就绪，并且前一次调用完成后才能开始。

# %% tags=["nbval-ignore-output"]
mine = {'a': backward_then_allreduce, 'b': flat_allreduce, 'c': allreduce_in_hooks, 'd': allreduce_in_buckets}
steps, which = show.choose(mine, checked)  # yours once they pass  #zh: 你的版本通过检查后就用你的
result = run_allreduce(BACKEND, WORLD, bucket_mb=BUCKETS, repeats=9, profiled=5, timeout=60, steps=steps, **SIZES)
print(which)
print(show.ingredients_text(result))

# %% [markdown]
# ## Predict
#
# The 16-core recording above is the picture of the gain. By the formula, (c)'s step is the step without all-reduce
# plus the all-reduce that backward cannot hide, with backward unchanged. That is at least the last call: the first
# layer's 4 MiB weight, computed last. (c) beats (a) only if the all-reduce it hides (at most all-reduce alone, printed
# above) outlasts what it adds to backward; exercise 1 measures that. How long is (c)'s step here (ms)?

# %% [markdown] lang="zh"
# ## 预测
#
# 收益要看上面 16 核主机的记录结果。按代价公式，（c）的训练迭代执行时间等于不做全归约的训练迭代，
# 加上反向传播隐藏不了的全归约（假设反向传播的执行时间不变）。隐藏不了的至少是最后一次调用，即最后算出的第一层 4 MiB 权重。
# 只有当（c）隐藏的全归约（至多为上面打印的“只做全归约”）多于它让反向传播增加的时间，（c）才比（a）快；练习 1 测量后者。
# 本机（c）的训练迭代要多少毫秒？

# %%
my_guess_c = None  # ms: (c)'s step here  #zh: 毫秒：本机（c）的训练迭代执行时间

# %% [markdown]
# ## Measure
#
# The recording's top panel, measured here: the hatched bar is the formula's estimate for (c), the diamond your guess.

# %% [markdown] lang="zh"
# ## 实测
#
# 与记录结果的上图同类：斜线条形是代价公式对（c）的估算，菱形是你的猜测。

# %% tags=["nbval-ignore-output"]
print(show.paid_line(result, my_guess_c))  # your guess of (c) if any, then (c) against (a) by the one rule  #zh: 你对（c）的猜测（如果有），再按同一规则比较（c）与（a）
display(show.plot_steps(result, guess=my_guess_c))  # (a) and (c), the formula's estimate for (c) hatched  #zh: （a）和（c），斜线条形是代价公式对（c）的估算

# %% [markdown]
# ## One step, process by process
#
# The median profiled step of (c), then of (a) (not timed ones), two rows per process.

# %% [markdown] lang="zh"
# ## 一次训练迭代，逐个进程来看
#
# 先画（c），再画（a）：各取性能分析器记录中执行时间居中的那次运行（不是计时的那几次），每个进程占两行。

# %% tags=["nbval-ignore-output"]
display(show.step_timelines(result, ['hooks', 'serial']))  # (c), then (a), on one time axis  #zh: 先（c），再（a），共用一条时间轴

# %% [markdown]
# ## Exercises
#
# 1. The formula assumes backward as long as without all-reduce. How long is backward in (c) here (ms)? Write your
#    guess into `my_guess_back`. The figure adds a control, (a) with gloo alongside: (a) while gloo all-reduces
#    24 MiB of spare buffers from backward's start. By the one rule, is backward there at least as slow as in (c)?

# %% [markdown] lang="zh"
# ## 练习
#
# 1. 代价公式假设反向传播与不做全归约时一样长。本机（c）中的反向传播要多少毫秒？把你的猜测写进 `my_guess_back`。
#    图中还有对照“（a），后台同时全归约”：即（a），只是从反向传播开始起，gloo 在后台对 24 MiB 的备用缓冲区做全归约。
#    按同一规则，对照中的反向传播是否至少和（c）中的一样慢？

# %%
my_guess_back = None  # ms: backward in (c) here  #zh: 毫秒：本机（c）中的反向传播执行时间

# %% tags=["nbval-ignore-output"]
display(show.plot_backward(result, ['backward', 'hooks', 'beside'], guess=my_guess_back))  # in the profiled steps  #zh: 性能分析器记录的那几次迭代

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.miss_answer(result, my_guess_back))  # the control, then (c) against both estimates  #zh: 先看对照，再比较（c）与两个估算

# %% [markdown]
# 2. (b) makes one call where (a) makes one per gradient; its control, (b) with its buffer made once, makes it once
#    instead of every step. The hatched bar is the formula's estimate for (b): one call instead of 12. How long is (b)'s
#    step here (ms)? Write your guess into `my_guess_flat`. By the one rule, is (b) faster than (a)? Than its control?

# %% [markdown] lang="zh"
# 2. （b）只调用一次全归约，（a）每个梯度调用一次；它的对照“（b）只建一次缓冲区”不在每次迭代中新建缓冲区。
#    斜线条形是代价公式对（b）的估算：调用 1 次而不是 12 次。
#    本机（b）的训练迭代要多少毫秒？把你的猜测写进 `my_guess_flat`。按同一规则，（b）比（a）快吗？比它的对照呢？

# %%
my_guess_flat = None  # ms: (b)'s step here  #zh: 毫秒：本机（b）的训练迭代执行时间

# %% tags=["nbval-ignore-output"]
display(show.plot_steps(result, ids=['serial', 'flat', 'kept'], guess=my_guess_flat, guess_on='flat'))  # (a), (b), its control; the formula's estimate for (b) hatched  #zh: （a）、（b）和它的对照；斜线条形是代价公式对（b）的估算

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.flat_answer(result, my_guess_flat))  # (b) against its control, then against (a) and the formula  #zh: （b）与它的对照相比，再与（a）和公式的估算相比

# %% [markdown]
# 3. DDP 25 MiB puts all of the MLP's gradients in one bucket: one call after backward. Smaller buckets send during
#    backward, as (c) does. How long is DDP 1 MiB's step here, against DDP 25 MiB's? Write your guess (ms) into
#    `my_guess_ddp`. The figure also draws (d) at 1 MiB and its control, (d) with its buffers made once.

# %% [markdown] lang="zh"
# 3. DDP（25 MiB）把这个多层感知机的全部梯度装进一个桶：反向传播之后只调用一次全归约。
#    小桶像（c）一样在反向传播期间发送。本机 DDP（1 MiB）的训练迭代执行时间是多少，与 DDP（25 MiB）相比呢？
#    把你的猜测（毫秒）写进 `my_guess_ddp`。图中还画了 1 MiB 的（d）及其对照；对照只建一次桶缓冲区。

# %%
my_guess_ddp = None  # ms: DDP 1 MiB's step here  #zh: 毫秒：本机 DDP（1 MiB）的训练迭代执行时间

# %% tags=["nbval-ignore-output"]
display(show.bucket_table(result, there))  # calls per step, then medians here and recorded  #zh: 每次迭代的调用次数，然后是本机和记录结果的中位数
print(show.layer_note(result))  # why a small bucket holds one layer  #zh: 为什么小桶只装一层
display(show.plot_buckets(result, guess=my_guess_ddp))  # (d) and its control below DDP 1 MiB; your guess a diamond there  #zh: （d）和它的对照画在 DDP（1 MiB）下面；菱形是你对 DDP（1 MiB）的猜测

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.buckets_answer(result, there, my_guess_ddp))  # the recording, (d), then DDP 1 MiB against one bucket here  #zh: 记录结果、（d），最后是本机 DDP（1 MiB）与一个桶的比较

# %% [markdown]
# 4. Below, a collapsed (c) forgets to divide by the number of processes. Guess the relative error the check prints
#    in `my_guess_error`, then run the cell after it.

# %% [markdown] lang="zh"
# 4. 下面折叠起来的（c）忘记了除以进程数。把你对检查打印的相对误差的猜测写进 `my_guess_error`，然后运行它后面的单元格。

# %%
my_guess_error = None  # the relative error the check prints  #zh: 检查打印的相对误差

# %% jupyter={"source_hidden": true}
def hooks_without_average(model, X, y, optimizer):
    # (c) with the division by the number of processes left out  #zh: （c），但去掉了除以进程数这一步
    works = []

    def send(p):
        works.append(dist.all_reduce(p.grad, async_op=True))  # the sum, not the average  #zh: 求和，不是平均

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters() if p.requires_grad]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()
    for hook in hooks:
        hook.remove()
    optimizer.step()


def run_without_average():
    # runs it on two processes of a small MLP; prints and returns the check's error  #zh: 在小型多层感知机上用两个进程运行它；打印并返回检查发现的误差
    try:
        run_allreduce(BACKEND, WORLD, bucket_mb=[], repeats=1, steps={'hooks_without_average': hooks_without_average},
                      timeout=60, layers=2, width=256, batch=32)
    except d2l_ext.ResultMismatch as error:
        print(error)
        return error


# %% tags=["nbval-ignore-output"]
wrong = run_without_average()  # kept for the answer below  #zh: 留给下面的参考答案

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.sum_answer(wrong, WORLD, my_guess_error))  # the check's error beside your guess  #zh: 检查打印的误差和你的猜测

# %% [markdown]
# ## Remember
#
# - Data parallelism averages gradients with an all-reduce; the cost formula charges a call
#   $\alpha + 2(n-1)/n \cdot \text{bytes}/\beta$ and counts nothing else.
# - Overlap comes from the dependency graph: the last layer's gradient is final first.
# - Sending during backward pays when the communication it hides outlasts what it adds to backward.
#
# ## Pitfalls
#
# - No `wait()` before `optimizer.step()`: half-summed gradients.
# - No division by the number of processes: n times the gradient.

# %% [markdown] lang="zh"
# ## 小结
#
# - 数据并行用全归约对梯度取平均；代价公式把一次调用记为$\alpha + 2(n-1)/n \cdot \text{字节数}/\beta$，
#   不计其他。
# - 重叠来自依赖图：最后一层的梯度最先算出。
# - 边反向传播边发送是否划算，取决于它隐藏的通信时间是否多于它让反向传播增加的执行时间。
#
# ## 易错点
#
# - `optimizer.step()` 之前没有 `wait()`：梯度只求和了一部分。
# - 没有除以进程数：每个梯度都变成了应有值的 n 倍。
