"""The dependency graph of Fig. 13.3.1, recorded from a real two-lane training step.

Used by 13.3.3. One SGD step of a two-layer MLP (X -> Linear -> ReLU -> Linear -> squared
loss) with the minibatch split over two lanes. Each lane runs forward, loss and backward;
the weight gradients are copied to the CPU (the parameter server), summed there, the SGD
update runs there, and the new weights are copied back to the lanes.

The graph is not drawn by hand: a TorchDispatchMode logs every aten op the step really runs,
and an edge joins op A to op B when B reads a tensor that A wrote. A copy between lanes is a
node of its own, on the link between them ('link:lane 0->cpu (parameter server)'); the edges
into and out of it have kind 'copy' and carry the bytes moved. Keeping the copy as one node
means one transfer is one scheduler task, so its bytes are counted once.

Lanes are named logically ('lane 0', 'lane 1', 'cpu (parameter server)'), so the graph has the
same shape on [cpu, cpu], [cuda:0, cpu] and [cuda:0, cuda:1]; the physical device is kept in
each node's 'device'.
"""

import contextlib
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from d2l_ext import schedule

LANES = ("lane 0", "lane 1")
SERVER = "cpu (parameter server)"
PARAM_NAMES = ("W1", "b1", "W2", "b2")
# Fashion-MNIST sized, as in the book's MLP chapters: 784 inputs, 256 hidden, 10 outputs.
DEFAULT_SIZES = {"batch": 256, "d_in": 784, "hidden": 256, "d_out": 10}

# The (lane, stage) the step is in right now. The step code sets it; the recorder reads it.
# Ops run while it is empty (placing data and weights on the lanes) are not recorded. One
# stack per thread: run_step runs the two lanes in two threads at once.
_LOCAL = threading.local()


def _marks():
    if not hasattr(_LOCAL, "marks"):
        _LOCAL.marks = []
    return _LOCAL.marks


@contextlib.contextmanager
def _stage(lane, stage):
    """Label the ops run inside with a lane and a book-level stage name."""
    _marks().append((lane, stage))
    try:
        yield
    finally:
        _marks().pop()


# ---------------------------------------------------------------------------------------
# The training step itself: plain PyTorch, gradients written out so each op has a stage.
# ---------------------------------------------------------------------------------------

def make_problem(batch=256, d_in=784, hidden=256, d_out=10, seed=0):
    """Weights on the CPU and one minibatch (X, Y), the same on every machine. Used by 13.3.3."""
    g = torch.Generator().manual_seed(seed)
    params = {
        "W1": torch.randn(d_in, hidden, generator=g) * 0.05,
        "b1": torch.randn(hidden, generator=g) * 0.05,
        "W2": torch.randn(hidden, d_out, generator=g) * 0.05,
        "b2": torch.randn(d_out, generator=g) * 0.05,
    }
    X = torch.randn(batch, d_in, generator=g)
    Y = torch.randn(batch, d_out, generator=g)
    return params, X, Y


def _place_on_lanes(params, X, Y, devices):
    """Copy the weights and half of the minibatch to each lane (before the step starts)."""
    if len(devices) != 2:
        raise ValueError(f"the step uses two lanes; got {len(devices)} devices: {devices}")
    lanes = []
    # copy=True so each lane owns its tensors even when both lanes are the CPU.
    for device, Xi, Yi in zip(devices, X.tensor_split(2), Y.tensor_split(2)):
        device = torch.device(device)
        lanes.append({
            "device": device,
            "params": {k: params[k].to(device, copy=True) for k in PARAM_NAMES},
            "X": Xi.to(device, copy=True),
            "Y": Yi.to(device, copy=True),
        })
    return lanes


def _lane_forward_backward(lane_name, lane, n_total):
    """Forward, squared loss and backward on one lane; returns (loss, grads).

    The loss is summed over the lane's rows and divided by the WHOLE minibatch size, so
    lane 0's loss + lane 1's loss is exactly the full-batch mean loss, and so are the grads.
    """
    W1, b1, W2, b2 = (lane["params"][k] for k in PARAM_NAMES)
    X, Y = lane["X"], lane["Y"]
    with _stage(lane_name, "fc1 fwd"):
        Z1 = torch.addmm(b1, X, W1)
    with _stage(lane_name, "relu"):
        H = torch.relu(Z1)
    with _stage(lane_name, "fc2 fwd"):
        O = torch.addmm(b2, H, W2)
    with _stage(lane_name, "loss"):
        D = O - Y
        loss = (D * D).sum() * (0.5 / n_total)
        dO = D * (1.0 / n_total)  # d loss / d O
    with _stage(lane_name, "fc2 bwd"):
        dW2 = H.t() @ dO
        db2 = dO.sum(0)
        dH = dO @ W2.t()
    with _stage(lane_name, "relu bwd"):
        dZ1 = dH * (Z1 > 0)
    with _stage(lane_name, "fc1 bwd"):
        dW1 = X.t() @ dZ1
        db1 = dZ1.sum(0)
    return loss, {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}


def _step_on_lanes(params, lanes, lr, n_total):
    """The recorded part of the step: lanes -> grad copy -> sum -> update -> weight copy."""
    losses, grads = [], []
    for name, lane in zip(LANES, lanes):
        loss, g = _lane_forward_backward(name, lane, n_total)
        losses.append(loss)
        grads.append(g)
    return _server_update(params, lanes, grads, lr), losses


def _server_update(params, lanes, grads, lr):
    """Grad copy -> sum -> update -> weight copy; the server is wherever `params` live."""
    server = params["W1"].device  # the CPU in a real step, the meta device in model_graph
    # The copy is labelled with the lane it lands on; the recorder sees where it came from.
    with _stage(SERVER, "grad copy"):
        on_server = [{k: g[k].to(server, copy=True) for k in PARAM_NAMES} for g in grads]
    with _stage(SERVER, "sum"):
        total = {k: on_server[0][k] + on_server[1][k] for k in PARAM_NAMES}
    with _stage(SERVER, "update"):
        new = {k: torch.add(params[k], total[k], alpha=-lr) for k in PARAM_NAMES}
    for name, lane in zip(LANES, lanes):
        with _stage(name, "weight copy"):
            lane["params"] = {k: new[k].to(lane["device"], copy=True) for k in PARAM_NAMES}
    return new


def parallel_step(params, X, Y, devices, lr=0.1):
    """One SGD step with the minibatch split over two devices -> (new params on CPU, loss). Used by 13.3.3."""
    lanes = _place_on_lanes(params, X, Y, devices)
    with torch.no_grad():
        new, losses = _step_on_lanes(params, lanes, lr, X.shape[0])
    return new, float(sum(loss.item() for loss in losses))


def single_device_step(params, X, Y, device="cpu", lr=0.1):
    """The same SGD step on one device with the whole minibatch, via autograd. Used by 13.3.3."""
    device = torch.device(device)
    p = {k: params[k].to(device, copy=True).requires_grad_() for k in PARAM_NAMES}
    X, Y = X.to(device), Y.to(device)
    O = torch.addmm(p["b2"], torch.relu(torch.addmm(p["b1"], X, p["W1"])), p["W2"])
    loss = 0.5 * ((O - Y) ** 2).sum() / X.shape[0]
    loss.backward()
    with torch.no_grad():
        new = {k: (p[k] - lr * p[k].grad).cpu() for k in PARAM_NAMES}
    return new, loss.item()


def as_lanes(lanes):
    """Lane objects for run_lanes; device names ('cpu', 'cuda:0') are made into lanes.

    A device name given twice as 'cpu' becomes two CPU lanes with half of the cores each, as
    find_lanes does on a CPU-only machine.
    """
    from .lanes import Lane
    from .machine import cpu_cores

    lanes = list(lanes or ["cpu", "cpu"])
    n_cpu = sum(1 for x in lanes if not hasattr(x, "device") and torch.device(x).type == "cpu")
    out = []
    for i, x in enumerate(lanes):
        if hasattr(x, "device") and hasattr(x, "asynchronous"):
            out.append(x)
            continue
        d = torch.device(x)
        if d.type == "cuda":
            idx = d.index or 0
            out.append(Lane("torch", f"cuda:{idx}", "gpu", idx, f"GPU {idx}", "a GPU", 0, True))
        else:
            cores = cpu_cores()
            share = max(1, cores // max(1, n_cpu))
            out.append(Lane("torch", f"cpu{i}", "cpu", i, f"CPU lane {i + 1} ({share} of {cores} cores)",
                            "a Python thread on the CPU", share, False))
    return out


# One long-lived worker thread per lane, made on first use. A CPU lane's thread sets its
# share of the cores once; a GPU lane's makes its device current once. Starting threads and
# resizing PyTorch's thread team at every step costs about a millisecond each time (measured on
# a 2-core CPU), as long as a whole lane's share of a batch-256 step.
_WORKERS = {}


def _lane_worker(lane):
    key = (lane.kind, lane.index, lane.threads)
    if key not in _WORKERS:
        def setup():
            if lane.kind == "cpu":
                torch.set_num_threads(max(1, lane.threads))  # per thread: this lane's share
            else:
                torch.cuda.set_device(lane.index)  # a new thread has no current CUDA context
        _WORKERS[key] = ThreadPoolExecutor(1, thread_name_prefix=f"d2l-lane-{lane.name}",
                                           initializer=setup)
    return _WORKERS[key]


def run_lanes(lanes, jobs):
    """jobs[i]() on lanes[i], all at once -> their results. Used by 13.3.3.

    A CPU lane's job runs in that lane's worker thread (PyTorch runs CPU work to completion, so
    two CPU lanes need two threads); a GPU lane's job is queued from this thread and returns at
    once. Wait for the lanes' devices before reading GPU results.
    """
    futures = {i: _lane_worker(lane).submit(jobs[i]) for i, lane in enumerate(lanes)
               if not lane.asynchronous}
    results = [None] * len(lanes)
    for i, lane in enumerate(lanes):
        if lane.asynchronous:
            results[i] = jobs[i]()
    for i, f in futures.items():
        results[i] = f.result()  # re-raises a lane's exception here
    return results


def _lane_jobs(placed, n_total):
    """One job per lane: forward, loss and backward on that lane's half of the minibatch."""
    def job(name, lane):
        def run():
            with torch.no_grad():  # grad mode is per thread: say it in the lane's own thread
                return _lane_forward_backward(name, lane, n_total)
        return run
    return [job(name, lane) for name, lane in zip(LANES, placed)]


def run_step(params, X, Y, lanes=None, lr=0.1, together=True):
    """One SGD step really run on two lanes -> (new params on CPU, loss). Used by 13.3.3.

    together=True starts both lanes at once (a GPU lane is queued, a CPU lane gets its own
    Python thread with its share of the cores, as in 13.3.1); together=False runs lane 0, waits
    for it, then lane 1. The gradient sum and the update then run on the CPU, as in Fig. 13.3.1.
    """
    from .timing import wait_for_lanes

    lanes = as_lanes(lanes)
    placed = _place_on_lanes(params, X, Y, [lane.device() for lane in lanes])
    step = _two_lane_step(params, placed, lanes, lr, X.shape[0], together)
    new, losses = step()
    wait_for_lanes(lanes)
    return new, float(sum(loss.item() for loss in losses))


def _two_lane_step(params, placed, lanes, lr, n_total, together):
    """A callable doing one step on data already placed on the lanes (timed by time_step)."""
    from .timing import wait_for_lanes

    jobs = _lane_jobs(placed, n_total)

    def step():
        if together:
            results = run_lanes(lanes, jobs)
        else:
            results = []
            for lane, job in zip(lanes, jobs):
                results += run_lanes([lane], [job])
                wait_for_lanes([lane])
        with torch.no_grad():
            new = _server_update(params, placed, [g for _, g in results], lr)
        return new, [loss for loss, _ in results]
    return step


def _one_device_step(params, X, Y, lane, lr):
    """The whole minibatch on one lane with no copies: what a single device would do."""
    from .machine import cpu_cores

    dev = lane.device()
    data = {"device": dev, "params": {k: params[k].to(dev, copy=True) for k in PARAM_NAMES},
            "X": X.to(dev, copy=True), "Y": Y.to(dev, copy=True)}
    threads = cpu_cores() if lane.kind == "cpu" else 0

    def step():
        from .torch_work import intra_op_threads
        with torch.no_grad(), intra_op_threads(threads):
            _, g = _lane_forward_backward(LANES[0], data, X.shape[0])
            data["params"] = {k: torch.add(data["params"][k], g[k], alpha=-lr) for k in PARAM_NAMES}
        return data["params"]
    return step


STEP_VARIANTS = ("one device, whole minibatch, no copies", "two lanes, one after the other",
                 "two lanes together")


def time_step(lanes=None, problem=None, repeats=5, lr=0.1, variants=STEP_VARIANTS):
    """Time one training step up to three ways on this machine's lanes. Used by 13.3.3.

    'one device' runs the whole minibatch on lane 1's device (all cores on a CPU) with no
    copies; 'one after the other' runs the two lanes in turn; 'together' runs them at once.
    Each is warmed up once, then timed `repeats` times, waiting for every device (median, IQR).
    """
    from .timing import measure

    unknown = [v for v in variants if v not in STEP_VARIANTS]
    if unknown:
        raise ValueError(f"unknown variants {unknown}; choose from {STEP_VARIANTS}")
    lanes = as_lanes(lanes)
    params, X, Y = problem or make_problem(**DEFAULT_SIZES)
    placed = _place_on_lanes(params, X, Y, [lane.device() for lane in lanes])
    make = {
        STEP_VARIANTS[0]: lambda: _one_device_step(params, X, Y, lanes[0], lr),
        STEP_VARIANTS[1]: lambda: _two_lane_step(params, placed, lanes, lr, X.shape[0], False),
        STEP_VARIANTS[2]: lambda: _two_lane_step(params, placed, lanes, lr, X.shape[0], True),
    }
    times = {k: measure(make[k](), lanes=lanes, label=k, repeats=repeats).as_dict()
             for k in STEP_VARIANTS if k in variants}
    out = {"lanes": [lane.label for lane in lanes], "batch": X.shape[0], "times": times}
    if STEP_VARIANTS[2] in times:
        together = times[STEP_VARIANTS[2]]["median"]
        if STEP_VARIANTS[1] in times:
            out["speedup"] = times[STEP_VARIANTS[1]]["median"] / together
        if STEP_VARIANTS[0] in times:
            out["vs_one_device"] = times[STEP_VARIANTS[0]]["median"] / together
    return out


def check_step_matches(devices=None, problem=None, lr=0.1, rtol=1e-5, atol=1e-6, lanes=None):
    """Do the two-lane step and the one-device step give the same weights? Used by 13.3.3.

    With `lanes`, the two-lane step really runs on them at once (run_step); with `devices`
    only, the lanes run one after the other in this thread (parallel_step).
    fp32 sums in a different order differ by a few ulps, hence rtol 1e-5 (plus atol 1e-6 for
    entries near zero). 'match' also needs the step to have moved the weights at all.
    Print only 'match' in a notebook: max_abs_diff and the losses' last digits vary by machine.
    """
    params, X, Y = problem or make_problem(**DEFAULT_SIZES)
    if lanes is not None:
        lanes = as_lanes(lanes)
        split, loss_split = run_step(params, X, Y, lanes, lr, together=True)
        first = lanes[0].device()
    else:
        devices = devices or ["cpu", "cpu"]
        split, loss_split = parallel_step(params, X, Y, devices, lr)
        first = devices[0]
    whole, loss_whole = single_device_step(params, X, Y, first, lr)
    diff = max((split[k] - whole[k]).abs().max().item() for k in PARAM_NAMES)
    ok = all(torch.allclose(split[k], whole[k], rtol=rtol, atol=atol) for k in PARAM_NAMES)
    moved = max((split[k] - params[k]).abs().max().item() for k in PARAM_NAMES)
    return {"match": bool(ok and moved > 0), "max_abs_diff": diff, "rtol": rtol, "atol": atol,
            "loss_split": loss_split, "loss_whole": loss_whole}


# ---------------------------------------------------------------------------------------
# Recording the graph from the ops that really run.
# ---------------------------------------------------------------------------------------

_VIEW_OPS = {"t", "transpose", "view", "_unsafe_view", "expand", "alias", "detach",
             "as_strided", "reshape", "permute", "slice", "select", "unsqueeze", "squeeze"}
_COPY_OPS = {"_to_copy", "copy_"}


def _tensors_in(obj):
    """Every tensor inside nested lists, tuples and dicts, in order."""
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for x in obj for t in _tensors_in(x)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in _tensors_in(x)]
    return []


def _nbytes(t):
    return t.numel() * t.element_size()


def _flops(op, ins, outs):
    """Rough floating point operations of one aten op (a matrix product counts 2 per MAC)."""
    if op in _VIEW_OPS or op in _COPY_OPS or not outs:
        return 0
    if op in ("mm", "addmm"):
        a, b = (ins[-2], ins[-1])
        n, k = a.shape
        m = b.shape[1]
        return 2 * n * k * m + (n * m if op == "addmm" else 0)
    if op == "sum":
        return ins[0].numel()
    return outs[0].numel()  # elementwise: one op per output element


class _GraphRecorder(TorchDispatchMode):
    """Logs each aten op run under a stage mark as a node, and data flow as edges."""

    def __init__(self, keep_calls=False):
        super().__init__()
        self.nodes, self.edges, self.calls = [], [], []
        self._producer = {}  # id(tensor) -> (node id, lane holding it, tensor key)
        self._alive = []  # keep tensors alive so a Python id is never reused during recording
        self._keep_calls = keep_calls

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        marks = _marks()
        if not marks:
            return out
        lane, stage = marks[-1]
        op = func.overloadpacket.__name__
        ins, outs = _tensors_in((args, kwargs)), _tensors_in(out)
        if not outs:
            return out
        is_copy, src_lane, src_dev = False, lane, outs[0].device
        if op in _COPY_OPS:
            src = args[1] if op == "copy_" else args[0]  # copy_(dst, src) vs _to_copy(src)
            src_lane = self._producer[id(src)][1] if id(src) in self._producer else "host"
            src_dev = src.device
            # Two lanes on one CPU have no device change, so the logical lane counts too.
            is_copy = src_dev != outs[0].device or src_lane != lane
        node_id = len(self.nodes)
        node = {
            "id": node_id, "name": op, "op": str(func), "stage": stage,
            "kind": "copy" if is_copy else "compute",
            "lane": f"link:{src_lane}->{lane}" if is_copy else lane,
            "device": f"{src_dev}->{outs[0].device}" if is_copy else str(outs[0].device),
            "in_shapes": [tuple(t.shape) for t in ins],
            "out_shapes": [tuple(t.shape) for t in outs],
            "dtype": str(outs[0].dtype).replace("torch.", ""),
            "flops": _flops(op, ins, outs),
            "bytes": sum(_nbytes(t) for t in outs) if is_copy else 0,
        }
        self.nodes.append(node)
        seen = set()
        for t in ins:
            if id(t) in self._producer and id(t) not in seen:
                seen.add(id(t))  # D * D reads D twice: one edge
                src, _, tensor = self._producer[id(t)]
                self.edges.append({"src": src, "dst": node_id, "tensor": tensor,
                                   "shapes": [tuple(t.shape)], "bytes": _nbytes(t)})
        for k, t in enumerate(outs):
            # A copy's output lives on the lane it landed on, not on the link.
            self._producer[id(t)] = (node_id, lane, f"{node_id}:{k}")
        self._alive.append((ins, outs))
        if self._keep_calls:
            self.calls.append((func, args, kwargs))
        return out


def _edge_kinds(g):
    """An edge is 'copy' when it enters or leaves a copy node, else 'data'."""
    kind = {n["id"]: n["kind"] for n in g["nodes"]}
    for e in g["edges"]:
        e["kind"] = "copy" if "copy" in (kind[e["src"]], kind[e["dst"]]) else "data"
    return g


def record_step_graph(devices=None, problem=None, lr=0.1, keep_calls=False):
    """Run one two-lane step and return its op-level dependency graph. Used by 13.3.3.

    Returns {'nodes': [...], 'edges': [...], 'devices': [...]}; each node has id, name (aten
    op), stage, kind ('compute'/'copy'), lane, device, shapes, dtype, flops and bytes.
    """
    devices = [_device_of(d) for d in (devices or ["cpu", "cpu"])]
    params, X, Y = problem or make_problem(**DEFAULT_SIZES)
    lanes = _place_on_lanes(params, X, Y, devices)  # before recording: not part of the step
    rec = _GraphRecorder(keep_calls=keep_calls)
    with torch.no_grad(), rec:
        _step_on_lanes(params, lanes, lr, X.shape[0])
    g = {"nodes": rec.nodes, "edges": rec.edges, "devices": [str(d) for d in devices]}
    if keep_calls:
        g["calls"] = rec.calls  # (func, args, kwargs) per node, for measure_node_costs
    return _edge_kinds(g)


def _device_of(x):
    """torch.device of a Lane (find_lanes) or of a device name."""
    return x.device() if hasattr(x, "device") and callable(x.device) else torch.device(x)


def model_graph(batch=256, hidden=256, d_in=784, d_out=10, coarse=True):
    """The step's graph for any sizes, without doing the arithmetic. Used by 13.3.3.

    The same step code runs on PyTorch's 'meta' device: tensors with shapes and no data, so
    every op, shape, FLOP count and copied byte is recorded as on a real device, in
    microseconds and with no memory. Node devices read 'model'.
    """
    for name, v in (("batch", batch), ("hidden", hidden), ("d_in", d_in), ("d_out", d_out)):
        if int(v) != v or v < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {v!r}")
    if batch < 2:
        raise ValueError(f"batch must be at least 2 to split over two lanes, got {batch}")
    meta = torch.device("meta")
    shapes = {"W1": (d_in, hidden), "b1": (hidden,), "W2": (hidden, d_out), "b2": (d_out,)}
    params = {k: torch.empty(shape, device=meta) for k, shape in shapes.items()}
    X, Y = torch.empty(batch, d_in, device=meta), torch.empty(batch, d_out, device=meta)
    lanes = _place_on_lanes(params, X, Y, [meta, meta])
    rec = _GraphRecorder()
    with torch.no_grad(), rec:
        _step_on_lanes(params, lanes, 0.1, batch)
    for n in rec.nodes:
        n["device"] = n["device"].replace("meta", "model")
    g = _edge_kinds({"nodes": rec.nodes, "edges": rec.edges, "devices": ["model", "model"]})
    return coarsen_graph(g) if coarse else g


def coarsen_graph(g):
    """Merge the ops of each (lane, stage) into one book-level node, e.g. 'fc1 fwd'. Used by 13.3.3."""
    groups, order = {}, []
    for n in g["nodes"]:
        key = f"{n['stage']} [{n['lane']}]"
        if key not in groups:
            order.append(key)
            groups[key] = {"id": key, "name": n["stage"], "stage": n["stage"],
                           "kind": n["kind"], "lane": n["lane"], "device": n["device"],
                           "ops": [], "flops": 0, "bytes": 0}
        c = groups[key]
        c["ops"].append(n["id"])
        c["flops"] += n["flops"]
        c["bytes"] += n["bytes"]
    where = {i: key for key in order for i in groups[key]["ops"]}
    edges, seen_tensor = {}, set()
    for e in g["edges"]:
        a, b = where[e["src"]], where[e["dst"]]
        if a == b:
            continue
        edge = edges.setdefault((a, b), {"src": a, "dst": b, "kind": e["kind"],
                                         "shapes": [], "bytes": 0})
        if e["kind"] == "copy":
            edge["kind"] = "copy"
        # A tensor read by several ops of the next stage still crosses once.
        if (e["tensor"], b) not in seen_tensor:
            seen_tensor.add((e["tensor"], b))
            edge["shapes"].append(e["shapes"][0])
            edge["bytes"] += e["bytes"]
    return {"nodes": [groups[k] for k in order], "edges": list(edges.values()),
            "devices": list(g["devices"])}


def graph_summary(g):
    """Counts that do not depend on timing, for printing in a notebook. Used by 13.3.3."""
    kinds = {}
    for e in g["edges"]:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    compute = [n for n in g["nodes"] if n["kind"] == "compute"]
    return {
        "nodes": len(g["nodes"]),
        "edges": dict(sorted(kinds.items())),
        "lanes": sorted({n["lane"] for n in compute}),
        "devices": sorted({n["device"] for n in compute}),
        "copies": sum(1 for n in g["nodes"] if n["kind"] == "copy"),
        "bytes_copied": sum(n["bytes"] for n in g["nodes"] if n["kind"] == "copy"),
        "flops": sum(n["flops"] for n in g["nodes"]),
    }


# ---------------------------------------------------------------------------------------
# From graph to schedule: modelled and measured costs.
# ---------------------------------------------------------------------------------------

def _speed_for(node, device_speed):
    for key in (node["lane"], node["device"], "default"):
        if key in device_speed:
            return float(device_speed[key])
    raise ValueError(f"device_speed has no entry for lane {node['lane']!r} or device "
                     f"{node['device']!r}; add one (FLOP/s) or a 'default'")


def task_costs(g, device_speed, link_bandwidth, measured=None):
    """Turn a graph into scheduler tasks: flops/speed for compute, bytes/bandwidth for copies. Used by 13.3.3.

    device_speed maps a lane name ('lane 0'), a device ('cpu', 'cuda:0') or 'default' to FLOP/s;
    link_bandwidth is bytes/s for every link. measured (node id -> seconds) overrides both.
    Each direction of each link is its own resource, as a PCIe link carries both at once.
    """
    # Coarse ids read well ('fc1 fwd [lane 0]'); raw ids are numbers, so add the op's name.
    name = {n["id"]: n["id"] if isinstance(n["id"], str) else f"{n['name']} #{n['id']}"
            for n in g["nodes"]}
    preds = {}
    for e in g["edges"]:
        preds.setdefault(e["dst"], []).append(name[e["src"]])
    tasks = []
    for n in g["nodes"]:
        if measured is not None and n["id"] in measured:
            cost = float(measured[n["id"]])
        elif n["kind"] == "copy":
            if not link_bandwidth or link_bandwidth <= 0:
                raise ValueError("link_bandwidth (bytes/s) must be > 0 to cost the copies")
            cost = n["bytes"] / float(link_bandwidth)
        else:
            cost = n["flops"] / _speed_for(n, device_speed or {})
        deps = tuple(dict.fromkeys(preds.get(n["id"], [])))
        tasks.append(schedule.Task(name[n["id"]], cost, n["lane"], deps))
    return tasks


def schedule_step(g, device_speed=None, link_bandwidth=None, measured=None):
    """Serial total, scheduled total and critical path of one step. Used by 13.3.3."""
    tasks = task_costs(g, device_speed, link_bandwidth, measured)
    events = schedule.earliest_start_schedule(tasks)
    length, path = schedule.critical_path(tasks)
    return {"serial_total": schedule.serial_total(tasks), "total": schedule.schedule_total(events),
            "critical_path_s": length, "critical_path": path, "events": events}


# The book's setting as a model (Fig. 13.3.1): two GPUs and a CPU parameter server over PCIe.
# Round numbers assumed for illustration, not measurements: a V100-class GPU reaches about
# 10 TFLOP/s on these small fp32 products (15.7 peak), a CPU about 0.1 TFLOP/s, and PCIe 3.0
# x16 about 12 GB/s in each direction.
BOOK_SETTING = {"device_speed": {"lane 0": 10e12, "lane 1": 10e12, SERVER: 0.1e12},
                "link_bandwidth": 12e9}


def _fmt_time(seconds, unit):
    """'µs' -> 1 decimal (model numbers, the same on every machine); 's' -> 4 decimals."""
    if unit == "µs":
        return f"{seconds * 1e6:.1f} µs"
    if unit == "ms":
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.4f} s"


def schedule_text(r, unit="µs", path=True):
    """Serial total, scheduled total, critical path and speedups of schedule_step. Used by 13.3.3.

    unit 'µs' for modelled costs (identical everywhere); 's' for measured ones (sanitizable).
    path=False leaves out the critical path's nodes (for measured costs: it can change run to run).
    """
    lines = [f"  serial total (one node at a time):     {_fmt_time(r['serial_total'], unit)}",
             f"  scheduled total (earliest start):     {_fmt_time(r['total'], unit)}",
             f"  critical-path bound (no schedule can beat it): {_fmt_time(r['critical_path_s'], unit)}",
             f"  speedup of the schedule {r['serial_total'] / r['total']:.2f}x "
             f"(bound: {r['serial_total'] / r['critical_path_s']:.2f}x)"]
    if path:
        lines.append("  critical path: " + " -> ".join(r["critical_path"]))
    return "\n".join(lines)


def summary_text(g, title="graph"):
    """graph_summary as a few readable lines (deterministic). Used by 13.3.3."""
    s = graph_summary(g)
    n_edges = sum(s["edges"].values())
    kinds = ", ".join(f"{v} {k}" for k, v in s["edges"].items())
    return (f"{title}: {s['nodes']} nodes, {n_edges} edges ({kinds})\n"
            f"  lanes: {', '.join(s['lanes'])}; devices: {', '.join(s['devices'])}\n"
            f"  copies: {s['copies']} copy nodes moving {s['bytes_copied']:,} bytes "
            f"({_fmt_bytes(s['bytes_copied'])}); arithmetic: {s['flops']:,} FLOP")


def stage_ops_text(raw, lane=LANES[0]):
    """Which aten ops each book-level box of one lane is made of, with shapes. Used by 13.3.3."""
    def shape(t):
        return "x".join(map(str, t)) or "scalar"
    rows, by_stage = [], {}
    for n in raw["nodes"]:
        if n["lane"] == lane or n["lane"].endswith("->" + lane) or n["lane"].startswith(f"link:{lane}->"):
            by_stage.setdefault(n["stage"], []).append(
                f"{n['name']}({', '.join(shape(t) for t in n['in_shapes'])})")
    for stage, ops in by_stage.items():
        rows.append(f"  {stage:12s} {'; '.join(ops)}")
    return f"ops recorded for {lane} and its copies:\n" + "\n".join(rows)


def step_timing_text(t):
    """time_step's medians as lines that sanitize (seconds and 'x' ratios). Used by 13.3.3."""
    lines = [f"one training step, batch {t['batch']}, lanes: {' + '.join(t['lanes'])}"]
    for k, m in t["times"].items():
        lines.append(f"  {k:40s} {m['median']:.4f} s  (IQR {m['iqr']:.4f} s)")
    if "speedup" in t and "vs_one_device" in t:
        lines.append(f"  two lanes together: {t['speedup']:.2f}x the speed of the lanes one after "
                     f"the other, {t['vs_one_device']:.2f}x the speed of one device")
    return "\n".join(lines)


def _sync(devices):
    for d in devices:
        if torch.device(d).type == "cuda":
            torch.cuda.synchronize(d)


def measure_node_costs(devices=None, problem=None, repeats=5):
    """Time each book-level node on this machine (median of repeats, seconds). Used by 13.3.3.

    The ops recorded for a node are run again with the same inputs, one node at a time, so
    the numbers are what each node costs alone; the schedule then shows what overlap buys.
    `devices` may be find_lanes() lanes: a CPU lane's nodes then run in that lane's worker
    thread with its share of the cores (as they do when both lanes run at once), the server's
    and the copies in this thread with all of them.
    Returns (coarse graph, {node id: seconds}).
    """
    given = list(devices or ["cpu", "cpu"])
    lane_of = dict(zip(LANES, as_lanes(given) if all(hasattr(x, "asynchronous") for x in given) else []))
    raw = record_step_graph(given, problem, keep_calls=True)
    coarse = coarsen_graph(raw)
    devs = raw["devices"]

    def timed(calls):
        times = []
        with torch.no_grad():
            for r in range(repeats + 1):  # the first run warms caches and is dropped
                _sync(devs)
                t0 = time.perf_counter()
                for func, args, kwargs in calls:
                    func(*args, **kwargs)
                _sync(devs)
                if r:
                    times.append(time.perf_counter() - t0)
        return statistics.median(times)

    costs = {}
    for node in coarse["nodes"]:
        calls = [raw["calls"][i] for i in node["ops"]]
        lane = lane_of.get(node["lane"])
        if lane is not None and lane.kind == "cpu":
            costs[node["id"]] = _lane_worker(lane).submit(timed, calls).result()
        else:
            costs[node["id"]] = timed(calls)
    return coarse, costs


# ---------------------------------------------------------------------------------------
# Drawing, with matplotlib only.
# ---------------------------------------------------------------------------------------

def _row_order(g, rows=None):
    """Compute lanes top to bottom with the parameter server in the middle; links between."""
    lanes = [lane for lane in rows or () if any(n["lane"] == lane for n in g["nodes"])]
    for n in g["nodes"]:
        if n["kind"] == "compute" and n["lane"] not in lanes:
            lanes.append(n["lane"])
    if SERVER in lanes:
        lanes.remove(SERVER)
        lanes.insert(len(lanes) // 2, SERVER)
    y = {lane: 2.0 * i for i, lane in enumerate(lanes)}
    for n in g["nodes"]:
        if n["lane"] not in y:  # a link sits halfway between the lanes it joins
            a, _, b = n["lane"][len("link:"):].partition("->")
            y[n["lane"]] = (y.get(a, 0.0) + y.get(b, 0.0)) / 2
    return lanes, y


def _layers(g):
    """Column of each node: the longest chain of nodes before it (a layered layout)."""
    preds = {}
    for e in g["edges"]:
        preds.setdefault(e["dst"], []).append(e["src"])
    depth = {}
    for n in g["nodes"]:  # recorded order is already a topological order
        depth[n["id"]] = 1 + max((depth[p] for p in preds.get(n["id"], [])), default=-1)
    return depth


def _fmt_bytes(b):
    return f"{b / 2**20:.1f} MiB" if b >= 2**20 else f"{b / 2**10:.0f} KiB" if b >= 2**10 else f"{b} B"


def draw_graph(g, ax=None, label_edges=None, title=None, rows=None):
    """Draw a (coarse) dependency graph: one row per lane, columns by dependency depth. Used by 13.3.3.

    rows: lane names in the order to draw them, top first (default: as they first appear).

    Hand-made layout rather than graphviz or networkx: neither is guaranteed to be installed,
    and rows-per-lane is exactly the picture of Fig. 13.3.1. Returns the Figure.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    lanes, y = _row_order(g, rows)
    depth = _layers(g)
    ncols = max(depth.values(), default=0) + 1
    if ax is None:
        # A Figure not made by pyplot: Jupyter shows it once, as the cell's value.
        fig = Figure(figsize=(max(8.0, 1.35 * ncols), 1.0 + 1.1 * max(y.values(), default=1)))
        ax = fig.add_subplot()
    fig = ax.figure
    colours = {lane: f"C{i}" for i, lane in enumerate(lanes)}
    device_of = {n["lane"]: n["device"] for n in g["nodes"]}
    # Nodes sharing a row and a column are spread vertically so none hides another.
    slot, pos = {}, {}
    for n in g["nodes"]:
        slot.setdefault((n["lane"], depth[n["id"]]), []).append(n["id"])
    for (lane, col), ids in slot.items():
        for k, i in enumerate(ids):
            off = 0.0 if len(ids) == 1 else -0.4 + 0.8 * k / (len(ids) - 1)
            pos[i] = (float(col), y[lane] + off)
    small = len(g["nodes"]) > 30
    ax.set_xlim(-0.7, ncols - 0.3)
    ax.set_ylim(max(y.values(), default=0) + 0.8, -0.8)  # first lane on top
    for n in g["nodes"]:
        x0, y0 = pos[n["id"]]
        face = "0.85" if n["kind"] == "copy" else colours[n["lane"]]
        ax.text(x0, y0, n["name"], ha="center", va="center", fontsize=6 if small else 8,
                color="black" if n["kind"] == "copy" else "white", zorder=3,
                bbox={"boxstyle": "round,pad=0.3", "fc": face, "ec": "0.3", "lw": 0.6})
    middle = max(y.values(), default=0) / 2
    if label_edges is None:
        label_edges = len(g["edges"]) <= 40
    for e in g["edges"]:
        (x1, y1), (x2, y2) = pos[e["src"]], pos[e["dst"]]
        # An arrow skipping columns would run through the boxes between: bend it away from
        # its own row (down from rows in the top half, up from rows in the bottom half).
        rad = 0.0 if x2 - x1 <= 1 else (0.2 if y1 <= middle else -0.2)
        copy = e["kind"] == "copy"
        ax.annotate("", xy=(x2, y2), xytext=(x1, y1), zorder=1,
                    arrowprops={"arrowstyle": "-|>", "lw": 0.8, "color": "0.35",
                                "linestyle": "--" if copy else "-", "shrinkA": 14, "shrinkB": 14,
                                "connectionstyle": f"arc3,rad={rad}"})
        if not label_edges:
            continue
        if copy:
            text = _fmt_bytes(e["bytes"])
        elif len(e["shapes"]) == 1:
            text = "×".join(str(s) for s in e["shapes"][0]) or "scalar"
        else:
            text = f"{len(e['shapes'])} tensors"
        # Midpoint of the arc, worked out in display units as matplotlib's arc3 does.
        (d1x, d1y), (d2x, d2y) = ax.transData.transform([(x1, y1), (x2, y2)])
        mid = ((d1x + d2x) / 2 + 0.5 * rad * (d2y - d1y), (d1y + d2y) / 2 - 0.5 * rad * (d2x - d1x))
        xm, ym = ax.transData.inverted().transform(mid)
        ax.text(xm, ym, text, fontsize=6, ha="center", va="center", color="0.2", zorder=2,
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8})
    handles = [Patch(color=colours[lane], label=f"{lane} ({device_of[lane]})" if device_of[lane] else lane)
               for lane in lanes]
    if any(n["kind"] == "copy" for n in g["nodes"]):
        handles.append(Patch(fc="0.85", ec="0.3", label="copy (dashed: bytes moved)"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.02),
              ncol=len(handles), fontsize=8, frameon=False)
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    return fig


# ---------------------------------------------------------------------------------------
# Exercise 5: a DAG of matrix products with more complex dependencies, on two lanes.
# ---------------------------------------------------------------------------------------

def diamond_dag(stages=3, arms=(1, 2, 3), cross=True):
    """The tasks of exercise 5 -> [{'name', 'deps'}] in a dependency order. Used by 13.3.3.

    Each stage is a diamond with unequal arms: arm a has arms[0] products in a chain, arm b
    arms[1], ...; every arm starts from the previous stage's join (the input x for stage 1);
    the join reads the end of every arm. With cross=True the last product of each arm but the
    first also reads the first product of the arm before it, so arms are not independent.
    Names: '2b1' is stage 2, arm b, product 1; '2J' is stage 2's join.
    """
    if stages < 1 or not arms or min(arms) < 1:
        raise ValueError("need stages >= 1 and at least one arm of length >= 1")
    letters = "abcdefghij"
    if len(arms) > len(letters):
        raise ValueError(f"at most {len(letters)} arms")
    tasks, prev = [], "x"
    for s in range(1, stages + 1):
        ends = []
        for j, length in enumerate(arms):
            for k in range(1, length + 1):
                deps = [prev] if k == 1 else [f"{s}{letters[j]}{k - 1}"]
                if cross and j > 0 and k == length and length > 1:
                    deps.append(f"{s}{letters[j - 1]}1")
                tasks.append({"name": f"{s}{letters[j]}{k}", "deps": deps})
            ends.append(f"{s}{letters[j]}{length}")
        tasks.append({"name": f"{s}J", "deps": ends})
        prev = f"{s}J"
    return tasks


def dag_problem(dag, n, seed=0):
    """Input x (n x n) and one weight matrix per task, fp32 on the CPU, the same everywhere."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n, generator=g)
    weights = {t["name"]: torch.randn(n, n, generator=g) / n ** 0.5 for t in dag}
    return x, weights


def _dag_task(inputs, w, out):
    """One task: out = tanh((sum of its inputs) @ W). tanh keeps values in [-1, 1] at any depth."""
    s = inputs[0] if len(inputs) == 1 else torch.stack(inputs).sum(0)
    torch.mm(s, w, out=out)
    out.tanh_()
    return out


def dag_reference(dag, x, weights, device="cpu"):
    """Every task's result in float64, one after another: the answer to check against."""
    dev = torch.device(device)
    vals = {"x": x.to(dev, torch.float64)}
    with torch.no_grad():
        for t in dag:
            ins = [vals[d] for d in t["deps"]]
            s = ins[0] if len(ins) == 1 else torch.stack(ins).sum(0)
            vals[t["name"]] = torch.tanh(s @ weights[t["name"]].to(dev, torch.float64))
    vals.pop("x")
    return vals


def dag_plan(dag, lanes, speed=None, copy_s=0.0):
    """Which lane runs which task, in which order: schedule.list_schedule with unit costs.

    speed: {lane label: products per unit time}; None means all lanes are equally fast
    (two CPU lanes with the same share, or two equal GPUs), which keeps the plan the same on
    every run. Returns (events of the modelled plan, {lane label: [task names in order]}).
    """
    labels = [lane.label for lane in lanes]
    tasks = [schedule.Task(t["name"], 1.0, "", tuple(d for d in t["deps"] if d != "x")) for t in dag]
    events = schedule.list_schedule(tasks, labels, speed, copy_s)
    order = {label: [] for label in labels}
    for e in sorted(events, key=lambda e: (e["start"], e["end"])):
        order[e["lane"]].append(e["name"])
    return events, order


def run_dag(dag, x, weights, lanes, order, trace=False, skip_waits=False):
    """Run the DAG: each lane's worker thread runs its tasks in plan order. Used by 13.3.3.

    Before a task starts, its lane waits until every task it reads has finished (a
    threading.Event per task): the dependency engine in a dozen lines. Inputs made on another
    device are copied to this lane's device first. `weights` and `x` are {device: ...} copies
    made beforehand (place_dag). trace=True waits for the GPU after each task and returns
    when each task ran. skip_waits=True is the broken engine of the exercise: no waiting,
    and the lanes run one after the other, the last lane first, so tasks read inputs that were
    never written (still zero).
    Returns (results {name: tensor}, events).
    """
    deps = {t["name"]: t["deps"] for t in dag}
    where = {name: lane for lane in lanes for name in order[lane.label]}
    missing = [t["name"] for t in dag if t["name"] not in where]
    if missing:
        raise ValueError(f"the plan gives no lane to {missing}")
    n = x[lanes[0].device()].shape[0]
    out = {name: torch.zeros(n, n, device=where[name].device()) for name in deps}
    done = {name: threading.Event() for name in deps}
    events, errors, t0 = [], [], time.perf_counter()

    def lane_work(lane):
        dev = lane.device()
        try:
            with torch.no_grad():
                for name in order[lane.label]:
                    if not skip_waits:
                        for d in deps[name]:
                            if d != "x":
                                done[d].wait()
                    if errors:
                        return
                    start = time.perf_counter()
                    ins = [x[dev] if d == "x" else out[d].to(dev) for d in deps[name]]
                    _dag_task(ins, weights[dev][name], out[name])
                    if trace and lane.kind == "gpu":
                        torch.cuda.synchronize(dev)
                    events.append({"lane": lane.label, "name": name,
                                   "start": start - t0, "end": time.perf_counter() - t0})
                    done[name].set()
        except BaseException as e:  # re-raised below; wake the other lanes so they stop
            errors.append(e)
            for ev in done.values():
                ev.set()

    if skip_waits:
        for lane in reversed(lanes):
            _lane_worker(lane).submit(lane_work, lane).result()
    else:
        # Each lane's own worker thread (see _lane_worker); all lanes start at once.
        for f in [_lane_worker(lane).submit(lane_work, lane) for lane in lanes]:
            f.result()
    if errors:
        raise errors[0]
    return out, sorted(events, key=lambda e: e["start"])


def place_dag(x, weights, lanes):
    """Copies of the input and the weights on every lane's device (before timing)."""
    devs = list(dict.fromkeys(lane.device() for lane in lanes))
    return ({d: x.to(d) for d in devs},
            {d: {k: w.to(d) for k, w in weights.items()} for d in devs})


def check_dag(results, reference, tol=None):
    """Worst relative error of any task's result vs the float64 reference; raise if too big."""
    from .errors import ResultMismatch
    from .torch_work import tolerance

    tol = tolerance() if tol is None else tol
    worst = 0.0
    for name, ref in reference.items():
        got = results[name].to(ref.device, torch.float64)
        worst = max(worst, ((got - ref).norm() / ref.norm()).item())
    if not worst <= tol:  # also catches NaN
        raise ResultMismatch(f"DAG results differ from the float64 reference: worst relative "
                             f"error {worst:.1e} > {tol:.0e}")
    return worst


def dag_size(lanes):
    """Matrix size for exercise 5: a few ms per product on one CPU core, ~1 ms on a GPU."""
    if all(lane.kind == "gpu" for lane in lanes):
        return 2048
    if any(lane.kind == "gpu" for lane in lanes):
        return 1024
    return 384


def dag_experiment(lanes=None, n=None, stages=3, arms=(1, 2, 3), cross=True, repeats=5):
    """Exercise 5: the DAG on one lane vs planned on two lanes, each answer checked. Used by 13.3.3.

    Rows timed (median of `repeats` after a warm-up): every task on lane 1 in order; the plan
    on two lanes; on CPU lanes also every task on ONE thread using all the cores (what you
    would run without lanes). Equal lanes get the plan of unit costs (the same every run);
    lanes of different speeds are timed on one product each first, and the plan uses that.
    """
    from .machine import cpu_cores
    from .timing import measure

    lanes = as_lanes(lanes)
    dag = diamond_dag(stages, arms, cross)
    n = n or dag_size(lanes)
    x, weights = dag_problem(dag, n)
    xs, ws = place_dag(x, weights, lanes)
    ref_dev = lanes[0].device()
    reference = dag_reference(dag, x, weights, ref_dev)
    same = len({(lane.kind, lane.threads) for lane in lanes}) == 1
    speed = None if same else _product_speeds(lanes, n)
    plan_events, order = dag_plan(dag, lanes, speed)
    one_lane = {lane.label: [] for lane in lanes}
    one_lane[lanes[0].label] = [t["name"] for t in dag]
    variants = [("one lane, in order", lanes, one_lane), ("two lanes, planned", lanes, order)]
    if all(lane.kind == "cpu" for lane in lanes):
        from dataclasses import replace
        whole = replace(lanes[0], threads=cpu_cores(), label=f"CPU ({cpu_cores()} cores)")
        variants.append((f"one thread, all {cpu_cores()} cores", [whole],
                         {whole.label: [t["name"] for t in dag]}))
    rows = []
    for label, ls, plan in variants:
        got = {}

        def work(ls=ls, plan=plan):
            got["results"] = run_dag(dag, xs, ws, ls, plan)[0]
        m = measure(work, lanes=ls, label=label, repeats=repeats)
        rows.append({"label": label, "median": m.median, "iqr": m.iqr,
                     "max_rel_error": check_dag(got["results"], reference)})
    _, trace = run_dag(dag, xs, ws, lanes, order, trace=True)
    units = [schedule.Task(t["name"], 1.0, "one", tuple(d for d in t["deps"] if d != "x")) for t in dag]
    equal_plan = plan_events if speed is None else dag_plan(dag, lanes)[0]
    return {
        "dag": dag, "n": n, "lanes": [lane.label for lane in lanes], "order": order,
        # In units of one product on equal lanes: the same numbers on every machine.
        "model": {"serial": schedule.serial_total(units),
                  "planned": schedule.schedule_total(equal_plan),
                  "critical_path": schedule.critical_path(units)[0]},
        "speeds": speed,
        "plan_events": plan_events, "rows": rows, "trace": trace,
        "speedup": rows[0]["median"] / rows[1]["median"],
        "problem": (dag, xs, ws, reference, order, lanes),
    }


def _product_speeds(lanes, n):
    """Products per second of each lane (one n x n product, median of 3 after a warm-up)."""
    speeds = {}
    for lane in lanes:
        dev = lane.device()
        a = torch.randn(n, n, device=dev)

        def timed():
            times = []
            for r in range(4):
                _sync([dev])
                t0 = time.perf_counter()
                a @ a
                _sync([dev])
                if r:
                    times.append(time.perf_counter() - t0)
            return statistics.median(times)
        speeds[lane.label] = 1.0 / _lane_worker(lane).submit(timed).result()  # as the plan runs it
    return speeds


def broken_engine_check(experiment):
    """Run exercise 5's DAG with the waits left out and check it: the check must fail.

    It uses the plan for equal lanes, which always gives both lanes work (with lanes of very
    different speeds the real plan may put everything on one lane, and then nothing waits).

    Returns (caught, message): caught is True when check_dag raised ResultMismatch.
    """
    from .errors import ResultMismatch

    dag, xs, ws, reference, _, lanes = experiment["problem"]
    _, order = dag_plan(dag, lanes)  # the equal-lanes plan: it always uses both lanes
    results, _ = run_dag(dag, xs, ws, lanes, order, skip_waits=True)
    try:
        check_dag(results, reference)
    except ResultMismatch as e:
        return True, str(e)
    return False, "the results matched: this plan happens to need no waiting"


def dag_text(r):
    """Exercise 5's results: the model in products (deterministic) and the measured rows."""
    m = r["model"]
    lines = [f"{len(r['dag'])} tasks, each one {r['n']} x {r['n']} product; lanes: {' + '.join(r['lanes'])}",
             f"  model, in units of one product: serial {m['serial']:.0f}, planned on two equal lanes "
             f"{m['planned']:.0f}, critical path {m['critical_path']:.0f} "
             f"(best possible speedup {m['serial'] / m['critical_path']:.2f}x)"]
    if r.get("speeds"):
        counts = ", ".join(f"{len(names)} on {lane}" for lane, names in r["order"].items())
        lines.append(f"  lanes of different speeds (one product timed on each): the plan puts {counts}")
    for row in r["rows"]:
        lines.append(f"  {row['label']:32s} {row['median']:.4f} s  (IQR {row['iqr']:.4f} s)  "
                     f"worst rel. error {row['max_rel_error']:.1e}")
    if not all(r["order"].values()):
        lines.append("  the plan uses one lane only, so the first two rows run the same work")
    lines.append(f"  two lanes vs one lane: {r['speedup']:.2f}x; every result checked against float64")
    return "\n".join(lines)


def dag_graph(r):
    """The exercise's DAG as a graph for draw_graph, one row per lane of the plan."""
    lane_of = {name: lane for lane, names in r["order"].items() for name in names}
    nodes = [{"id": t["name"], "name": t["name"], "stage": t["name"], "kind": "compute",
              "lane": lane_of[t["name"]], "device": ""} for t in r["dag"]]
    edges = [{"src": d, "dst": t["name"], "kind": "data", "shapes": [(r["n"], r["n"])], "bytes": 0}
             for t in r["dag"] for d in t["deps"] if d != "x"]
    return {"nodes": nodes, "edges": edges, "devices": list(r["lanes"])}
