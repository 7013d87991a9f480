"""13.3.4: one SGD step of data-parallel training, four ways: the one home of (a)-(d) and the flat control."""
import functools
import inspect
import math

import torch  # a learner's step sent as source also runs with this module's names
import torch.distributed as dist
from torch import nn

from .results import BUCKET_MB, buckets_of  # (d)'s bucket size (MiB) beside DDP's; DDP's bucket rule


def mlp(layers: int = 6, width: int = 1024) -> nn.Sequential:
    """13.3.4: the MLP of 13.3.3, deeper and wider so each layer's gradient is worth sending."""
    blocks = []
    for _ in range(layers - 1):
        blocks += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*blocks, nn.Linear(width, width))


def loss_of(model, X, y):
    """13.3.4: squared error, averaged over this process's share of the minibatch."""
    return nn.functional.mse_loss(model(X), y)


def local_step(model, X, y, optimizer):
    """13.3.4: a plain SGD step; sends nothing, unless `model` is a DistributedDataParallel model."""
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    optimizer.step()


def backward_then_allreduce(model, X, y, optimizer):
    """(a): the whole backward pass first, then one all-reduce per gradient, averaged."""
    #zh: （a）先完成整个反向传播，再对每个梯度做一次全归约，取平均
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for p in model.parameters():
        if p.grad is None:  # a frozen parameter has no gradient to send  #zh: 冻结的参数没有梯度要发送
            continue
        p.grad /= dist.get_world_size()  # sum of n averages / n: the whole minibatch's  #zh: 先除以 n，求和后即为平均
        dist.all_reduce(p.grad)  # blocks until every process has contributed  #zh: 等每个进程都贡献后才返回
    optimizer.step()


def flat_allreduce(model, X, y, optimizer):
    """(b): every gradient copied into one flat buffer, one all-reduce, copied back."""
    #zh: （b）把所有梯度复制进一个展平的缓冲区，做一次全归约，再复制回去
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads]) / dist.get_world_size()
    dist.all_reduce(flat)  # one call, not one per tensor  #zh: 只调用一次，而不是每个张量一次
    offset = 0
    for g in grads:  # each gradient's summed piece back  #zh: 把求和后的每一段复制回各个梯度
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()
    optimizer.step()


_KEPT = {}  # the controls' buffers per model and bucket size: made at their first step, then reused


def flat_kept(model, X, y, optimizer):
    """(b)'s control: its one call, into a buffer made once (the controls' one bucket), no new tensor."""
    buckets_kept(model, X, y, optimizer, math.inf)


def allreduce_in_hooks(model, X, y, optimizer):
    """(c): each gradient's all-reduce starts from its hook as soon as backward has computed it."""
    #zh: （c）反向传播一算出某个梯度，它的钩子就启动这个梯度的全归约
    works = []

    def send(p):
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))  # returns at once  #zh: 立即返回，反向传播继续

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters() if p.requires_grad]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()  # every gradient summed before the update  #zh: 更新之前每个梯度都已求和
    for hook in hooks:
        hook.remove()
    optimizer.step()


def bucket_params(params, cap_bytes):
    """(d)'s buckets, given to the learner: lists of those `params` that need a gradient, in their order, each closed
    once it holds cap_bytes (the last may hold less), as DDP's rule (buckets_of)."""
    params = [p for p in params if p.requires_grad]
    sizes = [p.numel() * p.element_size() for p in params]
    return [[params[i] for i in b] for b in buckets_of(sizes, cap_bytes / 2**20)]


def allreduce_in_buckets(model, X, y, optimizer, bucket_mb):
    """(d): buckets of bucket_mb MiB filled in reverse parameter order, each all-reduced once full."""
    #zh: （d）按参数的逆序把梯度装进 bucket_mb MiB 的桶，每个桶装满就做一次全归约
    buckets = bucket_params(reversed(list(model.parameters())), bucket_mb * 2**20)  # given  #zh: 已给出
    bucket_of = {p: b for b, members in enumerate(buckets) for p in members}
    missing = [len(members) for members in buckets]  # gradients each bucket waits for  #zh: 每个桶还在等的梯度数
    works = []

    def ready(p):
        b = bucket_of[p]
        missing[b] -= 1
        if missing[b] == 0:  # full: flatten, start its all-reduce  #zh: 桶满：展平并发起它的全归约
            flat = torch.cat([q.grad.reshape(-1) for q in buckets[b]]) / dist.get_world_size()
            works.append((buckets[b], flat, dist.all_reduce(flat, async_op=True)))

    hooks = [p.register_post_accumulate_grad_hook(ready) for p in bucket_of]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for members, flat, work in works:
        work.wait()
        for q, piece in zip(members, flat.split([q.numel() for q in members])):
            q.grad.copy_(piece.view_as(q))  # the summed bucket back  #zh: 把求和后的桶复制回各个梯度
    for hook in hooks:
        hook.remove()
    optimizer.step()


def buckets_kept(model, X, y, optimizer, bucket_mb):
    """(d)'s control: its buckets and calls, each into a buffer made once (as DDP keeps its buckets), no new tensor."""
    groups = bucket_params(reversed(list(model.parameters())), bucket_mb * 2**20)
    flats = _KEPT.setdefault((id(model), bucket_mb), [torch.empty(sum(q.numel() for q in b)) for b in groups])
    bucket_of, left, works = {p: b for b, members in enumerate(groups) for p in members}, [len(b) for b in groups], []
    pieces = lambda b: zip(groups[b], flats[b].split([q.numel() for q in groups[b]]))  # noqa: E731

    def ready(p):
        b = bucket_of[p]
        left[b] -= 1
        if left[b] == 0:  # its last gradient: copied into the kept buffer, divided in place, sent
            for q, piece in pieces(b):
                piece.copy_(q.grad.reshape(-1))
            works.append((b, dist.all_reduce(flats[b].div_(dist.get_world_size()), async_op=True)))

    hooks = [p.register_post_accumulate_grad_hook(ready) for p in bucket_of]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for b, work in works:
        work.wait()
        for q, piece in pieces(b):
            q.grad.copy_(piece.view_as(q))
    for hook in hooks:
        hook.remove()
    optimizer.step()


def allreduce_beside(model, X, y, optimizer):
    """(c)'s control: (a), with gloo all-reducing kept buffers of the gradients' sizes from backward's start: gloo
    busy on this process's core during backward, on nothing backward makes or waits for."""
    spare, works = _KEPT.setdefault((id(model), 'beside'), [torch.zeros_like(p) for p in model.parameters()]), []
    send = lambda *_: works.extend(dist.all_reduce(b, async_op=True) for b in spare)  # noqa: E731
    hook = model[-1].register_full_backward_pre_hook(send)  # the last layer: backward's start
    backward_then_allreduce(model, X, y, optimizer)
    hook.remove()
    [work.wait() for work in works]


def allreduce_alone(model, X, y, optimizer):
    """13.3.4 baseline: only the communication of (a), on gradients that are already there."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)


def as_step(fn):
    """A step the engine can call as `step(model, X, y, optimizer)`: (d)'s `bucket_mb` fixed at BUCKET_MB."""
    return functools.partial(fn, bucket_mb=BUCKET_MB) if 'bucket_mb' in inspect.signature(fn).parameters else fn


# What a run times unless given its own, by id, in the lesson's order (+ CONTROLS in the lesson); DDP runs local_step.
STEPS = {'serial': backward_then_allreduce, 'flat': flat_allreduce, 'hooks': allreduce_in_hooks,
         'buckets': allreduce_in_buckets}
CONTROLS = {'kept': flat_kept, 'buckets_kept': buckets_kept, 'beside': allreduce_beside}  # (b)'s, (d)'s, (c)'s
# Each task's package version: the graders' worked solutions and what the lesson measures until the learner's pass.
SOLUTIONS = {'13.3.4-a-after': backward_then_allreduce, '13.3.4-b-flat': flat_allreduce,
             '13.3.4-c-hooks': allreduce_in_hooks, '13.3.4-d-buckets': allreduce_in_buckets}
