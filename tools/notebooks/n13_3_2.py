"""Source of notebooks/{en,zh}/13.3.2-Parallel-Computation-and-Communication.ipynb (see tools/build_notebooks.py)."""
from cells import code, md

NAME = '13.3.2-Parallel-Computation-and-Communication'

CELLS = [
md("""# 13.3.2 Parallel Computation and Communication

*Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition).

Results computed on a GPU often have to travel: to the CPU, to another GPU, over the network. The book computes 50
products on a GPU, copies them to the CPU, and claims that the system can copy `y[i-1]` while it computes `y[i]`,
so that "run and copy" takes less than run plus copy.

That is true only under conditions the book does not show. Measured on one NVIDIA H200 by our team (torch 2.11,
CUDA 13.0; `shared/reference/seed-h200.log`), the book's 50 products of 4000 x 4000 took 0.131 s and its
"Copy to CPU" 2.45 s (about 1.3 GB/s into freshly allocated pageable memory), while a copy into preallocated
*pinned* memory runs at about 55 GB/s. This notebook goes from the book's version to real overlap, one change at a
time, checking every result.""", 'title'),
code("""%matplotlib inline
import d2l_ext
from d2l_ext import experiments, plots, report

print(report.machine_text())"""),
code("""lane = d2l_ext.find_lanes('torch')[0]
HAS_LINK = lane.kind == 'gpu'
print(d2l_ext.describe_lanes([lane]))
print('device-to-host link to measure:', 'yes' if HAS_LINK else 'no (no GPU: the data already lives in host memory)')"""),
md("""## The book's cells

`copy_to_cpu` makes a new host tensor for every result. Without a GPU, `y.to('cpu')` on a tensor that is already
on the CPU returns **the same tensor**: nothing is copied at all, so the "copy" below costs nothing. That is the
honest answer on a CPU-only machine; the rest of this notebook shows recorded GPU results and a CPU analogue.""", 'book'),
code("""import torch
from d2l_ext.workloads import lesson_workload

N, (K,) = lesson_workload([lane])

def run(x, k):
    return [x.mm(x) for _ in range(k)]

def copy_to_cpu(x, non_blocking=False):
    return [y.to('cpu', non_blocking=non_blocking) for y in x]

x_lane1 = torch.rand(size=(N, N), device=lane.device())
y = run(x_lane1, K)  # warm-up
d2l_ext.wait_for_lanes([lane])
print(f'{N} x {N} matrices, {K} products')"""),
code("""with d2l_ext.Benchmark('Run on lane 1', [lane]):
    y = run(x_lane1, K)

with d2l_ext.Benchmark('Copy to CPU', [lane]):
    y_cpu = copy_to_cpu(y)

print('was anything copied?', y_cpu[0].data_ptr() != y[0].data_ptr())"""),
code("""with d2l_ext.Benchmark('Run on lane 1 and copy to CPU', [lane]):
    y = run(x_lane1, K)
    y_cpu = copy_to_cpu(y, True)"""),
md("""## What changes the time, one step at a time

Four things decide whether a device-to-host copy is fast and whether it overlaps with computing:

1. **Destination memory.** *Pageable* host memory can be moved by the operating system, so the GPU cannot write
   into it directly: the driver copies through a staging buffer and the call waits. *Pinned* (page-locked) memory can
   be written by the GPU's copy engine directly, at the link's full speed.
2. **Allocation.** The book allocates a new host tensor per result. Preallocating the buffers once takes allocation
   (and, for pinned memory, page-locking, which is slow) out of the loop.
3. **Streams.** Work on one CUDA stream runs in order: a copy queued behind product `i+1` waits for it. A second
   *copy stream* can run copy `i` while the compute stream runs product `i+1`; an event recorded after product `i`,
   which the copy stream waits for (`wait_event`), keeps copy `i` from starting too early, and `record_stream` keeps `y[i]`'s memory alive until the
   copy is done.
4. **Waiting.** `non_blocking=True` lets the host carry on instead of waiting for each copy.

`experiments.comm` times, for each mode: the products alone (**run**), the copies alone (**copy**), one after the
other (**run; copy**), both issued together (**overlap**), and the best possible, **ideal = max(run, copy)**. Every
copied result is compared with `x @ x` computed in float64.""", 'steps'),
code("""comm = experiments.comm('torch', repeats=5, lesson=True)
print(report.comm_text(comm))"""),
code("""plots.plot_comm_bars(comm['rows'])"""),
code("""link = comm['link_gbps']['pinned'] if comm['link_gbps'] else None
plots.plot_bandwidth([{'mode': r['mode'], 'gbps': r['copy_gbps']} for r in comm['rows']], link)"""),
md("""On a GPU, read the rows from top to bottom: the book's blocking copy into new pageable tensors is limited by
pageable bandwidth; `non_blocking=True` gets pinned memory but keeps everything on one stream, so "overlap" is close
to run + copy; preallocated pinned buffers make the copy itself fast; only the copy stream with events overlaps, and
its time approaches `max(run, copy)`.

Without a GPU, the single row is a **CPU analogue**, labelled as such: a second thread copies each product into a
preallocated buffer while the first thread computes the next product. Copying one result takes a tiny
fraction of the time of computing it (N x N numbers moved against N x N x N multiply-adds), so there is little to hide.""", 'read'),
md("""## A timeline of the two streams

Measured with CUDA events on each stream (on a CPU-only machine: timestamps in the computing and the copying thread).
With overlap, each copy sits under the next product.""", 'timeline'),
code("""t = experiments.comm_timeline()
plots.draw_timeline(t['events'], title=f"{t['plan']}: {t['size']} x {t['size']}, {t['iters']} products")"""),
md("""## The hazard: reading before the copy has happened

A non-blocking copy returns before the data has arrived. Reading the destination then gives whatever was there
before: here, zeros. Synchronizing first gives the right answer.""", 'hazard'),
code("""if HAS_LINK:
    from d2l_ext.torch_copy import read_before_sync
    early, late = read_before_sync(x_lane1)
    print(f'relative error read at once: {early:.2f}; after torch.cuda.synchronize(): {late:.1e}')
else:
    print('No GPU: copies between host tensors are synchronous, so there is nothing to read too early here.')"""),
md("""## A model of the pipeline, to compare with the recordings

Each of K products takes *c* ms and each copy *m* ms. On one stream the total is K(c + m). With a compute stream
and a copy stream, copy `i` runs during product `i+1`, and the total drops to K·max(c, m) + min(c, m). The defaults
below, 2.6 ms per product and 1.2 ms per copy, are the per-product figures of the H200 recording above (0.131 s / 50
products; 64 MB at about 55 GB/s).""", 'model'),
code("""from d2l_ext.schedule import pipeline_model

for overlap in (False, True):
    m = pipeline_model(2.6, 1.2, 50, overlap=overlap)
    print(f"{'two streams' if overlap else 'one stream '}: total {m['total']:.1f} ms, "
          f"serial {m['serial_total']:.1f} ms, lower bound {m['ideal']:.1f} ms")"""),
code("""# NBVAL_IGNORE_OUTPUT
from d2l_ext.widgets import PipelinePanel

model = PipelinePanel(compute_ms=2.6, copy_ms=1.2, iters=10).show()"""),
md("""## MXNet

The book's MXNet version copies with `y.copyto(npx.cpu())`, or into pinned memory with `npx.cpu_pinned()`, and
lets the dependency engine order each copy after its product. It runs in its own worker process (see 13.3.1 for
why). The MXNet wheel installed here is CPU-only, so both destinations are host memory: the rows are a CPU analogue
in which the engine copies `y[i-1]` on one worker while another computes `y[i]`.""", 'mxnet'),
code("""if 'mxnet' in d2l_ext.available_frameworks():
    print(report.comm_text(experiments.comm('mxnet', repeats=5, lesson=True)))
else:
    print("MXNet is not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)")"""),
md("""## Try it yourself

Choose the size and the number of products; on a GPU also the destination, the stream and `non_blocking`. Press
**Run**; earlier runs stay in the table.""", 'widget'),
code("""# NBVAL_IGNORE_OUTPUT
from d2l_ext.widgets import CommPanel

panel = CommPanel(size=N if HAS_LINK else 400, iters=10, gpu=HAS_LINK).show()"""),
md("""## Results recorded on GPUs

Recorded with `python -m d2l_ext record`, labelled with the GPU, the versions and the date.

The recordings hold PyTorch only. MXNet's GPU build could not be installed on the GPU machines, and not even its
CPU build runs there: MXNet 1.9.1, its last release, needs numpy < 1.24, which has no wheels for the Python 3.12
those machines have.""", 'recorded'),
code("""from d2l_ext import recorded

print(recorded.comm_text_all())"""),
md("""## Summary

* Copies and computation use different resources (the link's copy engine and the GPU's cores), so they can overlap.
* They overlap only when the copy can run beside the computation: pinned destination memory, a separate copy stream,
  and events that order each copy after its own product.
* The book's `non_blocking=True` gains mostly from pinned memory and from not waiting per copy, not from overlap.
* A non-blocking result must not be read before synchronizing.

## Exercises

**3.** Use CPUs and GPUs together with communication between them. The experiment: lane 1 computes and copies each
result to host memory while lane 2 computes on its own; compare with one after the other.""", 'summary'),
code("""ex3 = experiments.cpu_gpu_together(repeats=3)
print(f"lanes: {', '.join(ex3['lanes'])}; size {ex3['size']}")
print(f"lane 1 compute + copy {ex3['lane1_compute_and_copy']:.4f} s, lane 2 compute {ex3['lane2_compute']:.4f} s")
print(f"one after the other {ex3['serial_sum']:.4f} s, together {ex3['together']:.4f} s, ideal {ex3['ideal']:.4f} s; "
      f"worst relative error {ex3['max_rel_error']:.1e}")"""),
md("""**4.** Check with a profiler that the code is efficient. The book points to NVIDIA Nsight; `torch.profiler` shows
the same in a notebook: the time spent in products (`aten::mm`) and in copies (`aten::copy_`, and `Memcpy DtoH` on
a GPU).""", 'ex4'),
code("""# NBVAL_IGNORE_OUTPUT
from torch.profiler import ProfilerActivity, profile

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if HAS_LINK else [])
with profile(activities=activities) as prof:
    y = run(x_lane1, K)
    y_cpu = copy_to_cpu(y, True)
    d2l_ext.wait_for_lanes([lane])
print(prof.key_averages().table(sort_by='cuda_time_total' if HAS_LINK else 'cpu_time_total', row_limit=6))"""),
]
