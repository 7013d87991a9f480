"""Typical wrong versions of 13.3.1's, 13.3.2's and 13.3.4's "Build it" functions: each must fail for its reason.

Test data, not the package's: tests/test_task_lanes.py, test_task_copy.py and test_task_allreduce.py grade
them, and so does tools/grade_tasks.py (on a GPU machine too). {name: (the criterion it must fail, its source)};
a version written as its change to the worked solution uses `with_lines`. 13.3.3's live in
d2l_ext.depgraph.worked (a lesson exercise runs one).
"""
import inspect

from d2l_ext.allreduce.steps import allreduce_in_buckets, allreduce_in_hooks, backward_then_allreduce, flat_allreduce
from d2l_ext.communication.copying import run_and_copy
from d2l_ext.grading import allreduce
from d2l_ext.grading.core import with_lines
from d2l_ext.parallel.together import run_together

# -- 13.3.1 run_together(lanes, works) ----------------------------------------------------------------

LANES_WRONG = {
    'sequential': ('overlap', '''
def run_together(lanes, works):
    """One lane after the other: correct and safe, but the lanes never run at the same time."""
    results = [work() for work in works]
    for lane in lanes:
        if lane.kind == 'gpu':
            torch.cuda.synchronize(lane.index)
    return results
'''),
    'no_join': ('safe', '''
def run_together(lanes, works):
    """Threads started but never joined: returns while the lanes still run."""
    results = [None] * len(lanes)
    def go(i):
        if lanes[i].kind == 'cpu':
            torch.set_num_threads(lanes[i].threads)
        results[i] = works[i]()
    for i in range(len(lanes)):
        threading.Thread(target=go, args=(i,)).start()
    return results
'''),
    'wrong_order': ('correct', '''
def run_together(lanes, works):
    """Results gathered as the threads finish, not in the order of lanes."""
    with ThreadPoolExecutor(len(lanes)) as pool:
        futures = [pool.submit(work) for work in works]
        results = [f.result() for f in futures]
    return results[::-1]
'''),
    # the worked solution (parallel.together.run_together) with one line dropped: no lane gets its share of the cores
    'no_threads': ('threads', with_lines(run_together, ('torch.set_num_threads(lane.threads)', ''))),
    'raises': ('runs', '''
def run_together(lanes, works):
    """Crashes inside the learner's own code (an ordinary exception)."""
    raise RuntimeError('lane setup failed')
'''),
}
LANES_WRONG_GPU = {  # wrong only where a lane queues its work: on CPU lanes there is nothing left to wait for
    # the worked solution with no GPU waited for: CPU threads joined, GPU work still queued at return
    'no_synchronize': ('safe', with_lines(run_together, ('torch.cuda.synchronize(lane.index)', 'pass'))),
}
LANES_HANGS = '''
def run_together(lanes, works):
    """Waits for something that never happens."""
    threading.Event().wait()
'''
LANES_CRASHES = '''
def run_together(lanes, works):
    """Takes the whole process down, as a segfault in an extension would."""
    import os
    os._exit(3)
'''


# -- 13.3.2 run_and_copy(x, w, buffers, lane) -----------------------------------------------------------

COPY_WRONG_CPU = {
    'same_thread': ('overlap', '''
def run_and_copy(x, w, buffers, lane):
    """Each copy right after its product, in the same thread: correct and safe, but nothing overlaps."""
    for buf in buffers:
        buf.copy_(x.mm(w))
    return buffers
'''),
    'copies_after': ('overlap', '''
def run_and_copy(x, w, buffers, lane):
    """A copy thread, started only once every product is done: the copies never run beside a product."""
    ys = [x.mm(w) for _ in buffers]
    helper = threading.Thread(target=lambda: [b.copy_(y) for b, y in zip(buffers, ys)])
    helper.start()
    helper.join()
    return buffers
'''),
    'no_join': ('safe', '''
def run_and_copy(x, w, buffers, lane):
    """The copy thread is never joined: the function returns while the last copies are still to come."""
    todo = queue.Queue()
    def copier():
        while (item := todo.get()) is not None:
            buf, y = item
            buf.copy_(y)
    threading.Thread(target=copier).start()
    for buf in buffers:
        todo.put((buf, x.mm(w)))
    todo.put(None)
    return buffers
'''),
    'rebinds': ('correct', '''
def run_and_copy(x, w, buffers, lane):
    """Puts new tensors into the list instead of copying into the buffers it was given."""
    for i in range(len(buffers)):
        buffers[i] = x.mm(w)
    return buffers
'''),
    'new_tensors': ('correct', '''
def run_and_copy(x, w, buffers, lane):
    """Returns fresh tensors instead of filling the buffers it was given (on a GPU: unpinned memory)."""
    return [x.mm(w).cpu().clone() for _ in buffers]
'''),
    'raises': ('runs', '''
def run_and_copy(x, w, buffers, lane):
    """Crashes inside the learner's own code (an ordinary exception)."""
    raise RuntimeError('copy stream setup failed')
'''),
}
COPY_WRONG_GPU = {
    'one_stream': ('overlap', '''
def run_and_copy(x, w, buffers, lane):
    """Pinned buffers, but the copies queue on the products' stream: each waits for the product before it."""
    for buf in buffers:
        buf.copy_(x.mm(w), non_blocking=True)
    torch.cuda.synchronize()
    return buffers
'''),
    # the worked solution with one line changed (tests/test_task_copy.py): what goes wrong, and why
    # a copy stream that waits for nothing: copies read products not computed yet
    'forgets_event': ('correct', with_lines(run_and_copy, ('copy_stream.wait_event(done)', ''))),
    # stream and events right, but the host does not wait: it reads before the copies finished
    'no_host_wait': ('safe', with_lines(run_and_copy,
                                        ('copy_stream.synchronize()', 'compute.wait_stream(copy_stream)'))),
    # waits on the compute stream, not on the copy stream: the last copy is still in flight at return
    'waits_wrong_stream': ('safe', with_lines(run_and_copy, ('copy_stream.synchronize()', 'compute.synchronize()'))),
    'copies_after': ('overlap', '''
def run_and_copy(x, w, buffers, lane):
    """A copy stream, but every copy waits for the last product: the copies never run beside a product."""
    ys = [x.mm(w) for _ in buffers]
    done = torch.cuda.Event()
    done.record()
    copy_stream = torch.cuda.Stream()
    with torch.cuda.stream(copy_stream):
        copy_stream.wait_event(done)
        for buf, y in zip(buffers, ys):
            buf.copy_(y, non_blocking=True)
    copy_stream.synchronize()
    return buffers
'''),
}
COPY_HANGS = '''
def run_and_copy(x, w, buffers, lane):
    """A copy thread that waits for a hand-over that never comes."""
    todo = queue.Queue()
    helper = threading.Thread(target=todo.get)
    helper.start()
    helper.join()
'''
COPY_CRASHES = '''
def run_and_copy(x, w, buffers, lane):
    """Takes the whole process down, as a segfault in an extension would."""
    import os
    os._exit(3)
'''


# -- 13.3.4 backward_then_allreduce .. allreduce_in_buckets ------------------------------------------

_A_TIED_TWICE = """
def backward_then_allreduce(model, X, y, optimizer):
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for module in model.modules():  # a tied weight belongs to two modules: it is summed twice
        for p in module.parameters(recurse=False):
            if p.grad is not None:
                dist.all_reduce(p.grad)
    for p in model.parameters():
        if p.grad is not None:
            p.grad /= dist.get_world_size()
    optimizer.step()
"""
_C_AFTER = """
def allreduce_in_hooks(model, X, y, optimizer):
    ready = []
    hooks = [p.register_post_accumulate_grad_hook(ready.append) for p in model.parameters() if p.requires_grad]
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    works = []
    for p in ready:  # started only once backward has ended
        p.grad /= dist.get_world_size()
        works.append(dist.all_reduce(p.grad, async_op=True))
    for work in works:
        work.wait()
    for hook in hooks:
        hook.remove()
    optimizer.step()
"""
_SOLUTION_B = inspect.getsource(flat_allreduce)
_SOLUTION_D = inspect.getsource(allreduce_in_buckets)
_D_FORWARD_ORDER = _SOLUTION_D.replace('reversed(list(model.parameters()))', 'model.parameters()').replace("""
        if missing[b] == 0:""", """
        while started and started[-1] < len(buckets) and missing[started[-1]] == 0:  # in order, as DDP
            b = started[-1]
            started[-1] += 1""").replace('    works = []\n', '    works, started = [], [0]\n')
_HOOK_SEND = 'works.append(dist.all_reduce(p.grad, async_op=True))'
ALLREDUCE_WRONG = {  # most are a worked solution (allreduce.steps) with a line or two changed: what goes wrong, and why
    'a_no_average': ('correct', with_lines(backward_then_allreduce, ('p.grad /= dist.get_world_size()', ''))),
    'a_tied_twice': ('correct', _A_TIED_TWICE),
    'a_frozen_has_grad': ('runs', with_lines(backward_then_allreduce, ('if p.grad is None:', ''), ('continue', ''))),
    'b_one_call_per_tensor': ('calls', inspect.getsource(backward_then_allreduce).replace(  # one call per tensor
        'def backward_then_allreduce(', 'def flat_allreduce(')),
    'b_no_copy_back': ('correct', with_lines(flat_allreduce, ('offset = 0', ''), ('for g in grads:', ''),  # summed only
                                             ('g.copy_(flat[offset:offset + g.numel()].view_as(g))', ''),
                                             ('offset += g.numel()', ''))),
    'b_no_average': ('correct', _SOLUTION_B.replace(' / dist.get_world_size()', '')),
    'b_frozen_has_grad': ('runs', _SOLUTION_B.replace(' if p.grad is not None]', ']')),
    'c_blocking_hooks': ('overlap', with_lines(allreduce_in_hooks, (_HOOK_SEND, 'dist.all_reduce(p.grad)'))),
    'c_wait_in_hook': ('overlap', with_lines(allreduce_in_hooks,
                                             (_HOOK_SEND, 'dist.all_reduce(p.grad, async_op=True).wait()'))),
    'c_no_wait': ('safe', with_lines(allreduce_in_hooks, ('work.wait()', 'pass'))),  # never waited for
    'c_after_backward': ('overlap', _C_AFTER),
    'c_frozen_hook': ('runs', with_lines(allreduce_in_hooks, (  # frozen parameters get a hook too
        'hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters() if p.requires_grad]',
        'hooks = [p.register_post_accumulate_grad_hook(send) for p in model.parameters()]'))),
    'd_forward_order': ('buckets', _D_FORWARD_ORDER),
    'd_no_wait': ('safe', _SOLUTION_D.replace('        work.wait()\n', '')),
    'd_ignores_bucket_mb': ('buckets', _SOLUTION_D.replace('bucket_mb * 2**20', '0')),
    'd_no_average': ('correct', _SOLUTION_D.replace(' / dist.get_world_size()', '')),
}
# The task each wrong version is for, by the letter its name starts with.
_IDS = dict(a='after', b='flat', c='hooks', d='buckets')
ALLREDUCE_WRONG_TASK = {name: allreduce.TASKS[f'13.3.4-{name[0]}-{_IDS[name[0]]}'] for name in ALLREDUCE_WRONG}
