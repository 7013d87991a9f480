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
# The book computes 50 products on a GPU, copies them to host memory, and claims the system can copy `y[i-1]`
# while it computes `y[i]`. That holds only under three
# conditions: the host memory is **pinned** (page-locked), the copies run on a **second stream**, and **events** order
# each copy after its own product. Here you run the book's cells, write the version that meets the conditions,
# predict its time from this machine's numbers, and measure it.

# %% [markdown] lang="zh"
# # 13.3.2 并行计算与通信
#
# 《动手学深度学习》§12.3“自动并行”（英文版为§13.3）。
#
# 书中在GPU上计算50个矩阵乘积，把它们复制到主机内存，并声称系统可以在计算 `y[i]`
# 的同时复制 `y[i-1]`。这只有在三个条件下才成立：主机内存是**锁页内存**，复制在**另一个流**上运行，并且用**事件**
# 让每次复制排在它自己的乘积之后。本节先运行书中的代码，再写出满足这三个条件的版本，根据本机的数字预测它的用时，
# 然后实测。

# %%
# %matplotlib inline
import queue
import threading

import torch
from IPython.display import display

import d2l_ext
from d2l_ext import communication as comm
from d2l_ext.display import communication as show
from d2l_ext.workloads import resolve_workload

d2l_ext.set_language('en')
lane = d2l_ext.find_lanes('torch')[0]  # the GPU if there is one, else a share of the CPU's cores
GPU = lane.kind == 'gpu'
if not GPU:
    torch.set_num_threads(lane.threads)  # products on the lane's cores; the others stay free for copying
print(show.machine_text([lane]))

# %% [markdown]
# ## The book's cells
#
# On a GPU these are the book's 4000 × 4000 matrices and 50 products; on a CPU, smaller ones so the notebook runs
# in about a minute. `d2l_ext.Benchmark` waits for the lane before it stops the clock.

# %% [markdown] lang="zh"
# ## 书中的代码
#
# 在GPU上，这里用的是书中的4000 × 4000矩阵和50个乘积；在CPU上则用小一些的矩阵，让整个notebook在一分钟左右跑完。
# `d2l_ext.Benchmark` 会先等待执行路完成，再停止计时。

# %%
workload = resolve_workload([lane], lesson=True, extra_matrices=3)
N, K = workload.size, workload.iters[0]


def run(x, k=K):
    return [x.mm(x) for _ in range(k)]


def copy_to_cpu(x, non_blocking=False):
    return [y.to('cpu', non_blocking=non_blocking) for y in x]


x_lane = torch.rand(size=(N, N), device=lane.device())
run(x_lane)  # warm-up
d2l_ext.wait_for_lanes([lane])
print(N, K)

# %% tags=["nbval-ignore-output"]
with d2l_ext.Benchmark(d2l_ext.t('communication.book.run'), [lane]):
    y = run(x_lane)

with d2l_ext.Benchmark(d2l_ext.t('communication.book.copy'), [lane]):
    y_cpu = copy_to_cpu(y)

with d2l_ext.Benchmark(d2l_ext.t('communication.book.both'), [lane]):
    y = run(x_lane)
    y_cpu = copy_to_cpu(y, True)

# %%
print(show.copied_text(y, y_cpu))

# %% [markdown]
# Without a GPU, `y.to('cpu')` on a tensor already in host memory returns the same tensor: nothing is copied. The
# evidence for the idea then comes from GPU recordings (pictures below) and from a CPU analogue: a second thread
# copies each product into a preallocated buffer while the first thread computes the next one.

# %% [markdown] lang="zh"
# 没有GPU时，对已经在主机内存中的张量调用 `y.to('cpu')` 返回的是同一个张量：什么也没有复制。这时，支持这个想法的证据
# 来自GPU上的记录（见下面的图），以及一个CPU上的类比：第一个线程计算下一个乘积的同时，第二个线程把每个乘积复制到
# 预先分配的缓冲区中。

# %% [markdown]
# ## The three conditions, as code
#
# * **Pinned memory.** The GPU's copy engine writes only into page-locked memory. A copy into ordinary (*pageable*)
#   memory goes through a staging buffer and makes the host wait. Page-locking is slow, so do it once:
#   preallocate the buffers and reuse them.
# * **A copy stream.** Work on one CUDA stream runs in order: a copy queued behind product `i+1` waits for it. On a
#   second stream, copy `i` can run while product `i+1` computes.
# * **Events.** `done.record()` puts a marker on the compute stream after product `i`; `copy_stream.wait_event(done)`
#   holds the copy stream until that marker is reached: copy `i` waits for product `i` and nothing else.
#   `y.record_stream(copy_stream)` tells PyTorch's allocator that the copy stream still reads `y`, so its memory is
#   not reused too early.
#
# Read `run_and_copy` line by line; `run_then_copy` is the baseline: every product, then every copy.

# %% [markdown] lang="zh"
# ## 写成代码的三个条件
#
# * **锁页内存。** GPU的复制引擎只能直接写入锁页内存。复制到普通的（*可分页*）内存时，要经过一个中转缓冲区，而且
#   主机必须等待。锁页操作很慢，所以只做一次：预先分配缓冲区，然后重复使用。
# * **复制流。** 同一个CUDA流上的工作按顺序执行：排在乘积 `i+1` 之后的复制要等它完成。放在第二个流上，复制 `i`
#   就能在计算乘积 `i+1` 的同时进行。
# * **事件。** `done.record()` 在计算流上乘积 `i` 之后放一个标记；`copy_stream.wait_event(done)` 让复制流等到这个
#   标记为止：复制 `i` 只等待乘积 `i`，不等待别的。`y.record_stream(copy_stream)` 告诉PyTorch的内存分配器，复制流
#   还在读取 `y`，因此它的内存不会被过早地重新使用。
#
# 请逐行阅读 `run_and_copy`；`run_then_copy` 是基线：先算完所有乘积，再做所有复制。

# %%
def run_then_copy(x, buffers):
    """Baseline: every product, then every copy into the buffers."""
    for buf, y in zip(buffers, run(x, len(buffers))):
        buf.copy_(y)
    return buffers


def run_and_copy(x, buffers, copy_stream):
    """Product i on the compute stream; its copy on copy_stream as soon as product i is done."""
    compute = torch.cuda.current_stream()
    for buf in buffers:
        y = x.mm(x)
        done = torch.cuda.Event()
        done.record(compute)                  # a marker after this product
        with torch.cuda.stream(copy_stream):
            copy_stream.wait_event(done)      # the copy waits for this product only
            buf.copy_(y, non_blocking=True)   # pinned memory: the copy engine writes it directly
            y.record_stream(copy_stream)      # y's memory is not reused before this copy ran
    compute.wait_stream(copy_stream)          # later work waits for every copy
    return buffers                            # read them after torch.cuda.synchronize()


def run_and_copy_cpu(x, buffers):
    """CPU analogue: this thread computes product i+1 while a second thread copies product i."""
    todo = queue.Queue()

    def copier():
        while (item := todo.get()) is not None:
            buf, y = item
            buf.copy_(y)

    helper = threading.Thread(target=copier)
    helper.start()
    for buf in buffers:
        todo.put((buf, x.mm(x)))
    todo.put(None)
    helper.join()                             # the analogue of synchronize: read the buffers after this
    return buffers


# Host buffers, allocated (and on a GPU page-locked) once; the baseline gets its own set.
buffers = [torch.empty(N, N, pin_memory=GPU) for _ in range(K)]
buffers_base = [torch.empty(N, N, pin_memory=GPU) for _ in range(K)]
if GPU:
    copy_stream = torch.cuda.Stream()
    overlapped = lambda: run_and_copy(x_lane, buffers, copy_stream)  # noqa: E731
else:
    overlapped = lambda: run_and_copy_cpu(x_lane, buffers)  # noqa: E731

# %% [markdown]
# ## Predict
#
# Products take FLOPs / FLOP/s; copies take bytes / GB/s. One after the other, the times add up. Overlapped,
# expect **max(run, copy)**, but only if the copy has hardware of its own: a GPU's copy engine, with pinned memory
# and a second stream (on one stream: run + copy; on a CPU, a free core). The cell measures one product and one
# copy here and predicts each variant.

# %% [markdown] lang="zh"
# ## 预测
#
# 乘积用时 = 浮点运算量 / FLOP/s；复制用时 = 字节数 / GB/s。先后运行时，两者相加。重叠时，应当预期
# **max(计算, 复制)**，但前提是复制有自己的硬件：GPU的复制引擎，加上锁页内存和第二个流（在一个流上：计算 + 复制；
# 在CPU上：一个空闲的核）。下面的单元格在这里测量一个乘积和一次复制，并预测每种做法的用时。

# %% tags=["nbval-ignore-output"]
rates = comm.measure_rates(lane, N)   # one product's FLOP/s and one copy's GB/s, measured here
s = rates.seconds(K)                  # run = K·2N³ / FLOP/s, copy = K·4N² bytes / GB/s
predicted = {'run': s['run'],
             'run_then_copy': s['run'] + s['copy'],
             'overlapped': max(s['run'], s['copy'])}
if GPU:
    predicted['book'] = s['run'] + s['copy']  # pinned (after the first call), but one stream
print(show.prediction_text(rates, K, predicted))

# %% [markdown]
# <details><summary>Worked answer: the book's setting on an H200</summary>
#
# 50 products of 4000 × 4000 are 50 · 2 · 4000³ = 6.4 TFLOP; at the H200's measured ~48 TFLOP/s (fp32) that is about
# 0.13 s. Their results are 50 · 4000² · 4 B = 3.2 GB; over the link into pinned memory at ~55 GB/s, about 0.06 s.
# Into fresh pageable tensors, as `copy_to_cpu(y)` does, the recorded rate is one to two GB/s: about 2 s.
# So: one stream ≈ 0.13 + 0.06 = 0.19 s; copy stream + events ≈ max(0.13, 0.06) = 0.13 s. The hidden cell prints
# the same from the newest GPU recording.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案：H200上书中的设定</summary>
#
# 50个4000 × 4000矩阵的乘积是 50 · 2 · 4000³ = 6.4 TFLOP；按H200实测约48 TFLOP/s（fp32）计算，约0.13秒。结果共有
# 50 · 4000² · 4 B = 3.2 GB；经链路复制到锁页内存，约55 GB/s，约0.06秒。像 `copy_to_cpu(y)` 那样复制到新建的
# 可分页张量时，记录的速率只有一两GB/s：约2秒。因此：一个流 ≈ 0.13 + 0.06 = 0.19秒；复制流 + 事件 ≈
# max(0.13, 0.06) = 0.13秒。隐藏的单元格根据最新的GPU记录打印同样的计算。
# </details>

# %% jupyter={"source_hidden": true}
from d2l_ext.recorded import load_recordings

rec = show.newest(load_recordings())  # the newest recording made on a GPU
print(show.recorded_prediction_text(rec))

# %% [markdown]
# ## Measure
#
# The variants run interleaved (one, two, three, one, two, three, ...), so a slow moment hits all of them alike.
# Every result is checked against `x @ x` in float64. Each dot is one repeat; the hatched bar is the prediction.

# %% [markdown] lang="zh"
# ## 实测
#
# 各种做法交替运行（一、二、三、一、二、三……），这样某一时刻的变慢会同样影响所有做法。每个结果都与以float64计算的
# `x @ x` 进行校验。每个点是一次重复；斜线条是预测。

# %% tags=["nbval-ignore-output"]
ref = x_lane.double() @ x_lane.double()  # the answer every result must match
variants = {'run': lambda: run(x_lane)}
if GPU:
    variants['book'] = lambda: copy_to_cpu(run(x_lane), True)
variants['run_then_copy'] = lambda: run_then_copy(x_lane, buffers_base)
variants['overlapped'] = overlapped
measured = d2l_ext.compare(variants, lanes=[lane], repeats=5,
                           check=lambda name, ys: d2l_ext.check_close(ys, ref, name))
print(show.overlap_text(measured, predicted))
show.plot_measured(measured, predicted)

# %% [markdown]
# On a GPU, look for "overlapped" near `max(run, copy)`. On a CPU the "link" is main memory: a copy moves N²
# numbers while a product does N³ multiply-adds, so there is little to hide, and on a busy machine the difference
# may be noise; the printed sentence says which happened.
#
# ## When each product and each copy ran
#
# A stopwatch on each stream (CUDA events) or each thread shows where the copies sit; the dashed line is the
# prediction.

# %% [markdown] lang="zh"
# 在GPU上，留意“计算与复制重叠”是否接近 `max(计算, 复制)`。在CPU上，“链路”就是主内存：一次复制搬运N²个数，
# 而一个乘积要做N³次乘加，因此可供隐藏的时间很少，在繁忙的机器上差别可能只是噪声；打印出的句子会说明实际情况。
#
# ## 每个乘积和每次复制在何时运行
#
# 在每个流上（用CUDA事件）或每个线程上计时，就能看出复制落在哪里；虚线是预测。

# %% tags=["nbval-ignore-output"]
timelines = comm.comm_timelines(N, K, plans=comm.TIMELINE_PLANS[-1:])
show.plot_comm_timelines(timelines, predicted=predicted['overlapped'])

# %% [markdown]
# ## GPU evidence, recorded
#
# The newest GPU recording, labelled with its GPU, versions and date. Each panel is one way to copy; the hatched
# bar is what to expect from the hardware. Only the copy stream with events gets near `max(run, copy)`; the book's
# `non_blocking=True` copy keeps everything on one stream.

# %% [markdown] lang="zh"
# ## GPU 上录制的证据
#
# 下面是最新的GPU记录，标明了GPU、软件版本和日期。每个面板是一种复制方式；斜线条是根据硬件应当预期的用时。只有使用
# 事件的复制流能接近 `max(计算, 复制)`；书中 `non_blocking=True` 的复制仍把一切放在同一个流上。

# %% tags=["nbval-ignore-output"]
print(show.recorded_text(rec))
if rec is not None:
    display(show.plot_comm(rec.comm[0]))

# %% tags=["nbval-ignore-output"]
missing = show.timelines_missing_text(rec)
if missing:
    print(missing)
else:
    display(show.plot_comm_timelines(rec.comm_timelines))

# %% [markdown]
# ## The book's first `non_blocking=True` call
#
# `copy_to_cpu(y, True)` allocates a new pinned tensor per result. The first time, the driver must page-lock fresh
# host memory, which costs far more than the copy; later calls reuse the blocks PyTorch cached. The profiler splits
# the first call: `aten::to` holds the CPU for the page-locking; the GPU copies for a small part of that.

# %% [markdown] lang="zh"
# ## 书中第一次 `non_blocking=True` 调用
#
# `copy_to_cpu(y, True)` 为每个结果新分配一个锁页张量。第一次调用时，驱动程序必须为新的主机内存锁页，这比复制本身
# 贵得多；之后的调用会重复使用PyTorch缓存的内存块。性能分析器把第一次调用拆开：`aten::to` 在锁页期间一直占着CPU，
# 而GPU复制只占其中的一小部分。

# %% tags=["nbval-ignore-output"]
first = comm.first_copy(repeats=3) if GPU else rec.first_copy if rec is not None else None
print(show.first_copy_text(first, None if GPU else rec))
if first is not None and first.warm is not None:
    display(show.plot_first_copy(first))
    display(show.plot_profile(first))

# %% [markdown]
# ## The hazard: reading before the copy has happened
#
# A `non_blocking` copy returns before the data arrive. Read the destination at once and you get what was there
# before; synchronize first and you get the answer.

# %% [markdown] lang="zh"
# ## 隐患：在复制完成之前就读取
#
# `non_blocking` 复制在数据到达之前就返回了。立即读取目标张量，得到的是其中原有的内容；先同步再读取，才能得到正确答案。

# %%
if GPU:
    out = torch.zeros(N, N, pin_memory=True)
    ref_cpu = ref.cpu()
    torch.cuda.synchronize()
    for _ in range(20):                  # queue enough work that the copy cannot have run yet
        y = x_lane.mm(x_lane)
    out.copy_(y, non_blocking=True)
    early = d2l_ext.relative_error(out.clone(), ref_cpu)  # what the host sees now
    torch.cuda.synchronize()
    print(show.hazard_text(early, d2l_ext.relative_error(out, ref_cpu)))
else:
    print(d2l_ext.t('communication.hazard.cpu'))

# %% [markdown]
# ## Try it yourself
#
# The model puts K products and their copies on one stream or two (sliders start from this machine's rates); the
# panel after it measures a size you choose.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 下面的模型把K个乘积及其复制放在一个流或两个流上（滑块的初值取自本机的速率）；其后的面板实测你选择的矩阵大小。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.panels import CommPanel, PipelinePanel

model = PipelinePanel(compute_ms=max(0.1, 1e3 * s['run'] / K), copy_ms=max(0.1, 1e3 * s['copy'] / K)).show()

# %% tags=["nbval-ignore-output"]
panel = CommPanel(size=N if GPU else 400, iters=10, gpu=GPU).show()

# %% [markdown]
# ## Exercises
#
# **3. CPU and GPU together, with communication.** Lane 1 computes and copies each result to host memory (as
# `run_and_copy`) while lane 2 computes on its own: a GPU and the CPU, or two CPU lanes. Three resources are busy:
# lane 1's compute, the copy, lane 2's compute. Run the cell, read the times alone, and predict "together": which
# of the three are separate hardware here? Then open the worked answer.

# %% [markdown] lang="zh"
# ## 练习
#
# **3. CPU和GPU一起工作，并且相互通信。** 执行路1计算，并把每个结果复制到主机内存（像 `run_and_copy` 那样），同时
# 执行路2独立地计算：一个GPU和CPU，或者两条CPU执行路。三种资源同时在忙：执行路1的计算、复制、执行路2的计算。运行
# 下面的单元格，读出单独运行的用时，预测“同时运行”的用时：在这里，三者中哪些是相互独立的硬件？然后打开参考答案。

# %% tags=["nbval-ignore-output"]
ex3 = comm.exercise_three(repeats=3)  # each lane alone and both together, interleaved, every result checked
print(show.exercise_three_alone_text(ex3))

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
print(show.exercise_three_text(ex3))
show.plot_exercise_three(ex3)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# A GPU lane and the CPU are separate hardware, and the GPU's copy engine is a third: expect the max of the two
# lanes' times alone. Two CPU lanes of one core each are separate cores too, and the copying thread is busy only
# for the copies, a small share: expect the max if nothing else runs. They share memory and, on a busy machine,
# the cores with other programs, so the measurement may land between the max and one after the other.
# </details>
#
# **4. Use a profiler.** The book points to NVIDIA Nsight; `torch.profiler` works in a notebook, on a CPU too.
# Predict which operator takes most of the time, then profile your own function. Set `work` to the other
# function and compare (on a CPU the cell profiles the baseline: see its comment). Open the trace file at ui.perfetto.dev: on a GPU, look for
# the device-to-host copies on their own stream, under the products.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# GPU执行路和CPU是相互独立的硬件，而GPU的复制引擎是第三种：应当预期两条执行路单独运行用时的最大值。两个各用一个核
# 的CPU执行路也分别在不同的核上，而复制线程只在复制时忙碌，只占一小部分：如果没有别的程序在运行，应当预期最大值。
# 但它们共用内存，在繁忙的机器上还要与其他程序共用核，因此实测值可能落在最大值与先后运行的用时之间。
# </details>
#
# **4. 使用性能分析器。** 书中提到了NVIDIA Nsight；`torch.profiler` 可以在notebook中使用，在CPU上也可以。先预测哪个
# 算子占用的时间最多，再对你自己的函数做性能分析。把 `work` 换成另一个函数并
# 比较（在CPU上，这个单元格分析的是基线，原因见其中的注释）。在 ui.perfetto.dev 中打开跟踪文件：在GPU上，找出位于自己的流上、在乘积下方的设备到主机复制。

# %% tags=["nbval-ignore-output"]
import pathlib
import tempfile

from torch.profiler import ProfilerActivity, profile

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if GPU else [])
# On a CPU the profiler records only the thread that starts it, not run_and_copy_cpu's copying thread,
# so there we profile the baseline, whose copies run on this thread.
work = overlapped if GPU else lambda: run_then_copy(x_lane, buffers_base)
with comm.no_profiler_chatter(), profile(activities=activities) as prof:
    work()                                # your function
    d2l_ext.wait_for_lanes([lane])
print(prof.key_averages().table(sort_by='self_cuda_time_total' if GPU else 'self_cpu_time_total', row_limit=8))
trace = pathlib.Path(tempfile.gettempdir()) / 'run_and_copy_trace.json'
prof.export_chrome_trace(str(trace))
print(d2l_ext.t('communication.profile.trace', path=trace))

# %% jupyter={"source_hidden": true} tags=["nbval-ignore-output"]
print(show.profile_text(prof, GPU))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# The products dominate: `aten::mm` holds most of the time, the copies (`aten::copy_`, on a GPU `Memcpy DtoH`) a
# smaller share. On a GPU the trace shows the copies on a second stream, each starting when its product ends; with
# `run_then_copy` they follow all the products on one stream. On a CPU the baseline's copies follow the products on this thread, a small share.
# </details>
#
# ## Remember
#
# * Compute and copies use different hardware, so they can overlap, but only with pinned memory, a second stream
#   and an event per product.
# * Predict first: run = FLOPs / FLOP/s, copy = bytes / GB/s; overlapped ≥ max(run, copy); on one stream, run + copy.
# * Page-lock once: preallocate pinned buffers and reuse them.
#
# ## Pitfalls
#
# * **No wait:** timing queued GPU work without synchronizing measures only the queueing.
# * **Reading before the sync:** a `non_blocking` result is not there until you synchronize.
# * **Pageable copies** are slow and make the host wait.
# * **The cost of pinning:** page-locking fresh memory on every call costs more than the copy.
# * **One stream for compute and copies** runs them in turn: no overlap.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# 乘积占主导：`aten::mm` 占用了大部分时间，复制（`aten::copy_`，在GPU上是 `Memcpy DtoH`）只占较小的一部分。在GPU上，
# 跟踪显示复制位于第二个流上，每次复制在其乘积结束时开始；换成 `run_then_copy` 后，它们在同一个流上跟在所有乘积之后。
# 在CPU上，基线的复制在同一个线程上跟在乘积之后，只占一小部分。
# </details>
#
# ## 要记住的
#
# * 计算和复制使用不同的硬件，因此可以重叠，但前提是有锁页内存、第二个流，并为每个乘积记录一个事件。
# * 先预测：计算 = 浮点运算量 / FLOP/s，复制 = 字节数 / GB/s；重叠后 ≥ max(计算, 复制)；在一个流上则是计算 + 复制。
# * 只锁页一次：预先分配锁页缓冲区，并重复使用。
#
# ## 常见陷阱
#
# * **不等待：** 不同步就为排队的GPU工作计时，测到的只是排队的时间。
# * **同步之前读取：** `non_blocking` 的结果在同步之前并不存在。
# * **可分页内存的复制** 很慢，而且会让主机等待。
# * **锁页的代价：** 每次调用都为新内存锁页，花的时间比复制本身还多。
# * **计算和复制共用一个流** 会让它们依次执行：没有重叠。
