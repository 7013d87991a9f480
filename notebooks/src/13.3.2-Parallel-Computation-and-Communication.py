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
# # 13.3.2 Parallel Computation and Communication
#
# *Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition).
#
# The book computes 50 products on a GPU, copies them to host memory, and says the system can copy `y[i-1]`
# while it computes `y[i]`. That takes three ingredients, shown below.

# %% [markdown] lang="zh"
# # 12.3.2. 并行计算与通信
#
# 《动手学深度学习》12.3节“自动并行”中的12.3.2节（英文版编号为 13.3.2）。
#
# 书中在 GPU 上做 50 次矩阵乘法，并把结果复制到主机内存。书中指出，系统可以在计算 `y[i]` 的同时复制 `y[i-1]`。
# 这需要下文的三个要素。

# %%
# %matplotlib inline
import torch
from IPython.display import display

import d2l_ext
from d2l_ext import communication as comm
from d2l_ext.communication import copying
from d2l_ext.display import communication as show
from d2l_ext.workloads import resolve_workload

d2l_ext.set_language('en')
lane = d2l_ext.find_lanes('torch')[0]  # the GPU if there is one, else a share of the CPU's cores  #zh: 有 GPU 时是 GPU，否则是 CPU 的一部分核心
GPU = lane.kind == 'gpu'
if not GPU:
    torch.set_num_threads(lane.threads)  # products on the lane's share of the cores  #zh: 乘法只用计算资源分到的核心
print(lane.label)

# %% [markdown]
# ## The book's cells
#
# On a GPU, the book's 4000 × 4000 matrices and 50 products; on a CPU, smaller ones.

# %% [markdown] lang="zh"
# ## 书中的代码
#
# 在 GPU 上，这里用的是书中的 4000×4000 矩阵和 50 次乘法；在 CPU 上则用小一些的矩阵。

# %%
workload = resolve_workload([lane], lesson=True)
N, K = workload.size, workload.iters[0]


def run(x, k=K):
    return [x.mm(x) for _ in range(k)]


def copy_to_cpu(x, non_blocking=False):
    return [y.to('cpu', non_blocking=non_blocking) for y in x]


x_lane = torch.rand(size=(N, N), device=lane.device())
run(x_lane)  # warm-up  #zh: 预热
d2l_ext.wait_for_lanes([lane])
print(f'{N} × {N} matrices, {K} products per call of run')
#zh-str: {'{N} × {N} matrices, {K} products per call of run': '{N}×{N}矩阵，run每次调用做{K}次乘法'}

# %% tags=["nbval-ignore-output"]
if GPU:
    with d2l_ext.Benchmark('Run on GPU1', [lane]):
        y = run(x_lane)
    with d2l_ext.Benchmark('Copy to CPU', [lane]):
        y_cpu = copy_to_cpu(y)
    with d2l_ext.Benchmark('Run on GPU1 and copy to CPU', [lane]):
        y = run(x_lane)
        y_cpu = copy_to_cpu(y, True)
else:  # a CPU tensor's y.to('cpu'): no copy to time  #zh: CPU 张量的 y.to('cpu')：没有复制可以计时
    y = run(x_lane)
    print(show.copied_text(y, copy_to_cpu(y)))
#zh-str: {'Run on GPU1': '在GPU1上运行', 'Copy to CPU': '复制到CPU', 'Run on GPU1 and copy to CPU': '在GPU1上运行并复制到CPU'}

# %% [markdown]
# ## Recorded on an H200
#
# First each part of the book's code alone. **Pinned** (page-locked) host memory is never moved by the system, so the
# GPU's copy engine writes it directly; ordinary host memory is **pageable**.

# %% [markdown] lang="zh"
# ## 在 H200 上记录的结果
#
# 先看书中代码每一部分单独运行的执行时间。操作系统不会把**锁页**（pinned）内存换出，所以 GPU 的复制引擎可以直接写入；
# 普通的主机内存是**可分页**的。

# %% tags=["nbval-ignore-output"]
from d2l_ext.recorded import newest

rec = newest()  # the newest recording made on a GPU  #zh: 最新的 GPU 记录结果
print(show.recorded_alone(rec))  # every copy mode, every repeat: rec.comm[0].details()  #zh: 每种复制方式的每次重复：rec.comm[0].details()

# %% [markdown]
# The book's code runs every product, then `copy_to_cpu(y, True)` on the same stream: *run then copy*. The second
# way, *run_and_copy* (you write it below), queues each copy on a copy stream behind an event recorded after its
# product. From these times alone, how long will each way take? Write both, in ms, into `my_guess`.

# %% [markdown] lang="zh"
# 书中的代码先做完所有乘法，再在同一个流上调用 `copy_to_cpu(y, True)`，即“先计算后复制”。第二种方式“边计算边复制”
# （`run_and_copy`，下面由你来写）在每次乘法之后记录一个事件，对应的复制排在复制流上，等这个事件之后才开始。
# 根据上面打印的单独运行的执行时间，每种方式的总执行时间是多少？把两个执行时间（毫秒）写进 `my_guess`。

# %%
my_guess = (None, None)  # ms, the total of each way: run then copy, run_and_copy  #zh: 毫秒：先计算后复制、边计算边复制的总执行时间

# %% [markdown]
# Hatched: run then copy, $t_\text{run} + t_\text{copy}$; run_and_copy,
# $\max(t_\text{run}, t_\text{copy})$ plus the shorter of one product and one copy (the first product and the last
# copy run alone). Run then copy, the book's way, is the baseline.

# %% [markdown] lang="zh"
# 先计算后复制的预测（斜线条形）是$t_\text{计算} + t_\text{复制}$：一个流按顺序执行。边计算边复制的预测是
# $\max(t_\text{计算}, t_\text{复制})$，再加上一次乘法与一次复制中较短者（第一次乘法和最后一次复制只能单独运行）。
# 基线是书中的方式，即先计算后复制。

# %% tags=["nbval-ignore-output"]
if rec is not None:
    display(show.plot_recorded(rec, my_guess))
print(show.recorded_lines(rec, my_guess))  # your guess's line per way, then run_and_copy vs the baseline  #zh: 每种方式一行你的猜测，然后比较边计算边复制与基线

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.recorded_answer(rec))  # worked answer: run then copy vs the estimate; run_and_copy vs run then copy  #zh: 参考答案：先计算后复制与估算比较；边计算边复制与先计算后复制比较

# %% [markdown]
# **The book's combined cell** is the run-then-copy row. With `non_blocking=True`, PyTorch copies into a new pinned
# tensor, about as fast as into pinned buffers; `copy_to_cpu(y)`, into new pageable tensors, was far slower (printed
# above). So the book's cell beats products alone + `copy_to_cpu(y)` through the faster copy, not through overlap.

# %% [markdown] lang="zh"
# **书中的“在GPU1上运行并复制到CPU”**。它就是“先计算后复制”那一行，用 `copy_to_cpu(y, True)` 复制。
# 设置 `non_blocking=True` 时，PyTorch 把 GPU 张量复制到新建的锁页 CPU 张量中。在上面打印的记录结果中，
# 它的执行时间与复制到锁页缓冲区相当，比 `copy_to_cpu(y)` 复制到新建的可分页张量快得多。书中的这个单元格比
# 只做乘法加上 `copy_to_cpu(y)` 快，是因为复制更快，而不是因为重叠。

# %% [markdown]
# ## The three ingredients
#
# * **Pinned memory.** `pin_memory=True` allocates it.
# * **A copy stream.** One CUDA stream runs in order; on a second stream `s` (`with torch.cuda.stream(s):`), copy `i`
#   runs while product `i+1` computes.
# * **Events.** `done.record()` marks the compute stream after product `i`; `s.wait_event(done)` holds the copy until
#   then. `y.record_stream(s)` tells the allocator that `s` still reads `y`; the host reads after `s.synchronize()`.

# %% [markdown] lang="zh"
# ## 三个要素
#
# * **锁页内存**。用 `pin_memory=True` 分配。
# * **复制流**。一个 CUDA 流上的工作按顺序执行；放在第二个流 `s` 上（`with torch.cuda.stream(s):`），复制 `i`
#   就能在做乘法 `i+1` 的同时进行。
# * **事件**。`done.record()` 在计算流上乘法 `i` 之后做一个标记；`s.wait_event(done)` 让复制等到这个标记。
#   `y.record_stream(s)` 告诉内存分配器，流 `s` 还在读取 `y`；主机在 `s.synchronize()` 之后才读取。

# %% [markdown]
# ## Build it: `run_and_copy`
#
# Write `run_and_copy(x, w, buffers, lane)`: compute `x @ w` once per buffer and copy each product into its buffer
# while the next one computes; return the buffers, safe to read at once. `lane.kind` is `'gpu'` (the caller pinned the
# buffers) or `'cpu'`: write both branches. On a CPU, a copy thread plays the copy stream. Put each product on its
# queue where the GPU branch records an event, and join the thread where it calls `synchronize()`. The check passes a 700 × 4 `x` and a 4 × 700 `w` (a cheap product
# with a large result, so the copies matter) and 20 buffers; it also replays your GPU branch on a simulated GPU.

# %% [markdown] lang="zh"
# ## 动手实现：`run_and_copy`
#
# 编写 `run_and_copy(x, w, buffers, lane)`：对每个缓冲区计算一次 `x @ w`，在做下一次乘法的同时把这个乘积复制到它的
# 缓冲区；返回这些缓冲区，且一返回就可以安全读取。`lane.kind` 是 `'gpu'`（在 GPU 机器上，调用者已为缓冲区分配锁页
# 内存）或 `'cpu'`，两个分支都要写。在 CPU 上用一个复制线程代替复制流。GPU 分支记录事件的地方，把乘积
# 放进这个线程的队列；GPU 分支调用 `synchronize()` 的地方，`join()` 这个线程。
# 检查时传入 700×4 的 `x`、4×700 的 `w`（乘法便宜而乘积很大，所以复制不可忽略）和 20 个缓冲区；检查还会在模拟的 GPU 上按 CUDA 的顺序规则重放你的 GPU 分支。

# %% tags=["nbval-ignore-output"]
import queue  # at hand for the task  #zh: 供任务使用
import threading  # at hand for the task  #zh: 供任务使用


def run_and_copy(x, w, buffers, lane):
    # x @ w per buffer, each copied while the next computes  #zh: 每个缓冲区算一次 x @ w，算下一个时复制这一个
    # TODO: GPU: a copy stream, an event per product, wait for the copy stream before returning  #zh: TODO：GPU：一个复制流，每次乘法一个事件，返回前等待复制流
    #       CPU: a copy thread fed through a queue, joined before returning  #zh:       CPU：由队列供给的复制线程，返回前 join
    raise NotImplementedError


mine = run_and_copy  # the measurements below use yours once this check passes  #zh: 这个检查通过后，下面的测量就用你的函数
checked = d2l_ext.check('13.3.2-copy', run_and_copy)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
#@source d2l_ext.communication.copying.run_and_copy

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
d2l_ext.check('13.3.2-copy', run_and_copy)  # checks the worked solution above  #zh: 检查上面的参考答案

# %% [markdown]
# ## Predict, then measure
#
# Without a GPU there is no copy engine: a copy thread on a core of its own stands in. The baseline here is not the
# H200's run then copy but *in order*: the computing thread copies each product as soon as it is made, as run_and_copy
# does, without the copy thread. run_and_copy beats in order only where the copies it hides outlast what its thread and
# hand-offs add; the control (the thread and hand-offs, no copies) measures those. The H200 figure shows the gain.

# %% [markdown] lang="zh"
# ## 先预测，再测量
#
# 没有 GPU 时没有复制引擎，由独占一个核心的复制线程代替。这里的基线不是 H200 上的“先计算后复制”，而是
# “每次乘完就复制”：计算线程像边计算边复制那样每算完一个乘积就复制，只是不用复制线程。
# 只有当边计算边复制隐藏的复制时间超过复制线程与交接增加的时间时，它才比基线快。
# 对照（只有复制线程与交接，不复制）测量的就是后者。重叠带来的好处见上面 H200 的图。

# %% tags=["nbval-ignore-output"]
run_and_copy = mine if checked.passed else copying.run_and_copy  # yours once its check passed  #zh: 你的函数通过检查后就用你的
ways = copying.ways(lane, run_and_copy)  # set-up: the figure's rows on the task's x, w and buffers  #zh: 准备：在任务的 x、w 和缓冲区上构建下图各行
x, w, buffers, K2 = ways.x, ways.w, ways.buffers, len(ways.buffers)
measured = d2l_ext.compare(ways.variants, lanes=[lane], repeats=25, check=ways.check)  # interleaved; a copy thread on a core of its own  #zh: 交替计时；复制线程独占一个核心
alone = measured.medians()  # by row; the simulation below starts from them  #zh: 各行的中位数；下面的模拟由它们开始
print(show.rates_text(measured))  # the guess's two rows: products alone and in order  #zh: 猜测所依据的两行：只做乘法和每次乘完就复制

# %% [markdown]
# How long will run_and_copy take here? Write your guess (ms) into `my_guess`; the figure shows where it lands.

# %% [markdown] lang="zh"
# 边计算边复制在这里要用多长时间？把你的猜测（毫秒）写进 `my_guess`；下图显示它落在哪里。

# %%
my_guess = None  # ms: your guess for run_and_copy here  #zh: 毫秒：你对本机边计算边复制执行时间的猜测

# %% tags=["nbval-ignore-output"]
title = show.measured_title(x, w, K2, yours=checked.passed)  # and whose run_and_copy ran  #zh: 以及用的是谁的 run_and_copy
display(show.plot_measured(measured, guess=my_guess, title=title, threads=None if GPU else lane.threads))  # threads per row  #zh: 标出每行的线程数
print(show.measured_text(measured))  # run_and_copy vs the baseline, in order  #zh: 比较边计算边复制与基线（每次乘完就复制）

# %% [markdown]
# **What did this machine show?** How much could overlap save here at most, given what in order's copies and the
# control each cost over products alone? Where did run_and_copy land against in order?

# %% [markdown] lang="zh"
# **本机的结果如何？** 每次乘完就复制和对照各比只做乘法多用了多少时间？由此看，重叠在本机上最多能省下多少？
# 边计算边复制与每次乘完就复制相比如何？

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.measured_answer(measured))  # worked answer: what the copies and the control cost, then vs in order  #zh: 参考答案：复制和对照各花了多少时间，再与每次乘完就复制比较

# %% [markdown]
# ## The hazard: reading before the copy has happened
#
# On a GPU a `non_blocking` copy returns before the data arrive; without a GPU, a copy thread not yet joined stands
# in. Read at once, you get what was there before.

# %% [markdown] lang="zh"
# ## 易错点：在复制完成之前就读取
#
# 在 GPU 上，`non_blocking` 复制在数据到达之前就返回了；没有 GPU 时，用一个还没有 `join()` 的复制线程来模拟。
# 立即读取，得到的是其中原有的内容。

# %%
out = torch.zeros(N, N, pin_memory=GPU)
ref_cpu = (x_lane.double() @ x_lane.double()).cpu()
if GPU:
    torch.cuda.synchronize()
    for _ in range(20):                  # queue enough work that the copy cannot have run yet  #zh: 排入足够多的工作，让复制还来不及运行
        y = x_lane.mm(x_lane)
    out.copy_(y, non_blocking=True)
else:  # a CPU: a thread that computes the product, then writes it into out; not yet joined  #zh: CPU：一个线程先算出乘积，再写入 out；还没有 join
    helper = threading.Thread(target=lambda: out.copy_(x_lane.mm(x_lane)))
    helper.start()
seen = out.clone()  # what the host reads now  #zh: 主机此刻读到的内容
torch.cuda.synchronize() if GPU else helper.join()  # a CPU's synchronize: join  #zh: CPU 上的同步：join
print(show.hazard_text(seen, out, ref_cpu, GPU))

# %% [markdown]
# ## Try it yourself
#
# A simulation (not a measurement) of K products and their copies on one stream or two; then a size you measure.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 下面的流水线示意（模拟，不是测量）把 K 次乘法及其复制放在一个流或两个流上；然后实测你选择的矩阵大小。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.panels import CommPanel, PipelinePanel

copy_ms = 1e3 * (alone['in_order'] - alone['run']) / K2  # a copy: what in order adds to products alone, per product  #zh: 一次复制：每次乘完就复制比只做乘法多出的时间，按乘积平均
pipeline = PipelinePanel(compute_ms=max(0.1, 1e3 * alone['run'] / K2), copy_ms=max(0.1, copy_ms)).show()

# %% tags=["nbval-ignore-output"]
panel = CommPanel(size=N, iters=K, gpu=GPU).show()  # the book's cells' setting above  #zh: 上面书中代码的设定

# %% [markdown]
# ## Exercises
#
# The book's exercises 3 and 4 (13.3.1 has 1 and 2, 13.3.3 has 5).
#
# **3. CPU and GPU together, with communication.** Lane 0 computes and copies as `run_and_copy` does; lane 1 only
# computes. The baseline is one device (a CPU: all its cores) doing both jobs in order. Without a GPU the lanes and
# lane 0's copy thread share this CPU's cores: where threads outnumber cores (setup printed below), $\max(t_1, t_2)$ is
# a floor, not a prediction. Predict "together" (ms) against that floor and the baseline, both printed below.

# %% [markdown] lang="zh"
# ## 练习
#
# 这里是书中的练习3和练习4（练习1和练习2见12.3.1节，练习5见扩展一节“依赖图”）。
#
# **3. CPU 和 GPU 一起工作，并且相互通信**。计算资源 0 像 `run_and_copy` 那样计算并复制每个乘积，计算资源 1 只做计算。
# 基线是一个设备（CPU 上用全部核心）依次完成两项任务。没有 GPU 时，两者和计算资源 0 的复制线程共用这个 CPU 的核心。
# 线程多于核心时（设定见下面的输出），$\max(t_1, t_2)$只是下界，不是预测。参照下面打印的下界和基线，
# 预测“同时运行”的执行时间（毫秒），写进 `my_guess`。

# %% tags=["nbval-ignore-output"]
ex3 = comm.exercise_three(repeats=5, lanes=d2l_ext.find_lanes('torch'))  # alone, together and the baseline, interleaved, checked  #zh: 单独运行、同时运行和基线，交替计时，检查结果
print(show.exercise_three_alone_text(ex3))  # the setup as the code made it, each lane alone, the baseline  #zh: 代码实际的设定，每个计算资源单独运行的执行时间和基线

# %%
my_guess = None  # ms: your guess for together  #zh: 毫秒：你对“同时运行”执行时间的猜测

# %% tags=["nbval-ignore-output"]
display(show.plot_exercise_three(ex3, my_guess))  # hatched: the floor max(t1, t2)  #zh: 斜线条形：下界 max(t1, t2)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.exercise_three_text(ex3))  # worked answer: together vs the floor max(t1, t2), then vs the baseline by the rule  #zh: 参考答案：同时运行与下界 max(t1, t2) 比较，再按规则与基线比较

# %% [markdown]
# **4. Use a profiler to check the overlap.** `torch.profiler` plays the book's Nsight, on run_and_copy and on in
# order (20 copies each). How many of run_and_copy's copies will it list here? Write it into `my_guess_copies`. Then:
# what does the H200 timeline above show that this profile cannot?

# %% [markdown] lang="zh"
# **4. 用性能分析器检查重叠**。书中建议使用诸如 NVIDIA 的 Nsight 之类的调试器；这里由 `torch.profiler` 分析边计算边复制
# 和每次乘完就复制，两者都复制 20 次。在这里，分析边计算边复制时，它会列出几次复制？把它写进 `my_guess_copies`。
# 再想一想：上面 H200 的时间线显示了什么，是这里的分析结果显示不了的？

# %%
my_guess_copies = None  # of run_and_copy's 20 copies, how many the profile lists  #zh: 边计算边复制的 20 次复制中，分析器列出几次

# %% tags=["nbval-ignore-output"]
import pathlib
import tempfile

from torch.profiler import ProfilerActivity, profile

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if GPU else [])
profiled = {'overlapped': lambda: run_and_copy(x, w, buffers, lane), 'in_order': lambda: copying.in_order(x, w, buffers)}
profs = {}
for way, work in profiled.items():  # run_and_copy, then in order  #zh: 先是边计算边复制，然后是每次乘完就复制
    with comm.no_profiler_chatter(), profile(activities=activities) as profs[way]:
        work()
        d2l_ext.wait_for_lanes([lane])
trace = pathlib.Path(tempfile.gettempdir()) / 'run_and_copy_trace.json'
profs['overlapped'].export_chrome_trace(str(trace))
print(f'trace saved to {trace}: open it at ui.perfetto.dev')
display(show.profile_frame(profs, GPU))
#zh-str: {'trace saved to {trace}: open it at ui.perfetto.dev': '跟踪文件已保存到{trace}：在ui.perfetto.dev中打开'}

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.profile_answer(profs, GPU, K2, my_guess_copies))  # worked answer: the copies each profile lists  #zh: 参考答案：每个分析结果列出的复制次数

# %% [markdown]
# ## Remember
#
# * The book's gain came from the pinned copy, not from overlap: in the H200 recording, run then copy took as long as
#   products alone + copies alone.
# * Pinned buffers, a copy stream and an event per product let compute and copies overlap: run_and_copy hid almost
#   all of the copy time in the recording.
# * A stand-in has costs of its own: time it without the work it stands in for (the control row: the copy thread and
#   its hand-offs, no copies).
#
# ## Pitfalls
#
# * **Reading before the sync:** a `non_blocking` result (on a CPU, a buffer before `join()`) may hold old contents
#   until its stream is synchronized (the demo above).

# %% [markdown] lang="zh"
# ## 小结
#
# * 书中省下的时间来自锁页内存中更快的复制，而不是重叠。在 H200 的记录中，先计算后复制的执行时间等于只做乘法与只做
#   复制之和。
# * 锁页缓冲区、复制流和每次乘法的一个事件让计算和复制重叠：在记录结果中，边计算边复制隐藏了几乎全部复制时间。
# * 复制线程与交接本身也要花时间：去掉复制再计时一次（对照行：只有复制线程与交接，不复制），就能测出这部分时间。
#
# ## 易错点
#
# * **同步之前读取**：在负责复制的流同步之前（CPU 上：`join()` 之前），`non_blocking` 的结果可能还是原有的内容
#   （见上面的演示）。
