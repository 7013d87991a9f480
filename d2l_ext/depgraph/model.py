"""The two-layer MLP of Fig. 13.3.1 (squared loss, plain SGD), its problem and float64 answer (13.3.3). Backward is
written out so every operation sits in a named `stage` (the figure's boxes). `lane_step` and `mlp_step` (the Build-it's
worked answer) are the single copies the lesson shows (#@source): their docstrings are `#zh:` comments."""

import torch

from ..backends.torch_backend import run_on_lanes
from ..errors import UsageError
from ..i18n import t
from .tracer import stage

PARAM_NAMES = ('W1', 'b1', 'W2', 'b2')
SERVER = 'cpu (parameter server)'  # the graph's row for the CPU that sums the gradients
# Fashion-MNIST sized, as in the book's MLP chapters: 784 inputs, 256 hidden, 10 outputs.
DEFAULT_SIZES = {'batch': 256, 'd_in': 784, 'hidden': 256, 'd_out': 10}


def make_problem(batch=256, d_in=784, hidden=256, d_out=10, seed=0):
    """Weights on the CPU and one minibatch (X, y), the same numbers on every machine (13.3.3)."""
    if int(batch) != batch or batch < 2:
        raise UsageError(t('graph.err.batch_split', batch=repr(batch)))
    g = torch.Generator().manual_seed(seed)
    params = {'W1': torch.randn(d_in, hidden, generator=g) * 0.05,
              'b1': torch.randn(hidden, generator=g) * 0.05,
              'W2': torch.randn(hidden, d_out, generator=g) * 0.05,
              'b2': torch.randn(d_out, generator=g) * 0.05}
    return params, torch.randn(batch, d_in, generator=g), torch.randn(batch, d_out, generator=g)


def lane_step(i, params, X, y, n_total):
    # Forward and backward of lane i's rows -> (loss, gradients),  #zh: 计算资源 i 的样本上的前向和反向传播，
    # the loss divided by all n_total rows  #zh: 返回 (损失, 梯度)；损失除以全部 n_total 个样本
    W1, b1, W2, b2 = params['W1'], params['b1'], params['W2'], params['b2']
    with stage(i, 'fc1 fwd'):
        Z1 = X @ W1 + b1
    with stage(i, 'relu'):
        H = torch.relu(Z1)
    with stage(i, 'fc2 fwd'):
        y_hat = H @ W2 + b2
    with stage(i, 'loss'):
        D = y_hat - y
        loss = (D * D).sum() / (2 * n_total)
        dY = D / n_total  # d loss / d y_hat  #zh: 损失对 y_hat 的导数
    with stage(i, 'fc2 bwd'):
        dW2, db2, dH = H.T @ dY, dY.sum(0), dY @ W2.T
    with stage(i, 'relu bwd'):
        dZ1 = dH * (Z1 > 0)
    with stage(i, 'fc1 bwd'):
        dW1, db1 = X.T @ dZ1, dZ1.sum(0)
    return loss, {'W1': dW1, 'b1': db1, 'W2': dW2, 'b2': db2}


def mlp_step(lanes, params, X, y, lr):
    # One minibatch SGD step, split over two lanes  #zh: 一次小批量随机梯度下降，小批量分给两个计算资源
    # (the book's two-GPU figure) -> new weights on the CPU  #zh: （书中两个 GPU 的图）；返回 CPU 上的新权重
    server, n = params['W1'].device, X.shape[0]  # the weights live on the server: the CPU  #zh: 权重在服务器（CPU）上

    def half(i, Xi, yi):  # lane i's job, run on lane i  #zh: 计算资源 i 运行的函数
        with stage(i, 'copy in'):  # samples and weights in: lane i's own copies  #zh: 传入样本和权重：本计算资源的副本
            dev = lanes[i].device()
            w = {k: v.to(dev, copy=True) for k, v in params.items()}
            Xi, yi = Xi.to(dev, copy=True), yi.to(dev, copy=True)
        # The loss is divided by all n rows, so the gradients add up.  #zh: 损失除以全部 n 个样本，所以梯度可以相加
        return lane_step(i, w, Xi, yi, n)
    halves = list(zip(X.tensor_split(2), y.tensor_split(2)))
    # Both halves at once, each on its lane.  #zh: 两半同时在各自的计算资源上运行
    results = run_on_lanes(lanes, [lambda i=i, h=h: half(i, *h) for i, h in enumerate(halves)])
    with stage(SERVER, 'grad copy'):  # every gradient to the server  #zh: 所有梯度传到服务器
        grads = [{k: g[k].to(server, copy=True) for k in g} for _, g in results]
    with stage(SERVER, 'sum'):  # waits for both lanes  #zh: 等待两个计算资源
        total = {k: grads[0][k] + grads[1][k] for k in params}
    with stage(SERVER, 'update'):
        return {k: params[k] - lr * total[k] for k in params}


def sgd_step(params, X, y, lr=0.1):
    """The whole minibatch on one device, no copies: the baseline a split must beat (13.3.3)."""
    _, grads = lane_step(0, params, X, y, X.shape[0])
    return {k: params[k] - lr * grads[k] for k in PARAM_NAMES}


def _autograd64(params, X, y):
    p = {k: params[k].detach().cpu().double().requires_grad_() for k in PARAM_NAMES}
    X, y = X.detach().cpu().double(), y.detach().cpu().double()
    y_hat = torch.addmm(p['b2'], torch.relu(torch.addmm(p['b1'], X, p['W1'])), p['W2'])
    loss = 0.5 * ((y_hat - y) ** 2).sum() / X.shape[0]
    loss.backward()
    return p, loss.detach()


def reference_step(params, X, y, lr=0.1):
    """The same SGD step with autograd in float64 on the CPU -> (new weights, loss): the answer to check (13.3.3)."""
    p, loss = _autograd64(params, X, y)
    with torch.no_grad():
        return {k: p[k] - lr * p[k].grad for k in PARAM_NAMES}, loss
