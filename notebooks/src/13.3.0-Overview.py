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
# # 13.3 Automatic Parallelism: overview
#
# *Dive into Deep Learning*, §13.3 (§12.3 in the Chinese edition). One operator already keeps all the cores of a CPU or
# a whole GPU busy, so the gains of this section come from elsewhere: from **several devices** working at the same
# time, and from **computation and communication** overlapping. The book shows both with two GPUs; these notebooks run
# on whatever this machine has and measure carefully (warm-up, waiting for every device, repeats, answers checked).
#
# | notebook | what it teaches |
# |---|---|
# | [13.3.1 Parallel Computation on Devices](13.3.1-Parallel-Computation-on-Devices.ipynb) | two independent jobs on two lanes take about as long as the slower one; how to time queued work; the book's timing mistake; exercises 1 and 2 |
# | [13.3.2 Parallel Computation and Communication](13.3.2-Parallel-Computation-and-Communication.ipynb) | copying results to the host while the next product is computed: pinned memory, a copy stream, events; exercises 3 and 4 |
# | [13.3.3 The Dependency Graph](13.3.3-The-Dependency-Graph.ipynb) | Fig. 13.3.1 recorded from a real training step on two lanes; critical path and schedule; exercise 5 |

# %% [markdown] lang="zh"
# # 13.3 自动并行：概览
#
# *动手学深度学习*（Dive into Deep Learning），§13.3（中文版为§12.3）。一个算子就已经能让CPU的所有核心或整个GPU保持忙碌，
# 因此本节的收益来自别处：来自**多个设备**同时工作，以及**计算与通信**的重叠。书中用两个GPU展示了这两点；这些notebook
# 在这台机器现有的硬件上运行，并进行规范的测量（预热、等待每个设备、重复运行、校验结果）。
#
# | notebook | 讲授的内容 |
# |---|---|
# | [13.3.1 设备上的并行计算](13.3.1-Parallel-Computation-on-Devices.ipynb) | 两个通道上两项相互独立的工作，耗时约与较慢的那项相同；如何为放入队列的工作计时；书中的计时错误；练习1和练习2 |
# | [13.3.2 并行计算与通信](13.3.2-Parallel-Computation-and-Communication.ipynb) | 在计算下一个乘积的同时把结果复制到主机：锁页内存、复制流、事件；练习3和练习4 |
# | [13.3.3 依赖图](13.3.3-The-Dependency-Graph.ipynb) | 从两个通道上真实的训练步记录出的图13.3.1；关键路径与调度；练习5 |

# %%
# %matplotlib inline
import d2l_ext
from d2l_ext import experiments, report

d2l_ext.set_language('en')

print(report.machine_text())

# %% [markdown]
# ## This machine's lanes
#
# A *lane* is something that can run work at the same time as another: a GPU, the CPU, or a share of the CPU's cores.
# Each framework is asked in its own worker process (13.3.1 explains why).

# %% [markdown] lang="zh"
# ## 这台机器的通道
#
# *通道*（lane）是能够与另一个通道同时运行工作的东西：一个GPU、CPU，或者CPU的一部分核心。每个框架都在各自的工作进程中
# 查询（原因见13.3.1）。

# %%
for fw in d2l_ext.available_frameworks():
    print(f'{report.NAMES[fw]}:')
    for i, lane in enumerate(experiments.lanes(fw)):
        print(f"  lane {i + 1}: {lane['label']} - {lane['explanation']}")

# %% [markdown]
# ## The section's summary, with the number that shows each point
#
# **1. A machine has several devices that can work in parallel.** Two lanes running independent matrix products at
# the same time, against the same work one lane after the other (PyTorch, 10 products of 400 x 400 per lane, median
# of 3 runs, measured now):

# %% [markdown] lang="zh"
# ## 本节的小结，以及体现每一点的数字
#
# **1. 一台机器有多个可以并行工作的设备。** 两个通道同时运行相互独立的矩阵乘积，与同样的工作在两个通道上先后运行相比
# （PyTorch，每个通道10个400 x 400的乘积，3次运行的中位数，现在测量）：

# %%
par = experiments.parallel('torch', size=400, iters=10, repeats=3)
print(f"together {par['together']['median']:.4f} s, one after the other {par['serial_sum']:.4f} s: "
      f"{par['speedup']:.2f}x faster (best possible {par['ideal_speedup']:.2f}x); "
      f"answers checked, worst relative error {par['max_rel_error']:.1e}")

# %% [markdown]
# **2. Communication uses its own resources, so it can overlap with computation.** 13.3.2's model of K products,
# each followed by a copy of its result to the host, with the per-product times of the H200 recording in 13.3.2
# (2.6 ms per product, 1.2 ms per copy, 50 products). On one stream the copies wait in line; with a copy stream, copy
# `i` runs during product `i + 1`. This is arithmetic, the same on every machine:

# %% [markdown] lang="zh"
# **2. 通信使用自己的资源，因此可以与计算重叠。** 13.3.2中的模型：K个乘积，每个乘积之后把其结果复制到主机，
# 采用13.3.2中H200记录的每个乘积的时间（每个乘积2.6毫秒，每次复制1.2毫秒，50个乘积）。在一个流上，复制要排队等待；
# 使用复制流时，复制 `i` 在乘积 `i + 1` 期间运行。这是纯算术计算，在每台机器上都相同：

# %%
from d2l_ext.schedule import pipeline_model

one, two = (pipeline_model(2.6, 1.2, 50, overlap=overlap) for overlap in (False, True))
print(f"one stream {one['total']:.1f} ms; compute stream + copy stream {two['total']:.1f} ms "
      f"(lower bound {two['ideal']:.1f} ms)")

# %% [markdown]
# **3. A graph of the work lets independent parts run at once.** The training step of Fig. 13.3.1 (a two-layer MLP,
# minibatch split over two GPUs, gradients summed on the CPU), recorded and scheduled with the book's setting as a
# model (two GPUs at 10 TFLOP/s, a CPU at 0.1 TFLOP/s, PCIe at 12 GB/s, round numbers assumed in 13.3.3):

# %% [markdown] lang="zh"
# **3. 工作的依赖图使相互独立的部分能够同时运行。** 图13.3.1的训练步（一个两层MLP，小批量拆分到两个GPU上，
# 梯度在CPU上求和），以书中的场景为模型进行记录和调度（两个GPU为10 TFLOP/s，一个CPU为0.1 TFLOP/s，PCIe为12 GB/s，
# 这些是13.3.3中假定的整数）：

# %%
from d2l_ext import depgraph as dg

step = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
print(f"one node at a time {step['serial_total'] * 1e6:.1f} µs; scheduled on two GPUs and the CPU "
      f"{step['total'] * 1e6:.1f} µs; critical-path bound {step['critical_path_s'] * 1e6:.1f} µs")

# %% [markdown]
# Reading the three lines:
#
# 1. the first line's speedup is this machine's evidence for point 1; "best possible" is the serial time divided by
#    the slower lane's time alone.
#    On CPU lanes each lane has half of the cores, so "together" means both halves of the CPU busy at once, compared
#    with one half at a time (13.3.1 discusses what one product using all the cores would do);
# 2. in the model, the copy stream saves the time of all copies but the last: the total falls to the lower bound;
# 3. the scheduled step takes about half of the serial time and equals its critical path: the two lanes run side by
#    side and nothing waits for a busy device. In PyTorch's eager mode this parallelism comes from queued GPU work and
#    threads the program starts; MXNet's engine finds it by itself from the dependencies.
#
# The notebooks show each point in full, with plots, panels to try other sizes, and the section's five exercises.

# %% [markdown] lang="zh"
# 解读这三行：
#
# 1. 第一行的加速比是这台机器对第1点的证据；“best possible”（可能达到的最佳值）是串行时间除以较慢的那个通道单独运行的时间。
#    在CPU通道上，每个通道有一半的核心，因此“together”（一起运行）意味着CPU的两半同时忙碌，与之比较的是一次只有一半忙碌
#    （13.3.1讨论了一个使用全部核心的乘积会怎样）；
# 2. 在模型中，复制流节省了除最后一次之外所有复制的时间：总耗时降至下界；
# 3. 调度后的训练步耗时约为串行时间的一半，并等于其关键路径：两个通道并排运行，没有任何工作需要等待繁忙的设备。
#    在PyTorch的即时执行（eager）模式中，这种并行性来自放入队列的GPU工作和程序启动的线程；MXNet的引擎则根据依赖关系
#    自行找出它。
#
# 这些notebook完整地展示了每一点，并附有图表、可尝试其他规模的面板，以及本节的五道练习。
