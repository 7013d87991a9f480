"""Source of notebooks/{en,zh}/13.3.1-Parallel-Computation-on-Devices.ipynb (see tools/build_notebooks.py)."""
from cells import code, md

NAME = '13.3.1-Parallel-Computation-on-Devices'

CELLS = [
md("""# 13.3.1 Parallel Computation on Devices

*Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition).

Two independent pieces of work on two devices should take about **max(t1, t2)**, not t1 + t2,
because the framework hands work to each device and returns without waiting. The book shows this
with two GPUs. This notebook runs the same experiment on *whatever this machine has*, measures it
properly, and says plainly what each "lane" is.

What you will see:
1. the machine and its lanes;
2. the book's cells, on this machine's lanes, with a timer that waits for every device;
3. the book's own timing mistake, with numbers where the hardware can show it;
4. careful measurements (warm-up, repeats, median and spread, answers checked) for PyTorch and MXNet side by side;
5. a timeline of which product ran where, a scaling plot, and a panel to try sizes yourself;
6. exercises 1 and 2 of the section as experiments.""", 'title'),
code("""%matplotlib inline
import d2l_ext
from d2l_ext import experiments, plots, report

print(report.machine_text())"""),
md("""## Lanes: what can run at the same time here

The book calls `d2l.try_all_gpus()` and uses `devices[0]` and `devices[1]`. With d2l 1.0.3 that list is
empty on a machine without a GPU (so `devices[0]` raises `IndexError`), and `devices[1]` fails with one GPU.
`d2l_ext.find_lanes` picks two lanes from what exists:

* two or more GPUs: GPU 0 and GPU 1;
* one GPU: the GPU and the CPU;
* no GPU: two CPU lanes, each with half of the cores.

Read the explanation of each lane: it is what the numbers below are about.""", 'lanes'),
code("""lanes = d2l_ext.find_lanes('torch')
print(d2l_ext.describe_lanes(lanes))"""),
md("""## The book's code, on these lanes

The book's `run` performs **50** matrix products (its text says 10; the code says 50). On GPUs we use
the book's 4000 x 4000 matrices and 50 products. On CPU lanes that would take minutes, so this notebook
uses 800 x 800 and 10 products per lane (about 0.1 s per lane on a 2-core machine); with one GPU and the
CPU, the number of products per lane is chosen so that both lanes take about as long.

`on_lanes` starts one job per lane. A GPU job is only *queued* (the call returns at once); a CPU job
runs in its own Python thread, because PyTorch runs CPU operations to completion before returning.""", 'book-code'),
code("""import torch
from d2l_ext.torch_work import on_lanes
from d2l_ext.workloads import lesson_workload

N, (K1, K2) = lesson_workload(lanes)

def run(x, k):
    return [x.mm(x) for _ in range(k)]

x_lane1 = torch.rand(size=(N, N), device=lanes[0].device())
x_lane2 = torch.rand(size=(N, N), device=lanes[1].device())
print(f'{N} x {N} matrices; {K1} products on lane 1, {K2} on lane 2')"""),
md("""Warm up both lanes first (the first call pays for memory allocation and library start-up), then time each
lane alone. `d2l_ext.Benchmark` keeps the book's idiom but waits for every device of the lanes it is given,
before starting the clock and before stopping it.""", 'warmup'),
code("""on_lanes(lanes, lambda: run(x_lane1, K1), lambda: run(x_lane2, K2))  # warm-up both lanes
d2l_ext.wait_for_lanes(lanes)

with d2l_ext.Benchmark('lane 1 time', lanes[:1]):
    on_lanes(lanes[:1], lambda: run(x_lane1, K1))

with d2l_ext.Benchmark('lane 2 time', lanes[1:]):
    on_lanes(lanes[1:], lambda: run(x_lane2, K2))"""),
code("""with d2l_ext.Benchmark('lane 1 & lane 2', lanes):
    on_lanes(lanes, lambda: run(x_lane1, K1), lambda: run(x_lane2, K2))"""),
md("""Both together should take about as long as the slower lane alone. One run of each is a noisy measurement,
though: the next sections repeat it.

## The book's timing mistake

The book's "GPU1 & GPU2" cell ends with `torch.cuda.synchronize()`. Without an argument this waits for the
*current* device only, so work still running on the second GPU can fall outside the measurement. Forgetting to
wait at all is worse: the clock then measures only how long it took to *queue* the work. The next cell times the
same work three ways; it needs at least one GPU lane to show a difference.""", 'mistake'),
code("""from d2l_ext.parallel import book_sync_mistake

print(report.sync_mistake_text(book_sync_mistake(lanes=[lane.name for lane in lanes])))"""),
md("""## Measuring properly, PyTorch and MXNet side by side

`experiments.parallel` warms up, then times each lane alone and both lanes together several times, waiting for
every device each time; it reports the median and the interquartile range (IQR), and it checks every product
against `x @ x` computed in float64, so a fast wrong answer would stop the run.

Each framework runs in its **own worker process**: importing MXNet into a process that already runs PyTorch
changes PyTorch's thread count (you will see this at the end of the notebook), and MXNet reads its engine settings
only once, when it is imported.""", 'measure'),
code("""frameworks = d2l_ext.available_frameworks()
results = [experiments.parallel(fw, repeats=5, lesson=True) for fw in frameworks]
for r in results:
    print(report.parallel_text(r))"""),
code("""plots.plot_parallel_bars(results)"""),
code("""print(report.explain_parallel(results))"""),
md("""### Why PyTorch and MXNet differ

* **PyTorch** executes each CPU operation before returning (it is *eager*). Two CPU lanes overlap only because each
  lane has its own Python thread and its own share of the cores; PyTorch releases Python's global lock inside the
  product. On GPUs, PyTorch only queues kernels, so one Python thread can keep two GPUs busy.
* **The GPU's queue is finite.** It holds about a thousand kernels (measured with `benchmarks/launch_queue.py` on
  an H100 and an H200: queuing 1024 products of 2000 x 2000 took 23-29 ms, queuing 1280 took 90 ms, because the
  call waited for the GPU). So `on_lanes` starts the CPU lane's thread first and queues the GPU's products after;
  in the other order, the CPU lane started only when queuing returned, 0.145 s late, and the pair took 0.620 s
  instead of 0.500 s (H200, 2026-12-02, `benchmarks/results/h200-x1-2026-12-02T1901.txt`).
* **MXNet** hands every operation to its *dependency engine*, which runs whatever is ready on its worker threads.
  The products of one `run` do not depend on each other, so the engine already runs them on both CPU workers:
  one lane alone uses the whole machine, and a second lane has nothing left to win. Exercise 1 below checks this
  directly by swapping in MXNet's `NaiveEngine`, which runs each operation at once, one after another.

The sentences printed above state the numbers measured on this machine. On the quiet 2-core CPU machine of our CI
(AMD EPYC, 2 cores, 2026-12-02; `benchmarks/results/cpu-2core-amd-epyc-2026-12-02.json`), PyTorch's two CPU lanes
ran 1.92x faster together than one after the other, and MXNet's 1.02x. With one GPU and the CPU as the second lane
(recorded below), PyTorch's two lanes ran 1.88x faster together on an NVIDIA H200 and 1.74x on an H100, each within
1% of the best possible there. A machine that is busy with other work shows less: the lanes then compete with it for
the cores.""", 'why'),
md("""## A timeline: what ran where

The bars below are measured, not drawn by hand: CUDA events on GPU lanes, timestamps taken in each CPU lane's
thread, and MXNet's own profiler for MXNet (one row per engine worker, because the engine decides which worker runs
which product).""", 'timeline'),
code("""from matplotlib.figure import Figure

timelines = [experiments.timeline(fw, lesson=True) for fw in frameworks]
fig = Figure(figsize=(9, 1.6 * len(timelines) + 0.6))
for ax, t in zip(fig.subplots(len(timelines), 1, squeeze=False)[:, 0], timelines):
    plots.draw_timeline(t['events'], ax=ax, title=f"{report.NAMES[t['framework']]}: {t['size']} x {t['size']}")
fig.tight_layout()
fig"""),
md("""## When does running together pay off?

Each product has a fixed cost (starting it, Python, synchronisation). As matrices get smaller, that overhead
dominates and the speedup from two lanes shrinks, or even turns into a loss. Dashed lines show the best possible
speedup, `serial sum / max(lane times)`.""", 'scaling'),
code("""sizes = (64, 128, 256, 512) if lanes[0].kind == 'cpu' else (256, 512, 1024, 2048)
points = [p for fw in frameworks for p in experiments.scaling(fw, sizes=sizes, iters=10, repeats=3)]
plots.plot_scaling(points)"""),
md("""## Try it yourself

Choose a matrix size and the number of products per lane, then press **Run**. Moving a slider does not start a
run. Each run is appended to the table, so you can compare. Sizes that do not fit in memory give a message here
instead of an error.""", 'widget'),
code("""# NBVAL_IGNORE_OUTPUT
from d2l_ext.widgets import ParallelPanel

panel = ParallelPanel(size=400 if lanes[0].kind == 'cpu' else 4000, iters=10).show()"""),
md("""## The book's MXNet cells, in this process

The same experiment in MXNet's own idiom: `np.random.uniform(..., ctx=...)`, `x.dot(x)` and `npx.waitall()`.
`setup_mxnet()` gives MXNet's CPU engine one worker per core *before* importing it (it reads the setting only at
import). Watch PyTorch's thread count in this process before and after the import.""", 'mxnet'),
code("""from d2l_ext.mxnet_work import setup_mxnet

torch_threads_before = torch.get_num_threads()
if 'mxnet' in frameworks:
    mx, np, npx = setup_mxnet()
    mx_lanes = d2l_ext.find_lanes('mxnet')
    print(d2l_ext.describe_lanes(mx_lanes))
else:
    print("MXNet is not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)")
print(f'torch.get_num_threads(): {torch_threads_before} before importing MXNet, {torch.get_num_threads()} after')"""),
code("""if 'mxnet' in frameworks:
    def run_mx(x, k):
        return [x.dot(x) for _ in range(k)]

    N_mx, (K1_mx, K2_mx) = lesson_workload(mx_lanes)
    x_mx1 = np.random.uniform(size=(N_mx, N_mx), ctx=mx_lanes[0].device())
    x_mx2 = np.random.uniform(size=(N_mx, N_mx), ctx=mx_lanes[1].device())
    run_mx(x_mx1, K1_mx)  # warm-up both lanes
    run_mx(x_mx2, K2_mx)
    npx.waitall()

    with d2l_ext.Benchmark('MXNet lane 1 time', mx_lanes[:1]):
        run_mx(x_mx1, K1_mx)
    with d2l_ext.Benchmark('MXNet lane 2 time', mx_lanes[1:]):
        run_mx(x_mx2, K2_mx)
    with d2l_ext.Benchmark('MXNet lane 1 & lane 2', mx_lanes):
        run_mx(x_mx1, K1_mx)
        run_mx(x_mx2, K2_mx)"""),
md("""On a 2-core machine PyTorch's thread count drops from 2 to 1 when MXNet is imported into the same process:
any PyTorch timing taken in this kernel from now on would be skewed. That is why the comparison above ran each
framework in its own worker process.""", 'threads'),
md("""## Results recorded on GPUs

Without a GPU you cannot see the book's setting live. These results were recorded on real GPUs with
`python -m d2l_ext record`; each is labelled with the GPU, the software versions and the date.

The recordings hold PyTorch only. MXNet's GPU build could not be installed on the GPU machines, and not even its
CPU build runs there: MXNet 1.9.1, its last release, needs numpy < 1.24, which has no wheels for the Python 3.12
those machines have.""", 'recorded'),
code("""from d2l_ext import recorded

print(recorded.parallel_text())"""),
md("""## Summary

* Independent work on two lanes takes about the time of the slower lane, not the sum: the speedup measured above
  is the evidence on this machine.
* A GPU lane only queues work, so one Python thread can keep several GPUs busy; eager CPU work needs a thread per lane.
* Timing queued work needs a wait for *every* device used; `torch.cuda.synchronize()` with no argument waits for one.
* MXNet's engine finds independent operations by itself, even inside one lane.

## Exercises

**1.** `run` performs independent products. Does the framework run them in parallel by itself? The experiment:
issue the K products together and wait once, versus one at a time with a wait after each. MXNet's `NaiveEngine`
(which runs every operation immediately) is the control.""", 'summary'),
code("""print(report.independence_text(experiments.independence('torch', size=N, iters=10)))
if 'mxnet' in frameworks:
    for engine in (None, 'NaiveEngine'):
        print(report.independence_text(experiments.independence('mxnet', size=800, iters=10, engine=engine)))"""),
md("""**2.** When each operation is small, two lanes can help even on *one* device. The experiment: many 64 x 64
products, once as one lane using the whole device, once split over two lanes on the same device (two threads with
half the cores each on a CPU; two CUDA streams on a GPU).""", 'ex2'),
code("""print(report.small_ops_text(experiments.small_ops(size=64, iters=400)))"""),
md("""Exercises 3 and 4 (CPUs and GPUs together with communication; checking efficiency with a profiler) are in
13.3.2; exercise 5 (more complex dependencies, results checked) is in 13.3.3.""", 'next'),
]
