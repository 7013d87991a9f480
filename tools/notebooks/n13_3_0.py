"""Source of notebooks/{en,zh}/13.3.0-Overview.ipynb (see tools/build_notebooks.py)."""
from cells import code, md

NAME = '13.3.0-Overview'

CELLS = [
md("""# 13.3 Automatic Parallelism: overview

*Dive into Deep Learning*, §13.3 (§12.3 in the Chinese edition). One operator already keeps all the cores of a CPU or
a whole GPU busy, so the gains of this section come from elsewhere: from **several devices** working at the same
time, and from **computation and communication** overlapping. The book shows both with two GPUs; these notebooks run
on whatever this machine has and measure carefully (warm-up, waiting for every device, repeats, answers checked).

| notebook | what it teaches |
|---|---|
| [13.3.1 Parallel Computation on Devices](13.3.1-Parallel-Computation-on-Devices.ipynb) | two independent jobs on two lanes take about as long as the slower one; how to time queued work; the book's timing mistake; exercises 1 and 2 |
| [13.3.2 Parallel Computation and Communication](13.3.2-Parallel-Computation-and-Communication.ipynb) | copying results to the host while the next product is computed: pinned memory, a copy stream, events; exercises 3 and 4 |
| [13.3.3 The Dependency Graph](13.3.3-The-Dependency-Graph.ipynb) | Fig. 13.3.1 recorded from a real training step on two lanes; critical path and schedule; exercise 5 |""", 'title'),
code("""%matplotlib inline
import d2l_ext
from d2l_ext import experiments, report

print(report.machine_text())"""),
md("""## This machine's lanes

A *lane* is something that can run work at the same time as another: a GPU, the CPU, or a share of the CPU's cores.
Each framework is asked in its own worker process (13.3.1 explains why).""", 'lanes'),
code("""for fw in d2l_ext.available_frameworks():
    print(f'{report.NAMES[fw]}:')
    for i, lane in enumerate(experiments.lanes(fw)):
        print(f"  lane {i + 1}: {lane['label']} - {lane['explanation']}")"""),
md("""## The section's summary, with the number that shows each point

**1. A machine has several devices that can work in parallel.** Two lanes running independent matrix products at
the same time, against the same work one lane after the other (PyTorch, 10 products of 400 x 400 per lane, median
of 3 runs, measured now):""", 'point1'),
code("""par = experiments.parallel('torch', size=400, iters=10, repeats=3)
print(f"together {par['together']['median']:.4f} s, one after the other {par['serial_sum']:.4f} s: "
      f"{par['speedup']:.2f}x faster (best possible {par['ideal_speedup']:.2f}x); "
      f"answers checked, worst relative error {par['max_rel_error']:.1e}")"""),
md("""**2. Communication uses its own resources, so it can overlap with computation.** 13.3.2's model of K products,
each followed by a copy of its result to the host, with the per-product times of the H200 recording in 13.3.2
(2.6 ms per product, 1.2 ms per copy, 50 products). On one stream the copies wait in line; with a copy stream, copy
`i` runs during product `i + 1`. This is arithmetic, the same on every machine:""", 'point2'),
code("""from d2l_ext.schedule import pipeline_model

one, two = (pipeline_model(2.6, 1.2, 50, overlap=overlap) for overlap in (False, True))
print(f"one stream {one['total']:.1f} ms; compute stream + copy stream {two['total']:.1f} ms "
      f"(lower bound {two['ideal']:.1f} ms)")"""),
md("""**3. A graph of the work lets independent parts run at once.** The training step of Fig. 13.3.1 (a two-layer MLP,
minibatch split over two GPUs, gradients summed on the CPU), recorded and scheduled with the book's setting as a
model (two GPUs at 10 TFLOP/s, a CPU at 0.1 TFLOP/s, PCIe at 12 GB/s, round numbers assumed in 13.3.3):""", 'point3'),
code("""from d2l_ext import depgraph as dg

step = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
print(f"one node at a time {step['serial_total'] * 1e6:.1f} µs; scheduled on two GPUs and the CPU "
      f"{step['total'] * 1e6:.1f} µs; critical-path bound {step['critical_path_s'] * 1e6:.1f} µs")"""),
md("""Reading the three lines:

1. the first line's speedup is this machine's evidence for point 1; "best possible" is the serial time divided by
   the slower lane's time alone.
   On CPU lanes each lane has half of the cores, so "together" means both halves of the CPU busy at once, compared
   with one half at a time (13.3.1 discusses what one product using all the cores would do);
2. in the model, the copy stream saves the time of all copies but the last: the total falls to the lower bound;
3. the scheduled step takes about half of the serial time and equals its critical path: the two lanes run side by
   side and nothing waits for a busy device. In PyTorch's eager mode this parallelism comes from queued GPU work and
   threads the program starts; MXNet's engine finds it by itself from the dependencies.

The notebooks show each point in full, with plots, panels to try other sizes, and the section's five exercises.""", 'summary'),
]
