"""The two-layer MLP of Fig. 13.3.1 and one SGD step, on one device or split over two lanes (13.3.3).

X -> Linear -> ReLU -> Linear -> squared loss, plain SGD. The backward pass is written out
(`H.t() @ dO`, ...) instead of left to autograd so that every operation sits inside a named
`stage`, which is how the recorded graph gets the boxes of the book's figure; `reference_step`
checks it against autograd in float64.

The split step does what the figure shows: each lane runs forward and backward on its half of
the minibatch, the gradients are copied to the CPU (the parameter server) and summed there, the
CPU updates the weights, and the new weights are copied back to the lanes. The step is a
function of its inputs (weights in, weights out), so running it again repeats the same work.
"""

import torch

from ..backends.torch_backend import run_on_lanes
from ..errors import UsageError
from .tracer import stage

PARAM_NAMES = ("W1", "b1", "W2", "b2")
LANES = ("lane 0", "lane 1")
SERVER = "cpu (parameter server)"
# Fashion-MNIST sized, as in the book's MLP chapters: 784 inputs, 256 hidden, 10 outputs.
DEFAULT_SIZES = {"batch": 256, "d_in": 784, "hidden": 256, "d_out": 10}


def make_problem(batch=256, d_in=784, hidden=256, d_out=10, seed=0):
    """Weights on the CPU and one minibatch (X, Y), the same numbers on every machine (13.3.3)."""
    if int(batch) != batch or batch < 2:
        raise UsageError(f"batch must be a whole number >= 2 (two lanes get a part each), got {batch!r}")
    g = torch.Generator().manual_seed(seed)
    params = {"W1": torch.randn(d_in, hidden, generator=g) * 0.05,
              "b1": torch.randn(hidden, generator=g) * 0.05,
              "W2": torch.randn(hidden, d_out, generator=g) * 0.05,
              "b2": torch.randn(d_out, generator=g) * 0.05}
    return params, torch.randn(batch, d_in, generator=g), torch.randn(batch, d_out, generator=g)


def forward_backward(lane, params, X, Y, n_total):
    """Forward, squared loss and backward on one lane's rows -> (loss, grads) (13.3.3).

    The loss is summed over this lane's rows and divided by the WHOLE minibatch size, so the
    lanes' losses and gradients add up to those of the whole minibatch.
    """
    W1, b1, W2, b2 = (params[k] for k in PARAM_NAMES)
    with stage(lane, "fc1 fwd"):
        Z1 = torch.addmm(b1, X, W1)
    with stage(lane, "relu"):
        H = torch.relu(Z1)
    with stage(lane, "fc2 fwd"):
        Y_hat = torch.addmm(b2, H, W2)
    with stage(lane, "loss"):
        D = Y_hat - Y
        loss = (D * D).sum() * (0.5 / n_total)
        dO = D * (1.0 / n_total)  # d loss / d Y_hat
    with stage(lane, "fc2 bwd"):
        dW2, db2, dH = H.t() @ dO, dO.sum(0), dO @ W2.t()
    with stage(lane, "relu bwd"):
        dZ1 = dH * (Z1 > 0)
    with stage(lane, "fc1 bwd"):
        dW1, db1 = X.t() @ dZ1, dZ1.sum(0)
    return loss, {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}


def sgd_step(params, X, Y, lr=0.1, lane_step=None):
    """The whole minibatch on one device, no copies: the baseline a split must beat (13.3.3)."""
    loss, grads = (lane_step or forward_backward)(LANES[0], params, X, Y, X.shape[0])
    return {k: torch.add(params[k], grads[k], alpha=-lr) for k in PARAM_NAMES}, loss


def split_minibatch(params, X, Y, devices):
    """Each lane's copy of the weights and its part of the minibatch (done once, before the step)."""
    if len(devices) != 2:
        raise UsageError(f"the step uses two lanes; got {len(devices)}: {devices}")
    shards = []
    for device, Xi, Yi in zip(devices, X.tensor_split(2), Y.tensor_split(2)):
        # copy=True: each lane owns its tensors, even when both lanes are the CPU.
        shards.append({"params": {k: params[k].to(device, copy=True) for k in PARAM_NAMES},
                       "X": Xi.to(device, copy=True), "Y": Yi.to(device, copy=True)})
    return shards


def server_update(params, grads, lr=0.1):
    """Grad copy -> sum -> update on the server, weight copy back -> (new weights, each lane's copy)."""
    server = params["W1"].device  # the CPU in a real step, the meta device in model_graph
    with stage(SERVER, "grad copy"):
        on_server = [{k: g[k].to(server, copy=True) for k in PARAM_NAMES} for g in grads]
    with stage(SERVER, "sum"):
        total = {k: on_server[0][k] + on_server[1][k] for k in PARAM_NAMES}
    with stage(SERVER, "update"):
        new = {k: torch.add(params[k], total[k], alpha=-lr) for k in PARAM_NAMES}
    on_lanes = []
    for lane, g in zip(LANES, grads):
        with stage(lane, "weight copy"):
            on_lanes.append({k: new[k].to(g[k].device, copy=True) for k in PARAM_NAMES})
    return new, on_lanes


def split_step(params, shards, lanes=None, lr=0.1, together=True, lane_step=forward_backward,
               server_step=server_update):
    """One SGD step with the minibatch split over two lanes -> (new weights, lanes' copies, losses) (13.3.3).

    lanes=None runs the two halves one after the other in this thread (what the tracer records);
    with lanes, together=True starts both at once (run_on_lanes: a CPU lane gets its own thread
    with its share of the cores, a GPU lane is queued), together=False runs one, waits, then the
    other. `lane_step(lane, params, X, Y, n_total) -> (loss, grads)` is the per-lane work and
    `server_step(params, grads, lr) -> (new weights, each lane's copy)` the parameter server's.
    """
    n_total = sum(s["X"].shape[0] for s in shards)
    jobs = [lambda name=name, s=s: lane_step(name, s["params"], s["X"], s["Y"], n_total)
            for name, s in zip(LANES, shards)]
    if lanes is None:
        results = [job() for job in jobs]
    elif together:
        results = run_on_lanes(lanes, jobs)
    else:
        from ..timing import wait_for_lanes
        results = []
        for lane, job in zip(lanes, jobs):
            results += run_on_lanes([lane], [job])
            wait_for_lanes([lane])
    new, on_lanes = server_step(params, [g for _, g in results], lr)
    return new, on_lanes, [loss for loss, _ in results]


def reference_step(params, X, Y, lr=0.1):
    """The same SGD step with autograd in float64 on the CPU -> (new weights, loss): the answer to check (13.3.3)."""
    p = {k: params[k].detach().cpu().double().requires_grad_() for k in PARAM_NAMES}
    X, Y = X.cpu().double(), Y.cpu().double()
    Y_hat = torch.addmm(p["b2"], torch.relu(torch.addmm(p["b1"], X, p["W1"])), p["W2"])
    loss = 0.5 * ((Y_hat - Y) ** 2).sum() / X.shape[0]
    loss.backward()
    with torch.no_grad():
        return {k: p[k] - lr * p[k].grad for k in PARAM_NAMES}, loss.detach()
