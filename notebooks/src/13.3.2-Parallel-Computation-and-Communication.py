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
# Results computed on a GPU often have to travel: to the CPU, to another GPU, over the network. The book computes 50
# products on a GPU, copies them to the CPU, and claims that the system can copy `y[i-1]` while it computes `y[i]`,
# so that "run and copy" takes less than run plus copy.
#
# That is true only under conditions the book does not show. Measured on one NVIDIA H200 by our team (torch 2.11,
# CUDA 13.0; `shared/reference/seed-h200.log`), the book's 50 products of 4000 x 4000 took 0.131 s and its
# "Copy to CPU" 2.45 s (about 1.3 GB/s into freshly allocated pageable memory), while a copy into preallocated
# *pinned* memory runs at about 55 GB/s. This notebook goes from the book's version to real overlap, one change at a
# time, checking every result.

# %% [markdown] lang="zh"
# # 13.3.2 并行计算与通信
#
# *动手学深度学习*（Dive into Deep Learning），§13.3“自动并行”（中文版为§12.3）。
#
# 在GPU上计算出的结果常常需要传输：传到CPU、传到另一个GPU，或者通过网络传出去。书中在GPU上计算50个乘积，
# 再把它们复制到CPU，并声称系统可以在计算 `y[i]` 的同时复制 `y[i-1]`，从而使“运行并复制”的耗时少于运行与复制的耗时之和。
#
# 只有在书中没有展示的条件下，这才成立。我们团队在一块NVIDIA H200上测得（torch 2.11，CUDA 13.0；
# `shared/reference/seed-h200.log`），书中50个4000 x 4000矩阵的乘积耗时0.131秒，而它的“Copy to CPU”耗时2.45秒
# （复制到新分配的可分页内存中，约1.3 GB/s）；复制到预先分配的*锁页*内存中时，速度则约为55 GB/s。本notebook
# 从书中的版本出发，一次只改动一处，逐步实现真正的重叠，并校验每一个结果。

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext import experiments, plots, report

d2l_ext.set_language('en')

print(report.machine_text())

# %%
lane = d2l_ext.find_lanes('torch')[0]
HAS_LINK = lane.kind == 'gpu'
print(d2l_ext.describe_lanes([lane]))
print('device-to-host link to measure:', 'yes' if HAS_LINK else 'no (no GPU: the data already lives in host memory)')

# %% [markdown]
# ## The book's cells
#
# `copy_to_cpu` makes a new host tensor for every result. Without a GPU, `y.to('cpu')` on a tensor that is already
# on the CPU returns **the same tensor**: nothing is copied at all, so the "copy" below costs nothing. That is the
# honest answer on a CPU-only machine; the rest of this notebook shows recorded GPU results and a CPU analogue.

# %% [markdown] lang="zh"
# ## 书中的代码单元
#
# `copy_to_cpu` 为每个结果新建一个主机张量。没有GPU时，对已经在CPU上的张量调用 `y.to('cpu')` 会返回**同一个张量**：
# 根本没有发生复制，因此下面的“复制”不花任何时间。这是仅有CPU的机器上的如实回答；本notebook的其余部分展示在GPU上
# 记录的结果，以及一个CPU上的类比实验（CPU analogue）。

# %%
import torch

from d2l_ext.workloads import lesson_workload

N, (K,) = lesson_workload([lane])

def run(x, k):
    return [x.mm(x) for _ in range(k)]

def copy_to_cpu(x, non_blocking=False):
    return [y.to('cpu', non_blocking=non_blocking) for y in x]

x_lane1 = torch.rand(size=(N, N), device=lane.device())
y = run(x_lane1, K)  # warm-up
d2l_ext.wait_for_lanes([lane])
print(f'{N} x {N} matrices, {K} products')

# %%
with d2l_ext.Benchmark('Run on lane 1', [lane]):
    y = run(x_lane1, K)

with d2l_ext.Benchmark('Copy to CPU', [lane]):
    y_cpu = copy_to_cpu(y)

print('was anything copied?', y_cpu[0].data_ptr() != y[0].data_ptr())

# %%
with d2l_ext.Benchmark('Run on lane 1 and copy to CPU', [lane]):
    y = run(x_lane1, K)
    y_cpu = copy_to_cpu(y, True)

# %% [markdown]
# ## What changes the time, one step at a time
#
# Four things decide whether a device-to-host copy is fast and whether it overlaps with computing:
#
# 1. **Destination memory.** *Pageable* host memory can be moved by the operating system, so the GPU cannot write
#    into it directly: the driver copies through a staging buffer and the call waits. *Pinned* (page-locked) memory can
#    be written by the GPU's copy engine directly, at the link's full speed.
# 2. **Allocation.** The book allocates a new host tensor per result. Preallocating the buffers once takes allocation
#    (and, for pinned memory, page-locking, which is slow) out of the loop.
# 3. **Streams.** Work on one CUDA stream runs in order: a copy queued behind product `i+1` waits for it. A second
#    *copy stream* can run copy `i` while the compute stream runs product `i+1`; an event recorded after product `i`,
#    which the copy stream waits for (`wait_event`), keeps copy `i` from starting too early, and `record_stream` keeps `y[i]`'s memory alive until the
#    copy is done.
# 4. **Waiting.** `non_blocking=True` lets the host carry on instead of waiting for each copy.
#
# `experiments.comm` times, for each mode: the products alone (**run**), the copies alone (**copy**), one after the
# other (**run; copy**), both issued together (**overlap**), and the best possible, **ideal = max(run, copy)**. Every
# copied result is compared with `x @ x` computed in float64.

# %% [markdown] lang="zh"
# ## 是什么改变了耗时：一次改一处
#
# 有四个因素决定设备到主机的复制是否快速，以及它能否与计算重叠：
#
# 1. **目标内存。** *可分页*主机内存可能被操作系统移动，因此GPU无法直接写入它：驱动程序要经由一个中转缓冲区进行复制，
#    并且调用会一直等待。*锁页*（pinned，即page-locked）内存可以由GPU的复制引擎直接写入，以链路的全速进行。
# 2. **内存分配。** 书中为每个结果分配一个新的主机张量。预先一次性分配好缓冲区，就把分配（对于锁页内存，还有很慢的锁页操作）
#    移出了循环。
# 3. **流。** 同一个CUDA流上的工作按顺序运行：排在乘积 `i+1` 之后的复制要等它完成。第二个*复制流*可以在计算流运行乘积 `i+1`
#    的同时执行复制 `i`；在乘积 `i` 之后记录的一个事件（`wait_event`）防止复制 `i` 过早开始，而 `record_stream` 使 `y[i]`
#    的内存在复制完成之前不被释放。
# 4. **等待。** `non_blocking=True` 让主机继续往下执行，而不必等待每次复制完成。
#
# `experiments.comm` 对每种模式分别计时：只执行乘积（**run**）、只执行复制（**copy**）、先后执行两者（**run; copy**）、
# 同时发出两者（**overlap**），以及可能达到的最佳值 **ideal = max(run, copy)**。每个复制得到的结果都会与以float64计算的
# `x @ x` 进行比较。

# %%
comm = experiments.comm('torch', repeats=5, lesson=True)
print(report.comm_text(comm))

# %%
plots.plot_comm_bars(comm['rows'])

# %%
link = comm['link_gbps']['pinned'] if comm['link_gbps'] else None
plots.plot_bandwidth([{'mode': r['mode'], 'gbps': r['copy_gbps']} for r in comm['rows']], link)

# %% [markdown]
# On a GPU, read the rows from top to bottom: the book's blocking copy into new pageable tensors is limited by
# pageable bandwidth; `non_blocking=True` gets pinned memory but keeps everything on one stream, so "overlap" is close
# to run + copy; preallocated pinned buffers make the copy itself fast; only the copy stream with events overlaps, and
# its time approaches `max(run, copy)`.
#
# Without a GPU, the single row is a **CPU analogue**, labelled as such: a second thread copies each product into a
# preallocated buffer while the first thread computes the next product. Copying one result takes a tiny
# fraction of the time of computing it (N x N numbers moved against N x N x N multiply-adds), so there is little to hide.

# %% [markdown] lang="zh"
# 在GPU上，请从上往下阅读各行：书中以阻塞方式复制到新建的可分页张量，受限于可分页内存的带宽；`non_blocking=True`
# 用上了锁页内存，但一切仍在同一个流上，因此“overlap”接近 run + copy；预先分配的锁页缓冲区使复制本身变快；只有使用事件的
# 复制流才能实现重叠，其耗时接近 `max(run, copy)`。
#
# 没有GPU时，唯一的一行是一个**CPU类比**（CPU analogue），并标明了这一点：第二个线程把每个乘积复制到预先分配的缓冲区中，
# 同时第一个线程计算下一个乘积。复制一个800 x 800的结果所需的时间只是计算它的时间的极小一部分，因此可供隐藏的时间很少。

# %% [markdown]
# ## A timeline of the two streams
#
# Measured with CUDA events on each stream (on a CPU-only machine: timestamps in the computing and the copying thread).
# With overlap, each copy sits under the next product.

# %% [markdown] lang="zh"
# ## 两个流的时间线
#
# 用每个流上的CUDA事件测量（在仅有CPU的机器上：用在计算线程和复制线程中记录的时间戳）。存在重叠时，
# 每次复制都正好位于下一个乘积的下方。

# %%
t = experiments.comm_timeline()
plots.draw_timeline(t['events'], title=f"{t['plan']}: {t['size']} x {t['size']}, {t['iters']} products")

# %% [markdown]
# ## The hazard: reading before the copy has happened
#
# A non-blocking copy returns before the data has arrived. Reading the destination then gives whatever was there
# before: here, zeros. Synchronizing first gives the right answer.

# %% [markdown] lang="zh"
# ## 隐患：在复制完成之前就读取
#
# 非阻塞复制在数据到达之前就会返回。此时读取目标张量，得到的是其中原有的内容：在这里是零。先同步再读取，就能得到正确的结果。

# %%
if HAS_LINK:
    from d2l_ext.torch_copy import read_before_sync
    early, late = read_before_sync(x_lane1)
    print(f'relative error read at once: {early:.2f}; after torch.cuda.synchronize(): {late:.1e}')
else:
    print('No GPU: copies between host tensors are synchronous, so there is nothing to read too early here.')

# %% [markdown]
# ## A model of the pipeline, to compare with the recordings
#
# Each of K products takes *c* ms and each copy *m* ms. On one stream the total is K(c + m). With a compute stream
# and a copy stream, copy `i` runs during product `i+1`, and the total drops to K·max(c, m) + min(c, m). The defaults
# below, 2.6 ms per product and 1.2 ms per copy, are the per-product figures of the H200 recording above (0.131 s / 50
# products; 64 MB at about 55 GB/s).

# %% [markdown] lang="zh"
# ## 流水线模型，用于与记录的结果对比
#
# K个乘积中，每个乘积耗时 *c* 毫秒，每次复制耗时 *m* 毫秒。在一个流上，总耗时为 K(c + m)。使用一个计算流和一个复制流时，
# 复制 `i` 在乘积 `i+1` 期间运行，总耗时降至 K·max(c, m) + min(c, m)。下面的默认值（每个乘积2.6毫秒、每次复制1.2毫秒）
# 是上文H200记录中按每个乘积折算的数字（0.131秒 / 50个乘积；64 MB，约55 GB/s）。

# %%
from d2l_ext.schedule import pipeline_model

for overlap in (False, True):
    m = pipeline_model(2.6, 1.2, 50, overlap=overlap)
    print(f"{'two streams' if overlap else 'one stream '}: total {m['total']:.1f} ms, "
          f"serial {m['serial_total']:.1f} ms, lower bound {m['ideal']:.1f} ms")

# %% tags=["nbval-ignore-output"]
from d2l_ext.widgets import PipelinePanel

model = PipelinePanel(compute_ms=2.6, copy_ms=1.2, iters=10).show()

# %% [markdown]
# ## MXNet
#
# The book's MXNet version copies with `y.copyto(npx.cpu())`, or into pinned memory with `npx.cpu_pinned()`, and
# lets the dependency engine order each copy after its product. It runs in its own worker process (see 13.3.1 for
# why). The MXNet wheel installed here is CPU-only, so both destinations are host memory: the rows are a CPU analogue
# in which the engine copies `y[i-1]` on one worker while another computes `y[i]`.

# %% [markdown] lang="zh"
# ## MXNet
#
# 书中的MXNet版本用 `y.copyto(npx.cpu())` 进行复制，或者用 `npx.cpu_pinned()` 复制到锁页内存中，并让依赖引擎把每次复制
# 安排在其对应的乘积之后。它在自己的工作进程中运行（原因见13.3.1）。这里安装的MXNet wheel包只支持CPU，因此两种目标都是
# 主机内存：这些行是一个CPU类比，其中引擎在一个工作线程上复制 `y[i-1]`，同时另一个工作线程计算 `y[i]`。

# %%
if 'mxnet' in d2l_ext.available_frameworks():
    print(report.comm_text(experiments.comm('mxnet', repeats=5, lesson=True)))
else:
    print("MXNet is not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)")

# %% [markdown]
# ## Try it yourself
#
# Choose the size and the number of products; on a GPU also the destination, the stream and `non_blocking`. Press
# **Run**; earlier runs stay in the table.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 选择矩阵大小和乘积的个数；在GPU上还可以选择目标内存、流以及 `non_blocking`。按下**Run**；之前的运行结果会保留在表格中。

# %% tags=["nbval-ignore-output"]
from d2l_ext.widgets import CommPanel

panel = CommPanel(size=N if HAS_LINK else 400, iters=10, gpu=HAS_LINK).show()

# %% [markdown]
# ## Results recorded on GPUs
#
# Recorded with `python -m d2l_ext record`, labelled with the GPU, the versions and the date.
#
# The recordings hold PyTorch only. MXNet's GPU build could not be installed on the GPU machines, and not even its
# CPU build runs there: MXNet 1.9.1, its last release, needs numpy < 1.24, which has no wheels for the Python 3.12
# those machines have.

# %% [markdown] lang="zh"
# ## 在GPU上记录的结果
#
# 用 `python -m d2l_ext record` 记录，每条结果都标注了GPU、软件版本和日期。
#
# 这些记录只有PyTorch的结果。在那些GPU机器上无法安装MXNet的GPU版本，连它的CPU版本也无法运行：MXNet的最后一个版本1.9.1
# 需要numpy < 1.24，而这些机器上的Python 3.12没有这样的numpy安装包（wheel）。

# %%
from d2l_ext import recorded

print(recorded.comm_text_all())

# %% [markdown]
# ## Summary
#
# * Copies and computation use different resources (the link's copy engine and the GPU's cores), so they can overlap.
# * They overlap only when the copy can run beside the computation: pinned destination memory, a separate copy stream,
#   and events that order each copy after its own product.
# * The book's `non_blocking=True` gains mostly from pinned memory and from not waiting per copy, not from overlap.
# * A non-blocking result must not be read before synchronizing.
#
# ## Exercises
#
# **3.** Use CPUs and GPUs together with communication between them. The experiment: lane 1 computes and copies each
# result to host memory while lane 2 computes on its own; compare with one after the other.

# %% [markdown] lang="zh"
# ## 小结
#
# * 复制和计算使用不同的资源（链路的复制引擎和GPU的计算核心），因此二者可以重叠。
# * 只有当复制能够与计算并排运行时，二者才会重叠：这需要锁页的目标内存、一个单独的复制流，以及把每次复制安排在
#   其对应乘积之后的事件。
# * 书中的 `non_blocking=True` 带来的提升主要来自锁页内存和不再逐次等待复制，而不是来自重叠。
# * 非阻塞复制得到的结果在同步之前不得读取。
#
# ## 练习
#
# **3.** 同时使用CPU和GPU，并在二者之间进行通信。实验：通道1（lane 1）进行计算，并把每个结果复制到主机内存，同时通道2独立地进行
# 自己的计算；与两者先后运行进行比较。

# %%
ex3 = experiments.cpu_gpu_together(repeats=3)
print(f"lanes: {', '.join(ex3['lanes'])}; size {ex3['size']}")
print(f"lane 1 compute + copy {ex3['lane1_compute_and_copy']:.4f} s, lane 2 compute {ex3['lane2_compute']:.4f} s")
print(f"one after the other {ex3['serial_sum']:.4f} s, together {ex3['together']:.4f} s, ideal {ex3['ideal']:.4f} s; "
      f"worst relative error {ex3['max_rel_error']:.1e}")

# %% [markdown]
# **4.** Check with a profiler that the code is efficient. The book points to NVIDIA Nsight; `torch.profiler` shows
# the same in a notebook: the time spent in products (`aten::mm`) and in copies (`aten::copy_`, and `Memcpy DtoH` on
# a GPU).

# %% [markdown] lang="zh"
# **4.** 用性能分析器检查代码是否高效。书中提到了NVIDIA Nsight；`torch.profiler` 可以在notebook中显示同样的信息：
# 花在乘积上的时间（`aten::mm`）和花在复制上的时间（`aten::copy_`，在GPU上还有 `Memcpy DtoH`）。

# %% tags=["nbval-ignore-output"]
from torch.profiler import ProfilerActivity, profile

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if HAS_LINK else [])
with profile(activities=activities) as prof:
    y = run(x_lane1, K)
    y_cpu = copy_to_cpu(y, True)
    d2l_ext.wait_for_lanes([lane])
print(prof.key_averages().table(sort_by='cuda_time_total' if HAS_LINK else 'cpu_time_total', row_limit=6))
