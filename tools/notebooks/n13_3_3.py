"""Source of notebooks/{en,zh}/13.3.3-The-Dependency-Graph.ipynb (see tools/build_notebooks.py)."""
from cells import code, md

NAME = '13.3.3-The-Dependency-Graph'

CELLS = [
md("""# 13.3.3 The Dependency Graph

*Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition), Fig. 13.3.1.

The book ends the section with a picture: one training step of a two-layer MLP on a CPU and two GPUs, every
dependency drawn, and the remark that scheduling such a program by hand would be painful. This notebook makes that
picture from code that really runs, and then does with it what a scheduler does:

1. record the graph of one training step with the minibatch split over this machine's two lanes, and draw it;
2. give every node a cost (from a model with speeds and bandwidths, and measured here) and compute the
   **serial total**, the **scheduled total** and the **critical-path bound**, drawn as a timeline;
3. run the step on both lanes at once, check the weights equal those of the one-device step, and time it;
4. exercise 5 of the section: a graph with more complex dependencies, run on two lanes and checked.

**A correction to the book.** The section's introduction says that frameworks build a computational graph in the
backend and so find independent work by themselves. That is true of MXNet's dependency engine (and of compiled
graphs), but not of PyTorch in its usual eager mode: it keeps a graph only for autograd, to run the backward pass,
and never uses it to schedule work. Each call runs (on a CPU) or is queued (on a GPU) in program order, and nothing
reorders the work of two devices for you. The graph below is therefore *recorded*, with a hook that watches every
operation the step runs.""", 'title'),
code("""%matplotlib inline
import d2l_ext
from d2l_ext import report

print(report.machine_text())"""),
md("""## The lanes

The book's figure has two GPUs. `d2l_ext.find_lanes` picks two lanes from what this machine has (two GPUs; one GPU
and the CPU; or, without a GPU, two CPU lanes with half of the cores each; see 13.3.1). The recorded graph has the
same shape on all three: the lanes are named `lane 0` and `lane 1` in it (counted from 0, like devices: `lane 0` is
the first lane listed below), and the physical device is kept beside.""", 'lanes'),
code("""from d2l_ext import depgraph as dg, plots

lanes = d2l_ext.find_lanes('torch')
print(d2l_ext.describe_lanes(lanes))"""),
md("""## Recording one training step

The model is the book's MLP for Fashion-MNIST: 784 inputs, 256 hidden units with ReLU, 10 outputs, squared loss,
plain SGD. A minibatch of 256 examples is split in two halves of 128. The step does what Fig. 13.3.1 shows:

* on each lane: forward through both layers, the loss, backward to the weight gradients;
* the gradients of both lanes are copied to the CPU (the *parameter server*), summed, and the CPU updates the
  weights;
* the new weights are copied back to both lanes.

`record_step_graph` runs this step once under a `TorchDispatchMode`, a PyTorch hook that sees every *aten* operation
(PyTorch's internal operators) with its inputs and outputs. An edge joins operation A to operation B when B reads a
tensor A wrote. A copy between lanes becomes a node of its own, on the *link* between them, carrying the bytes
moved. `coarsen_graph` then merges the operations of each lane and stage into one box, like the book's figure.""", 'record'),
code("""raw = dg.record_step_graph(lanes)  # runs one step, logging every aten operation
coarse = dg.coarsen_graph(raw)    # one node per (lane, stage): the boxes of Fig. 13.3.1
print(dg.summary_text(raw, 'every aten operation'))
print(dg.summary_text(coarse, 'book-level boxes'))"""),
md("""Both views hold the same work: the same FLOP and the same bytes copied. The bytes are four copies of the
parameters, `(784·256 + 256 + 256·10 + 10) · 4` bytes each: each lane sends its gradients to the server and receives
the new weights. This is what each box is made of, for lane 0 and its copies (the numbers in brackets are the input
shapes; `t` is a transpose, which moves no data):""", 'bytes'),
code("""print(dg.stage_ops_text(raw))"""),
md("""The backward pass is written out by hand (`H.t() @ dO`, ...) rather than left to autograd, so that every
operation belongs to a named stage; the next section checks that it computes the same update as autograd.

## The figure, from the recording

One row per lane, with the parameter server between them; columns follow the dependencies (a box stands to the right
of everything it needs). Grey boxes are copies; dashed arrows enter and leave them and are labelled with the bytes
moved; solid arrows carry tensors on one device, labelled with their shapes.""", 'draw'),
code("""dg.draw_graph(coarse, title='One training step on two lanes, recorded')"""),
md("""Compared with the book's figure:

* it has the same structure: two independent chains (one per lane) that meet only at the server, and the server's
  work (sum, update) cannot start before **both** lanes' gradients have arrived;
* it also shows what the book leaves out: the biases, the loss as its own box, and the fact that `fc2 bwd` must
  finish before `relu bwd` can start (the gradient flows back through the second layer);
* the two lanes never talk to each other directly, only through the server. Multi-GPU training today (PyTorch's
  `DistributedDataParallel`, Horovod) instead sums the gradients with an *all-reduce* directly between the GPUs, and
  starts it while the backward pass is still running.""", 'compare'),
md("""## Scheduling the graph

Give every node a cost: a computation costs its FLOP divided by the speed of its device; a copy costs its bytes
divided by the bandwidth of its link (each direction of each link is its own resource, as PCIe carries both at
once). Three numbers then describe the step:

* **serial total**: all nodes one after another, on one resource; the sum of the costs;
* **critical-path bound**: the longest chain of dependent nodes. No schedule, however many devices it has, can
  finish before this chain has run;
* **scheduled total**: list scheduling, as a runtime would do it: each node starts as soon as everything it needs is
  done and its device (or link) is free.

Always critical path ≤ scheduled ≤ serial. First a model of the book's setting: two GPUs reaching 10 TFLOP/s on these
small products, a CPU at 0.1 TFLOP/s, and PCIe at 12 GB/s in each direction. These are round numbers *assumed* for
illustration, not measurements, so the totals below are the same on every machine. The model graph is recorded on
PyTorch's `meta` device (shapes without data): the same operations, shapes and bytes, at no cost.""", 'schedule'),
code("""setting = dg.BOOK_SETTING
print('model: ' + ', '.join(f'{k} {v / 1e12:g} TFLOP/s' for k, v in setting['device_speed'].items())
      + f", links {setting['link_bandwidth'] / 1e9:g} GB/s")
print('model graph = recorded graph:', dg.graph_summary(dg.model_graph())['flops'] == dg.graph_summary(coarse)['flops'])
model = dg.schedule_step(dg.model_graph(), **setting)
print(dg.schedule_text(model))"""),
code("""plots.draw_timeline(model['events'], title="Model of the book's setting: the step's schedule",
                    highlight=model['critical_path'])"""),
md("""What the model shows:

* the two lanes run side by side, so the schedule takes about half the serial total; the speedup is a little under
  2 because the server's part (sum and update) runs once, after both lanes;
* the scheduled total equals the critical-path bound: each lane has its own device and each copy its own link, so
  no node ever waits for a busy resource, only for its inputs;
* the copies, not the arithmetic, take most of the time: at batch 256 each GPU computes its half in microseconds,
  and then 0.8 MB of gradients must cross PCIe and the new weights come back. This is why real data-parallel
  training uses large batches, fast links (NVLink) and overlaps the gradient transfer with the backward pass.

The critical path (outlined in black) goes through lane 0: both lanes are equally long, and ties go to the first.

### Costs measured on this machine

Now the same schedule with each box's cost measured here: `measure_node_costs` runs the operations of one box at a
time, on its lane (a CPU lane with its share of the cores), and keeps the median of 5 runs. Measured times vary
from run to run, so only the totals are printed.""", 'model-read'),
code("""coarse_here, costs = dg.measure_node_costs(lanes, repeats=5)
measured = dg.schedule_step(coarse_here, measured=costs)
print('costs measured on this machine, each box alone (median of 5 runs):')
print(dg.schedule_text(measured, unit='s', path=False))"""),
code("""plots.draw_timeline(measured['events'], title='Costs measured on this machine: the schedule',
                    highlight=measured['critical_path'])"""),
md("""On CPU lanes the picture is different from the book's. The "copies" are memory copies between two tensors on the
same CPU, and on a quiet machine the products (`fc1 fwd`, `fc1 bwd`) take most of the time. If the copies, `sum` or
`update` look long in the plot above, another program was using a core while they were timed: these small operations
are split over all the cores, and each must wait for its slowest thread. With a GPU lane the copies cross PCIe again,
and a CPU lane next to a GPU is far slower: the critical path then runs through the CPU lane.

## Try it yourself

Move a slider and the model is recomputed at once: the batch size and the hidden size change the FLOP and the bytes;
the speeds and the bandwidth change what they cost. Each change adds a row to the table; the timeline shows the last
one, critical path outlined. Things to try: make the link 10 times faster; make one lane 10 times slower (a GPU next
to a CPU); raise the batch size until the arithmetic outweighs the copies. **Measure here** measures every box on
this machine's lanes at the chosen batch and hidden size, schedules them, and also times the real step with both
lanes running, in the last column.""", 'widget'),
code("""# NBVAL_IGNORE_OUTPUT
from d2l_ext.graph_widgets import GraphSchedulePanel

panel = GraphSchedulePanel(lanes).show()"""),
md("""## Running the step on both lanes

`run_step` runs the recorded step for real, with both lanes at once (a GPU lane is queued; a CPU lane runs in its
own Python thread with its share of the cores, as in 13.3.1). Is it still the same training step? It is compared
with the ordinary one-device step on the whole minibatch, with the gradients from autograd. Adding in a different
order changes the last bits of a float32 result, so the check is `torch.allclose` with a relative tolerance of 1e-5
(and an absolute one of 1e-6 for entries near zero) rather than exact equality.""", 'run'),
code("""check = dg.check_step_matches(lanes=lanes)
print(f"weights after one step on two lanes == one-device step: {check['match']} "
      f"(torch.allclose, rtol {check['rtol']:g}, atol {check['atol']:g})")"""),
md("""Now the time of one step, three ways: the whole minibatch on one device with no copies (on a CPU: one thread
with all the cores); the two lanes one after the other; the two lanes at once. Each is warmed up, then timed 5
times, waiting for every device; the medians are printed.""", 'timing'),
code("""steps = dg.time_step(lanes, repeats=5)
print(dg.step_timing_text(steps))
print(f"the schedule of the measured boxes predicted {measured['total']:.4f} s for the lanes together")"""),
md("""How to read these numbers:

* **two lanes at once vs one after the other** is the speedup the graph promises: the lanes' chains are
  independent. Apart from noise (a run slowed by another program) it cannot exceed the measured schedule's bound
  printed above.
* **vs one device** is the honest comparison. On a machine without a GPU the two CPU lanes are two halves of the same
  cores, so they have no more arithmetic than one thread using all of them, and they add copies and thread
  hand-offs; do not expect them to beat it. Splitting the batch pays off when the lanes add hardware: two GPUs.
* With one GPU and the CPU, the CPU lane is far slower, and the step waits for it: an even split of the batch is
  then the wrong split (see the exercises).
* The real step and the schedule's prediction differ: the prediction adds up boxes measured one at a time, and
  leaves out handing work to the lanes' threads, waking the threads of the server's small operations, allocating
  fresh tensors, Python between the operations, and lanes competing for memory bandwidth. At batch 256 a lane's
  share is little arithmetic (the measured schedule above shows how little), so these costs are not small next to
  it. In the panel, **Measure here** with a larger batch and hidden size brings the real step closer to the
  prediction. Each box measured alone also varies when the machine is busy.

**MXNet.** The book's MXNet code never needs this hand-written split: MXNet's engine records, for each operation,
which arrays it reads and writes, and runs whatever is ready, on any device. But it does not hand that graph to
Python operation by operation (a hybridized block exports the forward pass only, per device), so there is no simple
way to record the figure from MXNet. The graph here is traced from the PyTorch version, where a dispatch hook sees
every operation.""", 'read-timing'),
md("""## Exercise 5: more complex dependencies

*Design tasks with more complex dependencies, and check that the results stay correct while the computation gets
faster.*

The experiment: a graph of 21 matrix products in three stages. Each stage is a diamond with three arms of unequal
length (1, 2 and 3 products) that all start from the previous stage's result and meet again in a *join*; in
addition, the last product of the second and third arm also reads the first product of the arm before it. Every
task computes `tanh((sum of its inputs) @ W)`, with its own weight matrix `W`.

* A **planner** (`schedule.list_schedule`) decides which lane runs which task: the task with the longest chain behind
  it goes first, to the lane where it finishes earliest.
* An **engine** (`run_dag`) runs the plan: one thread per lane, and before a task starts, its lane waits until every
  task it reads has finished. That is the dependency engine of MXNet in a dozen lines.
* Every result is compared with the same graph computed one task after another in float64.

The model counts in units of one product (the same everywhere); the times are measured here.""", 'ex5'),
code("""ex5 = dg.dag_experiment(lanes, repeats=5)
print(dg.dag_text(ex5))"""),
code("""from matplotlib.figure import Figure

fig = Figure(figsize=(12, 6.5))
top, bottom = fig.subplots(2, 1, gridspec_kw={'height_ratios': [1.4, 1]})
dg.draw_graph(dg.dag_graph(ex5), ax=top, label_edges=False, rows=ex5['lanes'],
              title='The plan: which lane runs each task (columns follow the dependencies)')
plots.draw_timeline(ex5['trace'], ax=bottom, title='When each task ran on this machine (one traced run)')
fig.tight_layout()
fig"""),
md("""What to see: on two equal lanes the plan needs 12 product-times instead of 21, and 12 is also the critical
path (per stage: the three-product arm, then the join), so no plan on any number of lanes can do better. Both lanes
are busy for three product-times per stage; to keep them so, the planner moves part of the long arm to the other
lane, so some tasks read their input from the other lane. In the measured timeline a task starts only after the tasks
it reads. On CPU lanes the last row of the table is again the honest comparison: one thread using all the cores for
one product at a time. With a GPU and the CPU, the plan is made from one product timed on each lane, and it gives the
CPU little or nothing.

Correct while faster: is the check worth anything? Here is the engine with the waits left out (the lanes run one
after the other, the second lane first, so some tasks read inputs that were never written). The same check must catch
it:""", 'ex5-read'),
code("""caught, message = dg.broken_engine_check(ex5)
print(f'an engine that does not wait for dependencies gives wrong results; the check caught it: {caught}')"""),
md("""## Summary

* A training step split over two devices is a graph with two independent chains that meet at the gradient sum; the
  recorded graph above has exactly the shape of the book's Fig. 13.3.1, plus the biases and the loss.
* Three numbers describe a schedule: the serial total, the scheduled total and the critical-path bound, always in
  that order from largest to smallest. In the model printed above, the step's schedule takes about half of the
  serial total, and the copies, not the products, fill most of it.
* Splitting the batch computes the same update as one device (checked above to rtol 1e-5); whether it is faster
  depends on the lanes adding hardware and on the links, as the timings printed above show for this machine.
* A dependency engine is short: wait for your inputs, run, signal. A check against a reference is what shows that
  it waited: the broken engine above fails it.
* PyTorch's eager mode schedules nothing from a graph: the parallelism comes from queued GPU work and from threads
  you start. MXNet's engine tracks the dependencies and runs whatever is ready.

## Exercises

1. Exercises 1 and 2 of the section are in 13.3.1, exercises 3 and 4 in 13.3.2, exercise 5 above.
2. With one GPU and the CPU as lanes, an even split makes the step wait for the CPU. Using the measured cost of each
   box, what split of the 256 examples balances the two lanes? Pass `make_problem(...)` halves of your choice to
   `run_step` and time it.
3. Replace the parameter server with an all-reduce: each lane sends half of its gradient to the other lane and
   receives the other half (a *reduce-scatter*), adds it, and sends the sum back (an *all-gather*). Draw the graph
   as a list of `schedule.Task`s with the book's speeds and compare the scheduled total with the model above.
4. In the panel, find the batch size at which the book's setting stops being limited by the copies.
5. Change exercise 5's arms to `(2, 2, 2)` with `cross=False`. Predict the serial total, the plan's total and the
   critical path before running `dg.dag_experiment(lanes, arms=(2, 2, 2), cross=False)`.""", 'summary'),
]
