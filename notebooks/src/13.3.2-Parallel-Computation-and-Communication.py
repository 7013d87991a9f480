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
# while it computes `y[i]`. The GPU recording below shows them overlapping with **pinned** (page-locked) host buffers,
# copies on a **second stream**, and **events** keeping each copy after its product; with the copies on the products'
# stream, it took run + copy. Here you run the book's cells, write the overlapping version, predict its time and
# measure it.

# %% [markdown] lang="zh"
# # 12.3.2 并行计算与通信
#
# 《动手学深度学习》§12.3“自动并行”中的12.3.2节（英文版为§13.3.2）。
#
# 书中在GPU上计算50个矩阵乘积，把它们复制到主机内存，并声称系统可以在计算 `y[i]` 的同时复制 `y[i-1]`。
# 下面的GPU录制结果展示了一种二者确实重叠的设定：主机缓冲区是**锁页内存**，复制在**另一个流**上运行，并且用
# **事件**让每次复制排在它自己的乘积之后。复制与乘积在同一个流上时，用时是计算 + 复制。本节先运行书中的代码，
# 再自己写出重叠的版本，预测它的用时，然后实测。

# %%
# %matplotlib inline
import queue
import threading

import torch
from IPython.display import display

import d2l_ext
from d2l_ext import communication as comm
from d2l_ext.communication import task as copy_task
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
# On a GPU, the book's 4000 × 4000 matrices and 50 products; on a CPU, smaller ones. `d2l_ext.Benchmark` waits for
# the lane before it stops the clock.

# %% [markdown] lang="zh"
# ## 书中的代码
#
# 在GPU上，这里用的是书中的4000 × 4000矩阵和50个乘积；在CPU上则用小一些的矩阵。`d2l_ext.Benchmark` 会先等待
# 执行路完成，再停止计时。

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
print(d2l_ext.t('communication.book.setting', n=N, k=K))

# %% tags=["nbval-ignore-output"]
with d2l_ext.Benchmark(d2l_ext.t('communication.book.run'), [lane]) as run_alone:
    y = run(x_lane)

with d2l_ext.Benchmark(d2l_ext.t('communication.book.copy' if GPU else 'communication.book.copy_cpu'), [lane]):
    y_cpu = copy_to_cpu(y)

# on a GPU the first non_blocking call copies into new host memory; on a CPU lane nothing is copied
with d2l_ext.Benchmark(d2l_ext.t('communication.book.both' if GPU else 'communication.book.both_cpu'),
                       [lane]) as first_call:
    y = run(x_lane)
    y_cpu = copy_to_cpu(y, True)

y_cpu = None  # let go of the first call's results: their pinned blocks return to PyTorch's cache for reuse
with d2l_ext.Benchmark(d2l_ext.t('communication.book.both_again' if GPU else 'communication.book.both_again_cpu'),
                       [lane]) as second_call:
    y = run(x_lane)
    y_cpu = copy_to_cpu(y, True)
print(show.book_times_text(run_alone.elapsed, first_call.elapsed, second_call.elapsed, GPU))

# %%
print(show.copied_text(y, y_cpu))

# %% [markdown]
# On a GPU, the first `non_blocking=True` call copies into new pinned host memory (timed again below); once
# `y_cpu` lets go of its results, the second call reuses those blocks. Without a GPU, `y.to('cpu')` returns the
# same tensor: nothing is copied, so a CPU analogue stands in, and GPU recordings show the real thing.
#
# ## The three ingredients
#
# * **Pinned memory.** `pin_memory=True` allocates page-locked host memory, which the GPU's copy engine writes
#   directly; on a GPU, Predict below measures copy rates (GB/s) into pinned and ordinary (*pageable*) memory.
# * **A copy stream.** Work on one CUDA stream runs in order: a copy queued behind product `i+1` waits for it. On a
#   second stream `s` (`with torch.cuda.stream(s):`), copy `i` can run while product `i+1` computes.
# * **Events.** `done.record()` puts a marker on the compute stream after product `i`; `s.wait_event(done)` holds
#   the copy stream until that marker is reached, so the copy reads a finished product. `y.record_stream(s)` tells
#   PyTorch's allocator that `s` still reads `y`. The host reads the buffers only after `s.synchronize()`.
#
# On a CPU the copy engine is a second thread fed through a `queue.Queue`; `join()` plays `synchronize()`. Each
# thread sets its own `torch.set_num_threads`.

# %% [markdown] lang="zh"
# 在GPU上，第一次 `non_blocking=True` 调用复制到新的锁页主机内存（下文再计时一次）；`y_cpu` 释放了
# 这些结果之后，第二次调用便重复使用这些内存块。
# 没有GPU时，`y.to('cpu')` 返回的是同一个张量：什么也没有复制，因此下面用一个CPU上的类比代替，GPU上的录制结果
# 则展示真正的情形。
#
# ## 三个要素
#
# * **锁页内存**。`pin_memory=True` 分配锁页主机内存，GPU的复制引擎可以直接写入它；在GPU上，下面的“预测”
#   测量复制到锁页内存和普通（*可分页*）内存的速率（GB/s）。
# * **复制流**。同一个CUDA流上的工作按顺序执行：排在乘积 `i+1` 之后的复制要等它完成。放在第二个流 `s` 上
#   （`with torch.cuda.stream(s):`），复制 `i` 就能在计算乘积 `i+1` 的同时进行。
# * **事件**。`done.record()` 在计算流上乘积 `i` 之后放一个标记；`s.wait_event(done)` 让复制流等到这个标记为止，
#   这样复制读到的是已经算完的乘积。
#   `y.record_stream(s)` 告诉PyTorch的内存分配器，流 `s` 还在读取 `y`。主机要在 `s.synchronize()` 之后才读取缓冲区。
#
# 在CPU上，复制引擎换成由 `queue.Queue` 供给的第二个线程；`join()` 起 `synchronize()` 的作用。每个线程各自调用
# `torch.set_num_threads`。

# %% [markdown]
# ## Build it: `run_and_copy`
#
# Write `run_and_copy(x, w, buffers, lane)`: compute `x @ w` once per buffer and copy each product into its buffer
# while the next one computes; return the buffers, safe to read the moment it returns. `lane.kind` is `'gpu'` or
# `'cpu'`, `lane.threads` a CPU lane's share of the cores. The check runs it in a separate process: it runs, every
# buffer holds `x @ w` (against float64) and is complete at return, and the copies overlap the products (from
# your run's own timeline).
#
# On a GPU, `x` and `w` are the book's 4000 × 4000 matrix. On a CPU, 20 products of `x` 700 × 4 by `w` 4 × 700: a
# square product does N multiply-adds per number it writes, so its copy would be a sliver of the run; these do 4,
# so the copies are a large share of run-then-copy (measured below). Freed memory stays in the process for the next
# product, as PyTorch's GPU allocator keeps its blocks.

# %% [markdown] lang="zh"
# ## 动手实现：`run_and_copy`
#
# 编写 `run_and_copy(x, w, buffers, lane)`：对每个缓冲区计算一次 `x @ w`，在计算下一个乘积的同时把这个乘积复制到它的
# 缓冲区；返回这些缓冲区，且一返回就可以安全读取。`lane.kind` 是 `'gpu'` 或 `'cpu'`，`lane.threads` 是CPU执行路
# 分到的核心数。检查会在单独的进程中运行它：能否运行，每个缓冲区是否装着 `x @ w`（以float64为参考）且在返回时已经
# 完整，以及复制是否与乘积重叠（由你这次运行自己的时间线测得）。
#
# 在GPU上，`x` 和 `w` 是书中的4000 × 4000矩阵。在CPU上，是20个 `x`（700 × 4）与 `w`（4 × 700）的乘积：方阵乘积
# 每写出一个数要做N次乘加，复制只占运行时间的很小一部分；这种“瘦”乘积每个数只做4次乘加，复制在“先计算，后复制”
# 中占了很大的比例（实测见下文）。释放的内存留在进程中供下一个乘积使用，就像PyTorch的GPU内存分配器保留
# 它的内存块那样。

# %% tags=["nbval-ignore-output"]
def run_and_copy(x, w, buffers, lane):
    """Compute x @ w once per buffer on `lane` and copy each product into its buffer while the next one computes."""
    # TODO: GPU: a copy stream, an event per product, wait for the copy stream before returning;
    #       CPU: a copy thread fed through a queue, joined before returning
    raise NotImplementedError


d2l_ext.check('13.3.2-copy', run_and_copy)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
# Worked solution (the grader's own reference: it passes, and typical mistakes fail).
def run_and_copy(x, w, buffers, lane):
    """Compute x @ w once per buffer on `lane` and copy each product into its buffer while the next one computes.

    Return the buffers, safe to read the moment this returns.
    """
    if lane.kind == 'gpu':
        compute = torch.cuda.current_stream(x.device)
        copy_stream = torch.cuda.Stream(x.device)
        for buf in buffers:                       # pinned by the caller: the copy engine writes them directly
            y = x.mm(w)
            done = torch.cuda.Event()
            done.record(compute)                  # a marker after this product
            with torch.cuda.stream(copy_stream):
                copy_stream.wait_event(done)      # the copy waits for this product only
                buf.copy_(y, non_blocking=True)
                y.record_stream(copy_stream)      # y's memory is not reused before its copy ran
        copy_stream.synchronize()                 # the host waits for the last copy: safe to read now
        return buffers
    todo = queue.Queue()

    def copier():
        torch.set_num_threads(1)                  # the copy thread's own share: one core
        while (item := todo.get()) is not None:
            buf, y = item
            buf.copy_(y)

    helper = threading.Thread(target=copier)
    helper.start()
    torch.set_num_threads(lane.threads)           # the computing thread's share of the cores
    for buf in buffers:
        todo.put((buf, x.mm(w)))                  # hand product i over, compute product i + 1
    todo.put(None)
    helper.join()                                 # the CPU's synchronize: every copy has landed
    return buffers


d2l_ext.check('13.3.2-copy', run_and_copy)

# %% [markdown]
# ## Predict
#
# Products take FLOPs / FLOP/s; copies take bytes / GB/s. One after the other, they add up. Overlapped, expect
# **max(run, copy)** plus the first product or the last copy (the shorter), but only if the copy has hardware of its
# own: a GPU's copy engine, or on a CPU a free core. The cell below measures each alone.

# %% [markdown] lang="zh"
# ## 预测
#
# 乘积用时 = 浮点运算量 / FLOP/s；复制用时 = 字节数 / GB/s。先后运行时，两者相加。重叠时，应当预期
# **max(计算, 复制)**，再加上第一个乘积或最后一次复制（取较短者），但前提是复制有自己的硬件：GPU的复制引擎，
# 或者CPU上一个空闲的核心。下面的单元格分别单独测量乘积和复制。

# %% tags=["nbval-ignore-output"]
x, w = copy_task.operands(lane)           # the task's setting on this lane
K2 = copy_task.setting(lane).iters
buffers, buffers_base = copy_task.host_buffers(lane), copy_task.host_buffers(lane)  # allocated (pinned on a GPU) once
ref = copy_task.reference(x, w)           # x @ w in float64: every result must match it


def run_then_copy(x, w, buffers):
    """Baseline: every product, then every copy."""
    for buf, y in zip(buffers, [x.mm(w) for _ in buffers]):
        buf.copy_(y)
    return buffers


rates = comm.measure_rates(lane, x.shape[0], inner=x.shape[1], iters=K2)  # products' FLOP/s, copies' GB/s, here
s = rates.seconds(K2)                     # run = K·2N²·inner / FLOP/s, copy = K·4N² bytes / GB/s
rule = 'separate' if GPU else comm.copy_thread_rule(lane.threads)  # CPU: is a core left for the copy thread?
predicted = {'run': s['run'], 'run_then_copy': s['run'] + s['copy'],
             'overlapped': comm.expected_overlap(s['run'], s['copy'], rule, lane.threads, iters=K2)}
print(show.prediction_text(rates, K2, {}, rule=rule))

# %% [markdown]
# Put your guess for `run_and_copy`'s time in `my_guess` and run the cell: it times the products alone, run then copy
# and the worked `run_and_copy` (interleaved, results checked) beside your guess and the closed form. Each dot is
# one repeat; the hatched bar is the closed form.

# %% [markdown] lang="zh"
# 把你对 `run_and_copy` 用时的猜测写进 `my_guess`，然后运行这个单元格：它交替地为只算乘积、先计算后复制和参考答案
# `run_and_copy` 计时，检查每个结果，并把你的猜测、按公式的预测和实测值并排打印出来。每个点是一次重复；斜线条是按公式的预测。

# %% tags=["nbval-ignore-output"]
my_guess = None  # seconds: your guess for run_and_copy here

variants = {'run': lambda: [x.mm(w) for _ in buffers],
            'run_then_copy': lambda: run_then_copy(x, w, buffers_base),
            'overlapped': lambda: copy_task.run_and_copy(x, w, buffers, lane)}
measured = d2l_ext.compare(variants, lanes=[lane], repeats=7,
                           check=lambda name, ys: d2l_ext.check_close(ys, ref, name))
print(show.guess_text(my_guess, predicted['overlapped'], measured.medians()['overlapped'],
                     repeats=measured.measurements['overlapped'].times))
show.plot_measured(measured, predicted, rule=rule)  # copy stream + events, or a copy thread

# %% [markdown]
# <details><summary>Worked answer: the book's setting on an H200</summary>
#
# 50 products of 4000 × 4000 are 50 · 2 · 4000³ = 6.4 TFLOP; their results are 50 · 4000² · 4 B = 3.2 GB. Divide by
# the recorded FLOP/s and pinned GB/s: one stream takes run + copy, copy stream + events about max(run, copy). The hidden
# cell prints these from the recording.
# </details>

# %% [markdown] lang="zh"
# <details><summary>参考答案：H200上书中的设定</summary>
#
# 50个4000 × 4000矩阵的乘积是 50 · 2 · 4000³ = 6.4 TFLOP；结果共有 50 · 4000² · 4 B = 3.2 GB。分别除以录制的
# FLOP/s和锁页内存的GB/s：一个流的用时是计算 + 复制，复制流 + 事件的用时约为 max(计算, 复制)。隐藏的单元格根据
# 录制结果打印这些数字。
# </details>

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
from d2l_ext.recorded import load_recordings

rec = show.newest(load_recordings())  # the newest recording made on a GPU
print(show.recorded_prediction_text(rec))

# %% [markdown]
# ## When each product and each copy ran
#
# The worked solution once more, with a stopwatch on each stream (torch.profiler) or thread: the interval overlap
# beside its closed form, then the wall clock.

# %% [markdown] lang="zh"
# ## 每个乘积和每次复制在何时运行
#
# 再运行一次参考答案，并在每个流（torch.profiler）或每个线程上计时：先是由区间算出的重叠比例及其按公式的预测，
# 然后是挂钟时间。

# %% tags=["nbval-ignore-output"]
traced = copy_task.traced_run(copy_task.run_and_copy, lane)  # the worked solution, with the stopwatch on
overlap = dict(comm.copy_overlap(traced['events']), cores=traced['cores'], wall=traced['wall'],  # cores: CPU / wall
               predicted=comm.predicted_overlap(s['run'] / K2, s['copy'] / K2, K2))  # closed form from the rates
print(show.overlap_text(measured, predicted, overlap))
show.plot_comm_timelines([copy_task.as_timeline(traced, lane)], predicted=predicted['overlapped'])

# %% [markdown]
# ## Recorded on a GPU
#
# Each panel is one way to copy; the hatched bar is the prediction.

# %% [markdown] lang="zh"
# ## 在GPU上录制的结果
#
# 每个面板是一种复制方式；斜线条是预测的用时。

# %% tags=["nbval-ignore-output"]
print(show.recorded_text(rec))
if rec is not None:
    display(show.plot_comm(rec.comm[0], title=show.recorded_title(rec)))

# %% tags=["nbval-ignore-output"]
missing = show.timelines_missing_text(rec)
if missing:
    print(missing)
else:
    display(show.plot_comm_timelines(rec.comm_timelines, title=show.recorded_title(rec, repeats=False)))

# %% [markdown]
# ## The book's first `non_blocking=True` call
#
# `copy_to_cpu(y, True)` allocates a new pinned tensor per result: the first call gets new host memory (timed once),
# later calls reuse the blocks PyTorch cached (timed with repeats). The profiler splits the first call into the GPU's
# copy and the rest. Measured here on a GPU, else from the GPU recording.

# %% [markdown] lang="zh"
# ## 书中第一次 `non_blocking=True` 调用
#
# `copy_to_cpu(y, True)` 为每个结果新分配一个锁页张量：第一次调用得到新的主机内存（只计时一次），之后的调用
# 重复使用PyTorch缓存的内存块（重复计时）。性能分析器把第一次调用拆成GPU上的复制和其余部分。有GPU时在本机测量，
# 否则展示GPU上的录制结果。

# %% tags=["nbval-ignore-output"]
first = comm.first_copy(repeats=3, lanes=[lane]) if GPU else rec.first_copy if rec is not None else None
source = None if GPU else rec  # the recording shown when this machine has no GPU
print(show.first_copy_text(first, source))
if first is not None and first.warm is not None:
    display(show.plot_first_copy(first, rec=source))
    display(show.plot_profile(first, rec=source))

# %% [markdown]
# ## The hazard: reading before the copy has happened
#
# A `non_blocking` copy returns before the data arrive: read at once, you get what was there before.

# %% [markdown] lang="zh"
# ## 隐患：在复制完成之前就读取
#
# `non_blocking` 复制在数据到达之前就返回了：立即读取，得到的是其中原有的内容。

# %%
if GPU:
    out = torch.zeros(N, N, pin_memory=True)
    ref_cpu = (x_lane.double() @ x_lane.double()).cpu()
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
# A model of K products and copies on one stream or two (sliders start from this machine's rates), then a panel that
# measures a size you choose.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 下面的模型把K个乘积及其复制放在一个流或两个流上（滑块的初值取自本机的速率）；其后的面板实测你选择的矩阵大小。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.panels import CommPanel, PipelinePanel

model = PipelinePanel(compute_ms=max(0.1, 1e3 * s['run'] / K2), copy_ms=max(0.1, 1e3 * s['copy'] / K2)).show()

# %% tags=["nbval-ignore-output"]
panel = CommPanel(size=N if GPU else 400, iters=10, gpu=GPU).show()

# %% [markdown]
# ## Exercises
#
# **3. CPU and GPU together, with communication.** Lane 0 computes and copies each result to host memory (as
# `run_and_copy`) while lane 1 computes on its own: a GPU and the CPU, or two CPU lanes. Three resources are busy:
# lane 0's compute, the copy, lane 1's compute. Read the times alone and predict "together": which of the three are
# separate hardware here?

# %% [markdown] lang="zh"
# ## 练习
#
# **3. CPU和GPU一起工作，并且相互通信**。执行路0计算，并把每个结果复制到主机内存（像 `run_and_copy` 那样），同时
# 执行路1独立地计算：一个GPU和CPU，或者两条CPU执行路。三种资源同时在忙：执行路0的计算、复制、执行路1的计算。读出
# 单独运行的用时，预测“同时运行”的用时：在这里，三者中哪些是相互独立的硬件？

# %% tags=["nbval-ignore-output"]
ex3 = comm.exercise_three(repeats=3, lanes=d2l_ext.find_lanes('torch'))  # each lane alone and both together, interleaved, every result checked
print(show.exercise_three_alone_text(ex3))

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(show.exercise_three_text(ex3))
show.plot_exercise_three(ex3)

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# A GPU lane and the CPU are separate hardware, and the GPU's copy engine is a third: expect the max of the two
# lanes' times alone. On a CPU-only machine lane 0's copy thread is one more thread on the cores the lanes share: when
# the threads outnumber the cores, expect no better than the max, and up to one after the other.
# </details>
#
# **4. Use a profiler.** `torch.profiler` works in a notebook, on a CPU too. Predict which operator takes most of the
# time: write it in `my_guess`, then profile. Open the trace at ui.perfetto.dev.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# GPU执行路和CPU是相互独立的硬件，而GPU的复制引擎是第三种：应当预期两条执行路单独运行用时的最大值。
# 在只有CPU的机器上，执行路0的复制线程是在两条执行路共用的核心上多出的一个线程：线程多于核心时，应当预期不会好于
# 最大值，最多是先后运行的用时。
# </details>
#
# **4. 使用性能分析器**。`torch.profiler` 可以在Jupyter记事本中使用，在CPU上也可以。先预测哪个操作符占用的时间最多，
# 把它写进 `my_guess`，再做性能分析。在 ui.perfetto.dev 中打开跟踪文件。

# %% tags=["nbval-ignore-output"]
import pathlib
import tempfile

from torch.profiler import ProfilerActivity, profile

my_guess = None  # the operator you expect to take the most time, as the profiler names it

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if GPU else [])
# On a CPU the profiler records only the thread that starts it, not the copy thread of run_and_copy,
# so there we profile the baseline, whose copies run on this thread.
work = (lambda: copy_task.run_and_copy(x, w, buffers, lane)) if GPU else (lambda: run_then_copy(x, w, buffers_base))
with comm.no_profiler_chatter(), profile(activities=activities) as prof:
    work()
    d2l_ext.wait_for_lanes([lane])
trace = pathlib.Path(tempfile.gettempdir()) / 'run_and_copy_trace.json'
prof.export_chrome_trace(str(trace))
print(show.profile_guess_text(prof, GPU, my_guess))
print(d2l_ext.t('communication.profile.trace', path=trace))

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
print(prof.key_averages().table(sort_by='self_cuda_time_total' if GPU else 'self_cpu_time_total', row_limit=8))
print(show.profile_text(prof, GPU))

# %% [markdown]
# <details><summary>Worked answer</summary>
#
# `aten::mm` (the products) and `aten::copy_` (the copies; on a GPU also listed as `Memcpy DtoH`, the same time
# again); the hidden cell prints the profile and their split. On a GPU the copies sit on a second stream, each after its product. The
# profile is one more run, timed another way, so its split need not equal the copy share above.
# </details>
#
# ## Remember
#
# * In the recording, pinned buffers, a copy stream and an event per product let compute and copies overlap.
# * Predict first: run = FLOPs / FLOP/s, copy = bytes / GB/s; one stream: run + copy. Overlap saves at most the
#   shorter: at best max(run, copy) plus the shorter of one product and one copy. Below max(run, copy), something
#   besides the overlap changed.
# * Measure an overlap from intervals: the share of the copies' time during which products ran.
#
# ## Pitfalls
#
# * **No wait:** timing queued GPU work without synchronizing measures only the queueing.
# * **Reading before the sync:** a `non_blocking` result is incomplete (it may hold old contents) until you
#   synchronize the stream that copies it.
# * **Pageable memory:** recorded copies into it ran at fewer GB/s than into pinned buffers.
# * **New host memory per call:** recorded new pageable tensors were slower than reused buffers; new pinned memory,
#   timed on its first call only, was slower than later calls.
# * **One stream for compute and copies** runs them in turn: no overlap.

# %% [markdown] lang="zh"
# <details><summary>参考答案</summary>
#
# `aten::mm`（乘积）和 `aten::copy_`（复制；在GPU上还会以 `Memcpy DtoH` 列出，那是同一段时间）；隐藏的单元格打印
# 性能分析的表格和二者各占多少。在GPU上，复制位于第二个流上，每次复制都在其乘积之后。性能分析是另外一次运行，计时方式也不同，
# 所以分析结果中的比例不一定等于上面的复制占比。
# </details>
#
# ## 记住
#
# * 在录制结果中，锁页缓冲区、复制流和每个乘积的一个事件让计算和复制重叠了。
# * 先预测：计算 = 浮点运算量 / FLOP/s，复制 = 字节数 / GB/s；一个流：计算 + 复制。重叠最多省下两者中较短的
#   那一个：最好也是 max(计算, 复制) 再加上一个乘积与一次复制中较短者。低于 max(计算, 复制)，说明除了重叠之外
#   还有别的变化。
# * 用区间测量重叠：复制的时间中有多大比例有乘积在运行。
#
# ## 易错点
#
# * **不等待**：不同步就为排队的GPU工作计时，测到的只是排队的时间。
# * **同步之前读取**：`non_blocking` 的结果在负责复制的流同步之前并不完整（可能还是缓冲区原有的内容）。
# * **可分页内存**：在录制结果中，复制到可分页内存的速率（GB/s）低于复制到锁页缓冲区。
# * **每次调用都用新的主机内存**：在录制结果中，新建的可分页张量比重复使用的缓冲区慢；新的锁页内存只在第一次调用时
#   计时，比之后的调用慢。
# * **计算和复制共用一个流**会让它们依次执行：没有重叠。
