"""13.3.4: one SGD step of data-parallel training, written so the lesson can show it and a learner can change it.

Every process holds the same model and its own share of the minibatch; after a step, every process
must hold the parameters that one process would get from the whole minibatch. Every step function
has the same signature, `step(model, X, y, optimizer)`, so the engine can time and check any of them,
including one a learner defines in a notebook cell.
"""
import torch  # a learner's step sent as source also runs with this module's names
import torch.distributed as dist
from torch import nn


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
    """(a): the whole backward pass first, then one all-reduce per gradient."""
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for p in model.parameters():
        p.grad /= dist.get_world_size()  # the sum of the averages is the average over the whole minibatch
        dist.all_reduce(p.grad)
    optimizer.step()


def flat_allreduce(model, X, y, optimizer):
    """13.3.4 control: (a) with every gradient copied into one buffer, so one all-reduce call instead of one per tensor.

    It overlaps nothing, like (a); (a) minus this is what the calls themselves cost, which DDP's
    buckets also save, so a bucketed version's gain over (a) is not all overlap.
    """
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    grads = [p.grad for p in model.parameters()]
    flat = torch.cat([g.reshape(-1) for g in grads]) / dist.get_world_size()
    dist.all_reduce(flat)
    offset = 0
    for g in grads:  # copy each gradient's summed share back
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()
    optimizer.step()


def allreduce_in_hooks(model, X, y, optimizer):
    """(c): each gradient's all-reduce starts as soon as backward has computed it."""
    works = []

    def send(p):
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))  # returns at once; backward goes on

    hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters()]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for work in works:
        work.wait()  # every gradient summed before the update uses it
    for hook in hooks:
        hook.remove()
    optimizer.step()


def ddp_without_sync(model, X, y, optimizer):
    """13.3.4 baseline: a DistributedDataParallel step with its all-reduces switched off (`no_sync`)."""
    with model.no_sync():  # DDP's hooks still run; only the communication is skipped
        local_step(model, X, y, optimizer)


def allreduce_alone(model, X, y, optimizer):
    """13.3.4 baseline: only the communication of (a), on gradients that are already there."""
    for p in model.parameters():
        dist.all_reduce(p.grad)


# The versions the lesson compares, by id; (d) is local_step on a DistributedDataParallel model.
STEPS = {'serial': backward_then_allreduce, 'hooks': allreduce_in_hooks}
# Controls every run adds (unless a learner's step takes the id): not overlap, but what overlap is measured against.
CONTROLS = {'flat': flat_allreduce}
